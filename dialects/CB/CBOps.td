//===- CBOps.td - Operations of the `cb` dialect -----------*- tablegen -*-===//
//
// Allocation, the four pointer operations of the command processor, and page
// access. Page counts and page indices are static: the compiler knows how
// many pages each step of a pipeline moves.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_DIALECT_CB_CBOPS_TD
#define MTIA_DIALECT_CB_CBOPS_TD

include "dialects/CB/CBAttrs.td"
include "dialects/CB/CBDialect.td"
include "dialects/CB/CBInterfaces.td"
include "dialects/CB/CBTypes.td"
include "dialects/Tile/TileAttrs.td"
include "dialects/Tile/TileTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

class CB_Op<string mnemonic, list<Trait> traits = []>
    : Op<CB_Dialect, mnemonic, traits>;

def CB_AllocOp : CB_Op<"alloc"> {
  let summary = "allocate a circular buffer in the PE's local memory";
  let description = [{
    `%cb = cb.alloc "x_in", dma_in -> simd : !cb.cb<1024xf32, pages = 2>`
    reserves the buffer's pages for the whole kernel and names the agent that
    fills it and the agent that drains it, which must differ: a unit, the
    control core (`core`, which only drains), or one of the DMA engine's two
    queues, `dma_in` (loads and gathers) and `dma_out` (stores, scatters and
    atomics). Every operation that fills or drains the buffer must be
    executed by that agent: a `dma_in` producer is filled only by loads and
    gathers, a `dma_out` producer only by the old values of atomics, a
    `dma_out` consumer is drained by stores and scatters and gives the tiles
    of atomics, a `dma_in` consumer gives the indices and masks of loads and
    gathers. The name identifies the buffer in diagnostics and in the
    local-memory plan.

    `run_ahead_pages` (0 when absent) counts the pages beyond those program
    order needs, which let the producer run that many tiles ahead of its
    consumer (the loads of a loop prefetching, a unit producing the next
    iteration's tile while the consumer works on this one). The local-memory
    plan may take them back when the kernel would not fit otherwise.
  }];
  let arguments = (ins StrAttr:$name, CB_Endpoint:$producer, CB_Endpoint:$consumer,
                       DefaultValuedAttr<I64Attr, "0">:$run_ahead_pages);
  let results = (outs CB_AnyCircularBuffer:$result);
  let assemblyFormat = [{
    $name `,` $producer `->` $consumer attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Returns the unit that fills the buffer (the DMA engine for either
    /// queue).
    ::mtia::tile::Unit getProducerUnit() { return getUnit(getProducer()); }
    /// Returns the unit that drains the buffer.
    ::mtia::tile::Unit getConsumerUnit() { return getUnit(getConsumer()); }
  }];
}

// An operation of the command processor that moves one pointer of `cb` by a
// static number of pages.
class CB_PointerOp<string mnemonic, string doc> : CB_Op<mnemonic> {
  let summary = doc;
  let arguments = (ins CB_AnyCircularBuffer:$cb, CB_PageCount:$pages);
  let assemblyFormat = "$cb `,` $pages attr-dict `:` qualified(type($cb))";
  let hasVerifier = 1;
}

def CB_ReserveBackOp : CB_PointerOp<"reserve_back",
    "wait until pages are free at the back for the producer"> {
  let description = [{
    Blocks the producer until `pages` pages after the write pointer are free.
    The reserved pages may then be filled in any order.
  }];
}

def CB_PushBackOp : CB_PointerOp<"push_back",
    "publish filled pages to the consumer"> {
  let description = [{
    Advances the write pointer by `pages`, making the filled pages visible to
    the consumer. Filling a page alone does not publish it; pushing more pages
    than were reserved is an error the simulator reports.
  }];
}

def CB_WaitFrontOp : CB_PointerOp<"wait_front",
    "wait until pages are available at the front for the consumer"> {
  let description = [{
    Blocks the consumer until `pages` pages are available from the read
    pointer. Repeated waits without a pop are cumulative: each asks for
    `pages` pages in total, not for more.
  }];
}

def CB_PopFrontOp : CB_PointerOp<"pop_front",
    "free pages the consumer has finished with"> {
  let description = [{
    Advances the read pointer by `pages`, returning the pages to the
    producer. Popping more pages than were waited for is an error the
    simulator reports.
  }];
}

def CB_ReadFrontOp : CB_Op<"read_front", [
    DeclareOpInterfaceMethods<CB_EndpointOpInterface>]> {
  let summary = "the tile held by an available page";
  let description = [{
    `%t = cb.read_front %cb[0] : !cb.cb<1024xf32, pages = 2>` is the tile in
    the page `page` places after the read pointer, which a `cb.wait_front`
    must have made available. The tile lives in the page (it is not copied)
    and must not be used after the page is popped. Every unit that reads it
    must be the buffer's consumer.

    A page is a span of local memory: the tile may also be a view of the
    page's first bytes with another type, written
    `cb.read_front %cb[0] : !cb.cb<1024xf32, pages = 2> view !tile.tile<8x8xi32>`.
    This lets one buffer carry tiles of different types one after another.
  }];
  let arguments = (ins CB_AnyCircularBuffer:$cb, CB_PageIndex:$page);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = [{
    $cb `[` $page `]` attr-dict `:` custom<PageView>(type($cb), type($result))
  }];
  let hasVerifier = 1;
}

def CB_ReadPushedOp : CB_Op<"read_pushed"> {
  let summary = "the tile of a page its producer has pushed";
  let description = [{
    `%t = cb.read_pushed %cb[0] : !cb.cb<1024xf32, pages = 2>` is the tile in
    the page `page` places before the write pointer: page 0 is the last page
    pushed. Only the buffer's producer reads it: a unit that computed a tile
    into a page and pushed it to the consumer goes on reading it there,
    instead of keeping a copy. Nobody writes a pushed page until its
    producer reserves it again, so the tile must not be used after a
    `cb.reserve_back` that may reserve that page (one of `pages - page` or
    more pages) or a `cb.push_back` that moves the pointer it counts from.
  }];
  let arguments = (ins CB_AnyCircularBuffer:$cb, CB_PageIndex:$page);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = [{
    $cb `[` $page `]` attr-dict `:` custom<PageView>(type($cb), type($result))
  }];
  let hasVerifier = 1;
}

def CB_WriteBackOp : CB_Op<"write_back", [
    DeclareOpInterfaceMethods<CB_EndpointOpInterface>]> {
  let summary = "fill a reserved page with a tile";
  let description = [{
    `cb.write_back %t, %cb[0] : !cb.cb<1024xf32, pages = 2>` makes the unit
    that computes `%t` write it into the page `page` places after the write
    pointer, which a `cb.reserve_back` must have reserved. That unit must be
    the buffer's producer. As with `cb.read_front`, the tile may be a view of
    the page's first bytes with another type
    (`cb.write_back %t, %cb[0] : !cb.cb<1024xf32, pages = 2> view !tile.tile<8x8xi32>`).
  }];
  let arguments = (ins Tile_AnyTile:$tile, CB_AnyCircularBuffer:$cb, CB_PageIndex:$page);
  let assemblyFormat = [{
    $tile `,` $cb `[` $page `]` attr-dict `:` custom<PageView>(type($cb), type($tile))
  }];
  let hasVerifier = 1;
}

#endif // MTIA_DIALECT_CB_CBOPS_TD
