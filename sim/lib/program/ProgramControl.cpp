//===- ProgramControl.cpp - Validation of control instructions ------------===//
//
// Parses and validates the instructions the control core executes: scalar
// arithmetic, branches, scalar memory accesses and atomics, prints, asserts,
// and the CB operations of every agent.
//
//===----------------------------------------------------------------------===//

#include "ProgramParser.h"

#include "kernels/Kernels.h"

using namespace mtia;

void ProgramParser::parseCBOp(Inst &inst, const Object &object) {
  std::string unit = string(object, "unit");
  bool found = false;
  for (unsigned i = 0; i < kNumUnits; ++i) {
    if (unit == kUnitNames[i]) {
      inst.unit = static_cast<Unit>(i);
      found = true;
    }
  }
  if (!found)
    fail("field 'unit' must name a unit (dma.in, dma.out, dpe, simd, re, "
         "mlu) or the control core (ctl), not '" +
         unit + "'");
  // The control core reads local memory (ldl) but never writes it, so it
  // can only be the consumer of a CB.
  if (inst.unit == Unit::Ctl &&
      (inst.op == Op::CbReserve || inst.op == Op::CbPush))
    fail(std::string(opName(inst.op)) +
         " cannot name the control core: it does not write local memory, "
         "so it is never a CB's producer");
  inst.cb = static_cast<int32_t>(
      integer(object, "cb", 0, int64_t(program.cbs.size()) - 1));
  inst.count = integer(object, "n", 1, int64_t(1) << 20);
}

void ProgramParser::parseCtl(Inst &inst, const Object &object) {
  switch (inst.op) {
  case Op::Li:
    inst.dst = intReg(object, "d");
    inst.intImm = integer(object, "imm", INT64_MIN, INT64_MAX);
    return;
  case Op::Lf:
    inst.dst = floatReg(object, "d");
    inst.floatImm = floatNumber(field(object, "imm"), "imm");
    return;
  case Op::Mov:
    inst.dst = intReg(object, "d");
    inst.srcA = intReg(object, "a");
    return;
  case Op::FMov:
    inst.dst = floatReg(object, "d");
    inst.srcA = floatReg(object, "a");
    return;
  case Op::IOp:
  case Op::ICmp:
    inst.fn = inst.op == Op::IOp ? named(object, "fn", table(kBinaryNames))
                                 : named(object, "pred", table(kPredNames));
    if (inst.op == Op::ICmp && inst.fn > static_cast<uint8_t>(Pred::Uge))
      fail("field 'pred' must be an integer predicate");
    if (inst.op == Op::IOp &&
        !binaryFnSupports(static_cast<BinaryFn>(inst.fn), DType::I64))
      fail("the function does not apply to integers");
    inst.width = static_cast<unsigned>(integer(object, "w", 32, 64));
    if (inst.width != 32 && inst.width != 64)
      fail("field 'w' must be 32 or 64");
    inst.dst = intReg(object, "d");
    inst.srcA = intReg(object, "a");
    inst.operandB = intOperand(field(object, "b"), "b");
    return;
  case Op::FFma:
    inst.type = scalarFloatType(object);
    inst.dst = floatReg(object, "d");
    inst.srcA = floatReg(object, "a");
    inst.srcB = floatReg(object, "b");
    inst.srcC = floatReg(object, "c");
    return;
  case Op::FOp:
  case Op::FCmp:
  case Op::FUn:
    if (inst.op == Op::FOp)
      inst.fn = named(object, "fn", table(kBinaryNames));
    else if (inst.op == Op::FUn)
      inst.fn = named(object, "fn", table(kUnaryNames));
    else
      inst.fn = named(object, "pred", table(kPredNames));
    if (inst.op == Op::FCmp && inst.fn < static_cast<uint8_t>(Pred::Oeq))
      fail("field 'pred' must be a float predicate");
    inst.type = scalarFloatType(object);
    if (inst.op == Op::FOp &&
        !binaryFnSupports(static_cast<BinaryFn>(inst.fn), inst.type))
      fail("the function does not apply to floats");
    if (inst.op == Op::FUn &&
        !unaryFnSupports(static_cast<UnaryFn>(inst.fn), inst.type))
      fail("the function does not apply to floats");
    inst.dst =
        inst.op == Op::FCmp ? intReg(object, "d") : floatReg(object, "d");
    inst.srcA = floatReg(object, "a");
    if (inst.op != Op::FUn)
      inst.srcB = floatReg(object, "b");
    return;
  case Op::IToF:
    inst.dst = floatReg(object, "d");
    inst.srcA = intReg(object, "a");
    inst.type = scalarFloatType(object);
    inst.isSigned = boolean(object, "signed", true);
    return;
  case Op::FToI:
    inst.dst = intReg(object, "d");
    inst.srcA = floatReg(object, "a");
    inst.width = static_cast<unsigned>(integer(object, "w", 32, 64));
    if (inst.width != 32 && inst.width != 64)
      fail("field 'w' must be 32 or 64");
    inst.isSigned = boolean(object, "signed", true);
    return;
  case Op::FMvX:
    inst.dst = intReg(object, "d");
    inst.srcA = floatReg(object, "a");
    inst.type = scalarFloatType(object);
    return;
  case Op::FMvF:
    inst.dst = floatReg(object, "d");
    inst.srcA = intReg(object, "a");
    inst.type = scalarFloatType(object);
    return;
  case Op::ISel:
  case Op::FSel:
    inst.srcC = intReg(object, "c");
    if (inst.op == Op::ISel) {
      inst.dst = intReg(object, "d");
      inst.srcA = intReg(object, "a");
      inst.srcB = intReg(object, "b");
    } else {
      inst.dst = floatReg(object, "d");
      inst.srcA = floatReg(object, "a");
      inst.srcB = floatReg(object, "b");
    }
    return;
  case Op::Pid:
  case Op::NProg:
    inst.dst = intReg(object, "d");
    inst.axis = static_cast<int32_t>(integer(object, "axis", 0, 2));
    return;
  case Op::Scratch:
    if (!program.scratchBytes)
      fail("scratch needs the program's scratch_bytes");
    inst.dst = intReg(object, "d");
    return;
  case Op::PE:
    inst.dst = intReg(object, "d");
    inst.fn = named(object, "q", table(kPEQueryNames));
    return;
  case Op::Param:
  case Op::FParam: {
    inst.intImm =
        integer(object, "index", 0, int64_t(program.params.size()) - 1);
    ParamKind kind = program.params[inst.intImm].kind;
    if ((inst.op == Op::FParam) != (kind == ParamKind::Float))
      fail(inst.op == Op::FParam
               ? "fparam must read a float parameter"
               : "param must read a pointer or int parameter");
    inst.dst =
        inst.op == Op::Param ? intReg(object, "d") : floatReg(object, "d");
    return;
  }
  case Op::Ld:
  case Op::St:
    inst.type = dtype(object, "t");
    inst.srcA = intReg(object, "addr");
    if (inst.op == Op::Ld)
      inst.dst =
          isFloat(inst.type) ? floatReg(object, "d") : intReg(object, "d");
    else
      inst.srcB =
          isFloat(inst.type) ? floatReg(object, "v") : intReg(object, "v");
    return;
  case Op::Ldl: {
    inst.type = dtype(object, "t");
    inst.dst = isFloat(inst.type) ? floatReg(object, "d") : intReg(object, "d");
    inst.slots.push_back(slot(object, "src"));
    if (inst.slots[0].side != SlotSide::Front)
      fail("field 'src' must be a front slot: the control core reads only "
           "pages it waited for");
    IntOperand index;
    if (const Value *value = lookup(object, "i"))
      index = intOperand(*value, "i");
    // An immediate index is checked against the page here, a register when
    // the instruction executes.
    const int64_t pageBytes = program.cbs[inst.slots[0].cb].pageBytes;
    if (!index.isReg) {
      if (index.value < 0 || index.value >= pageBytes)
        fail("field 'i' = " + std::to_string(index.value) +
             " is not an element index of the page");
      checkFits(inst.slots[0], (index.value + 1) * dtypeSize(inst.type),
                "the element");
    }
    inst.ints.push_back(index);
    return;
  }
  case Op::Amo: {
    inst.fn = named(object, "fn", table(kAtomicNames));
    inst.type = dtype(object, "t");
    if (inst.type == DType::I1 || isFp8(inst.type))
      fail("atomics support 8- to 64-bit integers and f16/bf16/f32/f64");
    inst.srcA = intReg(object, "addr");
    bool floatType = isFloat(inst.type);
    inst.dst = floatType ? floatReg(object, "d") : intReg(object, "d");
    inst.srcB = floatType ? floatReg(object, "v") : intReg(object, "v");
    if (inst.fn == static_cast<uint8_t>(AtomicFn::ACas))
      inst.srcC = floatType ? floatReg(object, "cmp") : intReg(object, "cmp");
    if (lookup(object, "mask"))
      inst.maskReg = intReg(object, "mask");
    static constexpr const char *kSemantics[] = {"relaxed", "acquire",
                                                 "release", "acq_rel"};
    uint8_t sem = named(object, "sem", table(kSemantics));
    inst.release = sem >= 2;
    return;
  }
  case Op::Jmp:
  case Op::Bz:
  case Op::Bnz:
    inst.target = static_cast<int32_t>(
        integer(object, "target", 0, int64_t(program.code.size())));
    if (inst.op != Op::Jmp)
      inst.srcC = intReg(object, "c");
    return;
  case Op::Fence:
  case Op::End:
    return;
  case Op::Barrier:
    inst.groupAxes = groupAxes(object);
    return;
  case Op::Print: {
    inst.text = string(object, "text");
    const Array &args = array(object, "args");
    if (args.size() > kMaxCommandScalars)
      fail("print takes at most " + std::to_string(kMaxCommandScalars) +
           " arguments");
    for (const Value &arg : args)
      inst.scalars.push_back(scalarOperand(arg, "args"));
    return;
  }
  case Op::Assert:
    inst.srcC = intReg(object, "c");
    inst.text = string(object, "text");
    return;
  case Op::CbReserve:
  case Op::CbPush:
  case Op::CbWait:
  case Op::CbPop:
    parseCBOp(inst, object);
    return;
  default:
    fail("not a control instruction");
  }
}
