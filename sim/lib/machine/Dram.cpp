//===- Dram.cpp - The chip's DRAM channels --------------------------------===//
//
// Splits each DRAM transfer into the pieces its address mapping puts on
// one channel and books them there, the consecutive pieces of one row of a
// channel together. Rows stay open until another row of
// their bank is needed (an open-page policy); the open rows follow the order
// in which the simulator hands the pieces over, like the cache's recency.
//
//===----------------------------------------------------------------------===//

#include "Dram.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace mtia;

namespace {

/// The XOR of the `bits`-wide fields of `value`, a permutation of each
/// aligned run of 2^bits consecutive values.
uint64_t foldBits(uint64_t value, unsigned bits) {
  if (bits == 0)
    return 0;
  const uint64_t mask = (uint64_t(1) << bits) - 1;
  uint64_t folded = 0;
  for (; value; value >>= bits)
    folded ^= value & mask;
  return folded;
}

unsigned log2Exact(uint64_t value) {
  return static_cast<unsigned>(__builtin_ctzll(value));
}

uint64_t nsToCycles(double ns, double clockGHz) {
  return static_cast<uint64_t>(std::ceil(ns * clockGHz));
}

/// The buckets of a channel's calendars: the smallest power of two of
/// cycles that holds the controller's reorder window, within which it is
/// taken to reorder the channel's requests, so that the reads and writes of
/// one bucket share its turnarounds and its activations share the
/// four-activate limit.
uint64_t reorderBucketCycles(double windowNs, double clockGHz) {
  return llvm::PowerOf2Ceil(
      std::max<uint64_t>(nsToCycles(windowNs, clockGHz), 1));
}

} // namespace

DramAddressMap::DramAddressMap(const DramStructureDesc &structure)
    : chunkShift(log2Exact(structure.interleaveBytes)),
      channelBits(log2Exact(structure.channels)),
      bankBits(log2Exact(structure.banksPerChannel)),
      rowChunkBits(log2Exact(structure.rowBytes / structure.interleaveBytes)),
      groupShift(chunkShift + channelBits) {}

DramLocation DramAddressMap::locate(uint64_t address) const {
  const uint64_t chunk = address >> chunkShift;
  const uint64_t channelMask = (uint64_t(1) << channelBits) - 1;
  const uint64_t bankMask = (uint64_t(1) << bankBits) - 1;
  const uint64_t rowOfChannel = chunk >> (channelBits + rowChunkBits);
  DramLocation location;
  location.channel = static_cast<uint32_t>(
      (chunk ^ foldBits(chunk >> channelBits, channelBits)) & channelMask);
  location.bank = static_cast<uint32_t>(
      (rowOfChannel ^ foldBits(rowOfChannel >> bankBits, bankBits)) &
      bankMask);
  location.row = rowOfChannel >> bankBits;
  return location;
}

Dram::Dram(const TargetDesc &target)
    : map(target.dramStructure), baseLatency(target.dram.latencyCycles) {
  const DramStructureDesc &structure = target.dramStructure;
  const double clock = target.clockGHz;
  activateCycles = nsToCycles(structure.tRcdNs, clock);
  prechargeCycles = nsToCycles(structure.tRpNs, clock);
  const double channelBytesPerCycle =
      target.dramBytesPerCycle() / structure.channels;
  const uint64_t refreshPeriod = nsToCycles(structure.tRefiNs, clock);
  const uint64_t refreshLength = nsToCycles(structure.tRfcNs, clock);
  // A turnaround idles the channel's bus for its time; a batch of the rarer
  // direction costs two of them, one each way.
  const double turnaroundBytes =
      structure.turnaroundNs * clock * channelBytesPerCycle;
  const double turnaroundCost = 2 * turnaroundBytes / structure.writeBatchBytes;
  const uint64_t bucketCycles =
      reorderBucketCycles(structure.reorderWindowNs, clock);
  channels.resize(structure.channels);
  for (uint32_t c = 0; c < structure.channels; ++c) {
    Channel &channel = channels[c];
    channel.bus = DirectedBandwidthCalendar(channelBytesPerCycle, bucketCycles);
    // The channels refresh in turn, not all at once.
    channel.bus.blockPeriodically(refreshPeriod, refreshLength,
                                  refreshPeriod * c / structure.channels);
    channel.bus.chargeTurnarounds(turnaroundCost);
    channel.activations =
        BandwidthCalendar(4.0 / (structure.tFawNs * clock), bucketCycles);
    channel.openRow.assign(structure.banksPerChannel, 0);
  }
  runs.resize(structure.channels);
}

uint64_t Dram::book(uint64_t start, uint64_t address, uint64_t bytes,
                    bool write, double requestBytesPerCycle,
                    uint64_t &latency) {
  uint64_t finish = start;
  const uint64_t first = address;
  const uint64_t end = address + bytes;
  // Consecutive pieces mostly share a channel group: the group's first
  // piece is located, the others from it.
  uint64_t groupAddress = address;
  DramLocation groupLocation = map.locate(address);
  while (address < end) {
    const uint64_t pieceEnd = std::min(end, map.chunkEnd(address));
    if (!map.sameChannelGroup(address, groupAddress)) {
      groupAddress = address;
      groupLocation = map.locate(address);
    }
    const DramLocation location =
        map.locateSibling(address, groupAddress, groupLocation);
    Run &run = runs[location.channel];
    if (run.pieces && (run.bank != location.bank || run.row != location.row))
      finish = std::max(finish, flush(location.channel, write));
    // The piece is requested when the requests before it have left.
    const uint64_t request =
        start + static_cast<uint64_t>(double(address - first) /
                                      requestBytesPerCycle);
    if (run.pieces == 0)
      openRun(location, request, latency);
    else
      ++hits;
    ++run.pieces;
    run.bytes += double(pieceEnd - address);
    run.lastRequest = request;
    address = pieceEnd;
  }
  for (uint32_t c = 0; c < runs.size(); ++c)
    if (runs[c].pieces)
      finish = std::max(finish, flush(c, write));
  return finish;
}

void Dram::openRun(const DramLocation &location, uint64_t request,
                   uint64_t &latency) {
  Channel &channel = channels[location.channel];
  Run &run = runs[location.channel];
  run.bank = location.bank;
  run.row = location.row;
  run.firstRequest = request;
  run.dataStart = request;
  uint64_t &open = channel.openRow[location.bank];
  uint64_t runLatency = baseLatency;
  if (open == location.row + 1) {
    ++hits;
  } else {
    ++misses;
    // The activation waits for a slot of the channel's four-activate
    // window; a bank with another row open precharges first.
    run.dataStart = channel.activations.book(request, 1);
    runLatency += activateCycles + (open ? prechargeCycles : 0);
    open = location.row + 1;
  }
  latency = std::max(latency, runLatency);
}

uint64_t Dram::flush(uint32_t channel, bool write) {
  Run &run = runs[channel];
  // The pieces arrived evenly from the first request to the last; the
  // channel takes them no faster.
  double rate = 0;
  if (run.pieces > 1 && run.lastRequest > run.firstRequest)
    rate = run.bytes * double(run.pieces - 1) /
           (double(run.pieces) * double(run.lastRequest - run.firstRequest));
  const uint64_t finish =
      channels[channel].bus.book(run.dataStart, run.bytes, write, rate);
  run = Run();
  return finish;
}

void Dram::forgetBefore(uint64_t cycle) {
  for (Channel &channel : channels) {
    channel.bus.forgetBefore(cycle);
    channel.activations.forgetBefore(cycle);
  }
}
