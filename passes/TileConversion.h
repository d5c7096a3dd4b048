//===- TileConversion.h - Moved to passes/Conversion/TTToTile/ --*- C++ -*-===//
//
// Transitional: passes/LowerDataMovement.cpp, which the data-movement split
// replaces, still includes this path. Remove this file when that include
// names passes/Conversion/TTToTile/TileConversion.h.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/TTToTile/TileConversion.h"
