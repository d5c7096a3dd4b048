//===- Cache.cpp - The SRAM's hardware-cache part -------------------------===//

#include "Cache.h"

#include <algorithm>
#include <cstdint>
#include <memory>

using namespace mtia;

namespace {

/// The fill time of a sector that is not in the cache. (A value whose bytes
/// differ keeps the compiler from turning the small fills of a line's
/// sectors into library calls.)
constexpr uint64_t kAbsent = UINT64_MAX - 1;

/// Set storage kept from launch to launch by each host thread, which runs
/// one launch at a time: a full cache's storage is tens of megabytes, which
/// fresh pages for every launch would cost more to fault in than the cache
/// costs to simulate. A set belongs to the current launch only once its
/// epoch is the launch's; until then it reads as empty, so no launch clears
/// the storage.
struct SetStorage {
  uint64_t numSets = 0, setWords = 0;
  std::unique_ptr<uint64_t[]> allocation;
  uint64_t *words = nullptr; // The allocation from a host cache line on.
  std::unique_ptr<uint32_t[]> setEpochs;
  uint32_t epoch = 0;
};

thread_local SetStorage storage;

} // namespace

LastLevelCache::LastLevelCache(uint64_t cacheBytes, uint64_t lineBytes,
                               uint64_t sectorBytes, uint64_t ways)
    : ways(ways), lineBytes(lineBytes) {
  if (cacheBytes == 0)
    return;
  numSets = cacheBytes / lineBytes / ways;
  sectorsPerLine = lineBytes / sectorBytes;
  // Sets are whole host cache lines of eight words, so that a line's fill
  // times, which start a set, never straddle two when they fit in one.
  const uint64_t recencyWords = (3 + 2 * ways + 7) / 8;
  setWords = (ways * (sectorsPerLine + 1) + recencyWords + 7) / 8 * 8;
}

void LastLevelCache::cover(uint64_t begin, uint64_t end) {
  if (storage.numSets != numSets || storage.setWords != setWords) {
    storage.numSets = numSets;
    storage.setWords = setWords;
    // Left uninitialised, so the host maps only the pages sets touch.
    storage.allocation.reset(new uint64_t[numSets * setWords + 8]);
    storage.words = reinterpret_cast<uint64_t *>(
        (reinterpret_cast<uintptr_t>(storage.allocation.get()) + 63) &
        ~uintptr_t(63));
    storage.setEpochs.reset(new uint32_t[numSets]());
    storage.epoch = 0;
  }
  if (++storage.epoch == 0) {
    std::fill_n(storage.setEpochs.get(), numSets, 0);
    storage.epoch = 1;
  }
  words = storage.words;
  setEpochs = storage.setEpochs.get();
  epoch = storage.epoch;
  firstLine = begin / lineBytes;
  residentWay.assign((end + lineBytes - 1) / lineBytes - firstLine, 0);
}

uint64_t *LastLevelCache::sectorsOf(uint64_t line, uint64_t set) {
  uint64_t *fillTimes = words + set * setWords;
  uint64_t *tags = fillTimes + ways * sectorsPerLine;
  uint8_t *recency = reinterpret_cast<uint8_t *>(tags + ways);
  uint8_t &filledWays = recency[0];
  uint8_t &mostRecent = recency[1], &leastRecent = recency[2];
  uint8_t *older = recency + 3, *newer = older + ways;
  if (setEpochs[set] != epoch) {
    setEpochs[set] = epoch;
    filledWays = 0;
  }
  uint8_t &resident = residentWay[line - firstLine];
  uint8_t way;
  if (resident != 0) {
    way = resident - 1;
  } else {
    if (filledWays < ways) {
      // Fill the empty ways in order, each the newest in the recency list.
      way = filledWays++;
      if (way == 0)
        leastRecent = way;
      else
        newer[mostRecent] = way;
      older[way] = mostRecent;
      mostRecent = way;
    } else {
      way = leastRecent;
      residentWay[tags[way] - firstLine] = 0;
      ++evictionCount;
    }
    tags[way] = line;
    resident = way + 1;
    std::fill_n(fillTimes + way * sectorsPerLine, sectorsPerLine, kAbsent);
  }
  if (way != mostRecent) {
    // Unlink the way from the recency list and put it at the front.
    const uint8_t newerWay = newer[way], olderWay = older[way];
    older[newerWay] = olderWay;
    if (way == leastRecent)
      leastRecent = newerWay;
    else
      newer[olderWay] = newerWay;
    newer[mostRecent] = way;
    older[way] = mostRecent;
    mostRecent = way;
  }
  return fillTimes + way * sectorsPerLine;
}

template <typename Visit>
void LastLevelCache::forEachLine(uint64_t firstSector, uint64_t count,
                                 Visit visit) {
  // Consecutive lines fall into consecutive sets, so only the first line
  // needs divisions.
  uint64_t line = firstSector / sectorsPerLine;
  uint64_t set = line % numSets;
  uint64_t offset = firstSector - line * sectorsPerLine;
  while (count > 0) {
    const uint64_t inLine = std::min(count, sectorsPerLine - offset);
    visit(line, set, offset, inLine);
    count -= inLine;
    offset = 0;
    ++line;
    if (++set == numSets)
      set = 0;
  }
}

CacheReadOutcome
LastLevelCache::read(uint64_t firstSector, uint64_t count, uint64_t start,
                     llvm::function_ref<uint64_t(uint64_t)> fetch) {
  CacheReadOutcome outcome;
  // A piece of the read with at most one line per set may look all its
  // lines up before installing any, since none can evict another: pieces
  // end where the lines wrap around the sets.
  const uint64_t sweep = numSets * sectorsPerLine;
  while (count > 0) {
    const uint64_t piece = std::min(count, sweep - firstSector % sweep);
    uint64_t missing = 0;
    forEachLine(
        firstSector, piece,
        [&](uint64_t line, uint64_t set, uint64_t offset, uint64_t inLine) {
          const uint8_t resident = residentWay[line - firstLine];
          if (resident == 0) {
            missing += inLine;
            return;
          }
          const uint64_t *fillTimes =
              words + set * setWords + (resident - 1) * sectorsPerLine + offset;
          for (uint64_t i = 0; i < inLine; ++i) {
            if (fillTimes[i] == kAbsent)
              ++missing;
            else if (fillTimes[i] > start)
              outcome.inFlightUntil =
                  std::max(outcome.inFlightUntil, fillTimes[i]);
          }
        });
    install(firstSector, piece, missing > 0 ? fetch(missing) : 0);
    outcome.missSectors += missing;
    outcome.hitSectors += piece - missing;
    firstSector += piece;
    count -= piece;
  }
  hitCount += outcome.hitSectors;
  missCount += outcome.missSectors;
  return outcome;
}

void LastLevelCache::install(uint64_t firstSector, uint64_t count,
                             uint64_t arrival) {
  forEachLine(
      firstSector, count,
      [&](uint64_t line, uint64_t set, uint64_t offset, uint64_t inLine) {
        uint64_t *fillTimes = sectorsOf(line, set) + offset;
        for (uint64_t i = 0; i < inLine; ++i)
          if (fillTimes[i] == kAbsent)
            fillTimes[i] = arrival;
      });
}
