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
    // The full buckets before `firstOpen` would give the transfer nothing.
    uint64_t bucket =
        std::max({start / kBucketCycles, firstPage * kPageBuckets, firstOpen});
    while (true) {
      double &used = bytesIn(bucket);
      double spare = bucketCapacity - used;
      double take = std::min(spare, bytes);
      used += take;
      bytes -= take;
      if (bytes <= 0) {
        uint64_t end = bucket * kBucketCycles +
                       static_cast<uint64_t>(
                           std::ceil(used / bucketCapacity * kBucketCycles));
        skipFullBuckets(bucket);
        return std::max(end, alone);
      }
      ++bucket;
    }
  }

  /// Drops the buckets before `cycle`, which no later booking starts at.
  void forgetBefore(uint64_t cycle) {
    const uint64_t page = cycle / kBucketCycles / kPageBuckets;
    if (page <= firstPage)
      return;
    const uint64_t dead = std::min<uint64_t>(page - firstPage, pages.size());
    pages.erase(pages.begin(), pages.begin() + dead);
    firstPage = page;
    firstOpen = std::max(firstOpen, firstPage * kPageBuckets);
  }

private:
  /// The bytes booked in `bucket`, which is not before the first page.
  double &bytesIn(uint64_t bucket) {
    const uint64_t page = bucket / kPageBuckets - firstPage;
    if (page >= pages.size())
      pages.resize(page + 1);
    std::vector<double> &buckets = pages[page];
    if (buckets.empty())
      buckets.assign(kPageBuckets, 0.0);
    return buckets[bucket % kPageBuckets];
  }

  /// Moves `firstOpen` past the buckets up to `lastBooked` that are full.
  void skipFullBuckets(uint64_t lastBooked) {
    while (firstOpen <= lastBooked && bucketCapacity - bytesIn(firstOpen) == 0)
      ++firstOpen;
  }

  /// The bucket length is the model's time resolution of shared bandwidth,
  /// not a property of the machine.
  static constexpr uint64_t kBucketCycles = 64;
  /// Buckets are stored in pages of this many, allocated as bookings reach
  /// them, so that a calendar booked at far apart times stays small.
  static constexpr uint64_t kPageBuckets = 512;
  double bytesPerCycle;
  double bucketCapacity;
  /// The page `pages[0]` stands for; empty pages have no bookings.
  uint64_t firstPage = 0;
  std::vector<std::vector<double>> pages;
  /// Every bucket from the first page's up to this one is full.
  uint64_t firstOpen = 0;
};

} // namespace mtia

#endif // MTIA_SIM_BANDWIDTHCALENDAR_H
