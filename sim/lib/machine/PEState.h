//===- PEState.h - The state of one PE of the machine -----------*- C++ -*-===//
//
// What the components of the machine model share about one PE: the control
// core's registers and program position, the units' command queues and
// clocks, and the circular buffers' pointers and event times. The
// components (ControlCore, DmaEngine, ComputeUnits, ReduceNetwork,
// LocalMemory) read and advance it; Machine owns one per PE.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIM_PESTATE_H
#define MTIA_SIM_PESTATE_H

#include "BandwidthCalendar.h"

#include "mtia/Program.h"
#include "mtia/Simulator.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace mtia {

struct ScalarValue {
  int64_t i = 0;
  double f = 0;
};

/// A unit instruction with its register operands read at issue.
struct Command {
  const Inst *inst = nullptr;
  int32_t index = 0;
  int64_t ints[kMaxCommandInts];
  ScalarValue scalars[kMaxCommandScalars];
  std::array<int64_t, 3> pid;
  uint64_t issueTime = 0;
  // Of a collective among its program's collectives of the same group axes.
  int64_t sequence = 0;
};

/// Bytes of a local-memory page that a DMA load took from a host buffer and
/// that stay there, read in place, until the page or the host bytes are
/// written: then MemorySystem copies them into the page. A load that is read
/// once before the page is loaded again so never copies its data.
struct HostAlias {
  /// Where the bytes belong in local memory.
  uint8_t *local = nullptr;
  /// Where they are in the host buffer; null while the page holds its own
  /// bytes.
  const uint8_t *host = nullptr;
  uint64_t bytes = 0;
  /// The index of the buffer the bytes are in, and the alias's position in
  /// the memory system's list of live aliases.
  uint32_t buffer = 0, slot = 0;
};

struct CBState {
  int64_t base = 0;
  int64_t pushed = 0, popped = 0;
  int64_t reserved = 0, waited = 0;
  std::vector<uint64_t> pushTime, popTime;
  /// Per physical page.
  std::vector<HostAlias> aliases;
  /// Per physical page, the number of the last kernel handed to the
  /// KernelQueue that uses it and that a later access must wait for (0:
  /// none).
  std::vector<uint64_t> lastKernel;
  /// Per physical page, the number of the last DPE product the page is
  /// ordered for (0: none, or an access since has waited for it); an
  /// instruction that names the page waits for the PE's next visit while
  /// that product may be of the current visit.
  std::vector<uint64_t> lastProduct;
  int producer = -1, consumer = -1;
};

struct UnitState {
  std::deque<Command> queue;
  uint64_t clock = 0;     // When the unit can start its next instruction.
  uint64_t readyTime = 0; // When all results of started work are complete.
  UnitStats stats;
  std::string blockedOn;
  bool contributed = false; // The head collective has joined its group.

  /// Accounts for an instruction that occupies the unit for `occupancy`
  /// cycles from `start` and whose results are complete `latency` cycles
  /// after that.
  void retire(uint64_t start, uint64_t occupancy, uint64_t latency) {
    clock = start + occupancy;
    readyTime = std::max(readyTime, start + occupancy + latency);
    stats.busyCycles += occupancy;
    ++stats.instructions;
  }
};

/// The program ids of a linearised program number of `grid` (x fastest).
inline std::array<int64_t, 3> pidOf(const std::array<int64_t, 3> &grid,
                                    int64_t linear) {
  return {linear % grid[0], (linear / grid[0]) % grid[1],
          linear / (grid[0] * grid[1])};
}

/// How the PEs take the programs of one round (programs r*P .. r*P+P-1 of
/// P PEs) in a program's order (ProgramOrder): PE p takes the program of
/// slot (p + shift) mod P of the round, counted from the round's end when
/// `complement`. Every round is a permutation of the PEs, so a PE runs at
/// most one program per round.
struct RoundMap {
  bool complement = false;
  int64_t shift = 0;
};

inline RoundMap roundMapOf(int64_t round, unsigned numPEs,
                           const Program &program,
                           const std::array<int64_t, 3> &grid) {
  switch (program.order) {
  case ProgramOrder::RoundRobin:
    return {};
  case ProgramOrder::Serpentine:
    return {round % 2 == 1, 0};
  case ProgramOrder::Staggered:
    break;
  }
  const int64_t pes = numPEs;
  const int64_t total = grid[0] * grid[1] * grid[2];
  const int64_t pairs = (total + pes - 1) / pes / 2;
  // A last round without a partner is given out round-robin.
  if (round >= 2 * pairs)
    return {};
  int64_t period = 1;
  for (unsigned axis = 0; axis <= program.orderAxis; ++axis)
    period *= grid[axis];
  // The rounds are pairs of complements, each pair's second round two
  // rounds after its first: A0, A1, D0, A2, D1, ..., A(K-1), D(K-2), D(K-1).
  // In Aj PE p takes slot (p + s) mod P, in Dj slot P-1-((p + s) mod P),
  // where s is 0 for even j and d for odd j.
  int64_t pair;
  bool complement;
  if (round == 0) {
    pair = 0;
    complement = false;
  } else if (round == 2 * pairs - 1) {
    pair = pairs - 1;
    complement = true;
  } else {
    complement = round % 2 == 0;
    pair = complement ? round / 2 - 1 : (round + 1) / 2;
  }
  return {complement, pair % 2 == 1 ? period / 2 % pes : 0};
}

/// The PE that runs the program of linear index `linear` in a launch over
/// `grid` on `numPEs` PEs, taking programs in `program`'s order.
inline unsigned peOf(int64_t linear, unsigned numPEs, const Program &program,
                     const std::array<int64_t, 3> &grid) {
  const int64_t pes = numPEs;
  const int64_t slot = linear % pes;
  const RoundMap map = roundMapOf(linear / pes, numPEs, program, grid);
  const int64_t taken = map.complement ? pes - 1 - slot : slot;
  return static_cast<unsigned>((taken - map.shift + pes) % pes);
}

/// The linear index of the program that PE `pe` runs in round `round` (the
/// inverse of peOf), or -1 when the round has none for it: the last round
/// may be partial, and the rounds after it have no programs.
inline int64_t programOf(int64_t round, unsigned pe, unsigned numPEs,
                         const Program &program,
                         const std::array<int64_t, 3> &grid) {
  const int64_t pes = numPEs;
  const RoundMap map = roundMapOf(round, numPEs, program, grid);
  const int64_t taken = (pe + map.shift) % pes;
  const int64_t linear =
      round * pes + (map.complement ? pes - 1 - taken : taken);
  return linear < grid[0] * grid[1] * grid[2] ? linear : -1;
}

/// The programs one PE runs, in increasing linear index (one per round),
/// found as the PE reaches them, so that a launch's host memory does not
/// grow with its grid.
class ProgramSequence {
public:
  /// A PE without programs.
  ProgramSequence() = default;
  ProgramSequence(unsigned pe, unsigned numPEs, const Program &program,
                  const std::array<int64_t, 3> &grid)
      : program(&program), grid(grid), pe(pe), numPEs(numPEs),
        current(programOf(0, pe, numPEs, program, grid)) {}

  /// The linear index of the PE's next program, or -1 when it has run them
  /// all.
  int64_t peek() const { return current; }
  bool empty() const { return current < 0; }
  /// Moves on to the program after the next one.
  void advance() {
    if (current >= 0)
      current = programOf(++round, pe, numPEs, *program, grid);
  }

private:
  const Program *program = nullptr;
  std::array<int64_t, 3> grid = {1, 1, 1};
  unsigned pe = 0, numPEs = 1;
  int64_t round = 0;
  int64_t current = -1;
};

struct PEState {
  int index = 0;
  /// The programs the PE has still to start.
  ProgramSequence programs;
  bool ctlDone = false;
  bool inProgram = false;
  /// Whether the PE has started a program of the launch.
  bool started = false;
  int32_t pc = 0;
  std::array<int64_t, 3> pid = {0, 0, 0};
  // The collectives the current program has started, by group axes (the
  // mask of Inst::groupAxes), which number them for matching.
  std::array<int64_t, 8> collectivesStarted = {};
  // Whether the control core has arrived at the barrier it is at, and the
  // barrier's number among the program's collectives of its axes.
  bool ctlArrived = false;
  int64_t ctlSequence = 0;
  std::vector<int64_t> iregs;
  std::vector<double> fregs;
  uint64_t ctlClock = 0;
  std::string ctlBlockedOn;
  UnitState units[kNumUnits];
  std::vector<CBState> cbs;
  uint8_t *local = nullptr;
  /// The PE's one local-memory port, which the command processor arbitrates
  /// between the units: the two DMA queues and the compute units book their
  /// local-memory bytes on it.
  BandwidthCalendar localPort;
  /// The number of the first KernelQueue kernel submitted during the PE's
  /// current visit of the stepping loop.
  uint64_t visitKernels = 0;

  UnitState &unit(Unit which) { return units[static_cast<int>(which)]; }

  /// The earliest cycle at which `which` can start its next instruction:
  /// its clock, and, when its queue is empty, the control core's next issue.
  uint64_t nextStart(Unit which) const {
    const UnitState &state = units[static_cast<int>(which)];
    return state.queue.empty() ? std::max(state.clock, ctlClock) : state.clock;
  }

  /// The earliest cycle at which a unit can still book the local-memory
  /// port.
  uint64_t localPortFloor() const {
    uint64_t floor = UINT64_MAX;
    for (unsigned u = 1; u < kNumUnits; ++u)
      floor = std::min(floor, nextStart(static_cast<Unit>(u)));
    return floor;
  }

  bool finished() const {
    if (!ctlDone)
      return false;
    for (unsigned u = 1; u < kNumUnits; ++u)
      if (!units[u].queue.empty())
        return false;
    return true;
  }
};

inline int64_t linearOf(const std::array<int64_t, 3> &grid,
                        const std::array<int64_t, 3> &pid) {
  return pid[0] + grid[0] * (pid[1] + grid[1] * pid[2]);
}

} // namespace mtia

#endif // MTIA_SIM_PESTATE_H
