//===- PipelineStages.h - The pipeline stages of a loop --------*- C++ -*-===//
//
// Triton's one pipelining control is `num_stages`: the launch option
// (`kernel[grid](..., num_stages=3)`, a `triton.Config`'s), which
// `mtia-attach-target` stamps on the module as `mtia.num_stages`, and the
// per-loop `tl.range(..., num_stages=)`, which reaches the TTIR as the loop's
// `tt.num_stages`. A loop's loads stream ahead of its compute through the
// pages of their buffers, at least s of them for s stages (the DMA engine
// runs that many less one iterations ahead); and a loop of s stages may
// compute its independent dots up to s - 1 iterations ahead of the rest of
// its body, as far as its estimated schedule needs and at most two
// (`mtia-pipeline-dots`): one stage runs the body in order. The compiler may
// bound every loop's stages, its own included (`mtia.max_stages`): its last
// attempt when no local-memory plan fits runs every loop in one stage.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_PASSES_ANALYSIS_PIPELINESTAGES_H
#define MTIA_PASSES_ANALYSIS_PIPELINESTAGES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>

namespace mtia {

/// The name of the loop attribute Triton's frontend gives a `tl.range` with
/// `num_stages`.
constexpr llvm::StringLiteral kLoopStagesAttrName = "tt.num_stages";
/// The name of the module attribute that holds the launch's `num_stages`.
constexpr llvm::StringLiteral kModuleStagesAttrName = "mtia.num_stages";
/// The name of the module attribute that bounds the stages of every loop.
constexpr llvm::StringLiteral kModuleMaxStagesAttrName = "mtia.max_stages";
/// Triton's default `num_stages`, for a module compiled without one.
constexpr int64_t kDefaultNumStages = 3;

/// Stamps the launch's `numStages` on `module` and, unless `maxStages` is 0,
/// the bound of every loop's stages. Reports a count below one (or a bound
/// below zero) as an error at the module.
mlir::LogicalResult attachNumStages(mlir::ModuleOp module, int64_t numStages,
                                    int64_t maxStages = 0);

/// The stages of `loop`: its own `tt.num_stages`, else the launch's stamped
/// on its module, else Triton's default; at least one, and at most the
/// module's bound if it has one.
int64_t getNumStages(mlir::Operation *loop);

/// Pages of the buffers of loads and stores: two, so that the DMA engine
/// fills one page while the consumer works on the other.
constexpr int64_t kTransferPages = 2;

/// Loads in loops prefetch up to this many iterations ahead, so that the
/// memory latency (hundreds of cycles) hides behind the compute of several
/// iterations, within this many bytes of pages per buffer.
constexpr int64_t kLoopLoadPages = 8;
constexpr int64_t kLoopLoadBytes = 64 * 1024;

/// The pages of the buffer of a load in `loop` whose pages hold `pageBytes`:
/// the DMA engine runs ahead of the compute by as many iterations as there
/// are pages less one, enough to hide the memory latency (kLoopLoadBytes of
/// pages, kTransferPages at least) and at least the loop's stages.
int64_t getLoopLoadPages(mlir::Operation *loop, int64_t pageBytes);

} // namespace mtia

#endif // MTIA_PASSES_ANALYSIS_PIPELINESTAGES_H
