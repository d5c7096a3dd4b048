//===- TargetDescription.cpp - The machine the passes compile for ---------===//

#include "passes/Analysis/TargetDescription.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>

using namespace mlir;
using namespace mtia;

/// Returns the directory of the shared object or executable that holds the
/// passes; installed target descriptions live in its `targets/` subdirectory.
static std::string getDirectoryOfThisBinary() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&getDirectoryOfThisBinary), &info) ||
      !info.dli_fname)
    return ".";
  return llvm::sys::path::parent_path(info.dli_fname).str();
}

/// Returns the file of the target description `target`: itself when it is a
/// path, otherwise the installed description of that name.
static std::string getTargetPath(StringRef target) {
  if (target.ends_with(".json") || target.contains('/'))
    return target.str();
  SmallString<256> path(getDirectoryOfThisBinary());
  llvm::sys::path::append(path, "targets", target + ".json");
  return path.str().str();
}

/// The attribute that holds the JSON value `value`: objects become
/// dictionaries, arrays arrays, whole numbers 64-bit integers and other
/// numbers 64-bit floats.
static Attribute convertToAttribute(Builder &builder,
                                    const llvm::json::Value &value) {
  if (const llvm::json::Object *object = value.getAsObject()) {
    SmallVector<NamedAttribute> entries;
    for (const auto &[key, entry] : *object)
      entries.push_back(
          builder.getNamedAttr(key, convertToAttribute(builder, entry)));
    return builder.getDictionaryAttr(entries);
  }
  if (const llvm::json::Array *array = value.getAsArray()) {
    SmallVector<Attribute> elements;
    for (const llvm::json::Value &element : *array)
      elements.push_back(convertToAttribute(builder, element));
    return builder.getArrayAttr(elements);
  }
  if (std::optional<bool> flag = value.getAsBoolean())
    return builder.getBoolAttr(*flag);
  if (std::optional<int64_t> integer = value.getAsInteger())
    return builder.getI64IntegerAttr(*integer);
  if (std::optional<double> number = value.getAsNumber())
    return builder.getF64FloatAttr(*number);
  if (std::optional<StringRef> text = value.getAsString())
    return builder.getStringAttr(*text);
  return builder.getUnitAttr();
}

/// The JSON value `attribute` (made by convertToAttribute) holds.
static llvm::json::Value convertToJson(Attribute attribute) {
  if (auto dictionary = dyn_cast<DictionaryAttr>(attribute)) {
    llvm::json::Object object;
    for (NamedAttribute entry : dictionary)
      object[entry.getName().strref()] = convertToJson(entry.getValue());
    return object;
  }
  if (auto array = dyn_cast<ArrayAttr>(attribute)) {
    llvm::json::Array elements;
    for (Attribute element : array)
      elements.push_back(convertToJson(element));
    return elements;
  }
  if (auto flag = dyn_cast<BoolAttr>(attribute))
    return flag.getValue();
  if (auto integer = dyn_cast<IntegerAttr>(attribute))
    return integer.getInt();
  if (auto number = dyn_cast<FloatAttr>(attribute))
    return number.getValueAsDouble();
  if (auto text = dyn_cast<StringAttr>(attribute))
    return text.str();
  return nullptr;
}

LogicalResult mtia::attachTargetDescription(ModuleOp module, StringRef target) {
  std::string path = getTargetPath(target);
  auto fail = [&](const Twine &error) {
    return module.emitError("cannot load target '")
           << target << "' from " << path << ": " << error;
  };
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path);
  if (!file)
    return fail(file.getError().message());
  TargetDesc desc;
  std::string error = parseTarget((*file)->getBuffer(), desc);
  if (!error.empty())
    return fail(error);
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*file)->getBuffer());
  if (!json)
    return fail(llvm::toString(json.takeError()));
  // The figures, without the texts that say where they come from.
  llvm::json::Object &figures = *json->getAsObject();
  figures.erase("sources");
  figures.erase("description");
  Builder builder(module.getContext());
  module->setAttr(kTargetAttrName, convertToAttribute(builder, *json));
  return success();
}

FailureOr<TargetDesc> mtia::getTargetDescription(Operation *anchor) {
  auto module = dyn_cast<ModuleOp>(anchor);
  if (!module)
    module = anchor->getParentOfType<ModuleOp>();
  auto figures =
      module ? module->getAttrOfType<DictionaryAttr>(kTargetAttrName) : nullptr;
  if (!figures)
    return anchor->emitError("the module has no target description (its `")
           << kTargetAttrName << "` attribute): run mtia-attach-target first";
  std::string json;
  llvm::raw_string_ostream(json) << convertToJson(figures);
  TargetDesc desc;
  std::string error = parseTarget(json, desc);
  if (error.empty())
    return desc;
  return anchor->emitError("the module's target description is invalid: ")
         << error;
}

FailureOr<int64_t> mtia::getDataMovementBuffers(Operation *anchor,
                                                int64_t reserved) {
  FailureOr<TargetDesc> desc = getTargetDescription(anchor);
  if (failed(desc))
    return failure();
  return static_cast<int64_t>(desc->numCircularBuffers) - reserved;
}
