//===- Cache.cpp - The SRAM's hardware-cache part -------------------------===//

#include "Cache.h"

#include "HugePageArray.h"

#include <algorithm>
#include <cstdint>

using namespace mtia;

namespace {

/// The fill time of a sector that is not in the cache.
constexpr uint64_t kAbsent = UINT64_MAX - 1;

/// The fixed part of a set's header.
struct SetHeader {
  /// The launch the header belongs to; until it is the current one, the
  /// set reads as empty.
  uint32_t epoch;
  /// The number of ways filled, and the most and the least recently used
  /// way.
  uint8_t filledWays, mostRecent, leastRecent;
};

/// Set storage kept from launch to launch by each host thread, which runs
/// one launch at a time: a full cache's storage is tens of megabytes, which
/// fresh pages for every launch would cost more to fault in than the cache
/// costs to simulate. A set belongs to the current launch only once its
/// header's epoch is the launch's; until then it reads as empty, so no
/// launch clears the storage.
struct SetStorage {
  uint64_t numSets = 0, ways = 0, headerWords = 0, recordWords = 0;
  HugePageArray allocation;
  uint64_t *headers = nullptr;
  uint64_t *records = nullptr;
  uint32_t epoch = 0;
};

thread_local SetStorage storage;

/// Makes every set of the storage read as empty in any launch.
void clearEpochs() {
  for (uint64_t set = 0; set < storage.numSets; ++set)
    reinterpret_cast<SetHeader *>(storage.headers + set * storage.headerWords)
        ->epoch = 0;
}

/// The record of `way` in `set`.
uint64_t *wayRecord(const LastLevelCache::Layout &l, uint64_t set,
                    uint64_t way) {
  return l.records + (way * l.numSets + set) * l.recordWords;
}

/// Returns the fill times of the sectors of `line`, which lies in `set`,
/// and marks the line most recently used. An absent line is `installed` in
/// place of the set's least recently used one (counted in `evictions` if
/// that held a line), and its fill times are left for the caller to set.
uint64_t *touchLine(const LastLevelCache::Layout &l, uint64_t line,
                    uint64_t set, bool &installed, uint64_t &evictions) {
  uint64_t *headerWords = l.headers + set * l.headerWords;
  SetHeader &header = *reinterpret_cast<SetHeader *>(headerWords);
  uint8_t *older = reinterpret_cast<uint8_t *>(headerWords) + sizeof(SetHeader);
  uint8_t *newer = older + l.ways;
  if (header.epoch != l.epoch) {
    header.epoch = l.epoch;
    header.filledWays = 0;
  }
  uint8_t &resident = l.residentWay[line - l.firstLine];
  uint8_t way = resident - 1;
  installed = resident == 0;
  if (installed) {
    bool evicting = false;
    if (header.filledWays < l.ways) {
      // Fill the empty ways in order, each the newest in the recency list.
      way = header.filledWays++;
      if (way == 0)
        header.leastRecent = way;
      else
        newer[header.mostRecent] = way;
      older[way] = header.mostRecent;
      header.mostRecent = way;
    } else {
      way = header.leastRecent;
      evicting = true;
    }
    uint64_t *record = wayRecord(l, set, way);
    if (evicting) {
      l.residentWay[record[0] - l.firstLine] = 0;
      ++evictions;
    }
    record[0] = line;
    resident = way + 1;
  }
  if (way != header.mostRecent) {
    // Unlink the way from the recency list and put it at the front.
    const uint8_t newerWay = newer[way], olderWay = older[way];
    older[newerWay] = olderWay;
    if (way == header.leastRecent)
      header.leastRecent = newerWay;
    else
      newer[olderWay] = newerWay;
    newer[header.mostRecent] = way;
    older[way] = header.mostRecent;
    header.mostRecent = way;
  }
  return wayRecord(l, set, way) + 1;
}

/// Calls `visit(line, set, offset, count)` for the sectors [firstSector,
/// firstSector + count) line by line, with the offset in the line of the
/// first sector visited and the number of sectors visited.
template <typename Visit>
void forEachLine(const LastLevelCache::Layout &l, uint64_t firstSector,
                 uint64_t count, Visit visit) {
  // Consecutive lines fall into consecutive sets, so only the first line
  // needs divisions.
  uint64_t line = firstSector / l.sectorsPerLine;
  uint64_t set = line % l.numSets;
  uint64_t offset = firstSector - line * l.sectorsPerLine;
  while (count > 0) {
    const uint64_t inLine = std::min(count, l.sectorsPerLine - offset);
    visit(line, set, offset, inLine);
    count -= inLine;
    offset = 0;
    ++line;
    if (++set == l.numSets)
      set = 0;
  }
}

} // namespace

LastLevelCache::LastLevelCache(uint64_t cacheBytes, uint64_t lineBytes,
                               uint64_t sectorBytes, uint64_t ways)
    : lineBytes(lineBytes) {
  if (cacheBytes == 0)
    return;
  layout.numSets = cacheBytes / lineBytes / ways;
  layout.ways = ways;
  layout.sectorsPerLine = lineBytes / sectorBytes;
  layout.headerWords = (sizeof(SetHeader) + 2 * ways + 7) / 8;
  layout.recordWords = 1 + layout.sectorsPerLine;
}

void LastLevelCache::cover(uint64_t begin, uint64_t end) {
  const uint64_t numSets = layout.numSets, ways = layout.ways;
  const uint64_t headerWords = layout.headerWords;
  const uint64_t recordWords = layout.recordWords;
  if (storage.numSets != numSets || storage.ways != ways ||
      storage.recordWords != recordWords) {
    storage.numSets = numSets;
    storage.ways = ways;
    storage.headerWords = headerWords;
    storage.recordWords = recordWords;
    // The records are left uninitialised, so the host maps only the pages
    // sets touch.
    const uint64_t headerTotal = numSets * headerWords;
    storage.allocation.reserve(
        (headerTotal + numSets * ways * recordWords) * sizeof(uint64_t));
    storage.headers = reinterpret_cast<uint64_t *>(storage.allocation.data());
    storage.records = storage.headers + headerTotal;
    clearEpochs();
    storage.epoch = 0;
  }
  if (++storage.epoch == 0) {
    clearEpochs();
    storage.epoch = 1;
  }
  layout.headers = storage.headers;
  layout.records = storage.records;
  layout.epoch = storage.epoch;
  layout.firstLine = begin / lineBytes;
  residentWay.assign((end + lineBytes - 1) / lineBytes - layout.firstLine, 0);
  layout.residentWay = residentWay.data();
}

CacheReadOutcome
LastLevelCache::read(uint64_t firstSector, uint64_t count, uint64_t start,
                     llvm::function_ref<uint64_t(uint64_t)> fetch) {
  const Layout l = layout;
  CacheReadOutcome outcome;
  // A piece of the read with at most one line per set may look all its
  // lines up before installing any, since none can evict another: pieces
  // end where the lines wrap around the sets.
  const uint64_t sweep = l.numSets * l.sectorsPerLine;
  while (count > 0) {
    const uint64_t piece = std::min(count, sweep - firstSector % sweep);
    uint64_t missing = 0;
    forEachLine(
        l, firstSector, piece,
        [&](uint64_t line, uint64_t set, uint64_t offset, uint64_t inLine) {
          const uint8_t resident = l.residentWay[line - l.firstLine];
          if (resident == 0) {
            missing += inLine;
            return;
          }
          const uint64_t *fillTimes =
              wayRecord(l, set, resident - 1) + 1 + offset;
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
  const Layout l = layout;
  uint64_t evictions = 0;
  forEachLine(
      l, firstSector, count,
      [&](uint64_t line, uint64_t set, uint64_t offset, uint64_t inLine) {
        bool installed;
        uint64_t *fillTimes = touchLine(l, line, set, installed, evictions);
        if (installed) {
          // A new line holds only the sectors installed now.
          for (uint64_t i = 0; i < l.sectorsPerLine; ++i)
            fillTimes[i] = i - offset < inLine ? arrival : kAbsent;
          return;
        }
        for (uint64_t i = offset; i < offset + inLine; ++i)
          if (fillTimes[i] == kAbsent)
            fillTimes[i] = arrival;
      });
  evictionCount += evictions;
}
