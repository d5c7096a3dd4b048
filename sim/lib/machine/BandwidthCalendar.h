//===- BandwidthCalendar.h - Booking of a shared bandwidth ------*- C++ -*-===//
//
// A bandwidth shared by several agents (the chip's DRAM and SRAM, a PE's
// local-memory port), booked in buckets of fixed length so that the rate the
// agents reach together does not depend on the order they are stepped in.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIM_BANDWIDTHCALENDAR_H
#define MTIA_SIM_BANDWIDTHCALENDAR_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace mtia {

/// Books transfers against a shared bandwidth, in buckets of fixed length;
/// a transfer fills the earliest buckets with spare capacity at or after
/// its start.
class BandwidthCalendar {
public:
  explicit BandwidthCalendar(double bytesPerCycle = 1)
      : bytesPerCycle(bytesPerCycle),
        bucketCapacity(bytesPerCycle * kBucketCycles) {}

  /// Returns the cycle at which `bytes` requested at `start` have moved:
  /// never before the whole bandwidth could move them, since buckets do
  /// not record where in them their bytes moved.
  uint64_t book(uint64_t start, double bytes) {
    if (bytes <= 0)
      return start;
    const uint64_t alone =
        start + static_cast<uint64_t>(std::ceil(bytes / bytesPerCycle));
    uint64_t bucket = std::max(start / kBucketCycles, firstBucket);
    while (true) {
      size_t slot = bucket - firstBucket;
      if (slot >= used.size())
        used.resize(std::max<size_t>(slot + 1, used.size() * 2), 0.0);
      double spare = bucketCapacity - used[slot];
      double take = std::min(spare, bytes);
      used[slot] += take;
      bytes -= take;
      if (bytes <= 0) {
        uint64_t end = bucket * kBucketCycles +
                       static_cast<uint64_t>(std::ceil(
                           used[slot] / bucketCapacity * kBucketCycles));
        return std::max(end, alone);
      }
      ++bucket;
    }
  }

  /// Drops the buckets before `cycle`, which no later booking starts at.
  void forgetBefore(uint64_t cycle) {
    uint64_t bucket = cycle / kBucketCycles;
    if (bucket <= firstBucket)
      return;
    size_t dead = std::min<size_t>(bucket - firstBucket, used.size());
    // Erase in large steps only, to keep the cost amortised.
    if (dead < 1024 || dead * 2 < used.size())
      return;
    used.erase(used.begin(), used.begin() + dead);
    firstBucket += dead;
  }

private:
  /// The bucket length is the model's time resolution of shared bandwidth,
  /// not a property of the machine.
  static constexpr uint64_t kBucketCycles = 64;
  double bytesPerCycle;
  double bucketCapacity;
  uint64_t firstBucket = 0;
  std::vector<double> used;
};

} // namespace mtia

#endif // MTIA_SIM_BANDWIDTHCALENDAR_H
