//===- TileOps.td - Operations of the `tile` dialect --------*- tablegen -*-===//
//
// One operation per function of a PE unit. Every operation names its unit
// through UnitOpInterface; elementwise operations carry their arithmetic as a
// kind attribute so that the SIMD engine's repertoire is one enum.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_DIALECT_TILE_TILEOPS_TD
#define MTIA_DIALECT_TILE_TILEOPS_TD

include "dialects/Tile/TileAttrs.td"
include "dialects/Tile/TileDialect.td"
include "dialects/Tile/TileInterfaces.td"
include "dialects/Tile/TileTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

// An operation executed by `unit` (a case of the Unit enum).
class Tile_UnitOp<string mnemonic, string unit, list<Trait> traits = []>
    : Tile_Op<mnemonic, !listconcat(traits, [Tile_UnitOpInterface])> {
  let extraClassDeclaration =
      "static ::mtia::tile::Unit getUnit() { return ::mtia::tile::Unit::" # unit # "; }";
}

// `value` is an i1 tile with the shape of `tile`.
class Tile_BoolOf<string tile, string value>
    : TypesMatchWith<value # " is an i1 tile with the shape of " # tile, tile, value,
                     "::mtia::tile::getBoolTileLike($_self)">;

// The optional operand `value` is an i1 tile with the shape of `tile`; the
// check is skipped when `getter` returns a null value.
class Tile_OptionalBoolOf<string tile, string value, string getter>
    : TypesMatchWith<value # " is an i1 tile with the shape of " # tile, tile, value,
                     "::mtia::tile::getBoolTileLike($_self)",
                     "!" # getter # "() || std::equal_to<>()">;

// `scalar` is the element type of `tile`.
class Tile_ElementOf<string tile, string scalar>
    : TypesMatchWith<scalar # " is the element type of " # tile, tile, scalar,
                     "::llvm::cast<::mtia::tile::TileType>($_self).getElementType()">;

//===----------------------------------------------------------------------===//
// Dot-product engine.
//===----------------------------------------------------------------------===//

def Tile_MatmulOp : Tile_UnitOp<"matmul", "DPE", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "matrix multiply-accumulate on the dot-product engine";
  let description = [{
    `%d = tile.matmul %a, %b, %c` computes `d = a × b + c` for `a: M×K`,
    `b: K×N` and `c, d: M×N`, or batch by batch for rank-3 tiles of one
    leading batch size (Triton's 3-d `tt.dot`). Operands are f16, bf16 or f32 with an f32
    accumulator, or i8 with an i32 accumulator; products are exact and summed
    in the accumulator type. The DPE keeps one operand cached and streams the
    other from local memory in its native tile shape; any M, N and K are
    valid and split into native tiles by the unit.
  }];
  let arguments = (ins Tile_AnyTile:$lhs, Tile_AnyTile:$rhs, Tile_AnyTile:$acc);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_ZerosOp : Tile_UnitOp<"zeros", "DPE", [Pure]> {
  let summary = "zero accumulator produced by the dot-product engine";
  let description = [{
    `%acc = tile.zeros : !tile.tile<128x128xf32>` holds +0.0 (or 0 for an
    i32 tile) in every element: the accumulator a dot starts from
    (`tl.zeros` before a K loop, or the `c` of `tl.dot(a, b)`), cleared by
    the DPE itself instead of being filled by the SIMD engine and passed
    through a circular buffer.
  }];
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// SIMD engine.
//===----------------------------------------------------------------------===//

def Tile_SimdMatmulOp : Tile_UnitOp<"simd_matmul", "SIMD", [Pure,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "f64 matrix multiply-accumulate on the SIMD engine";
  let description = [{
    `%d = tile.simd_matmul %a, %b, %c` computes `d = a × b + c` in f64, with
    the shapes of `tile.matmul` (rank 2, or rank 3 of one batch size). The
    DPE has no f64, so `tt.dot` of f64 runs here: every element of `d` is
    `c` plus the products `a[i, p] * b[p, j]`, each product and each sum
    rounded to f64, added in increasing `p`. The SIMD engine sweeps the
    accumulator once per `p`, a multiply and an add per element.
  }];
  let arguments = (ins Tile_AnyTile:$lhs, Tile_AnyTile:$rhs, Tile_AnyTile:$acc);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_BinaryOp : Tile_UnitOp<"binary", "SIMD", [Pure, SameOperandsAndResultType]> {
  let summary = "elementwise binary arithmetic";
  let description = [{
    `%r = tile.binary addf %a, %b : !tile.tile<1024xf32>` applies the
    operation elementwise with the semantics of the `arith` operation of the
    same name (`maximumf` propagates NaN, `maxnumf` returns the non-NaN
    operand; integer division by zero is undefined). Float kinds need float
    tiles and integer kinds integer tiles.
  }];
  let arguments = (ins Tile_BinaryKind:$kind, Tile_AnyTile:$lhs, Tile_AnyTile:$rhs);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$kind $lhs `,` $rhs attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Tile_UnaryOp : Tile_UnitOp<"unary", "SIMD", [Pure, SameOperandsAndResultType]> {
  let summary = "elementwise unary arithmetic";
  let description = [{
    `%r = tile.unary negf %a : !tile.tile<64xf32>`; `absi` and `ctpop`
    (the number of set bits) are the integer kinds. `round` rounds half away from zero, `roundeven` half to
    even; `sqrt` is correctly rounded (Triton's `tt.precise_sqrt`), unlike
    the special-function unit's `tile.sfu sqrt`.
  }];
  let arguments = (ins Tile_UnaryKind:$kind, Tile_AnyTile:$operand);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$kind $operand attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Tile_FmaOp : Tile_UnitOp<"fma", "SIMD", [Pure, SameOperandsAndResultType]> {
  let summary = "elementwise fused multiply-add";
  let description = [{
    `%r = tile.fma %a, %b, %c` computes `a * b + c` with one rounding.
  }];
  let arguments = (ins Tile_FloatTile:$a, Tile_FloatTile:$b, Tile_FloatTile:$c);
  let results = (outs Tile_FloatTile:$result);
  let assemblyFormat = "$a `,` $b `,` $c attr-dict `:` qualified(type($result))";
}

def Tile_SFUOp : Tile_UnitOp<"sfu", "SIMD", [Pure, SameOperandsAndResultType]> {
  let summary = "transcendental function through the special-function tables";
  let description = [{
    `%r = tile.sfu exp %a : !tile.tile<64xf32>` evaluates the function by
    table lookup and interpolation in the SIMD engine; results are within a
    few ulp of the correctly rounded value, not correctly rounded.
  }];
  let arguments = (ins Tile_SpecialFunction:$function, Tile_FloatTile:$operand);
  let results = (outs Tile_FloatTile:$result);
  let assemblyFormat = "$function $operand attr-dict `:` qualified(type($result))";
}

def Tile_CmpIOp : Tile_UnitOp<"cmpi", "SIMD", [Pure, AllTypesMatch<["lhs", "rhs"]>,
    Tile_BoolOf<"lhs", "result">]> {
  let summary = "elementwise integer comparison";
  let arguments = (ins Tile_CmpIPredicate:$predicate, Tile_IntTile:$lhs, Tile_IntTile:$rhs);
  let results = (outs Tile_BoolTile:$result);
  let assemblyFormat = "$predicate $lhs `,` $rhs attr-dict `:` qualified(type($lhs))";
}

def Tile_CmpFOp : Tile_UnitOp<"cmpf", "SIMD", [Pure, AllTypesMatch<["lhs", "rhs"]>,
    Tile_BoolOf<"lhs", "result">]> {
  let summary = "elementwise floating-point comparison";
  let description = [{
    Ordered predicates (`o*`) are false when either operand is NaN, unordered
    ones (`u*`) true.
  }];
  let arguments = (ins Tile_CmpFPredicate:$predicate, Tile_FloatTile:$lhs, Tile_FloatTile:$rhs);
  let results = (outs Tile_BoolTile:$result);
  let assemblyFormat = "$predicate $lhs `,` $rhs attr-dict `:` qualified(type($lhs))";
}

def Tile_SelectOp : Tile_UnitOp<"select", "SIMD", [Pure,
    AllTypesMatch<["trueValue", "falseValue", "result"]>,
    Tile_BoolOf<"result", "condition">]> {
  let summary = "elementwise choice between two tiles";
  let arguments = (ins Tile_BoolTile:$condition, Tile_AnyTile:$trueValue,
                       Tile_AnyTile:$falseValue);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = [{
    $condition `,` $trueValue `,` $falseValue attr-dict `:` qualified(type($result))
  }];
}

def Tile_CastOp : Tile_UnitOp<"cast", "SIMD", [Pure]> {
  let summary = "elementwise conversion of the element type";
  let description = [{
    `%r = tile.cast truncf %a rounding = rtne : !tile.tile<64xf32> -> !tile.tile<64xf16>`.
    Conversions that can be inexact name their rounding mode: `truncf`,
    `sitofp` and `uitofp` require one; `fptosi` and `fptoui` round toward
    zero (out-of-range values are undefined) and, like the exact conversions
    (`extf`, `extsi`, `extui`, `trunci`, which drops high bits, and `bitcast`
    between types of one width), take none. The shape and layout do not
    change.
  }];
  let arguments = (ins Tile_CastKind:$kind, Tile_AnyTile:$source,
                       OptionalAttr<Tile_RoundingMode>:$rounding);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = [{
    $kind $source (`rounding` `=` $rounding^)? attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Scalars and tiles.
//===----------------------------------------------------------------------===//

def Tile_SplatOp : Tile_UnitOp<"splat", "SIMD", [Pure, Tile_ElementOf<"result", "scalar">]> {
  let summary = "tile filled with a scalar from the control core";
  let arguments = (ins Tile_Scalar:$scalar);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$scalar attr-dict `:` qualified(type($result))";
}

def Tile_SplatElementOp : Tile_UnitOp<"splat_element", "SIMD", [Pure]> {
  let summary = "tile filled with the element of a rank-0 tile";
  let description = [{
    `%r = tile.splat_element %max : !tile.tile<f32> -> !tile.tile<1024xf32>`
    spreads a tile's only element (a reduction's result: the `max` of
    `x - tl.max(x)`) over every element of the result, on the SIMD engine,
    without a round trip through the control core's registers.
  }];
  let arguments = (ins Tile_AnyTile:$source);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Tile_IotaOp : Tile_UnitOp<"iota", "SIMD", [Pure]> {
  let summary = "tile of consecutive integers in row-major order";
  let description = [{
    `%r = tile.iota 16 : !tile.tile<64xi32>` holds 16, 17, ..., 79 (Triton's
    `tl.arange`). In a tile of higher rank, the element at row-major
    position `p` holds `start + p`: `tile.iota 0 : !tile.tile<2x3xi32>` is
    `[[0, 1, 2], [3, 4, 5]]`, the flat element index that the indexed DMA
    transfers decompose into coordinates.
  }];
  let arguments = (ins I64Attr:$start);
  let results = (outs Tile_IntTile:$result);
  let assemblyFormat = "$start attr-dict `:` qualified(type($result))";
}

def Tile_ConstantOp : Tile_UnitOp<"constant", "SIMD", [Pure]> {
  let summary = "tile of compile-time constant elements";
  let description = [{
    `%r = tile.constant dense<0.0> : tensor<64x64xf32> : !tile.tile<64x64xf32>`
    materializes the elements in local memory. The attribute's shape and
    element type are the tile's.
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$value attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Tile_PrintOp : Tile_UnitOp<"print", "SIMD", [MemoryEffects<[MemWrite]>]> {
  let summary = "print the elements of a tile (device-side print)";
  let description = [{
    `tile.print " x: ", %t : !tile.tile<8xi32>` prints `prefix` and every
    element of the tile (Triton's `tt.print` of a tensor), as hexadecimal
    with `hex`, and integers as signed with `isSigned`.
  }];
  let arguments = (ins StrAttr:$prefix, Tile_AnyTile:$source, UnitAttr:$hex,
                       UnitAttr:$isSigned);
  let assemblyFormat = "$prefix `,` $source attr-dict `:` qualified(type($source))";
}

def Tile_AssertOp : Tile_UnitOp<"assert", "SIMD", [MemoryEffects<[MemWrite]>]> {
  let summary = "abort the kernel unless every element of an i1 tile is true";
  let description = [{
    `tile.assert %c, "x must be positive" : !tile.tile<64xi1>` aborts the
    launch with the message if an element is false (Triton's `tt.assert`).
  }];
  let arguments = (ins Tile_BoolTile:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` qualified(type($condition))";
}

def Tile_ExtractOp : Tile_UnitOp<"extract", "Core", [Pure, Tile_ElementOf<"tile", "result">]> {
  let summary = "read one element of a tile into a control-core register";
  let arguments = (ins Tile_AnyTile:$tile, Variadic<Index>:$indices);
  let results = (outs Tile_Scalar:$result);
  let assemblyFormat = "$tile `[` $indices `]` attr-dict `:` qualified(type($tile))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reduction engine.
//===----------------------------------------------------------------------===//

def Tile_ReduceOp : Tile_UnitOp<"reduce", "Reduce", [Pure]> {
  let summary = "reduce a tile along one axis with a combine kind";
  let description = [{
    `%r = tile.reduce addf %a axis = 1 : !tile.tile<64x128xf32> -> !tile.tile<64xf32>`
    combines the elements along `axis`, which disappears from the shape (a
    rank-1 tile reduces to a rank-0 tile). The combine order is unspecified,
    so float sums may differ from a sequential sum by rounding.
  }];
  let arguments = (ins Tile_CombineKind:$kind, Tile_AnyTile:$source,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$axis);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = [{
    $kind $source `axis` `=` $axis attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_ReduceCopyOp : Tile_UnitOp<"reduce_copy", "Reduce", [Pure, SameOperandsAndResultType]> {
  let summary = "copy a tile on the reduction engine, to hand it to a second unit";
  let description = [{
    Each page of a circular buffer is read by one unit, its consumer. When the
    reduction engine and another unit both read a tile the DPE computes
    (attention's scores `qk`, whose row maximum the reduction engine takes and
    which the SIMD engine exponentiates), the reduction engine copies the page
    it reads for the other unit, rather than the DPE spending its cycles on a
    second copy of its product (`mtia-relay-shared-products`):
    `%r = tile.reduce_copy %qk : !tile.tile<64x64xf32>`.
  }];
  let arguments = (ins Tile_AnyTile:$source);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($result))";
}

def Tile_ReduceRegionOp : Tile_UnitOp<"reduce_region", "Reduce", [Pure, SingleBlock]> {
  let summary = "reduce tiles along one axis with a combine region";
  let description = [{
    Reduces N tiles of one shape together along `axis`, as Triton's
    `tt.reduce`: the combine region takes 2N scalars (N accumulated values,
    then N new ones) and yields N with `tile.yield`. The region must be
    associative; the reduction engine applies it as a tree.
  }];
  let arguments = (ins Variadic<Tile_AnyTile>:$sources,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$axis);
  let results = (outs Variadic<Tile_AnyTile>:$results);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    $sources `axis` `=` $axis attr-dict `:` functional-type($sources, $results) $combiner
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_ScanOp : Tile_UnitOp<"scan", "Reduce", [Pure, SingleBlock]> {
  let summary = "inclusive scan of tiles along one axis with a combine region";
  let description = [{
    Like `tile.reduce_region`, but produces every prefix: results have the
    operands' types. With `reverse` the scan runs from the last element.
    A scan of one tile whose region applies one of the reduction engine's
    combine operations to its two arguments carries that operation as
    `kind` (set by the tile stage), and the engine runs it; any other scan
    is expanded by `mtia-expand-combine-regions`.
  }];
  let arguments = (ins Variadic<Tile_AnyTile>:$sources,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$axis, UnitAttr:$reverse,
                       OptionalAttr<Tile_CombineKind>:$kind);
  let results = (outs Variadic<Tile_AnyTile>:$results);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    $sources `axis` `=` $axis (`reverse` $reverse^)? (`kind` $kind^)? attr-dict `:` functional-type($sources, $results) $combiner
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_MapElementwiseOp : Tile_UnitOp<"map_elementwise", "SIMD",
    [RecursiveMemoryEffects]> {
  let summary = "apply a scalar region elementwise to tiles";
  let description = [{
    Triton's `tt.map_elementwise` on tiles: the region takes N * pack
    scalars (`pack` consecutive elements, in row-major order, of each of the
    N sources) and yields M * pack with `tile.yield` (the pack elements of
    each result). The region may branch (`cf`, `scf.if`), each element on its
    own path. `mtia-expand-combine-regions` turns it into SIMD tile
    operations.

    ```mlir
    %r = tile.map_elementwise %a, %b pack = 1 : (!tile.tile<128xi32>, !tile.tile<128xi32>) -> !tile.tile<128xi32> {
    ^bb0(%x: i32, %y: i32):
      %0 = arith.subi %x, %y : i32
      tile.yield %0 : i32
    }
    ```
  }];
  let arguments = (ins Variadic<Tile_AnyTile>:$sources,
                       ConfinedAttr<I32Attr, [IntPositive]>:$pack);
  let results = (outs Variadic<Tile_AnyTile>:$results);
  let regions = (region AnyRegion:$body);
  let assemblyFormat = [{
    $sources `pack` `=` $pack attr-dict `:` functional-type($sources, $results) $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_YieldOp : Tile_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["ReduceRegionOp", "ScanOp", "MapElementwiseOp"]>]> {
  let summary = "terminator of a combine or elementwise region";
  let arguments = (ins Variadic<Tile_Scalar>:$values);
  let assemblyFormat = "$values attr-dict `:` qualified(type($values))";
}

def Tile_ArgReduceOp : Tile_UnitOp<"arg_reduce", "Reduce", [Pure]> {
  let summary = "index of the largest or smallest element along one axis";
  let description = [{
    `%i = tile.arg_reduce argmax %a axis = 1 : !tile.tile<64x128xf32> -> !tile.tile<64xi32>`.
    Ties give the smallest index; NaN compares larger than every number, so
    `argmax` finds the first NaN.
  }];
  let arguments = (ins Tile_ArgReduceKind:$kind, Tile_AnyTile:$source,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$axis);
  let results = (outs Tile_IndexTile:$result);
  let assemblyFormat = [{
    $kind $source `axis` `=` $axis attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_HistogramOp : Tile_UnitOp<"histogram", "Reduce", [Pure,
    Tile_OptionalBoolOf<"source", "mask", "getMask">]> {
  let summary = "count integer values into unit-width bins from zero";
  let description = [{
    `%h = tile.histogram %x mask %m : !tile.tile<128xi32> -> !tile.tile<8xi32>`
    counts, for each bin `b` of the rank-1 result, the elements of `source`
    equal to `b` where the optional mask is true (Triton's `tt.histogram`).
    Values outside `[0, bins)` are not counted.
  }];
  let arguments = (ins Tile_IntTile:$source, Optional<Tile_BoolTile>:$mask);
  let results = (outs Tile_IntTile:$result);
  let assemblyFormat = [{
    $source (`mask` $mask^)? attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_CrossPEReduceOp : Tile_UnitOp<"cross_pe_reduce", "Reduce", [
    SameOperandsAndResultType, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "combine a tile elementwise across PEs";
  let description = [{
    `%r = tile.cross_pe_reduce addf %a over row : !tile.tile<64xf32>` combines
    the tiles of every program of the group (`PEGroup`) elementwise over the
    reduction network; every member receives the result. Every member must
    execute it: it is a collective operation, which no transformation may
    remove, duplicate or move across control flow, hence its effects.
  }];
  let arguments = (ins Tile_CombineKind:$kind, Tile_AnyTile:$source, Tile_PEGroup:$group);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$kind $source `over` $group attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Tile_CrossPEBroadcastOp : Tile_UnitOp<"cross_pe_broadcast", "Reduce", [
    SameOperandsAndResultType, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "send one member's tile to every member of a group";
  let description = [{
    `%r = tile.cross_pe_broadcast %a from 3 over row : !tile.tile<64xf32>`
    gives every program of the group the tile of the member of rank `root`
    (its program id along the group's axes, linearised lowest axis first)
    over the reduction network, bit for bit. The other members' `source` is
    not read. A collective operation, like `tile.cross_pe_reduce`.
  }];
  let arguments = (ins Tile_AnyTile:$source, ConfinedAttr<I64Attr, [IntNonNegative]>:$root,
                       Tile_PEGroup:$group);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = [{
    $source `from` $root `over` $group attr-dict `:` qualified(type($result))
  }];
}

def Tile_CrossPEArgReduceOp : Tile_UnitOp<"cross_pe_arg_reduce", "Reduce", [
    AllTypesMatch<["indices", "result"]>, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "the index that goes with the extreme value across PEs";
  let description = [{
    `%r = tile.cross_pe_arg_reduce argmax %v, %i over grid : !tile.tile<64xf32>, !tile.tile<64xi32>`:
    every member of the group sends its values and their i32 indices; every
    member receives, elementwise, the index of the member holding the
    largest (smallest) value, the lowest rank among equals; NaN never
    displaces a number. A collective operation, like `tile.cross_pe_reduce`.
  }];
  let arguments = (ins Tile_ArgReduceKind:$kind, Tile_AnyTile:$values, Tile_AnyTile:$indices,
                       Tile_PEGroup:$group);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = [{
    $kind $values `,` $indices `over` $group attr-dict `:` qualified(type($values)) `,`
    qualified(type($indices))
  }];
  let hasVerifier = 1;
}

def Tile_CrossPEShiftOp : Tile_UnitOp<"cross_pe_shift", "Reduce", [
    SameOperandsAndResultType, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "pass a tile to the neighbouring program";
  let description = [{
    `%r = tile.cross_pe_shift %a toward east : !tile.tile<64xf32>`: every
    program sends its tile to its neighbour in `direction` and receives the
    tile of the neighbour on the other side; a program at the edge of the
    grid, which has no such neighbour, receives zeros. A collective over the
    programs of the line along the direction's grid axis.
  }];
  let arguments = (ins Tile_AnyTile:$source, Tile_PEDirection:$direction);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$source `toward` $direction attr-dict `:` qualified(type($result))";
}

def Tile_BarrierOp : Tile_UnitOp<"barrier", "Core", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait until every program of a group has reached the barrier";
  let description = [{
    `tile.barrier over grid`: the control core waits until the PE's units
    have finished what it issued before (so its stores to global memory are
    complete), then until every program of the group has reached its
    matching barrier; only then does it go on. Stores of any member before
    the barrier are visible to loads of every member after it.
  }];
  let arguments = (ins Tile_PEGroup:$group);
  let assemblyFormat = "`over` $group attr-dict";
}

def Tile_PEInfoOp : Tile_UnitOp<"pe_info", "Core", [Pure]> {
  let summary = "the position of the executing PE in the PE grid";
  let description = [{
    `%r = tile.pe_info row : i32` reads, like RISC-V's `mhartid`, the row or
    column of the PE that runs the program, the PE grid's number of rows or
    columns, or the PE's index `row * columns + column`.
  }];
  let arguments = (ins Tile_PEQuery:$query);
  let results = (outs I32:$result);
  let assemblyFormat = "$query attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Memory-layout unit.
//===----------------------------------------------------------------------===//

def Tile_CopyOp : Tile_UnitOp<"copy", "MLU", [Pure, SameOperandsAndResultType]> {
  let summary = "copy a tile, to hand it to a second unit";
  let description = [{
    Each page of a circular buffer is read by one unit, its consumer. When two
    units need one tile (softmax reads a row on the reduction engine for its
    maximum and on the SIMD engine to subtract it), the MLU copies it:
    `%r = tile.copy %row : !tile.tile<1024xf32>`.
  }];
  let arguments = (ins Tile_AnyTile:$source);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($result))";
}

def Tile_TransposeOp : Tile_UnitOp<"transpose", "MLU", [Pure]> {
  let summary = "permute the dimensions of a tile";
  let description = [{
    Result dimension `i` is source dimension `permutation[i]`.
  }];
  let arguments = (ins Tile_AnyTile:$source, DenseI64ArrayAttr:$permutation);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = [{
    $source $permutation attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_ConvertLayoutOp : Tile_UnitOp<"convert_layout", "MLU", [Pure]> {
  let summary = "change the layout of a tile, keeping its elements";
  let arguments = (ins Tile_AnyTile:$source);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Tile_ReshapeOp : Tile_UnitOp<"reshape", "MLU", [Pure]> {
  let summary = "reinterpret the elements of a tile with another shape";
  let description = [{
    Elements keep their row-major linear order; the element count and type
    do not change.
  }];
  let arguments = (ins Tile_AnyTile:$source);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Tile_BroadcastOp : Tile_UnitOp<"broadcast", "SIMD", [Pure]> {
  let summary = "replicate the size-1 dimensions of a tile";
  let description = [{
    The source has the result's rank and size 1 or the result's size in each
    dimension, or rank 0: a reduction's result spread over a whole tile, as
    softmax subtracts a row's maximum. With `dimensions`, the source may have
    a lower rank: its dimension i is the result's dimension `dimensions[i]`
    (increasing), and the result's other dimensions replicate it (a row's
    maximum `m[:, None]` spread over the row without reshaping it first).
    The SIMD engine reads the source through a broadcast input (stride 0
    along the replicated dimensions), so an elementwise SIMD operation that
    uses the result reads the source directly and the broadcast tile is
    never written.
  }];
  let arguments = (ins Tile_AnyTile:$source,
                       OptionalAttr<DenseI64ArrayAttr>:$dimensions);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Tile_SliceOp : Tile_UnitOp<"slice", "MLU", [Pure]> {
  let summary = "extract a rectangular part of a tile";
  let description = [{
    `%r = tile.slice %a [0, 32] : !tile.tile<64x64xf32> -> !tile.tile<64x32xf32>`
    takes the block of the result's shape starting at the static offsets.
  }];
  let arguments = (ins Tile_AnyTile:$source, DenseI64ArrayAttr:$offsets);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$source $offsets attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Tile_SubviewOp : Tile_Op<"subview", [Pure]> {
  let summary = "a contiguous part of a tile, read where the tile is";
  let description = [{
    `%r = tile.subview %acc [32, 0] : !tile.tile<128x256xf32> -> !tile.tile<32x256xf32>`
    is the block of the result's shape at the static offsets, like
    `tile.slice`, when that block is one run of the source's elements in
    memory: both tiles are row-major, the result's dimensions before some
    dimension are 1 and those after it are whole. No unit computes it: the
    result is the source's storage from the block's first element on, held
    by the unit that holds the source, which stays in place while the
    subview is read. An epilogue in subtiles reads the rows of an
    accumulator this way (`mtia-subtile-epilogues`).
  }];
  let arguments = (ins Tile_AnyTile:$source, DenseI64ArrayAttr:$offsets);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$source $offsets attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_GatherOp : Tile_UnitOp<"gather", "MLU", [Pure]> {
  let summary = "gather elements of a tile along one axis";
  let description = [{
    `%r = tile.gather %src[%idx] axis = 0 : (...) -> ...` computes
    `r[i0, .., ia, ..] = src[i0, .., idx[i0, .., ia, ..], ..]` (Triton's
    `tt.gather`): the result has the indices' shape and the source's element
    type. Indices out of range give undefined elements.
  }];
  let arguments = (ins Tile_AnyTile:$source, Tile_IndexTile:$indices,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$axis);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` `axis` `=` $axis attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Tile_ConcatOp : Tile_UnitOp<"concat", "MLU", [Pure]> {
  let summary = "join tiles along one axis";
  let arguments = (ins Variadic<Tile_AnyTile>:$sources,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$axis);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = [{
    $sources `axis` `=` $axis attr-dict `:` qualified(type($sources)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

#endif // MTIA_DIALECT_TILE_TILEOPS_TD
