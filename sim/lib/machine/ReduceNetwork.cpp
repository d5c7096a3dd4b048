//===- ReduceNetwork.cpp - The cross-PE reduction network -----------------===//
//
// Group arithmetic, the residency check of a launch's groups, the matching
// of collectives, and the timing of the network: a binary tree for the
// reductions, broadcasts and barriers, one link hop for a shift.
//
//===----------------------------------------------------------------------===//

#include "ReduceNetwork.h"

#include "kernels/Kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace mtia;

namespace {

/// The bytes one member of a cross-PE reduction sends: its tile and, for
/// argmax/argmin, the i32 indices that go with it.
uint64_t crossReduceWireBytes(const Inst &inst) {
  return inst.count *
         (dtypeSize(inst.type) + (inst.slots[2].present() ? 4 : 0));
}

} // namespace

int64_t ReduceNetwork::groupSize(uint8_t axes) const {
  int64_t size = 1;
  for (unsigned a = 0; a < 3; ++a)
    if (axes & (1u << a))
      size *= config.grid[a];
  return size;
}

unsigned ReduceNetwork::peOfProgram(const std::array<int64_t, 3> &pid) const {
  return peOf(linearOf(config.grid, pid), target.numPEs(), program,
              config.grid);
}

int64_t ReduceNetwork::groupOf(uint8_t axes,
                               const std::array<int64_t, 3> &pid) const {
  int64_t group = 0, scale = 1;
  for (unsigned a = 0; a < 3; ++a) {
    if (axes & (1u << a))
      continue;
    group += pid[a] * scale;
    scale *= config.grid[a];
  }
  return group;
}

int64_t ReduceNetwork::rankOf(uint8_t axes,
                              const std::array<int64_t, 3> &pid) const {
  int64_t rank = 0, scale = 1;
  for (unsigned a = 0; a < 3; ++a) {
    if (!(axes & (1u << a)))
      continue;
    rank += pid[a] * scale;
    scale *= config.grid[a];
  }
  return rank;
}

std::array<int64_t, 3> ReduceNetwork::memberOf(uint8_t axes, int64_t group,
                                               int64_t rank) const {
  std::array<int64_t, 3> pid;
  for (unsigned a = 0; a < 3; ++a) {
    int64_t &rest = axes & (1u << a) ? rank : group;
    pid[a] = rest % config.grid[a];
    rest /= config.grid[a];
  }
  return pid;
}

std::string ReduceNetwork::describeGroup(uint8_t axes, int64_t group) const {
  std::array<int64_t, 3> pid = memberOf(axes, group, 0);
  std::string text = "reduce group (";
  for (unsigned a = 0; a < 3; ++a)
    text += (a ? ", " : "") +
            (axes & (1u << a) ? std::string("*") : std::to_string(pid[a]));
  return text + ")";
}

std::string ReduceNetwork::describe(const Command &cmd) const {
  const uint8_t axes = cmd.inst->groupAxes;
  return std::string(opName(cmd.inst->op)) + " #" +
         std::to_string(cmd.sequence) + " of " +
         describeGroup(axes, groupOf(axes, cmd.pid));
}

unsigned ReduceNetwork::treeLevels(int64_t members) {
  unsigned levels = 0;
  while ((int64_t(1) << levels) < members)
    ++levels;
  return levels;
}

uint64_t ReduceNetwork::hopCycles(uint64_t bytes) const {
  return target.reduceNetworkHopCycles +
         static_cast<uint64_t>(
             std::ceil(bytes / target.reduceNetworkBytesPerCycle));
}

uint64_t ReduceNetwork::sendCycles(uint64_t bytes) const {
  return std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(
                                   bytes / target.reduceNetworkBytesPerCycle)));
}

void ReduceNetwork::checkGroups(const std::vector<PEState> &pes) {
  const int64_t numPEs = target.numPEs();
  SimAbort failure;
  failure.error.kind = "invalid_launch";
  for (size_t i = 0; i < program.code.size(); ++i) {
    const Inst &inst = program.code[i];
    const int64_t size = groupSize(inst.groupAxes);
    if (!inst.groupAxes || inst.root < size)
      continue;
    failure.error.instruction = static_cast<int>(i);
    std::string where = "instruction " + std::to_string(i);
    if (inst.loc >= 0) {
      failure.error.location = program.locs[inst.loc];
      where += " at " + failure.error.location;
    }
    failure.error.message = std::string(opName(inst.op)) + " (" + where +
                            ") names root " + std::to_string(inst.root) +
                            " but its reduce groups have " +
                            std::to_string(size) + " programs";
    throw failure;
  }
  const std::string launch = "the grid " + pidText(config.grid) + " on the " +
                             std::to_string(numPEs) + " PEs of " + target.name;
  const std::vector<uint8_t> &sets = program.collectiveAxes;
  std::vector<std::vector<int64_t>> present(sets.size());
  const int64_t programs = config.grid[0] * config.grid[1] * config.grid[2];
  for (size_t s = 0; s < sets.size(); ++s) {
    const int64_t size = groupSize(sets[s]);
    if (size <= numPEs) {
      present[s].assign(programs / size, 0);
      continue;
    }
    std::string axes;
    for (unsigned a = 0; a < 3; ++a)
      if (sets[s] & (1u << a))
        axes += (axes.empty() ? "" : ", ") + std::to_string(a);
    failure.error.message =
        "a cross-PE reduce group spans the " + std::to_string(size) +
        " programs along grid axes {" + axes + "} but " + launch +
        " runs at most " + std::to_string(numPEs) +
        " programs at once (a PE runs its programs one after another)";
    throw failure;
  }
  // Replay the order in which the PEs reach their programs: a group
  // completes once each of its members is the current program of its PE,
  // and a program finishes, letting its PE move on to the next, once its
  // groups of every set of axes have completed.
  std::vector<ProgramSequence> head;
  for (const PEState &pe : pes)
    head.push_back(pe.programs);
  std::vector<size_t> groupsCompleted(numPEs, 0); // Of the current program.
  std::vector<std::pair<size_t, int64_t>> ready;  // Set and group.
  auto arrive = [&](const PEState &pe) {
    if (head[pe.index].empty())
      return;
    std::array<int64_t, 3> pid = pidOf(config.grid, head[pe.index].peek());
    for (size_t s = 0; s < sets.size(); ++s) {
      int64_t group = groupOf(sets[s], pid);
      if (++present[s][group] == groupSize(sets[s]))
        ready.emplace_back(s, group);
    }
  };
  for (const PEState &pe : pes)
    arrive(pe);
  while (!ready.empty()) {
    auto [s, group] = ready.back();
    ready.pop_back();
    for (int64_t rank = 0; rank < groupSize(sets[s]); ++rank) {
      const PEState &pe = pes[peOfProgram(memberOf(sets[s], group, rank))];
      if (++groupsCompleted[pe.index] < sets.size())
        continue;
      groupsCompleted[pe.index] = 0;
      head[pe.index].advance();
      arrive(pe);
    }
  }
  const PEState *stuck = nullptr;
  for (const PEState &pe : pes)
    if (!stuck && !head[pe.index].empty())
      stuck = &pe;
  if (!stuck)
    return;
  // Explain a group that the first PE with programs left is stuck in: the
  // first of its current program's groups that has not completed.
  auto incompleteSet = [&](const std::array<int64_t, 3> &pid) {
    size_t s = 0;
    while (s + 1 < sets.size() &&
           present[s][groupOf(sets[s], pid)] == groupSize(sets[s]))
      ++s;
    return sets[s];
  };
  const std::array<int64_t, 3> stuckPid =
      pidOf(config.grid, head[stuck->index].peek());
  const uint8_t axes = incompleteSet(stuckPid);
  const int64_t group = groupOf(axes, stuckPid), size = groupSize(axes);
  failure.error.pe = stuck->index;
  failure.error.programId = memberOf(axes, group, 0);
  std::vector<int64_t> rankOnPE(numPEs, -1);
  for (int64_t rank = 0; rank < size; ++rank) {
    std::array<int64_t, 3> member = memberOf(axes, group, rank);
    unsigned peIndex = peOfProgram(member);
    if (rankOnPE[peIndex] >= 0) {
      failure.error.message =
          "programs " + pidText(memberOf(axes, group, rankOnPE[peIndex])) +
          " and " + pidText(member) + " of " + describeGroup(axes, group) +
          " both run on PE " + std::to_string(peIndex) + " with " + launch +
          "; every program of a reduce group must be resident at once, but "
          "a PE runs its programs one after another";
      throw failure;
    }
    rankOnPE[peIndex] = rank;
  }
  for (int64_t rank = 0; rank < size; ++rank) {
    std::array<int64_t, 3> member = memberOf(axes, group, rank);
    const PEState &pe = pes[peOfProgram(member)];
    std::array<int64_t, 3> current = pidOf(config.grid, head[pe.index].peek());
    if (current == member)
      continue;
    const uint8_t blocking = incompleteSet(current);
    failure.error.message =
        describeGroup(axes, group) + " can never complete with " + launch +
        ": its program " + pidText(member) + " runs on PE " +
        std::to_string(pe.index) + " after program " + pidText(current) +
        " of " + describeGroup(blocking, groupOf(blocking, current)) +
        ", which cannot complete first (the PEs' program orders form a "
        "cycle)";
    throw failure;
  }
}

std::string ReduceNetwork::missingMembers(const Collective &collective,
                                          const Command &cmd,
                                          const char *verb) const {
  const uint8_t axes = cmd.inst->groupAxes;
  const int64_t group = groupOf(axes, cmd.pid), size = groupSize(axes);
  std::string missing;
  unsigned listed = 0;
  for (int64_t r = 0; r < size && listed < 4; ++r)
    if (!collective.joined[r])
      missing += (listed++ ? ", " : "") + pidText(memberOf(axes, group, r));
  return std::to_string(collective.members) + " of " + std::to_string(size) +
         " programs " + verb + "; waits for " + missing +
         (size - collective.members > listed ? ", ..." : "");
}

ReduceNetwork::Collective &ReduceNetwork::join(PEState &pe, const Command &cmd,
                                               uint64_t start, bool &joined) {
  const Inst &inst = *cmd.inst;
  const uint8_t axes = inst.groupAxes;
  const int64_t size = groupSize(axes);
  Collective &collective =
      inFlight[Key(axes, groupOf(axes, cmd.pid), cmd.sequence)];
  if (joined)
    return collective;
  if (!collective.inst) {
    collective.inst = &inst;
    collective.firstPid = cmd.pid;
    collective.joined.assign(size, false);
    // A reduction to a root delivers to the root alone.
    collective.receiversLeft =
        inst.op == Op::ReXReduce && inst.root >= 0 ? 1 : size;
  } else if (collective.inst->op != inst.op || collective.inst->fn != inst.fn ||
             collective.inst->type != inst.type ||
             collective.inst->count != inst.count ||
             collective.inst->root != inst.root ||
             collective.inst->direction != inst.direction) {
    auto describeInst = [](const Inst &i) {
      const std::string tile =
          std::to_string(i.count) + " x " + dtypeName(i.type);
      switch (i.op) {
      case Op::Barrier:
        return std::string("a barrier");
      case Op::ReXBroadcast:
        return "re.xbroadcast of " + tile + " from root " +
               std::to_string(i.root);
      case Op::ReXShift:
        return "re.xshift of " + tile + " by " +
               (i.direction > 0 ? "+1" : "-1");
      default:
        return std::string(reduceFnName(static_cast<ReduceFn>(i.fn))) + " of " +
               tile + " (root " + std::to_string(i.root) + ")";
      }
    };
    diagnostics.abortAt("collective_mismatch",
                        describe(cmd) + ": this program contributes " +
                            describeInst(inst) + " but program " +
                            pidText(collective.firstPid) + " contributed " +
                            describeInst(*collective.inst),
                        pe, cmd);
  }
  collective.joined[rankOf(axes, cmd.pid)] = true;
  ++collective.members;
  collective.latestStart = std::max(collective.latestStart, start);
  joined = true;
  return collective;
}

bool ReduceNetwork::execute(PEState &pe, UnitState &state, const Command &cmd) {
  const uint64_t start = std::max(state.clock, cmd.issueTime);
  switch (cmd.inst->op) {
  case Op::ReXBroadcast:
    return broadcast(pe, state, cmd, start);
  case Op::ReXShift:
    return shift(pe, state, cmd, start);
  default:
    return crossReduce(pe, state, cmd, start);
  }
}

void ReduceNetwork::combine(Collective &reduce, int64_t members) {
  const Inst &inst = *reduce.inst;
  const ReduceFn fn = static_cast<ReduceFn>(inst.fn);
  const int64_t n = inst.count;
  const bool arg = fn == ReduceFn::ArgMax || fn == ReduceFn::ArgMin;
  // A left fold over the ranks in increasing order, whatever the order of
  // arrival; for argmax/argmin the lowest rank wins ties.
  reduce.result.resize(n * dtypeSize(inst.type));
  std::vector<int32_t> winners(arg ? n : 0);
  reduceTile(fn, inst.type, reduce.values.data(), reduce.result.data(),
             arg ? reinterpret_cast<uint8_t *>(winners.data()) : nullptr, 1,
             members, n);
  reduce.resultIndices.resize(winners.size());
  for (int64_t i = 0; i < static_cast<int64_t>(winners.size()); ++i)
    reduce.resultIndices[i] = reduce.indices[winners[i] * n + i];
  // A binary combining tree: each level is one hop that moves a tile and
  // combines it; an all-reduce broadcasts the result back down the tree.
  const unsigned levels = treeLevels(members);
  const uint64_t hop = hopCycles(crossReduceWireBytes(inst));
  const uint64_t combine = static_cast<uint64_t>(
      std::ceil(double(n) / target.reduceElementsPerCycle));
  reduce.doneTime = reduce.latestStart + levels * (hop + combine) +
                    (inst.root < 0 ? levels * hop : 0);
  reduce.complete = true;
}

void ReduceNetwork::leave(Collective &collective, const Command &cmd) {
  if (--collective.receiversLeft > 0)
    return;
  const uint8_t axes = cmd.inst->groupAxes;
  inFlight.erase(Key(axes, groupOf(axes, cmd.pid), cmd.sequence));
}

bool ReduceNetwork::retire(PEState &pe, UnitState &state, const Command &cmd,
                           uint64_t start, uint64_t finish) {
  state.retire(start, finish - start, target.reduceLatencyCycles);
  diagnostics.span(pe, Unit::Re, cmd, start, finish - start);
  return true;
}

bool ReduceNetwork::crossReduce(PEState &pe, UnitState &state,
                                const Command &cmd, uint64_t start) {
  const Inst &inst = *cmd.inst;
  const int64_t size = groupSize(inst.groupAxes);
  const int64_t rank = rankOf(inst.groupAxes, cmd.pid);
  const int64_t n = inst.count;
  const int64_t tileBytes = n * dtypeSize(inst.type);
  const bool arg = inst.slots[2].present();
  const uint64_t wireBytes = crossReduceWireBytes(inst);
  const bool joinedBefore = state.contributed;
  Collective &reduce = join(pe, cmd, start, state.contributed);
  if (!joinedBefore) {
    reduce.values.resize(size * tileBytes);
    reduce.indices.resize(arg ? size * n : 0);
    std::memcpy(reduce.values.data() + rank * tileBytes,
                local.resolve(pe, Unit::Re, inst.slots[0], cmd), tileBytes);
    if (arg)
      std::memcpy(reduce.indices.data() + rank * n,
                  local.resolve(pe, Unit::Re, inst.slots[2], cmd), n * 4);
    traffic += wireBytes;
    local.countTraffic(wireBytes);
    if (reduce.members == size)
      combine(reduce, size);
  }
  const bool receives = inst.root < 0 || rank == inst.root;
  if (receives && !reduce.complete) {
    state.blockedOn =
        describe(cmd) + ": " + missingMembers(reduce, cmd, "contributed");
    return false;
  }
  state.contributed = false;
  // The unit is held from its start until its tile is sent, and a receiver
  // until the result arrives.
  uint64_t finish = start + sendCycles(wireBytes);
  if (receives) {
    finish = std::max(finish, reduce.doneTime);
    if (uint8_t *d = local.resolve(pe, Unit::Re, inst.slots[1], cmd))
      std::memcpy(d, reduce.result.data(), tileBytes);
    if (uint8_t *idx = local.resolve(pe, Unit::Re, inst.slots[3], cmd))
      std::memcpy(idx, reduce.resultIndices.data(), n * 4);
    local.countTraffic(wireBytes);
    leave(reduce, cmd);
  }
  return retire(pe, state, cmd, start, finish);
}

bool ReduceNetwork::broadcast(PEState &pe, UnitState &state, const Command &cmd,
                              uint64_t start) {
  const Inst &inst = *cmd.inst;
  const uint8_t axes = inst.groupAxes;
  const int64_t group = groupOf(axes, cmd.pid);
  const bool isRoot = rankOf(axes, cmd.pid) == inst.root;
  const int64_t bytes = inst.count * dtypeSize(inst.type);
  const bool joinedBefore = state.contributed;
  Collective &collective = join(pe, cmd, start, state.contributed);
  if (!joinedBefore && isRoot) {
    const uint8_t *src = local.resolve(pe, Unit::Re, inst.slots[0], cmd);
    collective.result.assign(src, src + bytes);
    local.countTraffic(bytes);
    // A binomial tree: in each of its levels every member that holds the
    // tile sends it one hop on, so it reaches every member after
    // ceil(log2 members) hops.
    collective.doneTime =
        start + treeLevels(groupSize(axes)) * hopCycles(bytes);
    collective.complete = true;
  }
  if (!collective.complete) {
    state.blockedOn = describe(cmd) + ": waits for its root, program " +
                      pidText(memberOf(axes, group, inst.root));
    return false;
  }
  state.contributed = false;
  // Every member, the root included, holds its RE until the tile has
  // reached the whole group (the root sends at every level of the tree).
  const uint64_t finish = std::max(start + 1, collective.doneTime);
  std::memcpy(local.resolve(pe, Unit::Re, inst.slots[1], cmd),
              collective.result.data(), bytes);
  local.countTraffic(bytes);
  if (!isRoot)
    traffic += bytes;
  leave(collective, cmd);
  return retire(pe, state, cmd, start, finish);
}

bool ReduceNetwork::shift(PEState &pe, UnitState &state, const Command &cmd,
                          uint64_t start) {
  const Inst &inst = *cmd.inst;
  const uint8_t axes = inst.groupAxes;
  const int64_t group = groupOf(axes, cmd.pid), size = groupSize(axes);
  const int64_t rank = rankOf(axes, cmd.pid);
  const int64_t bytes = inst.count * dtypeSize(inst.type);
  // The neighbours this member sends to and receives from; at the ends of
  // the line one of them (both in a group of one) does not exist.
  const int64_t destination = rank + inst.direction;
  const int64_t source = rank - inst.direction;
  const bool sends = destination >= 0 && destination < size;
  const bool receives = source >= 0 && source < size;
  const bool joinedBefore = state.contributed;
  Collective &collective = join(pe, cmd, start, state.contributed);
  if (!joinedBefore) {
    collective.values.resize(size * bytes);
    collective.starts.resize(size);
    collective.starts[rank] = start;
    if (sends) {
      std::memcpy(collective.values.data() + rank * bytes,
                  local.resolve(pe, Unit::Re, inst.slots[0], cmd), bytes);
      local.countTraffic(bytes);
      traffic += bytes;
    }
  }
  if (receives && !collective.joined[source]) {
    state.blockedOn = describe(cmd) + ": waits for its source, program " +
                      pidText(memberOf(axes, group, source));
    return false;
  }
  state.contributed = false;
  // The RE is held from its start until its tile is sent and, on a member
  // that receives, until the neighbour's tile has crossed one link, which
  // it starts to once both ends have started.
  uint64_t finish = start + sendCycles(sends ? bytes : 0);
  uint8_t *d = local.resolve(pe, Unit::Re, inst.slots[1], cmd);
  if (receives) {
    finish = std::max(finish, std::max(start, collective.starts[source]) +
                                  hopCycles(bytes));
    std::memcpy(d, collective.values.data() + source * bytes, bytes);
  } else {
    const ScalarValue &other = cmd.scalars[0];
    fillElements(inst.type, d, inst.count, other.f, other.i);
  }
  local.countTraffic(bytes);
  leave(collective, cmd);
  return retire(pe, state, cmd, start, finish);
}

bool ReduceNetwork::barrier(PEState &pe, const Command &cmd) {
  const uint8_t axes = cmd.inst->groupAxes;
  const int64_t size = groupSize(axes);
  const bool arrivedBefore = pe.ctlArrived;
  Collective &collective = join(pe, cmd, pe.ctlClock, pe.ctlArrived);
  if (!arrivedBefore && collective.members == size) {
    // The arrivals go up a tree of the network and the release comes back
    // down; both carry no data.
    collective.doneTime = collective.latestStart +
                          2 * treeLevels(size) * target.reduceNetworkHopCycles;
    collective.complete = true;
  }
  if (!collective.complete) {
    pe.ctlBlockedOn =
        describe(cmd) + ": " + missingMembers(collective, cmd, "arrived");
    return false;
  }
  pe.ctlArrived = false;
  pe.ctlClock = collective.doneTime;
  leave(collective, cmd);
  return true;
}
