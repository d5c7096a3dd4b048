//===- TileTypes.td - Types of the `tile` dialect ----------*- tablegen -*-===//

#ifndef MTIA_DIALECT_TILE_TILETYPES_TD
#define MTIA_DIALECT_TILE_TILETYPES_TD

include "dialects/Tile/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def Tile_TileType : TypeDef<Tile_Dialect, "Tile",
    [ShapedTypeInterface]> {
  let mnemonic = "tile";
  let summary = "statically shaped block of elements in a PE's local memory";
  let description = [{
    `!tile.tile<64x32xf16>` holds 64 × 32 half-precision floats in the local
    memory of a PE, row-major. The optional `order` lists the dimensions from
    the fastest to the slowest varying (as Triton's `order`):
    `!tile.tile<64x32xf16, order = [0, 1]>` is column-major. The row-major
    order (`[rank - 1, ..., 0]`) is the default and is not printed. A tile of
    rank 0 (`!tile.tile<f32>`) holds one element, as reductions to a scalar
    produce. Elements are signless integers (i1 to i64) or floats (fp8 to
    f64); an element takes a whole number of bytes (i1 takes one).
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "::mlir::Type":$elementType,
    ArrayRefParameter<"int64_t">:$order
  );
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
                                        "::mlir::Type":$elementType,
                                        CArg<"::llvm::ArrayRef<int64_t>", "{}">:$order), [{
      return $_get(elementType.getContext(), shape, elementType, order);
    }]>
  ];
  let skipDefaultBuilders = 1;
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Tiles are always ranked.
    bool hasRank() const { return true; }

    /// Returns a tile type with another shape (keeping the layout when the
    /// rank does not change) or element type.
    ::mlir::ShapedType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                                 ::mlir::Type elementType) const;

    /// Returns whether the layout is the default row-major order.
    bool isRowMajor() const { return getOrder().empty(); }

    /// Returns the order of the dimensions from fastest to slowest varying,
    /// also for the default row-major layout.
    ::llvm::SmallVector<int64_t> getDimensionOrder() const;

    /// Returns the bytes the tile occupies in local memory.
    int64_t getSizeInBytes() const;

    /// Returns this tile type with another shape and the default layout.
    TileType withShape(::llvm::ArrayRef<int64_t> shape) const {
      return TileType::get(shape, getElementType());
    }

    /// Returns this tile type with another element type.
    TileType withElementType(::mlir::Type elementType) const {
      return TileType::get(getShape(), elementType, getOrder());
    }

    /// Prints and parses the body `64x32xf16[, order = [0, 1]]` that tile
    /// and circular-buffer types share. The parser also consumes a comma
    /// after the body and reports it in `parsedTrailingComma`, so that the
    /// enclosing type can continue with its own parameters.
    void printBody(::mlir::AsmPrinter &printer) const;
    static TileType parseBody(::mlir::AsmParser &parser, bool &parsedTrailingComma);
  }];
}

//===----------------------------------------------------------------------===//
// Type constraints.
//===----------------------------------------------------------------------===//

class Tile_TileOf<list<Type> allowedTypes>
    : Type<And<[CPred<"::llvm::isa<::mtia::tile::TileType>($_self)">,
                Concat<"[](::mlir::Type elementType) { return ",
                       SubstLeaves<"$_self", "elementType", AnyTypeOf<allowedTypes>.predicate>,
                       "; }(::llvm::cast<::mtia::tile::TileType>($_self).getElementType())">]>,
           "tile of " # AnyTypeOf<allowedTypes>.summary # " values",
           "::mtia::tile::TileType">;

def Tile_AnyTile : Type<CPred<"::llvm::isa<::mtia::tile::TileType>($_self)">,
                        "tile", "::mtia::tile::TileType">;
def Tile_FloatTile : Tile_TileOf<[AnyFloat]>;
def Tile_IntTile : Tile_TileOf<[AnySignlessInteger]>;
def Tile_BoolTile : Tile_TileOf<[I1]>;
def Tile_IndexTile : Tile_TileOf<[I32, I64]>;
def Tile_Scalar : AnyTypeOf<[AnySignlessInteger, AnyFloat]>;

#endif // MTIA_DIALECT_TILE_TILETYPES_TD
