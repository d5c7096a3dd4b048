//===- Dram.h - The chip's DRAM channels ------------------------*- C++ -*-===//
//
// A timing model of the chip's LPDDR memory with the structure that makes
// its sustained bandwidth lower than its peak: an address mapping onto
// channels, banks and rows; one bandwidth calendar per channel that loses
// its refresh windows and its read/write turnarounds; per bank an open row,
// whose misses cost an activation, limited per channel by the four-activate
// window and adding the precharge and activation time to the latency.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIM_DRAM_H
#define MTIA_SIM_DRAM_H

#include "BandwidthCalendar.h"

#include "mtia/Target.h"

#include <cstdint>
#include <vector>

namespace mtia {

/// Where an address lies in the DRAM.
struct DramLocation {
  uint32_t channel = 0;
  uint32_t bank = 0;
  uint64_t row = 0;
};

/// Maps addresses onto the channels, banks and rows of a DRAM: consecutive
/// `interleave_bytes` chunks go to consecutive channels, the chunks of one
/// channel fill a row of `row_bytes`, consecutive rows of a channel go to
/// consecutive banks. Channel and bank numbers are permuted by the sum of
/// the higher address digits (in base channels or banks), as controllers
/// hash address bits, so that power-of-two strides spread over channels
/// and banks instead of staying on one.
class DramAddressMap {
public:
  explicit DramAddressMap(const DramStructureDesc &structure);
  DramLocation locate(uint64_t address) const;
  /// The first address after `address` in another interleave chunk.
  uint64_t chunkEnd(uint64_t address) const {
    return (address / interleaveBytes + 1) * interleaveBytes;
  }

private:
  uint64_t interleaveBytes, channels, banks, chunksPerRow;
};

class Dram {
public:
  explicit Dram(const TargetDesc &target);

  /// Books a read or write of `bytes` at `address` (whole DMA transactions)
  /// whose requests leave from `start` on at `requestBytesPerCycle`;
  /// returns when the channels have moved them and raises `latency` to the
  /// access latency of its slowest piece (the DRAM's latency plus, on a row
  /// miss, its precharge and activation).
  uint64_t book(uint64_t start, uint64_t address, uint64_t bytes, bool write,
                double requestBytesPerCycle, uint64_t &latency);

  /// Drops the bookings before `cycle`, which no later booking starts at.
  void forgetBefore(uint64_t cycle);

  /// Row-buffer outcomes of the pieces booked so far.
  uint64_t rowHits() const { return hits; }
  uint64_t rowMisses() const { return misses; }

private:
  struct Channel {
    BandwidthCalendar bus;
    /// Activations, booked one unit each at four per four-activate window.
    BandwidthCalendar activations;
    /// Per bank, the open row plus one (0: the bank is precharged).
    std::vector<uint64_t> openRow;
  };

  DramAddressMap map;
  std::vector<Channel> channels;
  uint64_t baseLatency;
  uint64_t activateCycles, prechargeCycles;
  uint64_t hits = 0, misses = 0;
};

} // namespace mtia

#endif // MTIA_SIM_DRAM_H
