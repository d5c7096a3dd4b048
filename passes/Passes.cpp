//===- Passes.cpp - Registration of the passes of mtia-compiler -----------===//
//
// The passes themselves live in one file each next to this one.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
