//===- ReduceNetwork.cpp - The cross-PE reduction network -----------------===//
//
// Reduce-group arithmetic, the residency check of a launch's reduce groups,
// and the timing of the network as a binary combining tree.
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

int64_t ReduceNetwork::groupOf(const std::array<int64_t, 3> &pid) const {
  int64_t group = 0, scale = 1;
  for (unsigned a = 0; a < 3; ++a) {
    if (program.reduceGroupAxes & (1u << a))
      continue;
    group += pid[a] * scale;
    scale *= config.grid[a];
  }
  return group;
}

int64_t ReduceNetwork::rankOf(const std::array<int64_t, 3> &pid) const {
  int64_t rank = 0, scale = 1;
  for (unsigned a = 0; a < 3; ++a) {
    if (!(program.reduceGroupAxes & (1u << a)))
      continue;
    rank += pid[a] * scale;
    scale *= config.grid[a];
  }
  return rank;
}

std::array<int64_t, 3> ReduceNetwork::memberOf(int64_t group,
                                               int64_t rank) const {
  std::array<int64_t, 3> pid;
  for (unsigned a = 0; a < 3; ++a) {
    int64_t &rest = program.reduceGroupAxes & (1u << a) ? rank : group;
    pid[a] = rest % config.grid[a];
    rest /= config.grid[a];
  }
  return pid;
}

std::string ReduceNetwork::describeGroup(int64_t group) const {
  std::array<int64_t, 3> pid = memberOf(group, 0);
  std::string text = "reduce group (";
  for (unsigned a = 0; a < 3; ++a)
    text += (a ? ", " : "") + (program.reduceGroupAxes & (1u << a)
                                   ? std::string("*")
                                   : std::to_string(pid[a]));
  return text + ")";
}

void ReduceNetwork::checkGroups(const std::vector<PEState> &pes) {
  const int64_t numPEs = target.numPEs();
  groupSize = 1;
  std::string axes;
  for (unsigned a = 0; a < 3; ++a) {
    if (!(program.reduceGroupAxes & (1u << a)))
      continue;
    groupSize *= config.grid[a];
    axes += (axes.empty() ? "" : ", ") + std::to_string(a);
  }
  SimAbort failure;
  failure.error.kind = "invalid_launch";
  for (size_t i = 0; i < program.code.size(); ++i) {
    const Inst &inst = program.code[i];
    if (inst.op != Op::ReXReduce || inst.root < groupSize)
      continue;
    failure.error.instruction = static_cast<int>(i);
    if (inst.loc >= 0)
      failure.error.location = program.locs[inst.loc];
    failure.error.message = "re.xreduce (instruction " + std::to_string(i) +
                            ") sends to root " + std::to_string(inst.root) +
                            " but its reduce groups have " +
                            std::to_string(groupSize) + " programs";
    throw failure;
  }
  const std::string launch = "the grid " + pidText(config.grid) + " on the " +
                             std::to_string(numPEs) + " PEs of " + target.name;
  if (groupSize > numPEs) {
    failure.error.message =
        "a cross-PE reduce group spans the " + std::to_string(groupSize) +
        " programs along grid axes {" + axes + "} but " + launch +
        " runs at most " + std::to_string(numPEs) +
        " programs at once (a PE runs its programs one after another)";
    throw failure;
  }
  // Replay the order in which the PEs reach their programs: a group
  // completes once each of its members is the current program of its PE,
  // which lets those PEs move on to their next programs.
  const int64_t numGroups =
      config.grid[0] * config.grid[1] * config.grid[2] / groupSize;
  std::vector<int64_t> present(numGroups, 0);
  std::vector<size_t> head(numPEs, 0);
  std::vector<int64_t> ready;
  auto arrive = [&](const PEState &pe) {
    if (head[pe.index] >= pe.programs.size())
      return;
    int64_t group = groupOf(pidOf(config.grid, pe.programs[head[pe.index]]));
    if (++present[group] == groupSize)
      ready.push_back(group);
  };
  for (const PEState &pe : pes)
    arrive(pe);
  int64_t completed = 0;
  while (!ready.empty()) {
    int64_t group = ready.back();
    ready.pop_back();
    ++completed;
    for (int64_t rank = 0; rank < groupSize; ++rank) {
      const PEState &pe =
          pes[linearOf(config.grid, memberOf(group, rank)) % numPEs];
      ++head[pe.index];
      arrive(pe);
    }
  }
  if (completed == numGroups)
    return;
  // Explain the group that the first PE with programs left is stuck in.
  const PEState *stuck = nullptr;
  for (const PEState &pe : pes)
    if (!stuck && head[pe.index] < pe.programs.size())
      stuck = &pe;
  const int64_t group =
      groupOf(pidOf(config.grid, stuck->programs[head[stuck->index]]));
  failure.error.pe = stuck->index;
  failure.error.programId = memberOf(group, 0);
  std::vector<int64_t> rankOnPE(numPEs, -1);
  for (int64_t rank = 0; rank < groupSize; ++rank) {
    std::array<int64_t, 3> member = memberOf(group, rank);
    int64_t peIndex = linearOf(config.grid, member) % numPEs;
    if (rankOnPE[peIndex] >= 0) {
      failure.error.message =
          "programs " + pidText(memberOf(group, rankOnPE[peIndex])) + " and " +
          pidText(member) + " of " + describeGroup(group) + " both run on PE " +
          std::to_string(peIndex) + " with " + launch +
          "; every program of a reduce group must be resident at once, but "
          "a PE runs its programs one after another";
      throw failure;
    }
    rankOnPE[peIndex] = rank;
  }
  for (int64_t rank = 0; rank < groupSize; ++rank) {
    std::array<int64_t, 3> member = memberOf(group, rank);
    const PEState &pe = pes[linearOf(config.grid, member) % numPEs];
    std::array<int64_t, 3> current =
        pidOf(config.grid, pe.programs[head[pe.index]]);
    if (current == member)
      continue;
    failure.error.message =
        describeGroup(group) + " can never complete with " + launch +
        ": its program " + pidText(member) + " runs on PE " +
        std::to_string(pe.index) + " after program " + pidText(current) +
        " of " + describeGroup(groupOf(current)) +
        ", which cannot complete first (the PEs' program orders form a "
        "cycle)";
    throw failure;
  }
}

void ReduceNetwork::combine(CrossReduce &reduce) {
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
             groupSize, n);
  reduce.resultIndices.resize(winners.size());
  for (int64_t i = 0; i < static_cast<int64_t>(winners.size()); ++i)
    reduce.resultIndices[i] = reduce.indices[winners[i] * n + i];
  // A binary combining tree: each level is one hop that moves a tile and
  // combines it; an all-reduce broadcasts the result back down the tree.
  unsigned levels = 0;
  while ((int64_t(1) << levels) < groupSize)
    ++levels;
  const uint64_t hop =
      target.reduceNetworkHopCycles +
      static_cast<uint64_t>(std::ceil(crossReduceWireBytes(inst) /
                                      target.reduceNetworkBytesPerCycle));
  const uint64_t combine = static_cast<uint64_t>(
      std::ceil(double(n) / target.reduceElementsPerCycle));
  reduce.doneTime = reduce.latestStart + levels * (hop + combine) +
                    (inst.root < 0 ? levels * hop : 0);
  reduce.combined = true;
}

bool ReduceNetwork::execute(PEState &pe, UnitState &state, const Command &cmd) {
  const Inst &inst = *cmd.inst;
  const int64_t group = groupOf(cmd.pid), rank = rankOf(cmd.pid);
  const auto key = std::make_pair(group, cmd.sequence);
  CrossReduce &reduce = inFlight[key];
  const uint64_t start = std::max(state.clock, cmd.issueTime);
  const int64_t n = inst.count;
  const int64_t tileBytes = n * dtypeSize(inst.type);
  const bool arg = inst.slots[2].present();
  const uint64_t wireBytes = crossReduceWireBytes(inst);
  const std::string what = "re.xreduce #" + std::to_string(cmd.sequence) +
                           " of " + describeGroup(group);
  if (!state.contributed) {
    if (!reduce.inst) {
      reduce.inst = &inst;
      reduce.firstPid = cmd.pid;
      reduce.joined.assign(groupSize, false);
      reduce.values.resize(groupSize * tileBytes);
      reduce.indices.resize(arg ? groupSize * n : 0);
      reduce.receiversLeft = inst.root < 0 ? groupSize : 1;
    } else if (reduce.inst->fn != inst.fn || reduce.inst->type != inst.type ||
               reduce.inst->count != n || reduce.inst->root != inst.root) {
      auto describe = [](const Inst &i) {
        return std::string(reduceFnName(static_cast<ReduceFn>(i.fn))) + " of " +
               std::to_string(i.count) + " x " + dtypeName(i.type) + " (root " +
               std::to_string(i.root) + ")";
      };
      diagnostics.abortAt("collective_mismatch",
                          what + ": this program contributes " +
                              describe(inst) + " but program " +
                              pidText(reduce.firstPid) + " contributed " +
                              describe(*reduce.inst),
                          pe, cmd);
    }
    std::memcpy(reduce.values.data() + rank * tileBytes,
                local.resolve(pe, Unit::Re, inst.slots[0], cmd), tileBytes);
    if (arg)
      std::memcpy(reduce.indices.data() + rank * n,
                  local.resolve(pe, Unit::Re, inst.slots[2], cmd), n * 4);
    reduce.joined[rank] = true;
    ++reduce.contributions;
    reduce.latestStart = std::max(reduce.latestStart, start);
    traffic += wireBytes;
    local.countTraffic(wireBytes);
    state.contributed = true;
    if (reduce.contributions == groupSize)
      combine(reduce);
  }
  const bool receives = inst.root < 0 || rank == inst.root;
  if (receives && !reduce.combined) {
    std::string missing;
    unsigned listed = 0;
    for (int64_t r = 0; r < groupSize && listed < 4; ++r)
      if (!reduce.joined[r])
        missing += (listed++ ? ", " : "") + pidText(memberOf(group, r));
    state.blockedOn =
        what + ": " + std::to_string(reduce.contributions) + " of " +
        std::to_string(groupSize) + " programs contributed; waits for " +
        missing + (groupSize - reduce.contributions > listed ? ", ..." : "");
    return false;
  }
  state.contributed = false;
  // The unit is held from its start until its tile is sent, and a receiver
  // until the result arrives.
  uint64_t finish =
      start + std::max<uint64_t>(
                  1, static_cast<uint64_t>(std::ceil(
                         wireBytes / target.reduceNetworkBytesPerCycle)));
  if (receives) {
    finish = std::max(finish, reduce.doneTime);
    if (uint8_t *d = local.resolve(pe, Unit::Re, inst.slots[1], cmd))
      std::memcpy(d, reduce.result.data(), tileBytes);
    if (uint8_t *idx = local.resolve(pe, Unit::Re, inst.slots[3], cmd))
      std::memcpy(idx, reduce.resultIndices.data(), n * 4);
    local.countTraffic(wireBytes);
    if (--reduce.receiversLeft == 0)
      inFlight.erase(key);
  }
  state.retire(start, finish - start, target.reduceLatencyCycles);
  diagnostics.span(pe, Unit::Re, cmd, start, finish - start);
  return true;
}
