//===- LocalMemory.h - A PE's local memory and circular buffers -*- C++ -*-===//
//
// The circular buffers of a program in each PE's local memory: where they
// lie, which pages a unit may touch, and the CB operations (reserve, push,
// wait, pop) that move their pointers with timestamped events. The units and
// the control core resolve their operands here and count their local-memory
// traffic.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIM_LOCALMEMORY_H
#define MTIA_SIM_LOCALMEMORY_H

#include "Diagnostics.h"
#include "KernelQueue.h"
#include "MemorySystem.h"
#include "PEState.h"

#include "mtia/Program.h"
#include "mtia/Target.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mtia {

class LocalMemory {
public:
  LocalMemory(const TargetDesc &target, const Program &program,
              const Diagnostics &diagnostics, MemorySystem &memory,
              KernelQueue &kernels)
      : target(target), program(program), diagnostics(diagnostics),
        memory(memory), kernels(kernels) {}

  /// Places the program's circular buffers in local memory, each aligned
  /// to local_memory.cb_alignment_bytes; aborts with cb_misuse or
  /// local_memory_overflow when they do not fit the target.
  void plan();
  /// Gives every PE its zeroed local memory and its CBs' initial state.
  void attach(std::vector<PEState> &pes);

  /// How the next kernel submitted to the KernelQueue uses a page.
  enum class KernelUse {
    /// Not at all: the page is accessed now.
    None,
    /// It, a DPE product, reads the page: ordered for it only while a
    /// kernel may still write it (see orderedForKernel).
    Reads,
    /// It, a DPE product, writes the page (and may read it).
    Writes,
    /// It, another kernel, reads the page, which later accesses leave alone
    /// until it has run.
    Keeps,
    /// It, another kernel, writes the page.
    Fills,
  };

  /// The address of the page `ref` names, which `unit` must hold; null
  /// when `ref` is absent. The page holds its bytes in local memory. With
  /// KernelUse::None every kernel of the KernelQueue that writes the page
  /// has run; otherwise the page is for the next kernel submitted, which
  /// a later access of the page waits for when the page is ordered for it
  /// (see orderedForKernel).
  uint8_t *resolve(PEState &pe, Unit unit, const SlotRef &ref,
                   const Command &cmd, KernelUse use = KernelUse::None);
  /// Whether the page `ref` names is ordered for the next kernel: always
  /// when the kernel writes it, and when it reads it while an earlier
  /// kernel may still write it. A kernel that reads a page not ordered
  /// for it must read a copy taken at submission, since the page's next
  /// writer does not wait for it.
  bool orderedForKernel(const PEState &pe, const SlotRef &ref) const;
  /// Where the `bytes` of the page `ref` names (see resolve) can be read
  /// until the next write to any page or buffer: in a host buffer while
  /// the page aliases them there.
  const uint8_t *resolveRead(PEState &pe, Unit unit, const SlotRef &ref,
                             const Command &cmd, uint64_t bytes);
  /// Where the next kernel submitted reads the `bytes` of the page `ref`
  /// names (present): the page, ordered for the kernel, or the host bytes
  /// the page aliases, which the memory system keeps unwritten until the
  /// kernel has run.
  const uint8_t *resolveKernelRead(PEState &pe, Unit unit, const SlotRef &ref,
                                   const Command &cmd, uint64_t bytes);
  /// The address of the page `ref` names (see resolve) for a DMA load that
  /// writes all its `bytes` there, which may then alias them in a host
  /// buffer through `alias`.
  uint8_t *resolveLoad(PEState &pe, Unit unit, const SlotRef &ref,
                       const Command &cmd, uint64_t bytes, HostAlias *&alias);
  /// The `count` elements of `type` an input names: a tile, a tile's one
  /// element splat, a tile broadcast, or a scalar operand splat (the last
  /// three through scratch buffer `scratchIndex`). A tile is read where
  /// resolveRead finds it when `inPlace`, which holds only for callers that
  /// write no host buffer while they read it.
  const uint8_t *resolveInput(PEState &pe, Unit unit, const SimdInput &input,
                              const Command &cmd, DType type, int64_t count,
                              int scratchIndex, bool inPlace = false);
  /// Whether `inst`, not a DPE instruction, names a page ordered for a DPE
  /// product submitted during the PE's current visit of the stepping loop
  /// (see orderedForKernel); it then waits for the PE's next visit, as
  /// `blockedOn` says, so that the kernel runs on the KernelQueue's worker
  /// while the other PEs are stepped. The rule depends on the stepping
  /// alone, not on when the worker finishes, so the results and their
  /// timing do not depend on the host's threads.
  bool waitsForVisitKernels(const PEState &pe, const Inst &inst,
                            std::string &blockedOn) const;
  /// Executes a CB operation of `unit` (a unit or the control core) whose
  /// clock is `clock` and whose started work completes at `readyTime`;
  /// returns false, saying why in `blockedOn`, while it must wait.
  bool executeCBOp(PEState &pe, Unit unit, const Command &cmd, uint64_t &clock,
                   uint64_t readyTime, std::string &blockedOn);

  /// Counts bytes a unit or the control core moved in local memory.
  void countTraffic(uint64_t bytes) { traffic += bytes; }
  uint64_t totalTraffic() const { return traffic; }

private:
  /// The address of the page `ref` names (present), which `unit` must hold,
  /// and the page's alias record.
  uint8_t *locate(PEState &pe, Unit unit, const SlotRef &ref,
                  const Command &cmd, HostAlias *&alias, KernelUse use);
  /// Where the `bytes` of the page `ref` names are read for `use` (None or
  /// Keeps): see resolveRead and resolveKernelRead.
  const uint8_t *readInPlace(PEState &pe, Unit unit, const SlotRef &ref,
                             const Command &cmd, uint64_t bytes,
                             KernelUse use);
  /// The physical page of its CB that `ref` (present) names.
  int64_t physicalPage(const PEState &pe, const SlotRef &ref) const;

  const TargetDesc &target;
  const Program &program;
  const Diagnostics &diagnostics;
  MemorySystem &memory;
  KernelQueue &kernels;
  std::vector<int64_t> cbBases;
  int64_t bytesPerPE = 0;
  uint64_t traffic = 0;
  std::vector<uint8_t> scratch[3];
};

} // namespace mtia

#endif // MTIA_SIM_LOCALMEMORY_H
