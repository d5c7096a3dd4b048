//===- DMAOps.td - Operations of the `dma` dialect ---------*- tablegen -*-===//
//
// Transfers name their global end as a `!tt.ptr` base plus element offsets
// and their local end as a circular-buffer page; the page's tile type gives
// the shape and element type of the transfer.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_DIALECT_DMA_DMAOPS_TD
#define MTIA_DIALECT_DMA_DMAOPS_TD

include "dialects/CB/CBInterfaces.td"
include "dialects/CB/CBTypes.td"
include "dialects/DMA/DMAAttrs.td"
include "dialects/DMA/DMADialect.td"
include "dialects/DMA/DMATypes.td"
include "dialects/TT/TTTypes.td"
include "dialects/Tile/TileInterfaces.td"
include "dialects/Tile/TileTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class DMA_Op<string mnemonic, list<Trait> traits = []>
    : Op<DMA_Dialect, mnemonic, traits>;

// A transfer executed by the DMA engine, to or from one circular buffer.
class DMA_TransferOp<string mnemonic, list<Trait> traits = []>
    : DMA_Op<mnemonic, !listconcat(traits, [Tile_UnitOpInterface,
                                            DeclareOpInterfaceMethods<CB_EndpointOpInterface>])> {
  let results = (outs DMA_TokenType:$token);
  let extraClassDeclaration = [{
    static ::mtia::tile::Unit getUnit() { return ::mtia::tile::Unit::DMA; }
  }];
  let hasVerifier = 1;
}

// The optional operand `value` has the type `transform` computes from the
// type of `cb`.
class DMA_OptionalMatch<string cb, string value, string getter, string transform>
    : TypesMatchWith<value # " matches " # cb, cb, value, transform,
                     "!" # getter # "() || std::equal_to<>()">;

class DMA_MaskOfPage<string cb>
    : DMA_OptionalMatch<cb, "mask", "getMask",
        "::mtia::tile::getBoolTileLike(::llvm::cast<::mtia::cb::CircularBufferType>($_self).getPageType())">;

class DMA_PaddingOfPage<string cb>
    : DMA_OptionalMatch<cb, "padding", "getPadding",
        "::llvm::cast<::mtia::cb::CircularBufferType>($_self).getPageType().getElementType()">;

//===----------------------------------------------------------------------===//
// Strided transfers.
//===----------------------------------------------------------------------===//

def DMA_LoadOp : DMA_TransferOp<"load", [AttrSizedOperandSegments,
    DMA_MaskOfPage<"cb">, DMA_PaddingOfPage<"cb">]> {
  let summary = "copy a strided window of global memory into a page";
  let description = [{
    ```mlir
    %t = dma.load %x[%offset] strides [%c1] bounds [%n] padding %zero
        into %cb[0] : !tt.ptr<f32>, !cb.cb<1024xf32, pages = 2>
    ```
    Element `(i0, ..., ik)` of the page is read from
    `base + offset + Σ i_d × strides[d]` (in elements). It is in bounds when
    every `i_d < bounds[d]` and the optional `mask` (an i1 tile with the
    page's shape) is true there; elements out of bounds are not read and
    hold `padding` (undefined without one). Rows with a unit innermost
    stride are contiguous and move as bursts that must start 32-byte
    aligned: statically known offsets and strides that break the rule are
    rejected. An `elementwise` transfer moves every element on its own,
    like a gather with the addresses of the window: any alignment, at one
    transaction per element.
  }];
  let arguments = (ins TT_Ptr:$base, Index:$offset, Variadic<Index>:$strides,
                       Variadic<Index>:$bounds, Optional<Tile_BoolTile>:$mask,
                       Optional<Tile_Scalar>:$padding, CB_AnyCircularBuffer:$cb,
                       CB_PageIndex:$page, UnitAttr:$elementwise);
  let assemblyFormat = [{
    (`elementwise` $elementwise^)? $base `[` $offset `]` `strides` ` ` `[` $strides `]`
    (`bounds` ` ` `[` $bounds^ `]`)? (`mask` $mask^)? (`padding` $padding^)?
    `into` $cb `[` $page `]` attr-dict `:` qualified(type($base)) `,` qualified(type($cb))
  }];
}

def DMA_StoreOp : DMA_TransferOp<"store", [AttrSizedOperandSegments, DMA_MaskOfPage<"cb">]> {
  let summary = "copy a page into a strided window of global memory";
  let description = [{
    The reverse of `dma.load`: elements out of bounds or masked off are not
    written. The same alignment rule applies, and `elementwise` likewise
    lifts it.
  }];
  let arguments = (ins CB_AnyCircularBuffer:$cb, CB_PageIndex:$page, TT_Ptr:$base,
                       Index:$offset, Variadic<Index>:$strides,
                       Variadic<Index>:$bounds, Optional<Tile_BoolTile>:$mask,
                       UnitAttr:$elementwise);
  let assemblyFormat = [{
    (`elementwise` $elementwise^)? $cb `[` $page `]` `to` $base `[` $offset `]`
    `strides` ` ` `[` $strides `]` (`bounds` ` ` `[` $bounds^ `]`)? (`mask` $mask^)?
    attr-dict `:` qualified(type($cb)) `,` qualified(type($base))
  }];
}

//===----------------------------------------------------------------------===//
// Indexed transfers.
//===----------------------------------------------------------------------===//

def DMA_GatherOp : DMA_TransferOp<"gather", [AttrSizedOperandSegments,
    DMA_OptionalMatch<"indices", "mask", "getMask",
                      "::mtia::tile::getBoolTileLike($_self)">,
    DMA_PaddingOfPage<"cb">]> {
  let summary = "read elements at indexed offsets into a page";
  let description = [{
    Element `i` of the rows the indices cover is read from
    `base + indices[i]`, where it is not masked off (masked-off elements
    hold `padding`). The unstructured fallback for accesses whose offsets
    are data: each element is its own transaction. The indices (and the
    mask) have the page's shape, or a block of its rows: the page's shape
    with fewer rows, written from the `row` given (0 by default), so that a
    large page is gathered in strips whose index tiles take little local
    memory.

    ```mlir
    %t = dma.gather %x[%rows] mask %m padding %zero into %cb[0] {row = 16}
        : !tt.ptr<f16>, !tile.tile<16x64xi32>, !cb.cb<128x64xf16, pages = 2>
    ```
  }];
  let arguments = (ins TT_Ptr:$base, Tile_IndexTile:$indices,
                       Optional<Tile_BoolTile>:$mask, Optional<Tile_Scalar>:$padding,
                       CB_AnyCircularBuffer:$cb, CB_PageIndex:$page,
                       DefaultValuedAttr<I64Attr, "0">:$row);
  let assemblyFormat = [{
    $base `[` $indices `]` (`mask` $mask^)? (`padding` $padding^)? `into` $cb `[` $page `]`
    attr-dict `:` qualified(type($base)) `,` qualified(type($indices)) `,` qualified(type($cb))
  }];
}

def DMA_ScatterOp : DMA_TransferOp<"scatter", [
    DMA_OptionalMatch<"indices", "mask", "getMask",
                      "::mtia::tile::getBoolTileLike($_self)">]> {
  let summary = "write the elements of a page to indexed offsets";
  let description = [{
    Element `i` of the rows the indices cover is written to
    `base + indices[i]` where it is not masked off. When two elements go to
    one address, the one with the larger linear index is written last. As
    for `dma.gather`, the indices (and the mask) have the page's shape or
    cover a block of its rows from `row` on.
  }];
  let arguments = (ins CB_AnyCircularBuffer:$cb, CB_PageIndex:$page, TT_Ptr:$base,
                       Tile_IndexTile:$indices, Optional<Tile_BoolTile>:$mask,
                       DefaultValuedAttr<I64Attr, "0">:$row);
  let assemblyFormat = [{
    $cb `[` $page `]` `to` $base `[` $indices `]` (`mask` $mask^)? attr-dict
    `:` qualified(type($cb)) `,` qualified(type($base)) `,` qualified(type($indices))
  }];
}

//===----------------------------------------------------------------------===//
// Atomics.
//===----------------------------------------------------------------------===//

def DMA_AtomicRMWOp : DMA_TransferOp<"atomic_rmw", [AttrSizedOperandSegments,
    DMA_OptionalMatch<"values", "mask", "getMask", "::mtia::tile::getBoolTileLike($_self)">]> {
  let summary = "atomic read-modify-write of indexed elements of global memory";
  let description = [{
    ```mlir
    %t = dma.atomic_rmw fadd, relaxed, chip %y[%idx], %v mask %m into %old[0]
        : !tt.ptr<f32>, !tile.tile<64xi32>, !tile.tile<64xf32>, !cb.cb<64xf32, pages = 1>
    ```
    For each element `i` not masked off, atomically replaces
    `base[indices[i]]` by `kind(base[indices[i]], values[i])`; operations on
    one address are serialised. With `into`, the values read before the
    update are written to a page of that buffer. A scalar atomic uses
    one-element tiles.
  }];
  let arguments = (ins DMA_AtomicKind:$kind, DMA_MemoryOrder:$order,
                       DMA_MemoryScope:$scope, TT_Ptr:$base, Tile_IndexTile:$indices,
                       Tile_AnyTile:$values, Optional<Tile_BoolTile>:$mask,
                       Optional<CB_AnyCircularBuffer>:$cb, OptionalAttr<CB_PageIndex>:$page);
  let assemblyFormat = [{
    $kind `,` $order `,` $scope $base `[` $indices `]` `,` $values (`mask` $mask^)?
    (`into` $cb^ `[` $page `]`)? attr-dict `:` qualified(type($base)) `,` qualified(type($indices)) `,`
    qualified(type($values)) (`,` qualified(type($cb))^)?
  }];
}

def DMA_AtomicCASOp : DMA_TransferOp<"atomic_cas", [AllTypesMatch<["compare", "value"]>]> {
  let summary = "atomic compare-and-swap of indexed elements of global memory";
  let description = [{
    For each element `i`, atomically writes `value[i]` to `base[indices[i]]`
    if that holds `compare[i]`. With `into`, the values read are written to a
    page of that buffer.
  }];
  let arguments = (ins DMA_MemoryOrder:$order, DMA_MemoryScope:$scope, TT_Ptr:$base,
                       Tile_IndexTile:$indices, Tile_AnyTile:$compare, Tile_AnyTile:$value,
                       Optional<CB_AnyCircularBuffer>:$cb, OptionalAttr<CB_PageIndex>:$page);
  let assemblyFormat = [{
    $order `,` $scope $base `[` $indices `]` `,` $compare `,` $value
    (`into` $cb^ `[` $page `]`)? attr-dict `:` qualified(type($base)) `,` qualified(type($indices)) `,`
    qualified(type($value)) (`,` qualified(type($cb))^)?
  }];
}

//===----------------------------------------------------------------------===//
// Completion.
//===----------------------------------------------------------------------===//

def DMA_WaitOp : DMA_Op<"wait"> {
  let summary = "block the control code until transfers complete";
  let description = [{
    `dma.wait %t0, %t1` blocks until the transfers of the tokens complete;
    `dma.wait` without tokens until every transfer issued before it does
    (a fence, which orders reads after earlier writes of other queues).
  }];
  let arguments = (ins Variadic<DMA_TokenType>:$tokens);
  let assemblyFormat = "($tokens^)? attr-dict";
}

//===----------------------------------------------------------------------===//
// Scratch memory.
//===----------------------------------------------------------------------===//

def DMA_ScratchOp : DMA_Op<"scratch", [MemoryEffects<[MemAlloc]>]> {
  let summary = "global memory that the program on this PE owns while it runs";
  let description = [{
    `%p = dma.scratch 1048576 : !tt.ptr<f32>` is the address of a region of
    `bytes` bytes of global memory that holds what the program stores there
    until it ends; each op names a region of its own (so that no two are
    merged, the op allocates). The compiler stores a tile there that local
    memory cannot hold in the form its next operation needs, and loads it
    back in pieces. The program stage places the regions of a program one
    after another in the PE's slot of the launch's scratch buffer.
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntPositive]>:$bytes);
  let results = (outs TT_Ptr:$result);
  let assemblyFormat = "$bytes attr-dict `:` qualified(type($result))";
}

//===----------------------------------------------------------------------===//
// Descriptors.
//===----------------------------------------------------------------------===//

def DMA_DescriptorBaseOp : DMA_Op<"descriptor_base", [Pure]> {
  let summary = "the address of the tensor a descriptor from the host describes";
  let description = [{
    `%p = dma.descriptor_base %desc : !tt.tensordesc<64x64xf16> -> !tt.ptr<f16>`
    is the
    address of the tensor's first element, the buffer the host bound for the
    descriptor argument (whose shape and strides follow it among the kernel's
    arguments). The strip-miner addresses a block too large for local memory
    through pointers from it. The data-movement stage, which makes such an
    argument the pointer to its tensor, replaces the op with it.
  }];
  let arguments = (ins TT_TensorDescType:$desc);
  let results = (outs TT_Ptr:$result);
  let assemblyFormat =
      "$desc attr-dict `:` qualified(type($desc)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

#endif // MTIA_DIALECT_DMA_DMAOPS_TD
