//===- Simulator.h - The MTIA machine model ---------------------*- C++ -*-===//
//
// Runs a parsed program over a Triton grid on the PE grid of a target and
// reports outputs (written into the bound host buffers), cycles, per-unit
// busy cycles, bytes moved, printed text and an optional Chrome trace.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIMULATOR_H
#define MTIA_SIMULATOR_H

#include "mtia/Program.h"
#include "mtia/Target.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mtia {

/// A value bound to one kernel parameter.
struct LaunchArg {
  ParamKind kind = ParamKind::Int;
  uint8_t *data = nullptr; // Host memory of a pointer parameter.
  uint64_t bytes = 0;
  /// The pointer the kernel gets points this many bytes into the buffer
  /// (at most `bytes`): it may reach memory of the buffer before it, as a
  /// pointer into the middle of an allocation does.
  uint64_t offset = 0;
  /// The host memory may only be read: a write to it aborts the launch
  /// (read_only) before it happens.
  bool readOnly = false;
  int64_t intValue = 0;
  double floatValue = 0;
};

struct LaunchConfig {
  std::array<int64_t, 3> grid = {1, 1, 1};
  bool trace = false;
  /// The budget of a launch; exceeding any part aborts it with `timeout` at
  /// the instruction a control core is at. Steps are control-code
  /// instructions and program starts summed over the PEs; cycles are
  /// simulated cycles of any
  /// agent (0: no limit); seconds are host time (0: no limit).
  uint64_t maxSteps = uint64_t(1) << 34;
  uint64_t maxCycles = 0;
  double maxSeconds = 0;
  /// Whether the numeric kernels of the DPE and of the SIMD element-wise
  /// operations, the copies of contiguous DMA stores and the zeroing of the
  /// local memories may run on a second host thread while the machine
  /// steps on (the same results either way; it is used only when the host
  /// has more than one hardware thread).
  bool kernelThread = true;
  /// Called about every 50 ms of host time; when it returns true the launch
  /// aborts with `interrupted` (the Python binding checks for signals).
  std::function<bool()> interrupted;
};

/// Why a launch was aborted.
struct SimError {
  std::string kind; // out_of_bounds, misaligned_dma, cb_misuse, deadlock,
                    // local_memory_overflow, assert, invalid_program,
                    // invalid_launch, collective_mismatch, timeout,
                    // interrupted, read_only.
  std::string message;
  int pe = -1;
  std::array<int64_t, 3> programId = {-1, -1, -1};
  int instruction = -1;
  std::string location;
};

struct UnitStats {
  uint64_t busyCycles = 0;
  uint64_t instructions = 0;
};

struct SimResult {
  bool ok = false;
  SimError error;
  uint64_t cycles = 0;
  /// Busy cycles and instruction counts per unit, summed over the PEs.
  std::array<UnitStats, kNumUnits> units{};
  /// Busy cycles per PE and unit (numPEs x kNumUnits, row-major).
  std::vector<uint64_t> peBusyCycles;
  uint64_t dramReadBytes = 0, dramWriteBytes = 0;
  uint64_t sramReadBytes = 0, sramWriteBytes = 0; // Buffers placed in SRAM.
  /// Bytes of DRAM buffers that reads took from the SRAM's hardware-cache
  /// part instead of DRAM.
  uint64_t cacheReadBytes = 0;
  /// Read transactions (of dma.transaction_bytes) to DRAM buffers that the
  /// cache served and that went on to DRAM, and lines it evicted.
  uint64_t cacheHits = 0, cacheMisses = 0, cacheEvictions = 0;
  uint64_t localBytes = 0;
  uint64_t reduceNetworkBytes = 0; // Sent over the cross-PE reduce network.
  std::string output; // Text of print instructions, in a fixed order.
  std::string trace;  // Chrome trace-event JSON when requested.
};

/// Simulates one launch. Never throws: every failure is reported in the
/// result. Host memory outside the bound buffers is never touched.
SimResult simulate(const TargetDesc &target, const Program &program,
                   const std::vector<LaunchArg> &args,
                   const LaunchConfig &config);

} // namespace mtia

#endif // MTIA_SIMULATOR_H
