//===- ComputeUnits.h - A PE's compute units --------------------*- C++ -*-===//
//
// The units that compute on local-memory tiles: the SIMD engine with its
// special-function tables, the DPE (matrix multiply), the reduction engine
// (reductions, scans, histograms; its cross-PE reductions are the
// ReduceNetwork's) and the MLU (gathers and strided copies). Each
// instruction's occupancy is its work at the unit's rate, and at least its
// bytes at the local-memory bandwidth.
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
  /// Executes a compute instruction and returns its occupancy in cycles.
  uint64_t run(PEState &pe, Unit unit, const Command &cmd);
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
