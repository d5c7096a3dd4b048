//===- CBInterfaces.td - Interfaces of the `cb` dialect ----*- tablegen -*-===//

#ifndef MTIA_DIALECT_CB_CBINTERFACES_TD
#define MTIA_DIALECT_CB_CBINTERFACES_TD

include "mlir/IR/OpBase.td"

def CB_EndpointOpInterface : OpInterface<"EndpointOpInterface"> {
  let cppNamespace = "::mtia::cb";
  let description = [{
    An operation that moves tile data into the back pages or out of the
    front pages of one circular buffer, on behalf of one unit. The buffer's
    allocation checks through this interface that only its producer unit
    fills it and only its consumer unit drains it.
  }];
  let methods = [
    InterfaceMethod<"Returns the circular buffer the operation accesses.",
                    "::mlir::TypedValue<::mtia::cb::CircularBufferType>",
                    "getCircularBuffer">,
    InterfaceMethod<"Returns whether the operation fills pages at the back "
                    "(as the producer) rather than reading pages at the "
                    "front (as the consumer).",
                    "bool", "fillsBack">,
    InterfaceMethod<"Returns the agent that moves the data (a unit, or a "
                    "queue of the DMA engine), or nothing when the IR does "
                    "not tell.",
                    "std::optional<::mtia::cb::Endpoint>", "getEndpoint">,
    InterfaceMethod<"Returns the index of the page the operation accesses, "
                    "counted from the write pointer when it fills the back "
                    "and from the read pointer otherwise.",
                    "int64_t", "getPageIndex">,
  ];
}

#endif // MTIA_DIALECT_CB_CBINTERFACES_TD
