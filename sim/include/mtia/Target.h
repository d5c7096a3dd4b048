//===- Target.h - MTIA target description -----------------------*- C++ -*-===//
//
// The machine parameters of one accelerator generation, read from a JSON file
// in targets/. Both the simulator and the compiler's passes link this loader;
// its API reports errors as strings and never throws.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_TARGET_H
#define MTIA_TARGET_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

namespace mtia {

/// One level of global memory (on-chip SRAM or off-chip DRAM). The bandwidth
/// is shared by all PEs of the chip.
struct GlobalMemoryDesc {
  uint64_t bytes = 0;
  double bandwidthGBps = 0;
  uint32_t latencyCycles = 0;
};

/// The organisation and timings of the DRAM behind `dram` (LPDDR): its
/// channels, each with banks of row buffers, the address interleaving, and
/// the timings that make its sustained bandwidth lower than its peak.
struct DramStructureDesc {
  uint32_t channels = 0;
  uint32_t banksPerChannel = 0;
  /// A row (page) of one bank of one channel.
  uint32_t rowBytes = 0;
  /// Consecutive chunks of this many bytes go to consecutive channels.
  uint32_t interleaveBytes = 0;
  /// Activation (row to column) and precharge times, and the window in
  /// which a channel may activate at most four rows.
  double tRcdNs = 0, tRpNs = 0, tFawNs = 0;
  /// All-bank refresh: one of tRfcNs every tRefiNs.
  double tRefiNs = 0, tRfcNs = 0;
  /// The bus time one switch between reading and writing costs, and the
  /// bytes a controller moves in one direction before switching back.
  double turnaroundNs = 0;
  uint32_t writeBatchBytes = 0;
  /// The time over which the controller reorders a channel's requests (its
  /// queues' depth): the reads and writes of one window share its
  /// turnarounds.
  double reorderWindowNs = 0;
};

/// The part of the on-chip SRAM that is a hardware cache in front of DRAM
/// (a last-level cache); the rest is software-managed scratch for buffers
/// placed in SRAM. Zero bytes means no cache.
struct SramCacheDesc {
  uint64_t bytes = 0;
  uint32_t lineBytes = 0;
  uint32_t ways = 0;
};

/// The machine description. Derived per-cycle rates are computed by the
/// accessors below from the public figures stored in the file.
struct TargetDesc {
  std::string name;
  double clockGHz = 0;
  uint32_t peRows = 0;
  uint32_t peCols = 0;

  uint64_t localMemoryBytes = 0;
  double localBandwidthGBps = 0;
  /// Every circular buffer starts at a multiple of this in local memory.
  uint32_t cbAlignmentBytes = 0;

  GlobalMemoryDesc sram;
  SramCacheDesc sramCache;
  GlobalMemoryDesc dram;
  DramStructureDesc dramStructure;

  uint32_t dmaAlignmentBytes = 0;
  uint32_t dmaTransactionBytes = 0;
  uint32_t dmaMaxRank = 0;
  uint32_t dmaLatencyCycles = 0;
  /// The DMA transactions one PE may have in flight; with the memory's
  /// round trip they bound the rate of its requests (Little's law).
  uint32_t dmaMaxOutstanding = 0;

  /// The network on chip between the PEs and global memory: the bytes per
  /// cycle a PE's interface moves in each direction and the latency of one
  /// hop of the mesh. Global memory attaches at the grid's edges.
  double nocPeBytesPerCycle = 0;
  uint32_t nocHopCycles = 0;

  /// The DPE's native tile (M, N, K) and dense peak per operand type, in
  /// tera-operations per second for the whole chip (one MAC = two ops).
  uint32_t dpeTileM = 0, dpeTileN = 0, dpeTileK = 0;
  double dpeTopsF16 = 0, dpeTopsBF16 = 0, dpeTopsF32 = 0, dpeTopsI8 = 0;
  uint32_t dpeLatencyCycles = 0;

  /// SIMD engine throughput per operand type for the whole chip, in
  /// tera-operations per second (an elementwise operation on one element is
  /// one operation, a fused multiply-add two), and the fraction of it the
  /// special-function tables reach.
  double simdTopsI8 = 0, simdTopsF16 = 0, simdTopsBF16 = 0, simdTopsF32 = 0,
         simdTopsF64 = 0;
  double sfuFraction = 0;
  uint32_t simdLatencyCycles = 0;

  double reduceElementsPerCycle = 0;
  uint32_t reduceLatencyCycles = 0;
  /// The reduction engines' dedicated cross-PE network: bytes per cycle of
  /// one link and the latency of one hop of the combining tree.
  double reduceNetworkBytesPerCycle = 0;
  uint32_t reduceNetworkHopCycles = 0;

  /// The MLU's rate for copies of contiguous rows, and for transposes,
  /// permutes and gathers, whose rows are strided on one side.
  double mluBytesPerCycle = 0;
  double mluTransposeBytesPerCycle = 0;
  uint32_t mluLatencyCycles = 0;

  uint32_t controlCyclesPerInstruction = 0;
  uint32_t controlIssueCycles = 0;
  uint32_t scalarMemoryLatencyCycles = 0;
  /// What a control-core read of the PE's local memory (ldl) costs.
  uint32_t controlLocalMemoryLatencyCycles = 0;

  uint32_t numCircularBuffers = 0;
  uint32_t commandQueueDepth = 0;
  /// How long after a push (pop) the command processor lets the CB's
  /// consumer (producer) see the pages.
  uint32_t cbHandoffCycles = 0;

  /// The time from a kernel's launch to the start of every PE's first
  /// program, and what a PE's control core spends between two programs.
  double launchNs = 0;
  uint32_t programSwitchCycles = 0;

  uint32_t numPEs() const { return peRows * peCols; }
  /// The SRAM bytes available to buffers placed in SRAM.
  uint64_t sramScratchBytes() const { return sram.bytes - sramCache.bytes; }
  double localBytesPerCycle() const { return localBandwidthGBps / clockGHz; }
  double sramBytesPerCycle() const { return sram.bandwidthGBps / clockGHz; }
  double dramBytesPerCycle() const { return dram.bandwidthGBps / clockGHz; }
  /// The mesh hops from PE `pe` to global memory: one onto the nearest
  /// edge of the grid, plus one per PE on the way there.
  uint32_t nocHops(uint32_t pe) const {
    const uint32_t row = pe / peCols, col = pe % peCols;
    return 1 + std::min(std::min(row, peRows - 1 - row),
                        std::min(col, peCols - 1 - col));
  }
  /// Per-PE multiply-accumulates per cycle for a chip-wide peak in TOPS.
  double macsPerCyclePerPE(double tops) const {
    return tops * 1e12 / 2.0 / numPEs() / (clockGHz * 1e9);
  }
  /// Per-PE SIMD operations per cycle for a chip-wide rate in TOPS.
  double simdOpsPerCyclePerPE(double tops) const {
    return tops * 1e12 / numPEs() / (clockGHz * 1e9);
  }
  /// The launch time in cycles of the clock, to the nearest cycle.
  uint64_t launchCycles() const {
    return static_cast<uint64_t>(std::llround(launchNs * clockGHz));
  }
};

/// Parses a target description from JSON text. Returns an empty string on
/// success, otherwise a message naming the offending field.
std::string parseTarget(std::string_view json, TargetDesc &target);

/// Reads and parses a target description file.
std::string loadTarget(const std::string &path, TargetDesc &target);

} // namespace mtia

#endif // MTIA_TARGET_H
