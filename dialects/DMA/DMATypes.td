//===- DMATypes.td - Types of the `dma` dialect ------------*- tablegen -*-===//

#ifndef MTIA_DIALECT_DMA_DMATYPES_TD
#define MTIA_DIALECT_DMA_DMATYPES_TD

include "dialects/DMA/DMADialect.td"
include "mlir/IR/AttrTypeBase.td"

def DMA_TokenType : TypeDef<DMA_Dialect, "Token"> {
  let mnemonic = "token";
  let summary = "completion of one asynchronous transfer";
  let description = [{
    `!dma.token` stands for a transfer in flight; `dma.wait` on it returns
    once the transfer has completed and its data is visible at the
    destination.
  }];
}

#endif // MTIA_DIALECT_DMA_DMATYPES_TD
