//===- Cache.h - The SRAM's hardware-cache part -----------------*- C++ -*-===//
//
// A timing-only model of the part of the on-chip SRAM that serves as a
// last-level cache in front of DRAM: a set-associative store of line tags
// with LRU replacement. Lines are the unit of tagging and replacement;
// sectors (one DMA transaction each) are the unit of filling, so a miss
// fetches only the transactions it needs. The cache holds no data: data
// always comes from the host buffers, and the cache only decides which
// transactions cost DRAM and which cost SRAM.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIM_CACHE_H
#define MTIA_SIM_CACHE_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <vector>

namespace mtia {

/// What a read of consecutive sectors found in the cache.
struct CacheReadOutcome {
  /// Sectors already present, whether their fill has arrived or is still
  /// in flight.
  uint64_t hitSectors = 0;
  /// Sectors that were absent and must come from DRAM.
  uint64_t missSectors = 0;
  /// The latest time a hit sector still in flight arrives in the SRAM; 0
  /// when every hit sector had arrived by the start of the read.
  uint64_t inFlightUntil = 0;
};

/// The cache of one launch; it starts empty.
class LastLevelCache {
public:
  /// A cache of `cacheBytes` bytes (0: no cache) in lines of `lineBytes`,
  /// sectors of `sectorBytes` and `ways` (at most 255) lines per set.
  LastLevelCache(uint64_t cacheBytes, uint64_t lineBytes, uint64_t sectorBytes,
                 uint64_t ways);

  bool enabled() const { return layout.numSets != 0; }

  /// Declares the addresses [begin, end) that accesses may touch and
  /// prepares the storage (which may throw std::bad_alloc); call it once,
  /// before any access.
  void cover(uint64_t begin, uint64_t end);

  /// Reads the sectors [firstSector, firstSector + count) (a sector's
  /// number is its address divided by the sector size) at cycle `start`:
  /// marks their lines most recently used, installing absent lines in place
  /// of their sets' least recently used ones, and installs absent sectors
  /// as fills. `fetch(first, absent)` requests the `absent` sectors of the
  /// piece of the read that starts at sector `first` from DRAM and returns
  /// the cycle at which they are in the SRAM; it is called once per piece
  /// of the read with absent sectors (one piece unless the read has more
  /// lines than the cache has sets).
  CacheReadOutcome
  read(uint64_t firstSector, uint64_t count, uint64_t start,
       llvm::function_ref<uint64_t(uint64_t, uint64_t)> fetch);

  /// Installs the sectors [firstSector, firstSector + count) (at least one)
  /// written by a write whose data is in the SRAM at cycle `arrival`, like
  /// a read does; present sectors keep their time.
  void write(uint64_t firstSector, uint64_t count, uint64_t arrival);

  /// Where a set's recency ring starts, and how many of its ways hold
  /// lines (ways 0 to `filledWays` - 1).
  struct SetState {
    uint8_t head, filledWays;
  };

  /// What one way of a set holds.
  struct WayRecord {
    /// The line, while the way holds one.
    uint64_t line;
    /// The fill time of the sectors in `sectors`.
    uint32_t arrival;
    /// The mask of the line's sectors present, all filled at `arrival`; or
    /// kMixedFills (see Cache.cpp) when the way's entry in the mixed-fill
    /// table holds the sectors' fill times instead: when they differ or do
    /// not fit in `arrival`.
    uint32_t sectors;
  };

  /// The cache's geometry and the launch's storage (public for the helpers
  /// in Cache.cpp). Loops copy it into a local: their stores through byte
  /// pointers could alias the members and force the compiler to reload
  /// them.
  struct Layout {
    uint64_t numSets = 0, ways = 0, sectorsPerLine = 0;
    /// Whether a line's sectors fit in the mask of a WayRecord; if not,
    /// every line keeps its fill times in the mixed-fill table.
    bool sectorMasks = false;
    /// The ways' records, way after way and in a way set after set: a read
    /// or write of consecutive lines touches consecutive sets, whose records
    /// in the same way are neighbours.
    WayRecord *records = nullptr;
    /// Per way, in the order of `records`, the fill times of the sectors of
    /// a line whose sectors were filled at different times (kAbsent for
    /// those absent); a way uses its entry only while its record says so.
    uint64_t *mixedFills = nullptr;
    /// Per set, a ring of `ways` bytes holding its ways in recency order:
    /// the most recently used at the set's `head`, older ones after it,
    /// wrapping around. The ways fill in order, and while a set has empty
    /// ways only the places [head, ways) are meaningful, which hold the
    /// filled ones.
    uint8_t *recency = nullptr;
    SetState *sets = nullptr;
    /// Per line of the covered addresses, from `firstLine` on: 1 + the way
    /// the launch last installed it in, or 0 if none; the line is present
    /// while that way's record holds it. It spares lookups a search of the
    /// set, and evictions an update.
    uint8_t *lastWay = nullptr;
    uint64_t firstLine = 0;
  };

  uint64_t hits() const { return hitCount; }
  uint64_t misses() const { return missCount; }
  uint64_t evictions() const { return evictionCount; }

private:
  /// Marks the lines of the sectors [firstSector, firstSector + count) most
  /// recently used, installing absent lines, and gives absent sectors
  /// `arrival`; `absent` says that the caller knows all the lines absent.
  void install(uint64_t firstSector, uint64_t count, uint64_t arrival,
               bool absent);

  Layout layout;
  uint64_t lineBytes = 0;
  std::vector<uint8_t> lastWay;
  uint64_t hitCount = 0, missCount = 0, evictionCount = 0;
};

} // namespace mtia

#endif // MTIA_SIM_CACHE_H
