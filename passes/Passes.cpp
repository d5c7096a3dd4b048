//===- Passes.cpp - Registration of the passes of mtia-compiler -----------===//
//
// The passes themselves live in one file each below this directory:
// analyses in Analysis/, the conversions between stages in
// Conversion/<From>To<To>/ and the transformations within a stage in
// Transforms/.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
