//===- DescriptorAccesses.h - Descriptor blocks as pointers -----*- C++ -*-===//
//
// The strip-miner's way into blocks that a tensor descriptor addresses whole.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_TRANSFORMS_DESCRIPTORACCESSES_H
#define MTIA_PASSES_TRANSFORMS_DESCRIPTORACCESSES_H

#include "dialects/TT/TTDialect.h"

#include <cstdint>

namespace mtia {

/// Rewrites each `tt.descriptor_load` and `tt.descriptor_store` in
/// `function` whose block exceeds `budget` bytes as a load or store through
/// a tensor of pointers: base + sum_d (index_d + i_d) * stride_d, masked
/// where an index reaches shape_d (a load reads zeros there, as the
/// descriptor pads; the block is bounded from above only, as the
/// data-movement stage bounds a descriptor's transfers). A descriptor
/// addresses its block whole, so the strip-miner could not run it in
/// strips; the pointers it can, and the data-movement stage makes the same
/// bounded strided transfers of them. The base of a descriptor the host
/// passes (a kernel argument followed by its shape and strides) is
/// `dma.descriptor_base` of it.
void rewriteLargeDescriptorAccesses(tt::FuncOp function, int64_t budget);

} // namespace mtia

#endif // MTIA_PASSES_TRANSFORMS_DESCRIPTORACCESSES_H
