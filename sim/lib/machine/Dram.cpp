//===- Dram.cpp - The chip's DRAM channels --------------------------------===//
//
// Splits each DRAM transfer into the pieces its address mapping puts on
// one channel and books them there. Rows stay open until another row of
// their bank is needed (an open-page policy); the open rows follow the order
// in which the simulator hands the pieces over, like the cache's recency.
//
//===----------------------------------------------------------------------===//

#include "Dram.h"

#include <algorithm>
#include <cmath>

using namespace mtia;

namespace {

/// The sum of the base-`base` digits of `value`, modulo `base`: a
/// permutation of each aligned run of `base` consecutive values.
uint64_t digitSum(uint64_t value, uint64_t base) {
  uint64_t sum = 0;
  for (; value; value /= base)
    sum += value % base;
  return sum % base;
}

uint64_t nsToCycles(double ns, double clockGHz) {
  return static_cast<uint64_t>(std::ceil(ns * clockGHz));
}

} // namespace

DramAddressMap::DramAddressMap(const DramStructureDesc &structure)
    : interleaveBytes(structure.interleaveBytes),
      channels(structure.channels), banks(structure.banksPerChannel),
      chunksPerRow(structure.rowBytes / structure.interleaveBytes) {}

DramLocation DramAddressMap::locate(uint64_t address) const {
  const uint64_t chunk = address / interleaveBytes;
  const uint64_t inChannel = chunk / channels;
  const uint64_t rowOfChannel = inChannel / chunksPerRow;
  DramLocation location;
  location.channel = static_cast<uint32_t>(
      (chunk % channels + digitSum(chunk / channels, channels)) % channels);
  location.bank = static_cast<uint32_t>(
      (rowOfChannel % banks + digitSum(rowOfChannel / banks, banks)) % banks);
  location.row = rowOfChannel / banks;
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
  channels.resize(structure.channels);
  for (uint32_t c = 0; c < structure.channels; ++c) {
    Channel &channel = channels[c];
    channel.bus = BandwidthCalendar(channelBytesPerCycle);
    // The channels refresh in turn, not all at once.
    channel.bus.blockPeriodically(refreshPeriod, refreshLength,
                                  refreshPeriod * c / structure.channels);
    channel.bus.chargeTurnarounds(turnaroundCost);
    channel.activations =
        BandwidthCalendar(4.0 / (structure.tFawNs * clock));
    channel.openRow.assign(structure.banksPerChannel, 0);
  }
}

uint64_t Dram::book(uint64_t start, uint64_t address, uint64_t bytes,
                    bool write, double requestBytesPerCycle,
                    uint64_t &latency) {
  uint64_t finish = start;
  const uint64_t first = address;
  const uint64_t end = address + bytes;
  while (address < end) {
    const uint64_t pieceEnd = std::min(end, map.chunkEnd(address));
    const DramLocation location = map.locate(address);
    Channel &channel = channels[location.channel];
    uint64_t &open = channel.openRow[location.bank];
    // The piece is requested when the requests before it have left.
    const uint64_t request =
        start + static_cast<uint64_t>(double(address - first) /
                                      requestBytesPerCycle);
    uint64_t dataStart = request;
    uint64_t pieceLatency = baseLatency;
    if (open == location.row + 1) {
      ++hits;
    } else {
      ++misses;
      // The activation waits for a slot of the channel's four-activate
      // window; a bank with another row open precharges first.
      dataStart = channel.activations.book(request, 1);
      pieceLatency += activateCycles + (open ? prechargeCycles : 0);
      open = location.row + 1;
    }
    finish = std::max(finish, channel.bus.book(dataStart,
                                               double(pieceEnd - address),
                                               write));
    latency = std::max(latency, pieceLatency);
    address = pieceEnd;
  }
  return finish;
}

void Dram::forgetBefore(uint64_t cycle) {
  for (Channel &channel : channels) {
    channel.bus.forgetBefore(cycle);
    channel.activations.forgetBefore(cycle);
  }
}
