//===- ProgramUnits.cpp - Validation of unit instructions -----------------===//
//
// Parses and validates the instructions the units execute (DMA, DPE, SIMD,
// RE, MLU), checking that every tile they touch fits its page.
//
//===----------------------------------------------------------------------===//

#include "ProgramParser.h"

#include "kernels/Kernels.h"

using namespace mtia;

void ProgramParser::parseDmaStrided(Inst &inst, const Object &object) {
  inst.type = dtype(object, "t");
  inst.shape = shape(object, "shape");
  inst.rank = static_cast<unsigned>(inst.shape.size());
  inst.ints.push_back(intOperand(field(object, "addr"), "addr"));
  const Array &strideItems = array(object, "strides");
  if (strideItems.size() != inst.rank)
    fail("field 'strides' must have one entry per dimension");
  for (const Value &stride : strideItems)
    inst.ints.push_back(intOperand(stride, "strides"));
  inst.hasBounds = lookup(object, "lo") || lookup(object, "hi");
  if (inst.hasBounds) {
    for (const char *key : {"lo", "hi"}) {
      const Array &bounds = array(object, key);
      if (bounds.size() != inst.rank)
        fail(std::string("field '") + key +
             "' must have one entry per dimension");
      for (const Value &bound : bounds)
        inst.ints.push_back(intOperand(bound, key));
    }
  }
  inst.slots.push_back(optionalSlot(object, "mask"));
  checkFits(inst.slots[0], elementCount(inst.shape), "the mask tile");
}

void ProgramParser::parseUnit(Inst &inst, const Object &object) {
  switch (inst.op) {
  case Op::DmaLoad:
  case Op::DmaStore: {
    bool load = inst.op == Op::DmaLoad;
    parseDmaStrided(inst, object);
    inst.flag = boolean(object, "elementwise", false);
    SlotRef local = slot(object, load ? "dst" : "src");
    checkFits(local, elementCount(inst.shape) * dtypeSize(inst.type),
              "the DMA tile");
    inst.slots.insert(inst.slots.begin(), local);
    if (load)
      inst.scalars.push_back(optionalScalar(object, "other"));
    return;
  }
  case Op::DmaGather:
  case Op::DmaScatter: {
    bool gather = inst.op == Op::DmaGather;
    inst.type = dtype(object, "t");
    inst.type2 = dtype(object, "index_t");
    if (inst.type2 != DType::I32 && inst.type2 != DType::I64)
      fail("field 'index_t' must be i32 or i64");
    inst.count = count(object);
    inst.ints.push_back(intOperand(field(object, "addr"), "addr"));
    inst.slots.push_back(slot(object, gather ? "dst" : "src"));
    inst.slots.push_back(slot(object, "index"));
    inst.slots.push_back(optionalSlot(object, "mask"));
    checkFits(inst.slots[0], inst.count * dtypeSize(inst.type), "the tile");
    checkFits(inst.slots[1], inst.count * dtypeSize(inst.type2),
              "the index tile");
    checkFits(inst.slots[2], inst.count, "the mask tile");
    if (gather)
      inst.scalars.push_back(optionalScalar(object, "other"));
    return;
  }
  case Op::DmaAtomic: {
    inst.fn = named(object, "fn", table(kAtomicNames));
    inst.type = dtype(object, "t");
    if (inst.type == DType::I1 || isFp8(inst.type))
      fail("atomics support 8- to 64-bit integers and f16/bf16/f32/f64");
    inst.count = count(object);
    inst.ints.push_back(intOperand(field(object, "addr"), "addr"));
    inst.slots.push_back(optionalSlot(object, "index"));
    inst.slots.push_back(optionalSlot(object, "mask"));
    inst.slots.push_back(optionalSlot(object, "old"));
    inst.type2 =
        lookup(object, "index_t") ? dtype(object, "index_t") : DType::I32;
    if (inst.type2 != DType::I32 && inst.type2 != DType::I64)
      fail("field 'index_t' must be i32 or i64");
    checkFits(inst.slots[0], inst.count * dtypeSize(inst.type2),
              "the index tile");
    checkFits(inst.slots[1], inst.count, "the mask tile");
    checkFits(inst.slots[2], inst.count * dtypeSize(inst.type), "the result");
    inst.inputs.push_back(simdInput(inst, object, "val"));
    if (inst.fn == static_cast<uint8_t>(AtomicFn::ACas))
      inst.inputs.push_back(simdInput(inst, object, "cmp"));
    for (const SimdInput &input : inst.inputs) {
      if (!input.broadcastShape.empty())
        fail("a broadcast input is for the SIMD engine's elementwise "
             "instructions");
      if (input.isTile)
        checkFits(input.slot, inst.count * dtypeSize(inst.type), "the operand");
    }
    return;
  }
  case Op::DpeMma:
  case Op::SimdMma: {
    inst.type = dtype(object, "t");
    if (inst.op == Op::SimdMma) {
      inst.type2 = inst.type;
      if (inst.type != DType::F64)
        fail("simd.mma supports f64 only");
    } else {
      inst.type2 = dtype(object, "acc_t");
    }
    bool intMma = inst.type == DType::I8 && inst.type2 == DType::I32;
    bool floatMma = (inst.type == DType::F16 || inst.type == DType::BF16 ||
                     inst.type == DType::F32) &&
                    inst.type2 == DType::F32;
    if (inst.op == Op::DpeMma && !intMma && !floatMma)
      fail("dpe.mma supports f16/bf16/f32 -> f32 and i8 -> i32");
    // The operands' pages bound the dimensions; the range only keeps their
    // products (checked against the pages below) far from overflowing.
    constexpr int64_t kMaxDimension = int64_t(1) << 24;
    int64_t m = integer(object, "m", 1, kMaxDimension);
    int64_t n = integer(object, "n", 1, kMaxDimension);
    int64_t k = integer(object, "k", 1, kMaxDimension);
    inst.shape = {m, n, k};
    inst.slots.push_back(slot(object, "a"));
    inst.slots.push_back(slot(object, "b"));
    inst.slots.push_back(slot(object, "c"));
    inst.slots.push_back(optionalSlot(object, "acc"));
    unsigned in = dtypeSize(inst.type), out = dtypeSize(inst.type2);
    checkFits(inst.slots[0], m * k * in, "operand A");
    checkFits(inst.slots[1], k * n * in, "operand B");
    checkFits(inst.slots[2], m * n * out, "result C");
    checkFits(inst.slots[3], m * n * out, "accumulator");
    return;
  }
  case Op::SimdBinary:
  case Op::SimdUnary:
  case Op::SimdCmp:
  case Op::SimdSelect:
  case Op::SimdFma: {
    inst.type = dtype(object, "t");
    inst.count = count(object);
    if (inst.op == Op::SimdBinary)
      inst.fn = named(object, "fn", table(kBinaryNames));
    else if (inst.op == Op::SimdUnary)
      inst.fn = named(object, "fn", table(kUnaryNames));
    else if (inst.op == Op::SimdCmp)
      inst.fn = named(object, "pred", table(kPredNames));
    if (inst.op == Op::SimdCmp &&
        isFloat(inst.type) != (inst.fn >= static_cast<uint8_t>(Pred::Oeq)))
      fail("the predicate does not match the operand type");
    if (inst.op == Op::SimdFma && !isFloat(inst.type))
      fail("simd.fma needs a float type");
    if (inst.op == Op::SimdBinary &&
        !binaryFnSupports(static_cast<BinaryFn>(inst.fn), inst.type))
      fail("the function does not apply to the type");
    if (inst.op == Op::SimdUnary &&
        !unaryFnSupports(static_cast<UnaryFn>(inst.fn), inst.type))
      fail("the function does not apply to the type");
    inst.slots.push_back(slot(object, "d"));
    bool boolResult = inst.op == Op::SimdCmp;
    checkFits(inst.slots[0],
              inst.count * (boolResult ? 1 : dtypeSize(inst.type)),
              "the result");
    if (inst.op == Op::SimdSelect)
      inst.inputs.push_back(simdInput(inst, object, "c"));
    inst.inputs.push_back(simdInput(inst, object, "a"));
    if (inst.op != Op::SimdUnary)
      inst.inputs.push_back(simdInput(inst, object, "b"));
    if (inst.op == Op::SimdFma)
      inst.inputs.push_back(simdInput(inst, object, "c"));
    for (size_t i = 0; i < inst.inputs.size(); ++i) {
      bool isCondition = inst.op == Op::SimdSelect && i == 0;
      const SimdInput &input = inst.inputs[i];
      if (!input.broadcastShape.empty() &&
          elementCount(input.broadcastShape) != inst.count)
        fail("a broadcast input's shape must have the instruction's n "
             "elements");
      int64_t elements = inputElements(input, inst.count);
      if (inst.inputs[i].isTile)
        checkFits(inst.inputs[i].slot,
                  elements * (isCondition ? 1 : dtypeSize(inst.type)),
                  "an operand");
    }
    return;
  }
  case Op::SimdCast:
    inst.type = dtype(object, "from");
    inst.type2 = dtype(object, "to");
    inst.isSigned = boolean(object, "signed", true);
    inst.flag = boolean(object, "bitcast", false);
    if (inst.flag && dtypeSize(inst.type) != dtypeSize(inst.type2))
      fail("a bitcast needs types of equal size");
    inst.count = count(object);
    inst.slots.push_back(slot(object, "d"));
    inst.slots.push_back(slot(object, "a"));
    checkFits(inst.slots[0], inst.count * dtypeSize(inst.type2), "the result");
    checkFits(inst.slots[1], inst.count * dtypeSize(inst.type), "the operand");
    return;
  case Op::SimdFill:
  case Op::SimdIota:
    inst.type = dtype(object, "t");
    inst.count = count(object);
    inst.slots.push_back(slot(object, "d"));
    checkFits(inst.slots[0], inst.count * dtypeSize(inst.type), "the result");
    inst.scalars.push_back(scalarOperand(
        field(object, inst.op == Op::SimdFill ? "v" : "start"), "v"));
    return;
  case Op::SimdPrint:
    inst.type = dtype(object, "t");
    inst.shape = shape(object, "shape");
    inst.text = optionalString(object, "text");
    inst.flag = boolean(object, "hex", false);
    inst.isSigned = boolean(object, "signed", true);
    inst.slots.push_back(slot(object, "a"));
    checkFits(inst.slots[0], elementCount(inst.shape) * dtypeSize(inst.type),
              "the printed tile");
    return;
  case Op::SimdAssert:
    inst.count = count(object);
    inst.text = string(object, "text");
    inst.slots.push_back(slot(object, "c"));
    checkFits(inst.slots[0], inst.count, "the condition tile");
    return;
  case Op::ReReduce:
  case Op::ReScan: {
    inst.fn = named(object, "fn", table(kReduceNames));
    inst.type = dtype(object, "t");
    inst.shape = shape(object, "shape");
    inst.axis = static_cast<int32_t>(
        integer(object, "axis", 0, int64_t(inst.shape.size()) - 1));
    inst.flag = boolean(object, "reverse", false);
    bool arg = inst.fn == static_cast<uint8_t>(ReduceFn::ArgMax) ||
               inst.fn == static_cast<uint8_t>(ReduceFn::ArgMin);
    if (arg && inst.op == Op::ReScan)
      fail("argmax/argmin are reductions, not scans");
    if (!reduceFnSupports(static_cast<ReduceFn>(inst.fn), inst.type))
      fail("the combiner does not apply to the type");
    int64_t elements = elementCount(inst.shape);
    int64_t outElements =
        inst.op == Op::ReScan ? elements : elements / inst.shape[inst.axis];
    inst.slots.push_back(slot(object, "src"));
    inst.slots.push_back(arg ? optionalSlot(object, "d") : slot(object, "d"));
    inst.slots.push_back(arg ? slot(object, "idx") : SlotRef());
    checkFits(inst.slots[0], elements * dtypeSize(inst.type), "the source");
    checkFits(inst.slots[1], outElements * dtypeSize(inst.type), "the result");
    checkFits(inst.slots[2], outElements * 4, "the index result");
    return;
  }
  case Op::ReHistogram: {
    inst.type = dtype(object, "t");
    if (isFloat(inst.type) || inst.type == DType::I1)
      fail("re.histogram counts i8, i16, i32 or i64 values");
    inst.isSigned = boolean(object, "signed", true);
    inst.count = count(object);
    inst.bins = integer(object, "bins", 1, int64_t(1) << 24);
    inst.slots.push_back(slot(object, "src"));
    inst.slots.push_back(slot(object, "d"));
    inst.slots.push_back(optionalSlot(object, "mask"));
    checkFits(inst.slots[0], inst.count * dtypeSize(inst.type), "the source");
    checkFits(inst.slots[1], inst.bins * 4, "the counts");
    checkFits(inst.slots[2], inst.count, "the mask tile");
    return;
  }
  case Op::ReXReduce: {
    inst.fn = named(object, "fn", table(kReduceNames));
    inst.type = dtype(object, "t");
    if (!reduceFnSupports(static_cast<ReduceFn>(inst.fn), inst.type))
      fail("the combiner does not apply to the type");
    inst.count = count(object);
    inst.groupAxes = groupAxes(object);
    inst.root = static_cast<int32_t>(
        optionalInteger(object, "root", -1, int64_t(1) << 20, -1));
    bool arg = inst.fn == static_cast<uint8_t>(ReduceFn::ArgMax) ||
               inst.fn == static_cast<uint8_t>(ReduceFn::ArgMin);
    inst.slots.push_back(slot(object, "src"));
    inst.slots.push_back(arg ? optionalSlot(object, "d") : slot(object, "d"));
    inst.slots.push_back(arg ? slot(object, "src_idx") : SlotRef());
    inst.slots.push_back(arg ? slot(object, "idx") : SlotRef());
    const int64_t bytes = inst.count * dtypeSize(inst.type);
    checkFits(inst.slots[0], bytes, "the source");
    checkFits(inst.slots[1], bytes, "the result");
    checkFits(inst.slots[2], inst.count * 4, "the source indices");
    checkFits(inst.slots[3], inst.count * 4, "the index result");
    return;
  }
  case Op::ReXBroadcast:
    parseExchange(inst, object);
    // The group size is known at launch, which checks the upper bound.
    inst.root =
        static_cast<int32_t>(integer(object, "root", 0, int64_t(1) << 20));
    return;
  case Op::ReXShift:
    parseExchange(inst, object);
    if (inst.groupAxes & (inst.groupAxes - 1))
      fail("field 'axes' of re.xshift must list exactly one grid axis");
    inst.direction = static_cast<int32_t>(integer(object, "dir", -1, 1));
    if (!inst.direction)
      fail("field 'dir' must be 1 or -1");
    inst.scalars.push_back(optionalScalar(object, "other"));
    return;
  case Op::MluGather: {
    inst.count = integer(object, "esize", 1, 8);
    if (inst.count & (inst.count - 1))
      fail("field 'esize' must be 1, 2, 4 or 8");
    inst.type2 = dtype(object, "index_t");
    if (inst.type2 != DType::I32 && inst.type2 != DType::I64)
      fail("field 'index_t' must be i32 or i64");
    inst.shape = shape(object, "shape");
    inst.srcShape = shape(object, "src_shape");
    if (inst.srcShape.size() != inst.shape.size())
      fail("fields 'shape' and 'src_shape' must have the same rank");
    inst.axis = static_cast<int32_t>(
        integer(object, "axis", 0, int64_t(inst.shape.size()) - 1));
    for (size_t d = 0; d < inst.shape.size(); ++d)
      if (d != size_t(inst.axis) && inst.shape[d] != inst.srcShape[d])
        fail("fields 'shape' and 'src_shape' must agree except along 'axis'");
    inst.slots.push_back(slot(object, "d"));
    inst.slots.push_back(slot(object, "src"));
    inst.slots.push_back(slot(object, "index"));
    const int64_t elements = elementCount(inst.shape);
    checkFits(inst.slots[0], elements * inst.count, "the result");
    checkFits(inst.slots[1], elementCount(inst.srcShape) * inst.count,
              "the source");
    checkFits(inst.slots[2], elements * dtypeSize(inst.type2),
              "the index tile");
    return;
  }
  case Op::MluCopy: {
    inst.count = integer(object, "esize", 1, 8);
    if (inst.count & (inst.count - 1))
      fail("field 'esize' must be 1, 2, 4 or 8");
    inst.shape = shape(object, "shape");
    inst.srcStrides = strides(object, "src_strides", inst.shape.size());
    inst.dstStrides = strides(object, "dst_strides", inst.shape.size());
    inst.srcOffset =
        optionalInteger(object, "src_offset", 0, int64_t(1) << 40, 0);
    inst.dstOffset =
        optionalInteger(object, "dst_offset", 0, int64_t(1) << 40, 0);
    inst.slots.push_back(slot(object, "d"));
    inst.slots.push_back(slot(object, "src"));
    // Check the extreme element offsets of both sides against the pages.
    for (int side = 0; side < 2; ++side) {
      const std::vector<int64_t> &strideList =
          side == 0 ? inst.dstStrides : inst.srcStrides;
      int64_t lo = side == 0 ? inst.dstOffset : inst.srcOffset;
      int64_t hi = lo;
      for (size_t d = 0; d < inst.shape.size(); ++d) {
        int64_t extent = strideList[d] * (inst.shape[d] - 1);
        (extent < 0 ? lo : hi) += extent;
      }
      if (lo < 0)
        fail("mlu.copy reaches before the start of its tile");
      checkFits(inst.slots[side], (hi + 1) * inst.count,
                side == 0 ? "the copy destination" : "the copy source");
    }
    return;
  }
  default:
    fail("not a unit instruction");
  }
}

void ProgramParser::parseExchange(Inst &inst, const Object &object) {
  inst.type = dtype(object, "t");
  inst.count = count(object);
  inst.groupAxes = groupAxes(object);
  inst.slots.push_back(slot(object, "src"));
  inst.slots.push_back(slot(object, "d"));
  const int64_t bytes = inst.count * dtypeSize(inst.type);
  checkFits(inst.slots[0], bytes, "the source");
  checkFits(inst.slots[1], bytes, "the result");
}
