//===- BandwidthCalendar.h - Booking of a shared bandwidth ------*- C++ -*-===//
//
// A bandwidth shared by several agents (a DRAM channel, the chip's SRAM, a
// PE's local-memory port), booked in buckets of fixed length so that the rate
// the agents reach together does not depend on the order they are stepped in.
// A calendar may also lose capacity the way a DRAM channel does: in periodic
// windows (refresh) and to bus turnarounds between reads and writes.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIM_BANDWIDTHCALENDAR_H
#define MTIA_SIM_BANDWIDTHCALENDAR_H

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace mtia {

/// The smallest whole number of cycles not below `cycles` (which is not
/// negative): std::ceil, without the library call that hosts without
/// SSE4.1 make of it on the calendars' hot path.
inline uint64_t ceilCycles(double cycles) {
  const auto whole = static_cast<uint64_t>(cycles);
  return whole + (static_cast<double>(whole) < cycles ? 1 : 0);
}

/// The state of one bucket of a calendar.
struct CalendarBucket {
  /// The capacity the bucket has spent: its bytes, their turnarounds and
  /// its blocked cycles.
  double used = 0;
  /// For a full bucket, a later bucket no earlier than the first one that
  /// is not full; 0 for a bucket that is not full.
  uint64_t nextOpen = 0;
};

/// A bucket of a calendar that charges turnarounds between directions.
struct DirectedCalendarBucket : CalendarBucket {
  /// The bytes read and written in the bucket.
  double reads = 0, writes = 0;
};

/// Books transfers against a shared bandwidth, in buckets of fixed length;
/// a transfer fills the earliest buckets with spare capacity at or after
/// its start. A `Directed` calendar also records each bucket's reads and
/// writes, to charge their turnarounds (a separate kind, so that the many
/// calendars without turnarounds keep small buckets).
template <bool Directed> class BasicBandwidthCalendar {
  using Bucket =
      std::conditional_t<Directed, DirectedCalendarBucket, CalendarBucket>;

public:
  /// A bandwidth of `bytesPerCycle`, booked in buckets of `bucketCycles`
  /// (a power of two): the model's time resolution of the shared
  /// bandwidth, within which the order of the bytes is not recorded.
  explicit BasicBandwidthCalendar(double bytesPerCycle = 1,
                                  uint64_t bucketCycles = 64)
      : bytesPerCycle(bytesPerCycle), bucketCycles(bucketCycles),
        bucketShift(llvm::Log2_64(bucketCycles)),
        bucketCapacity(bytesPerCycle * bucketCycles) {
    assert(llvm::isPowerOf2_64(bucketCycles) &&
           "calendar buckets span a power of two of cycles");
  }

  /// Makes the bandwidth unavailable for `length` cycles of every `period`,
  /// from cycle `phase` on (a DRAM channel's refresh). Call it before any
  /// booking.
  void blockPeriodically(uint64_t period, uint64_t length, uint64_t phase) {
    blockPeriod = period;
    blockLength = std::min(length, period);
    blockPhase = phase % period;
  }

  /// Charges `cost` bytes of capacity for every byte of the direction that
  /// has fewer bytes in a bucket (a DRAM channel's read/write turnarounds:
  /// a controller that serves each direction in batches switches twice per
  /// batch of the rarer one).
  void chargeTurnarounds(double cost) {
    static_assert(Directed, "only a directed calendar records directions");
    turnaroundCost = cost;
  }

  /// Returns the cycle at which `bytes` requested at `start` have moved:
  /// never before the whole bandwidth, or the transfer's own rate
  /// `maxBytesPerCycle` (0: none), could move them, since buckets do not
  /// record where in them their bytes moved. A transfer with its own rate
  /// takes no more of a bucket than that rate moves in the bucket's cycles
  /// from its start on. `write` says the direction, which matters only with
  /// turnaround charges.
  uint64_t book(uint64_t start, double bytes, bool write = false,
                double maxBytesPerCycle = 0) {
    if (bytes <= 0)
      return start;
    const double total = bytes;
    const uint64_t startBucket = start >> bucketShift;
    uint64_t bucket = std::max(startBucket, firstPage * kPageBuckets);
    // What the transfer's own rate lets it take of a bucket it spans whole.
    const double wholeBucketLimit =
        maxBytesPerCycle > 0 ? maxBytesPerCycle * double(bucketCycles)
                             : bucketCapacity;
    while (true) {
      // Full buckets would give the transfer nothing.
      bucket = firstOpenFrom(bucket);
      Bucket &entry = bucketAt(bucket);
      double take = std::min(bytes, fit(entry, write));
      if (maxBytesPerCycle > 0)
        take = std::min(take, bucket == startBucket
                                  ? maxBytesPerCycle *
                                        double((bucket + 1) * bucketCycles -
                                               start)
                                  : wholeBucketLimit);
      add(entry, write, take);
      bytes -= take;
      if (bucketCapacity - entry.used < kFullSlack)
        entry.nextOpen = bucket + 1;
      if (bytes <= 0) {
        const double rate = maxBytesPerCycle > 0
                                ? std::min(bytesPerCycle, maxBytesPerCycle)
                                : bytesPerCycle;
        const uint64_t alone = start + ceilCycles(total / rate);
        const uint64_t end =
            bucket * bucketCycles +
            ceilCycles(entry.used / bucketCapacity * bucketCycles);
        return std::max(end, alone);
      }
      ++bucket;
    }
  }

  /// Drops the buckets before `cycle`, which no later booking starts at.
  void forgetBefore(uint64_t cycle) {
    const uint64_t page = (cycle >> bucketShift) / kPageBuckets;
    if (page <= firstPage)
      return;
    const uint64_t dead = std::min<uint64_t>(page - firstPage, pages.size());
    // The dropped pages' storage is kept for the pages bookings reach next,
    // so that a long launch does not return memory to the host and fault
    // it in again.
    for (uint64_t i = 0; i < dead; ++i)
      if (!pages[i].empty())
        sparePages.push_back(std::move(pages[i]));
    pages.erase(pages.begin(), pages.begin() + dead);
    firstPage = page;
  }

private:
  /// How many bytes of direction `write` the bucket can still take.
  double fit(const Bucket &entry, bool write) const {
    const double spare = std::max(bucketCapacity - entry.used, 0.0);
    if constexpr (Directed) {
      if (turnaroundCost == 0 || spare == 0)
        return spare;
      // Bytes that keep this direction the rarer one cost their
      // turnarounds too; bytes beyond that cost only themselves.
      const double own = write ? entry.writes : entry.reads;
      const double other = write ? entry.reads : entry.writes;
      const double costly = std::max(other - own, 0.0);
      const double rate = 1 + turnaroundCost;
      if (spare <= costly * rate)
        return spare / rate;
      return costly + (spare - costly * rate);
    } else {
      return spare;
    }
  }

  void add(Bucket &entry, bool write, double bytes) {
    if constexpr (Directed) {
      const double rarerBefore = std::min(entry.reads, entry.writes);
      (write ? entry.writes : entry.reads) += bytes;
      entry.used += bytes + turnaroundCost *
                                (std::min(entry.reads, entry.writes) -
                                 rarerBefore);
    } else {
      entry.used += bytes;
    }
  }

  /// The bucket `bucket`, which is not before the first page.
  Bucket &bucketAt(uint64_t bucket) {
    const uint64_t page = bucket / kPageBuckets - firstPage;
    if (page >= pages.size())
      pages.resize(page + 1);
    std::vector<Bucket> &buckets = pages[page];
    if (buckets.empty())
      allocatePage(buckets, (firstPage + page) * kPageBuckets);
    return buckets[bucket % kPageBuckets];
  }

  /// Creates the buckets of a page whose first bucket is `first`, with
  /// their blocked cycles spent.
  void allocatePage(std::vector<Bucket> &buckets, uint64_t first) {
    if (!sparePages.empty()) {
      buckets = std::move(sparePages.back());
      sparePages.pop_back();
      std::fill(buckets.begin(), buckets.end(), Bucket());
    } else {
      buckets.resize(kPageBuckets);
    }
    if (blockLength == 0)
      return;
    for (uint64_t i = 0; i < kPageBuckets; ++i) {
      const uint64_t begin = (first + i) * bucketCycles;
      const uint64_t end = begin + bucketCycles;
      // The windows that may overlap the bucket start at most one window
      // length before it.
      uint64_t blocked = 0;
      const uint64_t from = begin > blockPhase + blockLength
                                ? (begin - blockPhase - blockLength) /
                                      blockPeriod
                                : 0;
      for (uint64_t window = from;; ++window) {
        const uint64_t windowBegin = blockPhase + window * blockPeriod;
        if (windowBegin >= end)
          break;
        const uint64_t windowEnd = windowBegin + blockLength;
        if (windowEnd > begin)
          blocked += std::min(end, windowEnd) - std::max(begin, windowBegin);
      }
      Bucket &entry = buckets[i];
      entry.used = std::min(bucketCapacity, blocked * bytesPerCycle);
      if (bucketCapacity - entry.used < kFullSlack)
        entry.nextOpen = first + i + 1;
    }
  }

  /// The first bucket from `bucket` on that is not full. The full buckets
  /// passed on the way are pointed at it, so that later searches skip them
  /// in one step.
  uint64_t firstOpenFrom(uint64_t bucket) {
    if (bucketAt(bucket).nextOpen == 0)
      return bucket;
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

  /// Buckets are stored in pages of this many, allocated as bookings reach
  /// them, so that a calendar booked at far apart times stays small.
  static constexpr uint64_t kPageBuckets = 512;
  /// A bucket with less spare capacity than this many bytes is full, so
  /// that rounding never leaves a bucket open for a sliver.
  static constexpr double kFullSlack = 1e-6;
  double bytesPerCycle;
  /// The bucket length, not a property of the machine.
  uint64_t bucketCycles;
  unsigned bucketShift;
  double bucketCapacity;
  uint64_t blockPeriod = 1, blockLength = 0, blockPhase = 0;
  double turnaroundCost = 0;
  /// The page `pages[0]` stands for; empty pages have no bookings.
  uint64_t firstPage = 0;
  std::vector<std::vector<Bucket>> pages;
  /// The storage of dropped pages, for reuse.
  std::vector<std::vector<Bucket>> sparePages;
};

using BandwidthCalendar = BasicBandwidthCalendar<false>;
using DirectedBandwidthCalendar = BasicBandwidthCalendar<true>;

} // namespace mtia

#endif // MTIA_SIM_BANDWIDTHCALENDAR_H
