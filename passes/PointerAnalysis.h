//===- PointerAnalysis.h - Moved to passes/Analysis/ ------------*- C++ -*-===//
//
// Transitional: passes/LowerDataMovement.cpp, which the data-movement split
// replaces, still includes this path. Remove this file when that include
// names passes/Analysis/PointerAnalysis.h.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis/PointerAnalysis.h"
