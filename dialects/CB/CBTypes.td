//===- CBTypes.td - Types of the `cb` dialect --------------*- tablegen -*-===//

#ifndef MTIA_DIALECT_CB_CBTYPES_TD
#define MTIA_DIALECT_CB_CBTYPES_TD

include "dialects/CB/CBDialect.td"
include "mlir/IR/AttrTypeBase.td"

def CB_CircularBufferType : TypeDef<CB_Dialect, "CircularBuffer"> {
  let mnemonic = "cb";
  let summary = "circular buffer of pages, each holding one tile";
  let description = [{
    `!cb.cb<64x32xf16, pages = 2>` is a FIFO of two pages, each holding a
    `!tile.tile<64x32xf16>`; the page layout is written as in tile types
    (`!cb.cb<64x32xf16, order = [0, 1], pages = 2>`). The buffer takes
    `pages × page bytes` of local memory.
  }];
  let parameters = (ins "::mtia::tile::TileType":$pageType, "int64_t":$numPages);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mtia::tile::TileType":$pageType,
                                        "int64_t":$numPages), [{
      return $_get(pageType.getContext(), pageType, numPages);
    }]>
  ];
  let skipDefaultBuilders = 1;
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Returns the bytes the buffer occupies in local memory.
    int64_t getSizeInBytes() const {
      return getPageType().getSizeInBytes() * getNumPages();
    }
  }];
}

def CB_AnyCircularBuffer : Type<CPred<"::llvm::isa<::mtia::cb::CircularBufferType>($_self)">,
                                "circular buffer", "::mtia::cb::CircularBufferType">;

// A number of pages and the index of a page after a buffer's pointer. They
// are unnamed so that Python op builders take plain integers through the
// builder of I64Attr.
defvar CB_PageCount = ConfinedAttr<I64Attr, [IntPositive]>;
defvar CB_PageIndex = ConfinedAttr<I64Attr, [IntNonNegative]>;

#endif // MTIA_DIALECT_CB_CBTYPES_TD
