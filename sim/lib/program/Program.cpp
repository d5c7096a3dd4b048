//===- Program.cpp - Decoding of program bytes ----------------------------===//
//
// Checks a program's container (magic, format version, flags, body length
// and digest), parses its JSON body and validates the body's top level:
// parameters, circular buffers, source locations and the code, whose
// instructions the family parsers in ProgramControl.cpp and ProgramUnits.cpp
// validate.
//
//===----------------------------------------------------------------------===//

#include "mtia/Program.h"

#include "ProgramParser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CRC.h"
#include "llvm/Support/Error.h"

#include <cstring>

using namespace mtia;

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

void ProgramParser::checkKnownFields(const Object &object,
                                     llvm::StringRef what) {
  const llvm::StringSet<> &read = readFields[&object];
  for (const auto &entry : object) {
    llvm::StringRef key = entry.first;
    if (!read.contains(key))
      fail(what.str() + " has unknown field '" + key.str() + "'");
    if (const Object *nested = entry.second.getAsObject()) {
      checkKnownFields(*nested, what.str() + "." + key.str());
      continue;
    }
    if (const Array *items = entry.second.getAsArray())
      for (const Value &item : *items)
        if (const Object *nested = item.getAsObject())
          checkKnownFields(*nested, what.str() + "." + key.str());
  }
}

void ProgramParser::parse(const Object &root) {
  program.kernel = string(root, "kernel");
  program.numIntRegs = static_cast<unsigned>(integer(root, "iregs", 1, 65536));
  program.numFloatRegs = static_cast<unsigned>(integer(root, "fregs", 1, 65536));
  std::string order = optionalString(root, "program_order");
  if (order == "serpentine")
    program.order = ProgramOrder::Serpentine;
  else if (order == "staggered")
    program.order = ProgramOrder::Staggered;
  else if (!order.empty() && order != "round_robin")
    fail("unknown program_order '" + order + "'");
  program.orderAxis = static_cast<unsigned>(
      optionalInteger(root, "program_order_axis", 0, 2, 0));
  program.scratchBytes = static_cast<uint64_t>(
      optionalInteger(root, "scratch_bytes", 0, int64_t(1) << 40, 0));

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
    checkKnownFields(*object, "parameter '" + param.name + "'");
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
    checkKnownFields(*object, "circular buffer '" + cb.name + "'");
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
      checkKnownFields(*object, opName(program.code[i].op));
      const uint8_t axes = program.code[i].groupAxes;
      if (axes && llvm::find(program.collectiveAxes, axes) ==
                      program.collectiveAxes.end())
        program.collectiveAxes.push_back(axes);
    } catch (ParseError &error) {
      fail("instruction " + std::to_string(i) + ": " + error.message);
    }
  }
  checkKnownFields(root, "the program");
}

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
  if (size < kProgramHeaderBytes)
    return "the program is truncated: " + std::to_string(size) +
           " bytes is shorter than the " + std::to_string(kProgramHeaderBytes) +
           "-byte header";
  if (std::memcmp(data, kProgramMagic, 8) != 0)
    return "not an MTIA program (bad magic)";
  uint32_t version, flags, digest;
  uint64_t bodyBytes;
  std::memcpy(&version, data + 8, 4);
  std::memcpy(&flags, data + 12, 4);
  std::memcpy(&bodyBytes, data + 16, 8);
  std::memcpy(&digest, data + 24, 4);
  if (version != kProgramFormatVersion)
    return "unsupported program format version " + std::to_string(version) +
           " (this simulator reads version " +
           std::to_string(kProgramFormatVersion) + ")";
  if (flags != 0)
    return "unknown header flags " + std::to_string(flags);
  const size_t present = size - kProgramHeaderBytes;
  if (bodyBytes > present)
    return "the program is truncated: the header says " +
           std::to_string(bodyBytes) + " bytes of body, " +
           std::to_string(present) + " present";
  if (bodyBytes < present)
    return "the program is padded: the header says " +
           std::to_string(bodyBytes) + " bytes of body, " +
           std::to_string(present) + " present";
  llvm::ArrayRef<uint8_t> bytes(data + kProgramHeaderBytes, present);
  const uint32_t computed = llvm::crc32(bytes);
  if (computed != digest)
    return "the program is damaged: its digest does not match its body "
           "(CRC-32 " +
           llvm::utohexstr(digest, /*LowerCase=*/true, 8) + " in the header, " +
           llvm::utohexstr(computed, /*LowerCase=*/true, 8) + " of the body)";
  llvm::StringRef body(reinterpret_cast<const char *>(bytes.data()),
                       bytes.size());
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
