//===- TileToDataMovement.h - Accesses to DMA through CBs -------*- C++ -*-===//
//
// The lowering of the memory accesses the tile stage leaves (`tt.load`,
// `tt.store`, tensor descriptors, atomics) to DMA transfers into and out of
// circular-buffer pages. One `AccessLowering` object per kernel holds what
// the accesses share: the pointer analysis, the unit assignment and the
// buffers it allocates. Its methods are defined by access kind:
//
//  * AccessLowering.cpp: the analysis of an access into a strided window or
//    index and mask tiles, and the pass;
//  * LoadStore.cpp: `tt.load` and `tt.store`;
//  * Descriptors.cpp: `tt.descriptor_load`/`tt.descriptor_store`;
//  * Atomics.cpp: `tt.atomic_rmw` and `tt.atomic_cas`;
//  * Alignment.cpp: versioning on the run-time alignment and assumptions;
//  * IndexedAddressing.cpp: index and mask tiles from tensor computations.
//
// CircularBuffers.cpp allocates buffers and moves tiles through their pages,
// for this lowering and for the connection of units (ConnectUnits.cpp),
// which the pass runs after it.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_CONVERSION_TILETODATAMOVEMENT_TILETODATAMOVEMENT_H
#define MTIA_PASSES_CONVERSION_TILETODATAMOVEMENT_TILETODATAMOVEMENT_H

#include "passes/Analysis/PipelineStages.h"
#include "passes/Analysis/PointerAnalysis.h"
#include "passes/Analysis/TensorDescriptors.h"
#include "passes/Analysis/UnitAssignment.h"
#include "passes/Conversion/TTToTile/TileConversion.h"

#include "dialects/CB/CBDialect.h"
#include "dialects/DMA/DMADialect.h"
#include "dialects/TT/TTDialect.h"
#include "dialects/Tile/TileDialect.h"

#include "mlir/IR/Builders.h"

namespace mtia {

// The files of this directory include this header only; they spell MLIR's
// names as MLIR's own sources do.
using mlir::ArrayRef;
using mlir::Block;
using mlir::FailureOr;
using mlir::function_ref;
using mlir::Location;
using mlir::LogicalResult;
using mlir::OpBuilder;
using mlir::Operation;
using mlir::OpOperand;
using mlir::SmallVector;
using mlir::SmallVectorImpl;
using mlir::StringRef;
using mlir::Type;
using mlir::UnrealizedConversionCastOp;
using mlir::Value;
using mlir::ValueRange;

/// Pages of a buffer between two units for one tile; buffers that carry
/// several tiles at once get more (`mtia-share-buffers`).
constexpr int64_t kForwardPages = 1;

/// The bytes of one element of `type` (at least one).
int64_t getElementBytes(Type type);

/// An index constant.
Value indexConstant(OpBuilder &builder, Location loc, int64_t value);

/// Whether every row of a strided access starts at an address the DMA
/// engine accepts (a multiple of `alignmentBytes`): the base is a kernel
/// argument (buffers are page-aligned) or a scratch region, and the offset
/// and outer strides are multiples of the alignment.
bool isProvablyAligned(const PointerAnalysis &analysis,
                       const PointerAccess &access, int64_t elementBytes,
                       int64_t alignmentBytes);

/// Whether a strided transfer of `access` can be aligned at run time: no
/// part of it is a constant that breaks the alignment (the DMA dialect
/// rejects those statically).
bool mayBeAligned(const PointerAccess &access, int64_t elementBytes,
                  int64_t alignmentBytes);

/// Allocates the circular buffers of one kernel at its entry, named by role
/// and number, and moves tiles through their pages.
class BufferBuilder {
public:
  /// Allocates before the first operation of `function`'s entry block that
  /// is not a `cb.alloc`, numbering from the buffers already allocated.
  explicit BufferBuilder(tt::FuncOp function);

  /// A circular buffer between two agents, allocated at the function entry,
  /// `runAheadPages` of whose pages let the producer run ahead of the
  /// consumer (see `cb.alloc`).
  cb::AllocOp allocate(StringRef role, tile::TileType pageType,
                       cb::Endpoint producer, cb::Endpoint consumer,
                       Location loc, int64_t pages = kTransferPages,
                       int64_t runAheadPages = 0);

  /// Writes `tileValue` into page 0 of `buffer` as its producer.
  static void produce(cb::AllocOp buffer, Value tileValue, OpBuilder &builder,
                      Location loc);

  /// Reads page 0 of `buffer` as the consumer at the builder's point. The
  /// page is freed after the last use of the tile in its block, once the
  /// units are connected (ConnectUnits.cpp).
  static Value consume(cb::AllocOp buffer, OpBuilder &builder, Location loc,
                       function_ref<void(Value)> replaceUses);

private:
  OpBuilder entry;
  unsigned buffers = 0;
};

/// How an access moves its elements: a strided window (`aligned`), or
/// element offsets from `base` in an index tile with an optional mask tile.
struct StructuredAccess {
  Value base;
  std::optional<PointerAccess> pointer;
  SmallVector<Value> bounds;
  bool aligned = false;
  /// Whether the choice between a strided transfer of bursts and a slower
  /// one is made at run time: by the alignment of the rows (the slower one
  /// moves the window element by element) and the assumptions of the
  /// pointer's structure (the slower one is indexed).
  bool versioned = false;
  /// Whether the strided window moves element by element, which has no
  /// alignment rule: its rows may be misaligned, or a mask tile (`mask`)
  /// picks its elements.
  bool elementwise = false;
  Value indices;
  Value mask;
  /// For a pointer structured only under assumptions: the base and index
  /// tile of its actual addresses, for when they do not hold.
  Value unstructuredBase, unstructuredIndices;
  /// Whether the transfer is the fallback of a versioned access, which runs
  /// only where the run-time conditions fail.
  bool fallback = false;
};

/// Lowers the memory accesses of one kernel (see the file header).
class AccessLowering {
public:
  /// Lowers the accesses of `function` for a DMA engine that moves
  /// contiguous rows only from and to addresses aligned to `alignmentBytes`,
  /// giving the buffers of loads and stores `cbMultiplier` times their
  /// usual pages.
  AccessLowering(tt::FuncOp function, int64_t alignmentBytes,
                 int64_t cbMultiplier);

  /// Lowers every access of the kernel, then retypes its descriptor
  /// arguments and folds the casts around the tiles read from pages.
  LogicalResult run();

  /// The unit assignment the lowering used, for the connection of units.
  UnitAssignment &getUnits() { return units; }

private:
  // Defined in AccessLowering.cpp: the analysis of an access into what its
  // transfer needs.

  /// The per-dimension counts of valid indices of a structured mask without
  /// lower bounds, as index values.
  SmallVector<Value> materializeBounds(Location loc, const MaskBounds *bounds,
                                       ArrayRef<int64_t> shape,
                                       OpBuilder &builder);

  /// The index along `dim` of every element of a tile of `shape`, as an i32
  /// tile of the rank of `shape` whose other dimensions are 1 (the SIMD
  /// engine reads it broadcast over them with stride 0).
  static Value buildCoordinates(int64_t dim, ArrayRef<int64_t> shape,
                                OpBuilder &builder, Location loc);

  /// `value`, a tile whose dimensions are those of `shape` or 1, broadcast
  /// to `shape`.
  static Value broadcastTo(Value value, ArrayRef<int64_t> shape,
                           OpBuilder &builder, Location loc);

  /// The element offsets `sum_d strides[d] * i_d` of a structured access
  /// relative to `base`, which becomes the access's pointer plus its scalar
  /// offset, as a tile of i32. Offsets within a block are 32-bit, as
  /// Triton's are; where the strides are only known at run time, the
  /// control core asserts that the block's span fits.
  Value buildIndexTile(Operation *op, const PointerAccess &access,
                       ArrayRef<int64_t> shape, OpBuilder &builder,
                       Value &base);

  /// The mask of an indexed transfer: the index is below each bound. A tile
  /// of rank 0 has no bounds and needs no mask.
  Value buildBoundsMask(ArrayRef<Value> bounds, ArrayRef<int64_t> shape,
                        OpBuilder &builder, Location loc);

  /// Analyses the pointer and mask of an access and materializes, before
  /// `op`, what its transfer needs. A structured pointer of a load or store
  /// (`strided`) gets a strided window: of bursts when every row is aligned
  /// (versioned at run time when that depends on run-time values), element
  /// by element otherwise or under a mask that is not a set of bounds (a
  /// mask tile). Other accesses get index and mask tiles, computed from the
  /// structure or, for what has none, by converting the address and mask
  /// computations to tile ops.
  FailureOr<StructuredAccess> analyzeAccess(Operation *op, Value pointer,
                                            Value mask, ArrayRef<int64_t> shape,
                                            OpBuilder &builder,
                                            bool strided = true);

  /// `base` as a pointer to the elements `pointer` points to (the analyses
  /// see through bitcasts between pointers to elements of one size).
  static Value castBase(Value base, Value pointer, OpBuilder &builder,
                        Location loc);

  SmallVector<Value> materializeStrides(const PointerAccess &access,
                                        OpBuilder &builder, Location loc);

  /// The tile holding the elements of a value the tile stage left on
  /// tensors or in a scalar: the tile it was cast from, the tile a scalar was
  /// read from, or a tile filled with a scalar of the control core.
  static Value getTileOf(Value value, tile::TileType type, OpBuilder &builder,
                         Location loc);

  /// Whether `value` is used outside `block`, not only in the regions of its
  /// operations.
  static bool isUsedOutside(Value value, Block *block);

  /// Makes the MLU copy the tile read from a page right after the read, and
  /// the copy replace it, so that the page is freed at once.
  static void copyOutOfPage(Value page, OpBuilder &builder, Location loc);

  // Defined in IndexedAddressing.cpp: index and mask tiles from tensor
  // computations.

  /// The scalar pointer a tensor of pointers is splat from, and the tensor
  /// of its element offsets from it, built as tensor ops before the
  /// builder's point. Offsets that one `tt.addptr` applies keep their type
  /// (i32 index tiles take half the local memory of i64 ones); offsets that
  /// combine several are summed in i64.
  FailureOr<std::pair<Value, Value>>
  buildOffsetTensor(Operation *op, Value pointer, OpBuilder &builder);

  /// The base and the index tile of an access with unstructured pointers.
  FailureOr<std::pair<Value, Value>>
  buildOffsetTile(Operation *op, Value pointer, OpBuilder &builder);

  /// Converts the tensor computation of `value` to tile ops before the
  /// builder's point: the operations it depends on are copied and the
  /// copies converted, so the originals keep serving other accesses.
  FailureOr<Value> convertToTile(Operation *op, Value value,
                                 OpBuilder &builder);

  /// `value`, a tensor computed from `tt.make_range`, `tt.splat`, splat
  /// constants, `tt.expand_dims`, `tt.broadcast`, `tt.trans` and elementwise
  /// operations, recomputed with every operation at the shape of `value`: a
  /// range becomes the coordinate of its dimension (from the row-major
  /// positions, on the SIMD engine), and broadcasts, expansions and
  /// transpositions disappear. The new operations (appended to `created`)
  /// follow `value`'s definition. Fails, creating nothing that is used, for
  /// any other operation.
  FailureOr<Value> liftToFullShape(Value value,
                                   SmallVectorImpl<Operation *> &created);

  /// Emits the indexed transfer of `transfer` to or from a page of
  /// `pageType` at the builder's point with `emit`, given its index and mask
  /// tiles and the first page row they cover. The fallback of a versioned
  /// access, which seldom runs, moves a large page in strips of rows, each
  /// with index and mask tiles recomputed on the strip's rows where their
  /// computation allows, so that no block-sized index tile takes local
  /// memory for it; other transfers (whose strips would cost instructions
  /// every time they run), and those whose tiles are data, move the page at
  /// once.
  static void emitInRowStrips(
      OpBuilder &builder, const StructuredAccess &transfer,
      tile::TileType pageType,
      function_ref<void(Value indices, Value mask, int64_t row)> emit);

  /// Replaces a tensor -> tile cast of a tile -> tensor cast by the tile.
  static Value foldCastPair(UnrealizedConversionCastOp toTile);

  /// Removes the casts between tiles and tensors that the conversion of
  /// address computations leaves around loaded tiles.
  void foldCastPairs();

  // Defined in LoadStore.cpp: loads and stores.

  /// The scalar a load reads where its mask is false, from its `other`.
  FailureOr<Value> getPadding(tt::LoadOp load, OpBuilder &builder);

  /// Makes the stores (through pointers or a descriptor) of `loaded`, a
  /// loaded tensor stored as it is, which the tile stage left on tensors,
  /// store it through a tile of `pageType`: a copy moves through a page.
  void routeStoresThroughTile(Value loaded, tile::TileType pageType);

  LogicalResult lowerLoad(tt::LoadOp load);

  /// The pages of the buffer of a load: more in a loop, where the DMA engine
  /// runs ahead of the compute by as many iterations as there are pages.
  int64_t getLoadPages(Operation *op, tile::TileType pageType) const;

  /// Moves the elements of `access` into a CB page and makes the tile read
  /// from it replace the casts of the tensor `op` produced.
  void emitRead(Operation *op, const StructuredAccess &access, Value padding,
                tile::TileType pageType,
                ArrayRef<UnrealizedConversionCastOp> casts, OpBuilder &builder);

  LogicalResult lowerStore(tt::StoreOp store);

  /// Moves `tileValue` through a CB page into the elements of `access`.
  void emitWrite(Operation *op, const StructuredAccess &access, Value tileValue,
                 OpBuilder &builder);

  // Defined in Alignment.cpp: versioning on the run-time alignment and
  // assumptions.

  /// Whether, at run time, every row of a strided access starts at an
  /// address the DMA engine accepts.
  Value buildAlignmentCondition(const PointerAccess &access,
                                int64_t elementBytes, OpBuilder &builder,
                                Location loc);

  /// Emits `strided` where the rows of a versioned access are aligned and
  /// `indexed`, with the index and mask tiles built in its branch, where not.
  void emitVersioned(
      Operation *op, StructuredAccess access, ArrayRef<int64_t> shape,
      int64_t elementBytes, OpBuilder &builder,
      function_ref<void(OpBuilder &, bool elementwise)> strided,
      function_ref<void(OpBuilder &, const StructuredAccess &)> indexed);

  /// Whether, at run time, every element of the affine tensor of
  /// `assumption` lies in [0, bound): its smallest element is at least 0 and
  /// its largest below the bound.
  Value buildAssumptionCondition(const RangeAssumption &assumption,
                                 OpBuilder &builder, Location loc);

  // Defined in Descriptors.cpp: tensor descriptors.

  /// The block of a descriptor at `indices`: element offset
  /// sum_d indices[d] * strides[d], the descriptor's strides, and bounds
  /// that drop what lies past the tensor's shape (read as zero).
  /// The access of a descriptor's block at `indices`, moving a tile of
  /// `shape`: the block's shape, or that shape without leading dimensions of
  /// size 1 (Triton drops them from the loaded tensor), which then only place
  /// the tile.
  FailureOr<StructuredAccess> analyzeDescriptorAccess(Operation *op, Value desc,
                                                      ValueRange indices,
                                                      ArrayRef<int64_t> shape,
                                                      OpBuilder &builder);

  LogicalResult lowerDescriptorLoad(tt::DescriptorLoadOp load);

  LogicalResult lowerDescriptorStore(tt::DescriptorStoreOp store);

  /// Descriptors passed by the host are pointers to their base tensor once
  /// their accesses are lowered.
  LogicalResult retypeDescriptorArguments();

  // Defined in Atomics.cpp: atomics.

  static dma::AtomicKind getAtomicKind(tt::RMWOp op);

  static dma::MemoryOrder getMemoryOrder(tt::MemSemantic semantic);

  static dma::MemoryScope getMemoryScope(tt::MemSyncScope scope);

  /// An atomic read-modify-write becomes an indexed atomic of the DMA
  /// engine: the values and the element offsets are tiles.
  LogicalResult lowerAtomic(tt::AtomicRMWOp atomic);

  /// Whether the values an atomic read are used outside its block (as a
  /// tensor, or as the tile the tile stage casts it to).
  static bool areOldValuesUsedElsewhere(Operation *atomic);

  /// The buffer a tensor atomic writes the values it read into, reserved,
  /// when they are used; null otherwise.
  cb::AllocOp reserveOldValues(Operation *atomic, tile::TileType tileType,
                               OpBuilder &builder);

  /// Publishes the values an atomic read into `buffer` (if any) and makes
  /// the tile read from it replace the atomic's result.
  void consumeOldValues(Operation *atomic, cb::AllocOp buffer,
                        OpBuilder &builder);

  /// A compare-and-swap of a tensor becomes an indexed atomic of the DMA
  /// engine; a scalar one runs on the control core.
  LogicalResult lowerAtomicCAS(tt::AtomicCASOp atomic);

  tt::FuncOp function;
  int64_t alignmentBytes;
  int64_t cbMultiplier;
  BufferBuilder buffers;
  PointerAnalysis analysis;
  UnitAssignment units;
  TileTypeConverter converter;
};

/// Inserts a circular buffer wherever a tile of `function` is used by a
/// unit other than the one that holds it (by `units`), then frees every page
/// read that has no `cb.pop_front` yet after the last use of its tile.
void connectUnits(tt::FuncOp function, UnitAssignment &units);

} // namespace mtia

#endif // MTIA_PASSES_CONVERSION_TILETODATAMOVEMENT_TILETODATAMOVEMENT_H
