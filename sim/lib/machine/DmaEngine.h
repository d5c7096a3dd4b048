//===- DmaEngine.h - A PE's two DMA queues ----------------------*- C++ -*-===//
//
// The dma.in and dma.out units: strided loads and stores with bounds and
// masks, gathers and scatters, and vector atomics, which move data between
// the bound global buffers and local-memory pages and book their bytes on
// the memory system and on the PE's local-memory port.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIM_DMAENGINE_H
#define MTIA_SIM_DMAENGINE_H

#include "Diagnostics.h"
#include "KernelQueue.h"
#include "LocalMemory.h"
#include "MemorySystem.h"
#include "PEState.h"

#include "mtia/Target.h"

#include <cstdint>

namespace mtia {

class DmaEngine {
public:
  DmaEngine(const TargetDesc &target, Diagnostics &diagnostics,
            MemorySystem &memory, LocalMemory &local, KernelQueue &kernels)
      : target(target), diagnostics(diagnostics), memory(memory), local(local),
        kernels(kernels) {}

  /// Executes a DMA instruction of `unit` (dma.in or dma.out) that starts
  /// at `start` and retires it.
  void execute(PEState &pe, Unit unit, UnitState &state, const Command &cmd,
               uint64_t start);

private:
  /// Each returns when the memory and the local-memory port have moved the
  /// instruction's bytes.
  uint64_t runStrided(PEState &pe, Unit unit, const Command &cmd,
                      uint64_t start);
  uint64_t runIndexed(PEState &pe, Unit unit, const Command &cmd,
                      uint64_t start);
  uint64_t runAtomic(PEState &pe, Unit unit, const Command &cmd,
                     uint64_t start);
  /// The address `elements` elements of `esize` bytes from `base`; aborts
  /// with out_of_bounds when the element offset (`overflowed`) or its bytes
  /// do not fit 64 bits, instead of wrapping onto another address.
  uint64_t elementAddress(uint64_t base, int64_t elements, unsigned esize,
                          bool overflowed, const PEState &pe,
                          const Command &cmd) const;

  const TargetDesc &target;
  Diagnostics &diagnostics;
  MemorySystem &memory;
  LocalMemory &local;
  KernelQueue &kernels;
};

} // namespace mtia

#endif // MTIA_SIM_DMAENGINE_H
