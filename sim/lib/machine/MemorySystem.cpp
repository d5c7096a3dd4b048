//===- MemorySystem.cpp - The chip's global memory ------------------------===//
//
// Binds the launch's buffers to global addresses, checks accesses against
// them and books transfers on the DRAM and SRAM calendars, letting the
// SRAM's hardware-cache part decide which DRAM transactions the SRAM serves.
//
//===----------------------------------------------------------------------===//

#include "MemorySystem.h"

#include "HostMemory.h"
#include "kernels/Kernels.h"

#include <algorithm>
#include <cstring>
#include <optional>

using namespace mtia;

namespace {

/// The simulator's address map, not a property of the chip: the first
/// buffer's address, and the page that buffers are aligned to with at least
/// one unmapped page between them, so that an overrun never lands in a
/// neighbour.
constexpr uint64_t kFirstBufferAddress = 0x10000000;
constexpr uint64_t kBufferPageBytes = 4096;

} // namespace

std::vector<uint64_t> MemorySystem::bind(const Program &program,
                                         const std::vector<LaunchArg> &args,
                                         uint8_t *scratch) {
  std::vector<uint64_t> paramValues;
  std::optional<HostMappings> mappings;
  uint64_t next = kFirstBufferAddress;
  uint64_t sramUsed = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const Param &param = program.params[i];
    const LaunchArg &arg = args[i];
    if (arg.kind != param.kind)
      abortLaunch("invalid_launch", "argument " + std::to_string(i) + " ('" +
                                        param.name + "') has the wrong kind");
    if (param.kind == ParamKind::Int) {
      paramValues.push_back(static_cast<uint64_t>(arg.intValue));
      continue;
    }
    if (param.kind == ParamKind::Float) {
      paramValues.push_back(0);
      continue;
    }
    if (arg.offset > arg.bytes)
      abortLaunch("invalid_launch",
                  "the pointer of parameter '" + param.name + "' points " +
                      std::to_string(arg.offset) + " bytes into a buffer of " +
                      std::to_string(arg.bytes) + " bytes");
    // Host memory that cannot be read would fault at the first copy, and
    // memory that cannot be written at the first store, whatever the
    // caller's array says.
    if (!mappings && arg.bytes)
      mappings.emplace();
    const HostAccess access =
        arg.bytes ? mappings->access(arg.data, arg.bytes) : HostAccess();
    if (!access.readable)
      abortLaunch("invalid_launch",
                  "the buffer of parameter '" + param.name + "' (" +
                      std::to_string(arg.bytes) + " bytes at host address " +
                      hex(reinterpret_cast<uintptr_t>(arg.data)) +
                      ") is not readable host memory");
    GlobalBuffer buffer;
    buffer.base = next;
    buffer.bytes = arg.bytes;
    buffer.host = arg.data;
    buffer.name = param.name;
    buffer.space = param.space;
    buffer.readOnly = arg.readOnly || !access.writable;
    buffer.hostReadOnly = !access.writable;
    if (param.space == MemorySpace::Sram)
      sramUsed += arg.bytes;
    next += (arg.bytes + kBufferPageBytes + kBufferPageBytes - 1) /
            kBufferPageBytes * kBufferPageBytes;
    paramValues.push_back(buffer.base + arg.offset);
    buffers.push_back(std::move(buffer));
  }
  // The runtime places the scratch, a slot per PE, in the SRAM's
  // software-managed part when it fits beside the SRAM buffers, else in
  // DRAM.
  if (program.scratchBytes) {
    const uint64_t bytes = program.scratchBytes * target.numPEs();
    GlobalBuffer buffer;
    buffer.base = scratchBase = next;
    buffer.bytes = bytes;
    buffer.host = scratch;
    buffer.name = "scratch";
    buffer.space = sramUsed + bytes <= target.sramScratchBytes()
                       ? MemorySpace::Sram
                       : MemorySpace::Dram;
    if (buffer.space == MemorySpace::Sram)
      sramUsed += bytes;
    next += (bytes + kBufferPageBytes + kBufferPageBytes - 1) /
            kBufferPageBytes * kBufferPageBytes;
    buffers.push_back(std::move(buffer));
  }
  hostOverlaps.resize(buffers.size());
  for (uint32_t i = 0; i < buffers.size(); ++i)
    for (uint32_t j = 0; j < buffers.size(); ++j)
      if (buffers[i].host < buffers[j].host + buffers[j].bytes &&
          buffers[j].host < buffers[i].host + buffers[i].bytes)
        hostOverlaps[i].push_back(j);
  aliasesIn.assign(buffers.size(), 0);
  if (sramUsed > target.sramScratchBytes())
    abortLaunch("invalid_launch",
                "the buffers placed in SRAM need " + std::to_string(sramUsed) +
                    " bytes but " + target.name + " has " +
                    std::to_string(target.sramScratchBytes()) +
                    " (its SRAM's software-managed part; " +
                    std::to_string(target.sramCache.bytes) +
                    " bytes are hardware cache)");
  if (cache.enabled())
    cache.cover(kFirstBufferAddress, next);
  return paramValues;
}

std::string MemorySystem::describeAddress(uint64_t address) const {
  const GlobalBuffer *nearest = nullptr;
  uint64_t bestDistance = UINT64_MAX;
  for (const GlobalBuffer &buffer : buffers) {
    uint64_t distance = address < buffer.base ? buffer.base - address
                        : address >= buffer.base + buffer.bytes
                            ? address - (buffer.base + buffer.bytes) + 1
                            : 0;
    if (distance < bestDistance) {
      bestDistance = distance;
      nearest = &buffer;
    }
  }
  if (!nearest)
    return "no buffers are bound";
  return "nearest buffer '" + nearest->name + "' spans [" + hex(nearest->base) +
         ", " + hex(nearest->base + nearest->bytes) + ") (" +
         std::to_string(nearest->bytes) + " bytes)";
}

const GlobalBuffer *MemorySystem::findBuffer(uint64_t address,
                                             uint64_t bytes) const {
  for (const GlobalBuffer &buffer : buffers)
    if (address >= buffer.base && bytes <= buffer.bytes &&
        address - buffer.base <= buffer.bytes - bytes)
      return &buffer;
  return nullptr;
}

const GlobalBuffer &MemorySystem::checkedBuffer(uint64_t address,
                                                uint64_t bytes, bool write,
                                                const PEState &pe,
                                                const Command &cmd,
                                                const char *what,
                                                bool forKernel) {
  if (const GlobalBuffer *buffer = findBuffer(address, bytes)) {
    if (write && buffer->readOnly)
      diagnostics.abortAt(
          "read_only",
          std::string(what) + " of " + std::to_string(bytes) +
              " bytes at address " + hex(address) +
              " into the read-only buffer '" + buffer->name + "'" +
              (buffer->hostReadOnly ? " (its host memory is not writable)"
                                    : ""),
          pe, cmd);
    const uint8_t *host = buffer->host + (address - buffer->base);
    if (!forKernel && !kernelAccesses.empty())
      waitForKernelAccesses(*buffer, host, bytes, write);
    if (write && !liveAliases.empty())
      materialiseOverlapping(*buffer, host, bytes);
    return *buffer;
  }
  diagnostics.abortAt("out_of_bounds",
                      std::string("out-of-bounds ") + what + " of " +
                          std::to_string(bytes) + " bytes at address " +
                          hex(address) + "; " + describeAddress(address),
                      pe, cmd);
}

const GlobalBuffer &MemorySystem::atomic(uint64_t address, AtomicFn fn,
                                         DType type, const uint8_t *value,
                                         const uint8_t *compare,
                                         uint8_t *previous, const PEState &pe,
                                         const Command &cmd) {
  const unsigned esize = dtypeSize(type);
  const GlobalBuffer &buffer =
      checkedBuffer(address, esize, true, pe, cmd, "atomic access");
  if (address % esize != 0)
    diagnostics.abortAt("misaligned_dma",
                        "atomic access at " + hex(address) +
                            " is not aligned to " + std::to_string(esize) +
                            " bytes",
                        pe, cmd);
  uint8_t *host = buffer.host + (address - buffer.base);
  std::memcpy(previous, host, esize);
  uint8_t result[8];
  switch (fn) {
  case AtomicFn::AXchg:
    std::memcpy(result, value, esize);
    break;
  case AtomicFn::ACas:
    std::memcpy(result,
                std::memcmp(previous, compare, esize) == 0 ? value : previous,
                esize);
    break;
  default: {
    static constexpr BinaryFn kFns[] = {
        BinaryFn::Add,  BinaryFn::Max, BinaryFn::Min, BinaryFn::MaxU,
        BinaryFn::MinU, BinaryFn::And, BinaryFn::Or,  BinaryFn::Xor};
    BinaryFn binary = kFns[static_cast<int>(fn)];
    // Float max/min ignore NaN operands like Triton's atomics.
    if (isFloat(type) && binary == BinaryFn::Max)
      binary = BinaryFn::MaxNum;
    if (isFloat(type) && binary == BinaryFn::Min)
      binary = BinaryFn::MinNum;
    if (!binaryFnSupports(binary, type))
      diagnostics.abortAt("invalid_program",
                          std::string("atomic ") + binaryFnName(binary) +
                              " does not apply to " + dtypeName(type),
                          pe, cmd);
    simdBinary(binary, type, result, previous, value, 1);
    break;
  }
  }
  std::memcpy(host, result, esize);
  return buffer;
}

void MemorySystem::aliasHost(HostAlias &alias, uint8_t *local,
                             const GlobalBuffer &buffer, const uint8_t *host,
                             uint64_t bytes) {
  alias.local = local;
  alias.host = host;
  alias.bytes = bytes;
  alias.buffer = indexOf(buffer);
  alias.slot = static_cast<uint32_t>(liveAliases.size());
  liveAliases.push_back(&alias);
  ++aliasesIn[alias.buffer];
}

void MemorySystem::materialise(HostAlias &alias) {
  std::memcpy(alias.local, alias.host, alias.bytes);
  dropAlias(alias);
}

void MemorySystem::dropAlias(HostAlias &alias) {
  HostAlias *last = liveAliases.back();
  last->slot = alias.slot;
  liveAliases[alias.slot] = last;
  liveAliases.pop_back();
  --aliasesIn[alias.buffer];
  alias.host = nullptr;
}

void MemorySystem::accessForKernel(uint32_t buffer, const uint8_t *host,
                                   uint64_t bytes, bool write) {
  while (!kernelAccesses.empty() &&
         kernels.hasRun(kernelAccesses.front().kernel))
    kernelAccesses.pop_front();
  const uint64_t kernel = kernels.nextNumber();
  // A kernel's consecutive rows make one access.
  if (!kernelAccesses.empty()) {
    KernelAccess &last = kernelAccesses.back();
    if (last.kernel == kernel && last.buffer == buffer &&
        last.write == write && last.host + last.bytes == host) {
      last.bytes += bytes;
      return;
    }
  }
  kernelAccesses.push_back({buffer, host, bytes, kernel, write});
}

void MemorySystem::waitForKernelAccesses(const GlobalBuffer &buffer,
                                         const uint8_t *host, uint64_t bytes,
                                         bool write) {
  const std::vector<uint32_t> &overlaps = hostOverlaps[indexOf(buffer)];
  uint64_t latest = 0;
  for (const KernelAccess &access : kernelAccesses)
    if ((write || access.write) && access.host < host + bytes &&
        host < access.host + access.bytes &&
        std::find(overlaps.begin(), overlaps.end(), access.buffer) !=
            overlaps.end())
      latest = access.kernel;
  if (latest == 0)
    return;
  kernels.waitFor(latest);
  while (!kernelAccesses.empty() && kernelAccesses.front().kernel <= latest)
    kernelAccesses.pop_front();
}

void MemorySystem::materialiseOverlapping(const GlobalBuffer &buffer,
                                          const uint8_t *host, uint64_t bytes) {
  for (uint32_t other : hostOverlaps[indexOf(buffer)]) {
    if (aliasesIn[other] == 0)
      continue;
    // Materialising moves the last live alias into the freed slot, which
    // is then visited again.
    for (size_t i = 0; i < liveAliases.size();) {
      HostAlias &alias = *liveAliases[i];
      if (alias.buffer == other && alias.host < host + bytes &&
          host < alias.host + alias.bytes)
        materialise(alias);
      else
        ++i;
    }
  }
}

double MemorySystem::requestRate(const RequestStream &requests,
                                 uint64_t latency) const {
  const double roundTrip = double(latency + target.dmaLatencyCycles +
                                  2 * requests.hops * target.nocHopCycles);
  const double outstandingBytes =
      double(target.dmaMaxOutstanding) * target.dmaTransactionBytes;
  return std::min(target.nocPeBytesPerCycle,
                  outstandingBytes / std::max(roundTrip, 1.0));
}

uint64_t MemorySystem::bookTransfer(const GlobalBuffer &buffer, bool write,
                                    RequestStream &requests, uint64_t address,
                                    uint64_t bytes) {
  if (cache.enabled() && buffer.space == MemorySpace::Dram)
    return bookCachedTransfer(write, requests, address, bytes);
  const uint64_t start = static_cast<uint64_t>(requests.clock);
  if (buffer.space == MemorySpace::Sram) {
    const double rate = requestRate(requests, target.sram.latencyCycles);
    requests.clock += double(bytes) / rate;
    latency = std::max<uint64_t>(latency, target.sram.latencyCycles);
    (write ? sramWrite : sramRead) += bytes;
    return sram.book(start, static_cast<double>(bytes), write, rate);
  }
  const double rate = requestRate(requests, target.dram.latencyCycles);
  requests.clock += double(bytes) / rate;
  (write ? dramWrite : dramRead) += bytes;
  return dram.book(start, address, bytes, write, rate, latency);
}

uint64_t MemorySystem::bookCachedTransfer(bool write, RequestStream &requests,
                                          uint64_t address, uint64_t bytes) {
  const uint64_t start = static_cast<uint64_t>(requests.clock);
  const uint64_t sectorBytes = target.dmaTransactionBytes;
  const uint64_t firstSector = address / sectorBytes;
  const uint64_t sectors = bytes / sectorBytes;
  const double dramRate = requestRate(requests, target.dram.latencyCycles);
  if (write) {
    // Write-through with allocation: every byte goes on to DRAM, and the
    // cache keeps the sectors for later reads from the time the write has
    // passed.
    requests.clock += double(bytes) / dramRate;
    dramWrite += bytes;
    const uint64_t finish =
        dram.book(start, address, bytes, true, dramRate, latency);
    // The allocation writes the sectors into the SRAM as they pass.
    sram.book(start, static_cast<double>(bytes), true, dramRate);
    cache.write(firstSector, sectors, finish);
    return finish;
  }
  // Hits come from the SRAM, misses from DRAM; a hit whose fill is still in
  // flight is forwarded when the fill arrives. Misses keep their requests
  // outstanding for a DRAM round trip, hits for an SRAM one.
  uint64_t finish = start;
  const CacheReadOutcome outcome = cache.read(
      firstSector, sectors, start,
      [&](uint64_t pieceSector, uint64_t missSectors) {
        // The misses of a piece that also hits are booked from the piece's
        // start: they lie in its lines, so on the same channels but for
        // those of its hits.
        const uint64_t missBytes = missSectors * sectorBytes;
        dramRead += missBytes;
        uint64_t missLatency = 0;
        const uint64_t dramFinish =
            dram.book(start, pieceSector * sectorBytes, missBytes, false,
                      dramRate, missLatency);
        latency = std::max(latency, missLatency);
        finish = std::max(finish, dramFinish);
        // The fill writes the lines into the SRAM as they arrive.
        const uint64_t arrival = dramFinish + missLatency;
        sram.book(arrival, static_cast<double>(missBytes), true);
        return arrival;
      });
  requests.clock += double(outcome.missSectors * sectorBytes) / dramRate;
  if (outcome.hitSectors == 0)
    return finish;
  const uint64_t hitBytes = outcome.hitSectors * sectorBytes;
  const double sramRate = requestRate(requests, target.sram.latencyCycles);
  requests.clock += double(hitBytes) / sramRate;
  latency = std::max<uint64_t>(latency, target.sram.latencyCycles);
  fillArrival = std::max(fillArrival, outcome.inFlightUntil);
  return std::max(finish, sram.book(start, static_cast<double>(hitBytes),
                                    false, sramRate));
}

void MemorySystem::report(SimResult &result) const {
  result.dramReadBytes = dramRead;
  result.dramWriteBytes = dramWrite;
  result.sramReadBytes = sramRead;
  result.sramWriteBytes = sramWrite;
  result.cacheReadBytes = cache.hits() * target.dmaTransactionBytes;
  result.cacheHits = cache.hits();
  result.cacheMisses = cache.misses();
  result.cacheEvictions = cache.evictions();
}
