//===- UnitAssignment.h - The unit that holds each tile ---------*- C++ -*-===//
//
// Decides which unit of a PE holds each tile value, and which unit reads a
// tile at each of its uses. The data-movement stage connects two units with
// a circular buffer wherever they differ.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_ANALYSIS_UNITASSIGNMENT_H
#define MTIA_PASSES_ANALYSIS_UNITASSIGNMENT_H

#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace mtia {

/// Decides which unit holds each tile value: the unit of the operation that
/// computes it, the consumer of the CB it is read from, or for values carried
/// by loops and conditionals the unit that computes what is yielded. Answers
/// are memoized, so one instance serves IR that changes only where the
/// answers already given stay true. It can be used as a plain class or
/// through `getAnalysis<UnitAssignment>()`.
class UnitAssignment {
public:
  UnitAssignment() = default;
  /// The constructor `getAnalysis<>` calls; the answers are computed lazily.
  explicit UnitAssignment(mlir::Operation *) {}

  /// The unit that holds `value`, a tile.
  tile::Unit getOwner(mlir::Value value);

  /// The unit that reads `use` from local memory, if it is a tile use.
  std::optional<tile::Unit> getUser(mlir::OpOperand &use);

private:
  tile::Unit computeOwner(mlir::Value value);

  llvm::DenseMap<mlir::Value, tile::Unit> owners;
};

} // namespace mtia

#endif // MTIA_PASSES_ANALYSIS_UNITASSIGNMENT_H
