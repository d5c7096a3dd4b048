//===- ProgramParser.h - The validating parser of program bodies -*- C++
//-*-===//
//
// The parser of a program's JSON body (docs/program-format.md): typed field
// readers that name the offending field, the name tables of ops and
// functions, and the instruction parsers, which live by instruction family
// in ProgramControl.cpp (control-core instructions and CB operations) and
// ProgramUnits.cpp (unit instructions). Program.cpp decodes the container
// and parses the body's top level. Internal to the simulator library.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIM_PROGRAMPARSER_H
#define MTIA_SIM_PROGRAMPARSER_H

#include "mtia/Program.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace mtia {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

struct NameTable {
  const char *const *names;
  unsigned size;
};

#define MTIA_FN_NAME(id, name) name,
inline constexpr const char *kBinaryNames[] = {MTIA_BINARY_FNS(MTIA_FN_NAME)};
inline constexpr const char *kUnaryNames[] = {MTIA_UNARY_FNS(MTIA_FN_NAME)};
inline constexpr const char *kPredNames[] = {MTIA_PREDICATES(MTIA_FN_NAME)};
inline constexpr const char *kReduceNames[] = {MTIA_REDUCE_FNS(MTIA_FN_NAME)};
inline constexpr const char *kAtomicNames[] = {MTIA_ATOMIC_FNS(MTIA_FN_NAME)};
inline constexpr const char *kPEQueryNames[] = {MTIA_PE_QUERIES(MTIA_FN_NAME)};
#undef MTIA_FN_NAME

#define MTIA_OP_NAME(id, name, unit) name,
inline constexpr const char *kOpNames[] = {MTIA_OPS(MTIA_OP_NAME)};
#undef MTIA_OP_NAME
#define MTIA_OP_UNIT(id, name, unit) Unit::unit,
inline constexpr Unit kOpUnits[] = {MTIA_OPS(MTIA_OP_UNIT)};
#undef MTIA_OP_UNIT

inline constexpr const char *kUnitNames[] = {"ctl",  "dma.in", "dma.out", "dpe",
                                             "simd", "re",     "mlu"};

template <size_t N> inline NameTable table(const char *const (&names)[N]) {
  return {names, static_cast<unsigned>(N)};
}

/// Thrown inside the parser only; parseProgram converts it to a string.
struct ParseError {
  std::string message;
};

[[noreturn]] inline void fail(const std::string &message) {
  throw ParseError{message};
}

/// Fills a Program from a JSON body, throwing ParseError at the first field
/// that is missing, ill-typed or out of range.
class ProgramParser {
public:
  explicit ProgramParser(Program &program) : program(program) {}

  void parse(const Object &root);

  /// Fails on a field of `object` (or of an object nested in it) that no
  /// reader looked up: a writer that puts a field the format does not have,
  /// or misspells one, is caught where it writes rather than ignored.
  void checkKnownFields(const Object &object, llvm::StringRef what);

private:
  /// Every lookup of a field goes through here, so that the parser knows
  /// which fields of each object it read.
  const Value *lookup(const Object &object, llvm::StringRef key) {
    readFields[&object].insert(key);
    return object.get(key);
  }

  const Value &field(const Object &object, const char *key) {
    const Value *value = lookup(object, key);
    if (!value)
      fail(std::string("missing field '") + key + "'");
    return *value;
  }

  int64_t integer(const Value &value, const char *key, int64_t lo, int64_t hi) {
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
    if (!lookup(object, key))
      return fallback;
    return integer(object, key, lo, hi);
  }

  bool boolean(const Object &object, const char *key, bool fallback) {
    const Value *value = lookup(object, key);
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
    if (!lookup(object, key))
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
      fail(std::string("field '") + key + "' has unknown dtype '" + name + "'");
    return type;
  }

  /// The float type `t` (default f32) of a control-core float operation or
  /// conversion: operands and results are rounded to it.
  DType scalarFloatType(const Object &object) {
    DType type = lookup(object, "t") ? dtype(object, "t") : DType::F32;
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
      if (lookup(*reg, "r")) {
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

  /// The scalar operand `key`, or the immediate 0 when it is absent.
  ScalarOperand optionalScalar(const Object &object, const char *key) {
    const Value *value = lookup(object, key);
    return value ? scalarOperand(*value, key) : ScalarOperand();
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
    if (side == "back")
      ref.side = SlotSide::Back;
    else if (side == "pushed")
      ref.side = SlotSide::Pushed;
    else if (side != "front")
      fail(std::string("field '") + key +
           ".side' must be 'front', 'back' or 'pushed'");
    const CBDesc &cb = program.cbs[ref.cb];
    ref.page = static_cast<int32_t>(
        optionalInteger(*object, "page", 0, cb.pages - 1, 0));
    ref.offset = optionalInteger(*object, "offset", 0, cb.pageBytes - 1, 0);
    if (ref.offset % kSlotAlignmentBytes != 0)
      fail(std::string("field '") + key + ".offset' must be a multiple of " +
           std::to_string(kSlotAlignmentBytes));
    return ref;
  }

  SlotRef slot(const Object &object, const char *key) {
    return slot(field(object, key), key);
  }

  SlotRef optionalSlot(const Object &object, const char *key) {
    if (!lookup(object, key))
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
    if (asObject && lookup(*asObject, "cb")) {
      input.isTile = true;
      input.slot = slot(value, key);
      input.splat = boolean(*asObject, "splat", false);
      if (const Value *broadcast = lookup(*asObject, "broadcast")) {
        const Object *spec = broadcast->getAsObject();
        if (!spec)
          fail(std::string("field '") + key + ".broadcast' must be an object");
        if (input.splat)
          fail(std::string("field '") + key +
               "' cannot be both 'splat' and 'broadcast'");
        input.broadcastShape = shape(*spec, "shape");
        input.broadcastStrides =
            strides(*spec, "strides", input.broadcastShape.size());
        if (llvm::any_of(input.broadcastStrides,
                         [](int64_t stride) { return stride < 0; }))
          fail(std::string("field '") + key +
               ".broadcast.strides' must not be negative");
      }
      return input;
    }
    if (inst.scalars.size() >= kMaxCommandScalars)
      fail("too many scalar operands");
    input.scalar = static_cast<int32_t>(inst.scalars.size());
    inst.scalars.push_back(scalarOperand(value, key));
    return input;
  }

  /// The elements of its tile that a tile input reads: one for a splat,
  /// the span of the strides for a broadcast, else `count`.
  static int64_t inputElements(const SimdInput &input, int64_t count) {
    if (input.splat)
      return 1;
    if (input.broadcastShape.empty())
      return count;
    int64_t span = 1;
    for (size_t d = 0; d < input.broadcastShape.size(); ++d)
      span += input.broadcastStrides[d] * (input.broadcastShape[d] - 1);
    return span;
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
      fail(std::string("field '") + key +
           "' must have one entry per dimension");
    std::vector<int64_t> result;
    for (const Value &item : items)
      result.push_back(
          integer(item, key, -(int64_t(1) << 40), int64_t(1) << 40));
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

  /// The `axes` of a collective: 1 to 3 distinct grid axes, as a mask with
  /// bit a set for axis a.
  uint8_t groupAxes(const Object &object) {
    const Array &axes = array(object, "axes");
    if (axes.empty() || axes.size() > 3)
      fail("field 'axes' must list 1 to 3 grid axes");
    uint8_t mask = 0;
    for (const Value &axis : axes) {
      uint8_t bit = uint8_t(1) << integer(axis, "axes", 0, 2);
      if (mask & bit)
        fail("field 'axes' lists an axis twice");
      mask |= bit;
    }
    return mask;
  }

  void parseCBOp(Inst &inst, const Object &object);
  void parseDmaStrided(Inst &inst, const Object &object);
  void parseInst(Inst &inst, const Object &object);
  void parseCtl(Inst &inst, const Object &object);
  void parseUnit(Inst &inst, const Object &object);
  /// The fields re.xbroadcast and re.xshift share: the tile (`t`, `n`), the
  /// group (`axes`) and the source and result slots, which must fit it.
  void parseExchange(Inst &inst, const Object &object);

  Program &program;
  llvm::DenseMap<const Object *, llvm::StringSet<>> readFields;
};

} // namespace mtia

#endif // MTIA_SIM_PROGRAMPARSER_H
