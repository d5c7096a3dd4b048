//===- MemorySystem.h - The chip's global memory ----------------*- C++ -*-===//
//
// The global buffers a launch binds, the chip-wide DRAM and SRAM bandwidth
// calendars and the SRAM's hardware-cache part. The DMA engine and the
// control core find and check buffers here and book their transfers; the
// memory system reports the bytes each memory moved.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIM_MEMORYSYSTEM_H
#define MTIA_SIM_MEMORYSYSTEM_H

#include "BandwidthCalendar.h"
#include "Cache.h"
#include "Diagnostics.h"
#include "Dram.h"
#include "KernelQueue.h"
#include "PEState.h"

#include "mtia/Program.h"
#include "mtia/Simulator.h"
#include "mtia/Target.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace mtia {

struct GlobalBuffer {
  uint64_t base = 0;
  uint64_t bytes = 0;
  uint8_t *host = nullptr;
  std::string name;
  MemorySpace space = MemorySpace::Dram;
  bool readOnly = false;
  /// Read-only because the host maps its memory so, whatever the caller
  /// said.
  bool hostReadOnly = false;
};

/// The requests of one DMA instruction: they leave its PE one after another
/// from the instruction's start, each at the rate its PE's network
/// interface allows, or less when the PE's outstanding transactions cannot
/// cover the round trip of the memory that serves it (Little's law).
struct RequestStream {
  /// When the next request may leave.
  double clock = 0;
  /// The PE's mesh hops from global memory.
  uint32_t hops = 0;
};

class MemorySystem {
public:
  MemorySystem(const TargetDesc &target, const Diagnostics &diagnostics,
               KernelQueue &kernels)
      : target(target), diagnostics(diagnostics), kernels(kernels),
        dram(target), sram(target.sramBytesPerCycle()),
        cache(target.sramCache.bytes, target.sramCache.lineBytes,
              target.dmaTransactionBytes, target.sramCache.ways) {}

  /// Places the pointer arguments of a launch in global memory and returns
  /// the value of every parameter as the control code reads it (a buffer's
  /// address, an integer, 0 for a float). Aborts with invalid_launch on an
  /// argument of the wrong kind, a buffer over host memory that cannot be
  /// read or SRAM buffers that do not fit; a buffer over host memory that
  /// cannot be written is bound read-only. A program with `scratchBytes`
  /// gets a scratch buffer over `scratch`, host memory of that many bytes
  /// per PE, after the arguments.
  std::vector<uint64_t> bind(const Program &program,
                             const std::vector<LaunchArg> &args,
                             uint8_t *scratch);

  /// The address of the launch's scratch buffer, whose slot p of the
  /// program's `scratchBytes` belongs to PE p (0 without scratch).
  uint64_t scratchAddress() const { return scratchBase; }

  /// The buffer that holds all of [address, address + bytes); aborts with
  /// out_of_bounds naming `what` of `cmd` when none does, and with read_only
  /// when `write` targets a buffer the caller bound as read-only. Before a
  /// write, the local pages that alias the written host bytes receive their
  /// copy of them. Unless the access is the next kernel's (see
  /// accessForKernel), the kernels that write those bytes, or for a write
  /// that read them, have run.
  const GlobalBuffer &checkedBuffer(uint64_t address, uint64_t bytes,
                                    bool write, const PEState &pe,
                                    const Command &cmd, const char *what,
                                    bool forKernel = false);

  /// Performs an atomic read-modify-write `fn` of one element of `type` at
  /// `address` with operand `value` (and, for cas, comparand `compare`);
  /// returns its buffer and writes the previous value to `previous`.
  const GlobalBuffer &atomic(uint64_t address, AtomicFn fn, DType type,
                             const uint8_t *value, const uint8_t *compare,
                             uint8_t *previous, const PEState &pe,
                             const Command &cmd);

  /// Makes `alias` stand for the copy of the `bytes` at `host` in `buffer`
  /// that a DMA load would write to `local`; `alias` must hold none.
  void aliasHost(HostAlias &alias, uint8_t *local, const GlobalBuffer &buffer,
                 const uint8_t *host, uint64_t bytes);
  /// Copies the bytes `alias` stands for into its page and retires it.
  void materialise(HostAlias &alias);
  /// Retires `alias` without copying, for a page about to be overwritten.
  void dropAlias(HostAlias &alias);
  /// Records that the next kernel of the KernelQueue reads (or, when
  /// `write`, writes) the `bytes` at `host` in the buffer `buffer` (an
  /// index of the bound buffers): until it has run, other accesses of them
  /// that it would change, or that would change what it reads, wait for it.
  void accessForKernel(uint32_t buffer, const uint8_t *host, uint64_t bytes,
                       bool write);
  /// The index of `buffer` among the bound buffers.
  uint32_t indexOf(const GlobalBuffer &buffer) const {
    return static_cast<uint32_t>(&buffer - buffers.data());
  }

  /// Starts the timing of one DMA instruction: the latency and cache fills
  /// of its transfers accumulate until the next call.
  void beginTransfers() {
    latency = 0;
    fillArrival = 0;
  }
  /// Books `bytes` at `address` (a multiple of dma.transaction_bytes, which
  /// `bytes` is too) of `buffer`, whose requests leave with those of
  /// `requests` and advance it; returns when the memory has moved them.
  uint64_t bookTransfer(const GlobalBuffer &buffer, bool write,
                        RequestStream &requests, uint64_t address,
                        uint64_t bytes);
  /// The latency of the slowest memory the transfers since beginTransfers()
  /// touched.
  uint64_t transferLatency() const { return latency; }
  /// When the cache fills those transfers' reads found in flight arrive in
  /// the SRAM (0: none).
  uint64_t cacheFillArrival() const { return fillArrival; }

  /// Drops the DRAM and SRAM bookings before `cycle`, which no later
  /// transfer starts at.
  void forgetBefore(uint64_t cycle) {
    dram.forgetBefore(cycle);
    sram.forgetBefore(cycle);
  }

  /// Adds the bytes each memory moved and the cache's counts to `result`.
  void report(SimResult &result) const;

private:
  const GlobalBuffer *findBuffer(uint64_t address, uint64_t bytes) const;
  /// Materialises the live aliases of the `bytes` at `host` in `buffer`.
  void materialiseOverlapping(const GlobalBuffer &buffer, const uint8_t *host,
                              uint64_t bytes);
  /// Waits for the kernels that write any of the `bytes` at `host` in
  /// `buffer` or, before a `write`, read them.
  void waitForKernelAccesses(const GlobalBuffer &buffer, const uint8_t *host,
                             uint64_t bytes, bool write);
  std::string describeAddress(uint64_t address) const;
  uint64_t bookCachedTransfer(bool write, RequestStream &requests,
                              uint64_t address, uint64_t bytes);
  /// The rate at which `requests` leave for a memory of `latency` cycles.
  double requestRate(const RequestStream &requests, uint64_t latency) const;

  const TargetDesc &target;
  const Diagnostics &diagnostics;
  KernelQueue &kernels;
  std::vector<GlobalBuffer> buffers;
  /// The address of the scratch buffer.
  uint64_t scratchBase = 0;
  /// Per buffer, the buffers whose host bytes overlap its own (itself
  /// included; two arguments may share host memory).
  std::vector<std::vector<uint32_t>> hostOverlaps;
  /// The live aliases, and per buffer how many of them it holds.
  std::vector<HostAlias *> liveAliases;
  std::vector<uint32_t> aliasesIn;
  /// Host bytes that kernels which may not have run read or write, in the
  /// order of their kernels.
  struct KernelAccess {
    uint32_t buffer;
    const uint8_t *host;
    uint64_t bytes;
    uint64_t kernel;
    bool write;
  };
  std::deque<KernelAccess> kernelAccesses;
  Dram dram;
  BandwidthCalendar sram;
  LastLevelCache cache;
  uint64_t dramRead = 0, dramWrite = 0, sramRead = 0, sramWrite = 0;
  uint64_t latency = 0;
  uint64_t fillArrival = 0;
};

} // namespace mtia

#endif // MTIA_SIM_MEMORYSYSTEM_H
