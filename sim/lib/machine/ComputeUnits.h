//===- ComputeUnits.h - A PE's compute units --------------------*- C++ -*-===//
//
// The units that compute on local-memory tiles: the SIMD engine with its
// special-function tables, the DPE (matrix multiply), the reduction engine
// (reductions, scans, histograms; its cross-PE reductions are the
// ReduceNetwork's) and the MLU (gathers and strided copies). Each
// instruction computes for its work at the unit's rate and books its
// local-memory bytes on the PE's local-memory port, which the DMA queues
// and the other units share; it ends when both are done.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIM_COMPUTEUNITS_H
#define MTIA_SIM_COMPUTEUNITS_H

#include "Diagnostics.h"
#include "KernelQueue.h"
#include "LocalMemory.h"
#include "PEState.h"

#include "mtia/Target.h"

#include <cstdint>
#include <vector>

namespace mtia {

class ComputeUnits {
public:
  ComputeUnits(const TargetDesc &target, Diagnostics &diagnostics,
               LocalMemory &local, KernelQueue &kernels)
      : target(target), diagnostics(diagnostics), local(local),
        kernels(kernels) {}

  /// Executes a compute instruction of `unit` that starts at `start` and
  /// retires it.
  void execute(PEState &pe, Unit unit, UnitState &state, const Command &cmd,
               uint64_t start);

private:
  /// What an instruction costs: cycles at the unit's rate and bytes that
  /// move through the PE's local-memory port.
  struct Work {
    uint64_t cycles = 0;
    uint64_t localBytes = 0;
  };
  /// Executes a compute instruction and returns its work.
  Work run(PEState &pe, Unit unit, const Command &cmd);
  /// Whether `inst`, a SIMD instruction, computes on the KernelQueue: an
  /// element-wise operation whose inputs are whole tiles (the others build
  /// their inputs in scratch buffers that the next instruction reuses).
  static bool runsOnKernelQueue(const Inst &inst);
  /// The SIMD engine's operations per cycle per PE on elements of `type`.
  double simdRate(DType type) const;
  void printTile(const Command &cmd, const uint8_t *data);

  const TargetDesc &target;
  Diagnostics &diagnostics;
  LocalMemory &local;
  KernelQueue &kernels;
  /// Where the MLU gathers and copies before it writes its destination.
  std::vector<uint8_t> scratch;
};

} // namespace mtia

#endif // MTIA_SIM_COMPUTEUNITS_H
