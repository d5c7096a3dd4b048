//===- ReduceNetwork.h - The cross-PE reduction network ---------*- C++ -*-===//
//
// The reduction engines' dedicated network between PEs. The programs of a
// reduce group (those that agree on the grid axes outside the program's
// reduce-group axes) contribute a tile to each of their re.xreduce
// instructions; the network combines the tiles in rank order once the last
// arrives and delivers the result to the root or, for an all-reduce, to
// every member. A member's rank linearises its ids along the group axes
// (lowest axis fastest).
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
#include <utility>
#include <vector>

namespace mtia {

class ReduceNetwork {
public:
  ReduceNetwork(const TargetDesc &target, const Program &program,
                const LaunchConfig &config, Diagnostics &diagnostics,
                LocalMemory &local)
      : target(target), program(program), config(config),
        diagnostics(diagnostics), local(local) {}

  /// Checks, before the launch runs, that every reduce group can be
  /// resident at once on the PEs that `pes` assigns its programs to, and
  /// that every re.xreduce's root lies in its group; aborts with
  /// invalid_launch otherwise.
  void checkGroups(const std::vector<PEState> &pes);
  /// Executes the re.xreduce at the head of the RE queue of `pe`: sends
  /// its tile once and, for a receiving member, returns false (saying why
  /// in the unit's blockedOn) until the group's result is combined.
  bool execute(PEState &pe, UnitState &state, const Command &cmd);

  /// Adds the bytes sent over the network to `result`.
  void report(SimResult &result) const { result.reduceNetworkBytes = traffic; }

private:
  /// The k-th re.xreduce of every program of one reduction group, from the
  /// first contribution until every receiving member has its result.
  struct CrossReduce {
    const Inst *inst = nullptr; // The first contributor's instruction.
    std::array<int64_t, 3> firstPid = {0, 0, 0};
    std::vector<bool> joined;     // By rank.
    std::vector<uint8_t> values;  // Contributed tiles by rank.
    std::vector<int32_t> indices; // Contributed argmax/argmin indices by rank.
    int64_t contributions = 0;
    uint64_t latestStart = 0;
    bool combined = false;
    std::vector<uint8_t> result;
    std::vector<int32_t> resultIndices;
    uint64_t doneTime = 0;
    int64_t receiversLeft = 0;
  };

  int64_t groupOf(const std::array<int64_t, 3> &pid) const;
  int64_t rankOf(const std::array<int64_t, 3> &pid) const;
  std::array<int64_t, 3> memberOf(int64_t group, int64_t rank) const;
  std::string describeGroup(int64_t group) const;
  void combine(CrossReduce &reduce);

  const TargetDesc &target;
  const Program &program;
  const LaunchConfig &config;
  Diagnostics &diagnostics;
  LocalMemory &local;
  int64_t groupSize = 1;
  std::map<std::pair<int64_t, int64_t>, CrossReduce> inFlight;
  uint64_t traffic = 0;
};

} // namespace mtia

#endif // MTIA_SIM_REDUCENETWORK_H
