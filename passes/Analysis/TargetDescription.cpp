//===- TargetDescription.cpp - The machine the passes compile for ---------===//

#include "passes/Analysis/TargetDescription.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallString.h"
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

FailureOr<TargetDesc> mtia::loadTargetDescription(Operation *anchor,
                                                  StringRef target) {
  TargetDesc desc;
  std::string path = getTargetPath(target);
  std::string error = loadTarget(path, desc);
  if (error.empty())
    return desc;
  return anchor->emitError("cannot load target '")
         << target << "' from " << path << ": " << error;
}

FailureOr<int64_t> mtia::getDataMovementBuffers(Operation *anchor,
                                                StringRef target,
                                                int64_t reserved) {
  FailureOr<TargetDesc> desc = loadTargetDescription(anchor, target);
  if (failed(desc))
    return failure();
  return static_cast<int64_t>(desc->numCircularBuffers) - reserved;
}
