//===- ReduceNetwork.h - The cross-PE reduction network ---------*- C++ -*-===//
//
// The reduction engines' dedicated network between PEs, which carries the
// collectives: re.xreduce, re.xbroadcast, re.xshift and the control cores'
// barrier.
// Each collective names its group axes; the programs that agree on the grid
// axes outside them form one group, and a member's rank linearises its ids
// along them (lowest axis fastest). The k-th collective of one set of axes
// that a program starts matches the k-th of the same axes of every other
// member of its group. A reduction combines the tiles in rank order once
// the last arrives and delivers the result to the root or, for an
// all-reduce, to every member; a broadcast delivers the root's tile to every
// member; a shift delivers each member's tile to its neighbour along the
// group's one axis as soon as both have joined; a barrier releases every
// member once all have arrived.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIM_REDUCENETWORK_H
#define MTIA_SIM_REDUCENETWORK_H

#include "Diagnostics.h"
#include "LocalMemory.h"
#include "PEState.h"

#include "mtia/Program.h"
#include "mtia/Simulator.h"
#include "mtia/Target.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace mtia {

class ReduceNetwork {
public:
  ReduceNetwork(const TargetDesc &target, const Program &program,
                const LaunchConfig &config, Diagnostics &diagnostics,
                LocalMemory &local)
      : target(target), program(program), config(config),
        diagnostics(diagnostics), local(local) {}

  /// Checks, before the launch runs, that the groups of every set of axes
  /// the program's collectives name can be resident at once on the PEs that
  /// `pes` assigns their programs to, and that every collective's root lies
  /// in its group; aborts with invalid_launch otherwise.
  void checkGroups(const std::vector<PEState> &pes);
  /// Executes the re.xreduce, re.xbroadcast or re.xshift at the head of the
  /// RE queue of `pe`: joins its group once and returns false, saying why in
  /// the unit's blockedOn, while the member waits for the others (a
  /// receiving member of a reduction for every contribution, a member of a
  /// broadcast for the root's tile, a member of a shift for its source
  /// neighbour's tile).
  bool execute(PEState &pe, UnitState &state, const Command &cmd);
  /// Executes the barrier `cmd` that the control core of `pe` is at: the
  /// core arrives at its current clock once (`pe.ctlArrived`), and the call
  /// returns false, saying why in the PE's ctlBlockedOn, until every member
  /// has arrived; then it moves the core's clock to the release time.
  bool barrier(PEState &pe, const Command &cmd);

  /// Adds the bytes sent over the network to `result`.
  void report(SimResult &result) const { result.reduceNetworkBytes = traffic; }

private:
  /// The k-th collective of one set of group axes of every program of one
  /// group, from the first member's arrival until every receiving member
  /// has its result.
  struct Collective {
    const Inst *inst = nullptr; // The first member's instruction.
    std::array<int64_t, 3> firstPid = {0, 0, 0};
    std::vector<bool> joined; // By rank.
    int64_t members = 0;      // That have joined.
    uint64_t latestStart = 0;
    // Contributed tiles by rank (re.xreduce, re.xshift).
    std::vector<uint8_t> values;
    std::vector<uint64_t> starts; // Start times by rank (re.xshift).
    std::vector<int32_t> indices; // Contributed argmax/argmin indices.
    // Whether the result (a reduction's, the root's tile of a broadcast, a
    // barrier's release) is known, and when it reaches the members.
    bool complete = false;
    std::vector<uint8_t> result;
    std::vector<int32_t> resultIndices;
    uint64_t doneTime = 0;
    int64_t receiversLeft = 0;
  };
  /// Group axes, group and sequence number.
  using Key = std::tuple<uint8_t, int64_t, int64_t>;

  int64_t groupSize(uint8_t axes) const;
  int64_t groupOf(uint8_t axes, const std::array<int64_t, 3> &pid) const;
  int64_t rankOf(uint8_t axes, const std::array<int64_t, 3> &pid) const;
  std::array<int64_t, 3> memberOf(uint8_t axes, int64_t group,
                                  int64_t rank) const;
  /// The PE that runs the program `pid` in the program's order.
  unsigned peOfProgram(const std::array<int64_t, 3> &pid) const;
  std::string describeGroup(uint8_t axes, int64_t group) const;
  /// "re.xreduce #k of reduce group (...)", naming `cmd`'s collective.
  std::string describe(const Command &cmd) const;
  /// How many members of `collective` have `verb` and which are missing.
  std::string missingMembers(const Collective &collective, const Command &cmd,
                             const char *verb) const;
  /// The collective of `cmd`. Unless `joined` says that this member has
  /// joined it, joins it at `start`, checking that it matches the
  /// instructions of the members before, and sets `joined`.
  Collective &join(PEState &pe, const Command &cmd, uint64_t start,
                   bool &joined);
  /// Records that the member of `cmd` has taken its result from
  /// `collective`, which is forgotten once every receiver has.
  void leave(Collective &collective, const Command &cmd);
  /// Retires the RE instruction `cmd` of `pe`, which held the unit from
  /// `start` to `finish`; returns true (the instruction completed).
  bool retire(PEState &pe, UnitState &state, const Command &cmd,
              uint64_t start, uint64_t finish);
  bool crossReduce(PEState &pe, UnitState &state, const Command &cmd,
                   uint64_t start);
  bool broadcast(PEState &pe, UnitState &state, const Command &cmd,
                 uint64_t start);
  bool shift(PEState &pe, UnitState &state, const Command &cmd, uint64_t start);
  void combine(Collective &reduce, int64_t members);
  /// The levels of a binary tree over `members` (ceil(log2 members)).
  static unsigned treeLevels(int64_t members);
  /// The cycles of one hop of the network that carries `bytes`.
  uint64_t hopCycles(uint64_t bytes) const;
  /// The cycles an RE is held to send `bytes` into the network (at least
  /// one).
  uint64_t sendCycles(uint64_t bytes) const;

  const TargetDesc &target;
  const Program &program;
  const LaunchConfig &config;
  Diagnostics &diagnostics;
  LocalMemory &local;
  std::map<Key, Collective> inFlight;
  uint64_t traffic = 0;
};

} // namespace mtia

#endif // MTIA_SIM_REDUCENETWORK_H
