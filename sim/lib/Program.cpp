//===- Program.cpp - Parsing and validation of program bytes --------------===//

#include "mtia/Program.h"

#include "Kernels.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mtia;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {

struct NameTable {
  const char *const *names;
  unsigned size;
};

#define MTIA_FN_NAME(id, name) name,
constexpr const char *kBinaryNames[] = {MTIA_BINARY_FNS(MTIA_FN_NAME)};
constexpr const char *kUnaryNames[] = {MTIA_UNARY_FNS(MTIA_FN_NAME)};
constexpr const char *kPredNames[] = {MTIA_PREDICATES(MTIA_FN_NAME)};
constexpr const char *kReduceNames[] = {MTIA_REDUCE_FNS(MTIA_FN_NAME)};
constexpr const char *kAtomicNames[] = {MTIA_ATOMIC_FNS(MTIA_FN_NAME)};
#undef MTIA_FN_NAME

#define MTIA_OP_NAME(id, name, unit) name,
constexpr const char *kOpNames[] = {MTIA_OPS(MTIA_OP_NAME)};
#undef MTIA_OP_NAME
#define MTIA_OP_UNIT(id, name, unit) Unit::unit,
constexpr Unit kOpUnits[] = {MTIA_OPS(MTIA_OP_UNIT)};
#undef MTIA_OP_UNIT

constexpr const char *kUnitNames[] = {"ctl", "dma.in", "dma.out", "dpe",
                                      "simd", "re",     "mlu"};

template <size_t N> NameTable table(const char *const (&names)[N]) {
  return {names, static_cast<unsigned>(N)};
}

/// Thrown inside the parser only; parseProgram converts it to a string.
struct ParseError {
  std::string message;
};

[[noreturn]] void fail(const std::string &message) {
  throw ParseError{message};
}

class ProgramParser {
public:
  explicit ProgramParser(Program &program) : program(program) {}

  void parse(const Object &root);

private:
  const Value &field(const Object &object, const char *key) {
    const Value *value = object.get(key);
    if (!value)
      fail(std::string("missing field '") + key + "'");
    return *value;
  }

  int64_t integer(const Value &value, const char *key, int64_t lo,
                  int64_t hi) {
    std::optional<int64_t> number = value.getAsInteger();
    if (!number)
      fail(std::string("field '") + key + "' must be an integer");
    if (*number < lo || *number > hi)
      fail(std::string("field '") + key + "' = " + std::to_string(*number) +
           " is out of range [" + std::to_string(lo) + ", " +
           std::to_string(hi) + "]");
    return *number;
  }

  int64_t integer(const Object &object, const char *key, int64_t lo,
                  int64_t hi) {
    return integer(field(object, key), key, lo, hi);
  }

  int64_t optionalInteger(const Object &object, const char *key, int64_t lo,
                          int64_t hi, int64_t fallback) {
    if (!object.get(key))
      return fallback;
    return integer(object, key, lo, hi);
  }

  bool boolean(const Object &object, const char *key, bool fallback) {
    const Value *value = object.get(key);
    if (!value)
      return fallback;
    std::optional<bool> flag = value->getAsBoolean();
    if (!flag)
      fail(std::string("field '") + key + "' must be a boolean");
    return *flag;
  }

  std::string string(const Object &object, const char *key) {
    std::optional<llvm::StringRef> text = field(object, key).getAsString();
    if (!text)
      fail(std::string("field '") + key + "' must be a string");
    return text->str();
  }

  std::string optionalString(const Object &object, const char *key) {
    if (!object.get(key))
      return "";
    return string(object, key);
  }

  const Array &array(const Object &object, const char *key) {
    const Array *items = field(object, key).getAsArray();
    if (!items)
      fail(std::string("field '") + key + "' must be an array");
    return *items;
  }

  uint8_t named(const Object &object, const char *key, NameTable names) {
    std::string name = string(object, key);
    for (unsigned i = 0; i < names.size; ++i)
      if (name == names.names[i])
        return static_cast<uint8_t>(i);
    fail(std::string("field '") + key + "' has unknown value '" + name + "'");
  }

  DType dtype(const Object &object, const char *key) {
    std::string name = string(object, key);
    DType type;
    if (!parseDType(name, type))
      fail(std::string("field '") + key + "' has unknown dtype '" + name +
           "'");
    return type;
  }

  /// The float type `t` (default f32) of a control-core float operation or
  /// conversion: operands and results are rounded to it.
  DType scalarFloatType(const Object &object) {
    DType type = object.get("t") ? dtype(object, "t") : DType::F32;
    if (type != DType::F16 && type != DType::BF16 && type != DType::F32 &&
        type != DType::F64)
      fail("field 't' must be f16, bf16, f32 or f64");
    return type;
  }

  int32_t intReg(const Object &object, const char *key) {
    return static_cast<int32_t>(
        integer(object, key, 0, int64_t(program.numIntRegs) - 1));
  }

  int32_t floatReg(const Object &object, const char *key) {
    return static_cast<int32_t>(
        integer(object, key, 0, int64_t(program.numFloatRegs) - 1));
  }

  IntOperand intOperand(const Value &value, const char *key) {
    IntOperand operand;
    if (const Object *reg = value.getAsObject()) {
      operand.isReg = true;
      operand.value = integer(*reg, "r", 0, int64_t(program.numIntRegs) - 1);
      return operand;
    }
    operand.value = integer(value, key, INT64_MIN, INT64_MAX);
    return operand;
  }

  ScalarOperand scalarOperand(const Value &value, const char *key) {
    ScalarOperand operand;
    if (const Object *reg = value.getAsObject()) {
      if (reg->get("r")) {
        operand.kind = ScalarOperand::IReg;
        operand.reg = static_cast<int32_t>(
            integer(*reg, "r", 0, int64_t(program.numIntRegs) - 1));
      } else {
        operand.kind = ScalarOperand::FReg;
        operand.reg = static_cast<int32_t>(
            integer(*reg, "f", 0, int64_t(program.numFloatRegs) - 1));
      }
      return operand;
    }
    // JSON reads -0.0 as the integer 0 too; it must stay a negative zero.
    std::optional<double> asDouble = value.getAsNumber();
    bool negativeZero = asDouble && *asDouble == 0 && std::signbit(*asDouble);
    std::optional<int64_t> number = value.getAsInteger();
    if (number && !negativeZero) {
      operand.intImm = *number;
      operand.floatImm = static_cast<double>(*number);
      return operand;
    }
    operand.floatImm = floatNumber(value, key);
    operand.intImm = std::isfinite(operand.floatImm)
                         ? static_cast<int64_t>(operand.floatImm)
                         : 0;
    return operand;
  }

  /// A float immediate: a JSON number or one of "inf", "-inf", "nan" (JSON
  /// has no literals for them).
  double floatNumber(const Value &value, const char *key) {
    if (std::optional<llvm::StringRef> text = value.getAsString()) {
      if (*text == "inf")
        return std::numeric_limits<double>::infinity();
      if (*text == "-inf")
        return -std::numeric_limits<double>::infinity();
      if (*text == "nan")
        return std::numeric_limits<double>::quiet_NaN();
    }
    std::optional<double> number = value.getAsNumber();
    if (!number)
      fail(std::string("field '") + key +
           "' must be a number, \"inf\", \"-inf\", \"nan\" or a register "
           "reference");
    return *number;
  }

  SlotRef slot(const Value &value, const char *key) {
    const Object *object = value.getAsObject();
    if (!object)
      fail(std::string("field '") + key + "' must be a local-memory slot");
    SlotRef ref;
    ref.cb = static_cast<int32_t>(
        integer(*object, "cb", 0, int64_t(program.cbs.size()) - 1));
    std::string side = string(*object, "side");
    if (side != "front" && side != "back")
      fail(std::string("field '") + key + ".side' must be 'front' or 'back'");
    ref.back = side == "back";
    const CBDesc &cb = program.cbs[ref.cb];
    ref.page = static_cast<int32_t>(
        optionalInteger(*object, "page", 0, cb.pages - 1, 0));
    ref.offset = optionalInteger(*object, "offset", 0, cb.pageBytes - 1, 0);
    if (ref.offset % 8 != 0)
      fail(std::string("field '") + key + ".offset' must be a multiple of 8");
    return ref;
  }

  SlotRef slot(const Object &object, const char *key) {
    return slot(field(object, key), key);
  }

  SlotRef optionalSlot(const Object &object, const char *key) {
    if (!object.get(key))
      return SlotRef();
    return slot(object, key);
  }

  /// Checks that `bytes` starting at the slot fit in one page of its CB.
  void checkFits(const SlotRef &ref, int64_t bytes, const char *what) {
    if (!ref.present())
      return;
    const CBDesc &cb = program.cbs[ref.cb];
    if (ref.offset + bytes > cb.pageBytes)
      fail(std::string(what) + " needs " + std::to_string(bytes) +
           " bytes at offset " + std::to_string(ref.offset) +
           " but a page of CB '" + cb.name + "' holds " +
           std::to_string(cb.pageBytes));
  }

  SimdInput simdInput(Inst &inst, const Object &object, const char *key) {
    const Value &value = field(object, key);
    SimdInput input;
    const Object *asObject = value.getAsObject();
    if (asObject && asObject->get("cb")) {
      input.isTile = true;
      input.slot = slot(value, key);
      input.splat = boolean(*asObject, "splat", false);
      return input;
    }
    if (inst.scalars.size() >= kMaxCommandScalars)
      fail("too many scalar operands");
    input.scalar = static_cast<int32_t>(inst.scalars.size());
    inst.scalars.push_back(scalarOperand(value, key));
    return input;
  }

  std::vector<int64_t> shape(const Object &object, const char *key) {
    const Array &dims = array(object, key);
    if (dims.empty() || dims.size() > kMaxTileRank)
      fail(std::string("field '") + key + "' must have 1 to " +
           std::to_string(kMaxTileRank) + " dimensions");
    std::vector<int64_t> result;
    int64_t elements = 1;
    for (const Value &dim : dims) {
      result.push_back(integer(dim, key, 1, int64_t(1) << 31));
      elements *= result.back();
      if (elements > (int64_t(1) << 31))
        fail(std::string("field '") + key + "' has too many elements");
    }
    return result;
  }

  std::vector<int64_t> strides(const Object &object, const char *key,
                               size_t rank) {
    const Array &items = array(object, key);
    if (items.size() != rank)
      fail(std::string("field '") + key + "' must have one entry per dimension");
    std::vector<int64_t> result;
    for (const Value &item : items)
      result.push_back(integer(item, key, -(int64_t(1) << 40), int64_t(1) << 40));
    return result;
  }

  int64_t elementCount(const std::vector<int64_t> &dims) {
    int64_t count = 1;
    for (int64_t dim : dims)
      count *= dim;
    return count;
  }

  int64_t count(const Object &object) {
    return integer(object, "n", 1, int64_t(1) << 31);
  }

  void parseCBOp(Inst &inst, const Object &object);
  void parseDmaStrided(Inst &inst, const Object &object);
  void parseInst(Inst &inst, const Object &object);
  void parseCtl(Inst &inst, const Object &object);
  void parseUnit(Inst &inst, const Object &object);

  Program &program;
};

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
  inst.hasBounds = object.get("lo") || object.get("hi");
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
    inst.dst = inst.op == Op::FCmp ? intReg(object, "d")
                                   : floatReg(object, "d");
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
  case Op::Param:
  case Op::FParam: {
    inst.intImm =
        integer(object, "index", 0, int64_t(program.params.size()) - 1);
    ParamKind kind = program.params[inst.intImm].kind;
    if ((inst.op == Op::FParam) != (kind == ParamKind::Float))
      fail(inst.op == Op::FParam ? "fparam must read a float parameter"
                                 : "param must read a pointer or int parameter");
    inst.dst = inst.op == Op::Param ? intReg(object, "d")
                                    : floatReg(object, "d");
    return;
  }
  case Op::Ld:
  case Op::St:
    inst.type = dtype(object, "t");
    inst.srcA = intReg(object, "addr");
    if (inst.op == Op::Ld)
      inst.dst = isFloat(inst.type) ? floatReg(object, "d")
                                    : intReg(object, "d");
    else
      inst.srcB = isFloat(inst.type) ? floatReg(object, "v")
                                     : intReg(object, "v");
    return;
  case Op::Ldl: {
    inst.type = dtype(object, "t");
    inst.dst =
        isFloat(inst.type) ? floatReg(object, "d") : intReg(object, "d");
    inst.slots.push_back(slot(object, "src"));
    if (inst.slots[0].back)
      fail("field 'src' must be a front slot: the control core reads only "
           "pages it waited for");
    IntOperand index;
    if (const Value *value = object.get("i"))
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
    if (inst.type == DType::I1 || inst.type == DType::F8E4M3 ||
        inst.type == DType::F8E5M2)
      fail("atomics support 8- to 64-bit integers and f16/bf16/f32/f64");
    inst.srcA = intReg(object, "addr");
    bool floatType = isFloat(inst.type);
    inst.dst = floatType ? floatReg(object, "d") : intReg(object, "d");
    inst.srcB = floatType ? floatReg(object, "v") : intReg(object, "v");
    if (inst.fn == static_cast<uint8_t>(AtomicFn::ACas))
      inst.srcC = floatType ? floatReg(object, "cmp") : intReg(object, "cmp");
    if (object.get("mask"))
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
    inst.target = static_cast<int32_t>(integer(
        object, "target", 0, int64_t(program.code.size())));
    if (inst.op != Op::Jmp)
      inst.srcC = intReg(object, "c");
    return;
  case Op::Fence:
  case Op::End:
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
      inst.scalars.push_back(object.get("other")
                                 ? scalarOperand(field(object, "other"), "other")
                                 : ScalarOperand());
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
      inst.scalars.push_back(object.get("other")
                                 ? scalarOperand(field(object, "other"), "other")
                                 : ScalarOperand());
    return;
  }
  case Op::DmaAtomic: {
    inst.fn = named(object, "fn", table(kAtomicNames));
    inst.type = dtype(object, "t");
    if (inst.type == DType::I1 || inst.type == DType::F8E4M3 ||
        inst.type == DType::F8E5M2)
      fail("atomics support 8- to 64-bit integers and f16/bf16/f32/f64");
    inst.count = count(object);
    inst.ints.push_back(intOperand(field(object, "addr"), "addr"));
    inst.slots.push_back(optionalSlot(object, "index"));
    inst.slots.push_back(optionalSlot(object, "mask"));
    inst.slots.push_back(optionalSlot(object, "old"));
    inst.type2 = object.get("index_t") ? dtype(object, "index_t") : DType::I32;
    if (inst.type2 != DType::I32 && inst.type2 != DType::I64)
      fail("field 'index_t' must be i32 or i64");
    checkFits(inst.slots[0], inst.count * dtypeSize(inst.type2),
              "the index tile");
    checkFits(inst.slots[1], inst.count, "the mask tile");
    checkFits(inst.slots[2], inst.count * dtypeSize(inst.type), "the result");
    inst.inputs.push_back(simdInput(inst, object, "val"));
    if (inst.fn == static_cast<uint8_t>(AtomicFn::ACas))
      inst.inputs.push_back(simdInput(inst, object, "cmp"));
    for (const SimdInput &input : inst.inputs)
      if (input.isTile)
        checkFits(input.slot, inst.count * dtypeSize(inst.type), "the operand");
    return;
  }
  case Op::DpeMma: {
    inst.type = dtype(object, "t");
    inst.type2 = dtype(object, "acc_t");
    bool intMma = inst.type == DType::I8 && inst.type2 == DType::I32;
    bool floatMma = (inst.type == DType::F16 || inst.type == DType::BF16 ||
                     inst.type == DType::F32) &&
                    inst.type2 == DType::F32;
    if (!intMma && !floatMma)
      fail("dpe.mma supports f16/bf16/f32 -> f32 and i8 -> i32");
    int64_t m = integer(object, "m", 1, 4096);
    int64_t n = integer(object, "n", 1, 4096);
    int64_t k = integer(object, "k", 1, 4096);
    inst.shape = {m, n, k};
    inst.slots.push_back(slot(object, "a"));
    inst.slots.push_back(slot(object, "b"));
    inst.slots.push_back(slot(object, "c"));
    inst.slots.push_back(optionalSlot(object, "acc"));
    unsigned in = dtypeSize(inst.type);
    checkFits(inst.slots[0], m * k * in, "operand A");
    checkFits(inst.slots[1], k * n * in, "operand B");
    checkFits(inst.slots[2], m * n * 4, "result C");
    checkFits(inst.slots[3], m * n * 4, "accumulator");
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
              inst.count * (boolResult ? 1 : dtypeSize(inst.type)), "the result");
    if (inst.op == Op::SimdSelect)
      inst.inputs.push_back(simdInput(inst, object, "c"));
    inst.inputs.push_back(simdInput(inst, object, "a"));
    if (inst.op != Op::SimdUnary)
      inst.inputs.push_back(simdInput(inst, object, "b"));
    if (inst.op == Op::SimdFma)
      inst.inputs.push_back(simdInput(inst, object, "c"));
    for (size_t i = 0; i < inst.inputs.size(); ++i) {
      bool isCondition = inst.op == Op::SimdSelect && i == 0;
      int64_t elements = inst.inputs[i].splat ? 1 : inst.count;
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
    const Array &axes = array(object, "axes");
    if (axes.empty() || axes.size() > 3)
      fail("field 'axes' must list 1 to 3 grid axes");
    for (const Value &axis : axes) {
      uint8_t bit = uint8_t(1) << integer(axis, "axes", 0, 2);
      if (inst.groupAxes & bit)
        fail("field 'axes' lists an axis twice");
      inst.groupAxes |= bit;
    }
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
    inst.srcOffset = optionalInteger(object, "src_offset", 0,
                                     int64_t(1) << 40, 0);
    inst.dstOffset = optionalInteger(object, "dst_offset", 0,
                                     int64_t(1) << 40, 0);
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

void ProgramParser::parseInst(Inst &inst, const Object &object) {
  std::string name = string(object, "op");
  bool found = false;
  for (unsigned i = 0; i < sizeof(kOpNames) / sizeof(kOpNames[0]); ++i) {
    if (name == kOpNames[i]) {
      inst.op = static_cast<Op>(i);
      inst.unit = kOpUnits[i];
      found = true;
      break;
    }
  }
  if (!found)
    fail("unknown op '" + name + "'");
  inst.loc = static_cast<int32_t>(
      optionalInteger(object, "loc", -1, int64_t(program.locs.size()) - 1, -1));
  if (inst.unit == Unit::Ctl)
    parseCtl(inst, object);
  else
    parseUnit(inst, object);
  if (inst.ints.size() > kMaxCommandInts)
    fail("too many integer operands");
}

void ProgramParser::parse(const Object &root) {
  program.kernel = string(root, "kernel");
  program.numIntRegs = static_cast<unsigned>(integer(root, "iregs", 1, 4096));
  program.numFloatRegs = static_cast<unsigned>(integer(root, "fregs", 1, 4096));

  for (const Value &item : array(root, "params")) {
    const Object *object = item.getAsObject();
    if (!object)
      fail("every entry of 'params' must be an object");
    Param param;
    param.name = string(*object, "name");
    std::string kind = string(*object, "kind");
    if (kind == "ptr")
      param.kind = ParamKind::Ptr;
    else if (kind == "int")
      param.kind = ParamKind::Int;
    else if (kind == "float")
      param.kind = ParamKind::Float;
    else
      fail("parameter '" + param.name + "' has unknown kind '" + kind + "'");
    if (param.kind == ParamKind::Ptr) {
      param.elementType = dtype(*object, "dtype");
      std::string memory = optionalString(*object, "memory");
      if (memory == "sram")
        param.space = MemorySpace::Sram;
      else if (!memory.empty() && memory != "dram")
        fail("parameter '" + param.name + "' has unknown memory '" + memory +
             "'");
    }
    program.params.push_back(std::move(param));
  }

  for (const Value &item : array(root, "cbs")) {
    const Object *object = item.getAsObject();
    if (!object)
      fail("every entry of 'cbs' must be an object");
    CBDesc cb;
    cb.name = string(*object, "name");
    cb.pageBytes = integer(*object, "page_bytes", 1, int64_t(1) << 32);
    cb.pages = static_cast<int32_t>(integer(*object, "pages", 1, 1024));
    program.cbs.push_back(std::move(cb));
  }

  for (const Value &item : array(root, "locs")) {
    std::optional<llvm::StringRef> text = item.getAsString();
    if (!text)
      fail("every entry of 'locs' must be a string");
    program.locs.push_back(text->str());
  }

  const Array &code = array(root, "code");
  program.code.resize(code.size());
  for (size_t i = 0; i < code.size(); ++i) {
    const Object *object = code[i].getAsObject();
    try {
      if (!object)
        fail("must be an object");
      parseInst(program.code[i], *object);
      const Inst &inst = program.code[i];
      if (inst.op != Op::ReXReduce)
        continue;
      if (program.reduceGroupAxes && program.reduceGroupAxes != inst.groupAxes)
        fail("every re.xreduce of a program must name the same group axes");
      program.reduceGroupAxes = inst.groupAxes;
    } catch (ParseError &error) {
      fail("instruction " + std::to_string(i) + ": " + error.message);
    }
  }
}

} // namespace

const char *mtia::unitName(Unit unit) {
  return kUnitNames[static_cast<int>(unit)];
}
const char *mtia::opName(Op op) { return kOpNames[static_cast<int>(op)]; }
const char *mtia::binaryFnName(BinaryFn fn) {
  return kBinaryNames[static_cast<int>(fn)];
}
const char *mtia::unaryFnName(UnaryFn fn) {
  return kUnaryNames[static_cast<int>(fn)];
}
const char *mtia::reduceFnName(ReduceFn fn) {
  return kReduceNames[static_cast<int>(fn)];
}

std::string mtia::parseProgram(const uint8_t *data, size_t size,
                               Program &program) {
  constexpr size_t kHeaderBytes = 8 + 4 + 4 + 8;
  if (size < kHeaderBytes)
    return "truncated program: " + std::to_string(size) +
           " bytes is shorter than the 24-byte header";
  if (std::memcmp(data, kProgramMagic, 8) != 0)
    return "not an MTIA program (bad magic)";
  uint32_t version, flags;
  uint64_t bodyBytes;
  std::memcpy(&version, data + 8, 4);
  std::memcpy(&flags, data + 12, 4);
  std::memcpy(&bodyBytes, data + 16, 8);
  if (version != kProgramFormatVersion)
    return "unsupported program format version " + std::to_string(version) +
           " (this simulator reads version " +
           std::to_string(kProgramFormatVersion) + ")";
  if (flags != 0)
    return "unknown header flags " + std::to_string(flags);
  if (bodyBytes != size - kHeaderBytes)
    return "truncated or padded program: the header announces " +
           std::to_string(bodyBytes) + " body bytes but " +
           std::to_string(size - kHeaderBytes) + " follow";
  llvm::StringRef body(reinterpret_cast<const char *>(data) + kHeaderBytes,
                       bodyBytes);
  llvm::Expected<Value> parsed = llvm::json::parse(body);
  if (!parsed)
    return "corrupt program body: " + llvm::toString(parsed.takeError());
  const Object *root = parsed->getAsObject();
  if (!root)
    return "corrupt program body: not a JSON object";
  program = Program();
  try {
    ProgramParser(program).parse(*root);
  } catch (ParseError &error) {
    return "invalid program: " + error.message;
  }
  return "";
}
