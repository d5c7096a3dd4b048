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
    uint64_t bucket = std::max(start / kBucketCycles, firstPage * kPageBuckets);
    while (true) {
      // Full buckets would give the transfer nothing.
      bucket = firstOpenFrom(bucket);
      Bucket &entry = bucketAt(bucket);
      double spare = bucketCapacity - entry.used;
      double take = std::min(spare, bytes);
      entry.used += take;
      bytes -= take;
      if (bucketCapacity - entry.used == 0)
        entry.nextOpen = bucket + 1;
      if (bytes <= 0) {
        uint64_t end = bucket * kBucketCycles +
                       static_cast<uint64_t>(std::ceil(
                           entry.used / bucketCapacity * kBucketCycles));
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
  }

private:
  struct Bucket {
    /// The bytes booked in the bucket.
    double used = 0;
    /// For a full bucket, a later bucket no earlier than the first one
    /// that is not full; 0 for a bucket that is not full.
    uint64_t nextOpen = 0;
  };

  /// The bucket `bucket`, which is not before the first page.
  Bucket &bucketAt(uint64_t bucket) {
    const uint64_t page = bucket / kPageBuckets - firstPage;
    if (page >= pages.size())
      pages.resize(page + 1);
    std::vector<Bucket> &buckets = pages[page];
    if (buckets.empty())
      buckets.resize(kPageBuckets);
    return buckets[bucket % kPageBuckets];
  }

  /// The first bucket from `bucket` on that is not full. The full buckets
  /// passed on the way are pointed at it, so that later searches skip them
  /// in one step.
  uint64_t firstOpenFrom(uint64_t bucket) {
    uint64_t open = bucket;
    while (uint64_t next = bucketAt(open).nextOpen)
      open = next;
    while (bucket != open) {
      Bucket &entry = bucketAt(bucket);
      bucket = entry.nextOpen;
      entry.nextOpen = open;
    }
    return open;
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
  std::vector<std::vector<Bucket>> pages;
};

} // namespace mtia

#endif // MTIA_SIM_BANDWIDTHCALENDAR_H
