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
/// consecutive banks. Channel and bank numbers are XORed with the higher
/// address bits folded to their width, as controllers hash address bits, so
/// that power-of-two strides spread over channels and banks instead of
/// staying on one. All the sizes are powers of two (the target loader
/// checks it).
class DramAddressMap {
public:
  explicit DramAddressMap(const DramStructureDesc &structure);
  DramLocation locate(uint64_t address) const;
  /// Whether two addresses lie in one aligned run of `channels` chunks,
  /// whose locations differ only in their channel.
  bool sameChannelGroup(uint64_t a, uint64_t b) const {
    return (a >> groupShift) == (b >> groupShift);
  }
  /// The location of `address` from that of `sibling` in its channel group.
  DramLocation locateSibling(uint64_t address, uint64_t sibling,
                             DramLocation location) const {
    location.channel ^= static_cast<uint32_t>(((address ^ sibling) >>
                                               chunkShift) &
                                              ((uint64_t(1) << channelBits) - 1));
    return location;
  }
  /// The first address after `address` in another interleave chunk.
  uint64_t chunkEnd(uint64_t address) const {
    return ((address >> chunkShift) + 1) << chunkShift;
  }

private:
  unsigned chunkShift, channelBits, bankBits, rowChunkBits, groupShift;
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
    DirectedBandwidthCalendar bus;
    /// Activations, booked one unit each at four per four-activate window.
    BandwidthCalendar activations;
    /// Per bank, the open row plus one (0: the bank is precharged).
    std::vector<uint64_t> openRow;
  };

  /// The pieces of the transfer being booked that go to one row of one
  /// channel, one after the other; booked together.
  struct Run {
    uint32_t pieces = 0;
    uint32_t bank = 0;
    uint64_t row = 0;
    uint64_t firstRequest = 0, lastRequest = 0;
    /// When the row is open for the run's data.
    uint64_t dataStart = 0;
    double bytes = 0;
  };

  /// Starts a run at `location` with a piece requested at `request`:
  /// activates its row unless it is open, and raises `latency` to the
  /// run's access latency.
  void openRun(const DramLocation &location, uint64_t request,
               uint64_t &latency);
  /// Books the run of `channel` and returns when it has moved.
  uint64_t flush(uint32_t channel, bool write);

  DramAddressMap map;
  std::vector<Channel> channels;
  /// Per channel, the run being gathered.
  std::vector<Run> runs;
  uint64_t baseLatency;
  uint64_t activateCycles, prechargeCycles;
  uint64_t hits = 0, misses = 0;
};

} // namespace mtia

#endif // MTIA_SIM_DRAM_H
