//===- Cache.cpp - The SRAM's hardware-cache part -------------------------===//

#include "Cache.h"

#include "HugePageArray.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/Compiler.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

using namespace mtia;

namespace {

using SetState = LastLevelCache::SetState;
using WayRecord = LastLevelCache::WayRecord;

/// The fill time of a sector that is not in the cache.
constexpr uint64_t kAbsent = UINT64_MAX - 1;

/// The `sectors` of a WayRecord whose line keeps its fill times in the
/// mixed-fill table. No mask equals it: masks are used only for lines of
/// fewer than 32 sectors.
constexpr uint32_t kMixedFills = UINT32_MAX;

/// What findLine returns for a line that is not in the cache.
constexpr uint64_t kAbsentLine = UINT64_MAX;

/// Set storage kept from launch to launch by each host thread, which runs
/// one launch at a time: a full cache's storage is tens of megabytes, which
/// fresh pages for every launch would cost more to fault in than the cache
/// costs to simulate. A launch only clears the sets' states; the rest is
/// read only where those and `lastWay` say that the launch has written
/// it.
struct SetStorage {
  uint64_t numSets = 0, ways = 0, sectorsPerLine = 0;
  HugePageArray allocation;
  WayRecord *records = nullptr;
  uint64_t *mixedFills = nullptr;
  uint8_t *recency = nullptr;
  SetState *sets = nullptr;
};

thread_local SetStorage storage;

/// The mask of the sectors [offset, offset + count) of a line.
uint64_t sectorMask(uint64_t offset, uint64_t count) {
  return ((uint64_t(1) << count) - 1) << offset;
}

/// The index in the records of the way holding `line`, which lies in `set`,
/// or kAbsentLine.
uint64_t findLine(const LastLevelCache::Layout &l, uint64_t line,
                  uint64_t set) {
  const uint8_t way = l.lastWay[line - l.firstLine];
  if (way == 0)
    return kAbsentLine;
  const uint64_t slot = (way - 1) * l.numSets + set;
  return l.records[slot].line == line ? slot : kAbsentLine;
}

/// Whether the launch has installed none of the lines [firstLine,
/// lastLine], which are then absent.
bool neverInstalled(const LastLevelCache::Layout &l, uint64_t firstLine,
                    uint64_t lastLine) {
  // An OR of all the lines' hints, which the compiler vectorises.
  uint8_t installed = 0;
  for (uint64_t i = firstLine; i <= lastLine; ++i)
    installed |= l.lastWay[i - l.firstLine];
  return installed == 0;
}

/// Marks `way`, which holds a line of the set with the state `state` and
/// the recency ring `ring`, most recently used.
void makeMostRecent(const LastLevelCache::Layout &l, SetState state,
                    uint8_t *ring, uint8_t way) {
  if (ring[state.head] == way)
    return;
  // The ring's meaningful places are [head, ways), then, in a full set,
  // [0, head).
  uint64_t place = std::find(ring + state.head, ring + l.ways, way) - ring;
  if (place == l.ways)
    place = std::find(ring, ring + state.head, way) - ring;
  // The ways more recent than it move one place older.
  while (place != state.head) {
    const uint64_t newer = (place == 0 ? l.ways : place) - 1;
    ring[place] = ring[newer];
    place = newer;
  }
  ring[place] = way;
}

/// Marks `line`, which lies in `set` and is present in `slot` (a way's
/// index in the records), most recently used, and gives its sectors
/// [offset, offset + count) that are absent the fill time `arrival`.
LLVM_ATTRIBUTE_NOINLINE void touchLine(const LastLevelCache::Layout &l,
                                       uint64_t line, uint64_t set,
                                       uint64_t slot, uint64_t offset,
                                       uint64_t count, uint64_t arrival) {
  makeMostRecent(l, l.sets[set], l.recency + set * l.ways,
                 l.lastWay[line - l.firstLine] - 1);
  WayRecord &record = l.records[slot];
  uint64_t *fills = l.mixedFills + slot * l.sectorsPerLine;
  if (record.sectors != kMixedFills) {
    const uint64_t added = sectorMask(offset, count) & ~record.sectors;
    if (added == 0)
      return;
    if (record.arrival == arrival) {
      record.sectors |= added;
      return;
    }
    // The line's sectors now arrive at different times: spread them into
    // the mixed-fill table.
    for (uint64_t i = 0; i < l.sectorsPerLine; ++i)
      fills[i] = record.sectors >> i & 1 ? record.arrival : kAbsent;
    record.sectors = kMixedFills;
  }
  for (uint64_t i = offset; i < offset + count; ++i)
    if (fills[i] == kAbsent)
      fills[i] = arrival;
}

/// Gives the line just installed in `slot` the sectors [offset, offset +
/// count) with the fill time `arrival` in the mixed-fill table. (It and
/// touchLine are kept out of the loops over lines, which then stay small
/// enough for the compiler to keep their state in registers.)
LLVM_ATTRIBUTE_NOINLINE void fillMixed(const LastLevelCache::Layout &l,
                                       uint64_t slot, uint64_t offset,
                                       uint64_t count, uint64_t arrival) {
  l.records[slot].sectors = kMixedFills;
  uint64_t *fills = l.mixedFills + slot * l.sectorsPerLine;
  for (uint64_t i = 0; i < l.sectorsPerLine; ++i)
    fills[i] = i - offset < count ? arrival : kAbsent;
}

/// Puts `line`, which lies in `set` and is absent, in the place of the
/// set's least recently used line or in its next empty way (counting in
/// `evictions` a line it replaces), marks it most recently used and gives
/// it the sectors [offset, offset + count) with the fill time `arrival`.
void installLine(const LastLevelCache::Layout &l, uint64_t line, uint64_t set,
                 uint64_t offset, uint64_t count, uint64_t arrival,
                 uint64_t &evictions) {
  SetState &state = l.sets[set];
  uint8_t *ring = l.recency + set * l.ways;
  // The place before the most recently used way is the least recently used
  // way's, or unused while the set has empty ways: the line's way takes it
  // and becomes the most recently used.
  state.head = (state.head == 0 ? l.ways : state.head) - 1;
  uint8_t way;
  uint64_t slot;
  if (state.filledWays < l.ways) {
    way = state.filledWays++;
    ring[state.head] = way;
    slot = way * l.numSets + set;
  } else {
    way = ring[state.head];
    slot = way * l.numSets + set;
    ++evictions;
  }
  l.lastWay[line - l.firstLine] = way + 1;
  WayRecord &record = l.records[slot];
  record.line = line;
  if (l.sectorMasks && arrival <= UINT32_MAX) {
    record.arrival = static_cast<uint32_t>(arrival);
    record.sectors = static_cast<uint32_t>(sectorMask(offset, count));
    return;
  }
  fillMixed(l, slot, offset, count, arrival);
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
  layout.sectorMasks = layout.sectorsPerLine < 32;
}

void LastLevelCache::cover(uint64_t begin, uint64_t end) {
  const uint64_t numSets = layout.numSets, ways = layout.ways;
  const uint64_t sectorsPerLine = layout.sectorsPerLine;
  if (storage.numSets != numSets || storage.ways != ways ||
      storage.sectorsPerLine != sectorsPerLine) {
    storage.numSets = numSets;
    storage.ways = ways;
    storage.sectorsPerLine = sectorsPerLine;
    // The storage is left uninitialised, so the host maps only the pages
    // the launches touch: the mixed-fill table's only where lines have
    // sectors filled at different times.
    const uint64_t slots = numSets * ways;
    storage.allocation.reserve(slots * sizeof(WayRecord) +
                               slots * sectorsPerLine * sizeof(uint64_t) +
                               slots + numSets * sizeof(SetState));
    uint8_t *next = storage.allocation.data();
    storage.records = reinterpret_cast<WayRecord *>(next);
    next += slots * sizeof(WayRecord);
    storage.mixedFills = reinterpret_cast<uint64_t *>(next);
    next += slots * sectorsPerLine * sizeof(uint64_t);
    storage.recency = next;
    storage.sets = reinterpret_cast<SetState *>(next + slots);
  }
  std::memset(storage.sets, 0, numSets * sizeof(SetState));
  layout.records = storage.records;
  layout.mixedFills = storage.mixedFills;
  layout.recency = storage.recency;
  layout.sets = storage.sets;
  layout.firstLine = begin / lineBytes;
  lastWay.assign((end + lineBytes - 1) / lineBytes - layout.firstLine, 0);
  layout.lastWay = lastWay.data();
}

CacheReadOutcome
LastLevelCache::read(uint64_t firstSector, uint64_t count, uint64_t start,
                     llvm::function_ref<uint64_t(uint64_t, uint64_t)> fetch) {
  const Layout l = layout;
  CacheReadOutcome outcome;
  // A piece of the read with at most one line per set may look all its
  // lines up before installing any, since none can evict another: pieces
  // end where the lines wrap around the sets.
  const uint64_t sweep = l.numSets * l.sectorsPerLine;
  while (count > 0) {
    const uint64_t piece = std::min(count, sweep - firstSector % sweep);
    const bool absent =
        neverInstalled(l, firstSector / l.sectorsPerLine,
                       (firstSector + piece - 1) / l.sectorsPerLine);
    uint64_t missing = absent ? piece : 0;
    if (!absent)
      forEachLine(
          l, firstSector, piece,
          [&](uint64_t line, uint64_t set, uint64_t offset, uint64_t inLine) {
            const uint64_t slot = findLine(l, line, set);
            if (slot == kAbsentLine) {
              missing += inLine;
              return;
            }
            const WayRecord &record = l.records[slot];
            if (record.sectors != kMixedFills) {
              const uint64_t wanted = sectorMask(offset, inLine);
              missing += llvm::popcount(wanted & ~record.sectors);
              if ((wanted & record.sectors) != 0 && record.arrival > start)
                outcome.inFlightUntil =
                    std::max<uint64_t>(outcome.inFlightUntil, record.arrival);
              return;
            }
            const uint64_t *fills =
                l.mixedFills + slot * l.sectorsPerLine + offset;
            for (uint64_t i = 0; i < inLine; ++i) {
              if (fills[i] == kAbsent)
                ++missing;
              else if (fills[i] > start)
                outcome.inFlightUntil =
                    std::max(outcome.inFlightUntil, fills[i]);
            }
          });
    install(firstSector, piece, missing > 0 ? fetch(firstSector, missing) : 0, absent);
    outcome.missSectors += missing;
    outcome.hitSectors += piece - missing;
    firstSector += piece;
    count -= piece;
  }
  hitCount += outcome.hitSectors;
  missCount += outcome.missSectors;
  return outcome;
}

void LastLevelCache::write(uint64_t firstSector, uint64_t count,
                           uint64_t arrival) {
  install(firstSector, count, arrival,
          neverInstalled(layout, firstSector / layout.sectorsPerLine,
                         (firstSector + count - 1) / layout.sectorsPerLine));
}

void LastLevelCache::install(uint64_t firstSector, uint64_t count,
                             uint64_t arrival, bool absent) {
  const Layout l = layout;
  uint64_t evictions = 0;
  forEachLine(
      l, firstSector, count,
      [&](uint64_t line, uint64_t set, uint64_t offset, uint64_t inLine) {
        const uint64_t slot = absent ? kAbsentLine : findLine(l, line, set);
        if (slot == kAbsentLine) {
          installLine(l, line, set, offset, inLine, arrival, evictions);
          return;
        }
        touchLine(l, line, set, slot, offset, inLine, arrival);
      });
  evictionCount += evictions;
}
