//===- Simulator.cpp - The MTIA machine model -----------------------------===//
//
// Each PE has a control core and six units (two DMA queues, DPE, SIMD, RE,
// MLU). The control core runs the program's control code and issues unit
// instructions into bounded in-order queues; a unit executes its queue in
// order, blocking on circular-buffer conditions. Agents are stepped in a
// fixed order until all finish, so results are deterministic; each agent
// keeps its own clock and CB events carry timestamps, which yields dataflow
// timing independent of the stepping order.
//
// The Machine owns the PEs' state and the components that act on it (the
// memory system, the local memories, the control core, the DMA engine, the
// compute units, the cross-PE reduction network and the diagnostics), and
// keeps the stepping loop.
//
//===----------------------------------------------------------------------===//

#include "mtia/Simulator.h"

#include "Budget.h"
#include "ComputeUnits.h"
#include "ControlCore.h"
#include "Diagnostics.h"
#include "DmaEngine.h"
#include "KernelQueue.h"
#include "LocalMemory.h"
#include "MemorySystem.h"
#include "PEState.h"
#include "ReduceNetwork.h"

#include <algorithm>

using namespace mtia;

namespace {

/// The largest scratch buffer the simulator allocates in host memory.
constexpr uint64_t kMaxScratchBytes = uint64_t(1) << 30;

class Machine {
public:
  Machine(const TargetDesc &target, const Program &program,
          const LaunchConfig &config)
      : target(target), program(program), config(config),
        kernels(config.kernelThread),
        diagnostics(target, program, config.trace), budget(config, diagnostics),
        memory(target, diagnostics, kernels),
        local(target, program, diagnostics, memory, kernels),
        network(target, program, config, diagnostics, local),
        core(target, program, config, diagnostics, budget, memory, local,
             network, paramValues, args),
        dma(target, diagnostics, memory, local, kernels),
        compute(target, diagnostics, local, kernels) {}

  /// Binds the launch's arguments and plans the local memories; aborts
  /// with invalid_launch, cb_misuse or local_memory_overflow.
  void bind(const std::vector<LaunchArg> &launchArgs);
  /// Steps every agent until all finish; aborts on the first error or a
  /// deadlock.
  void run();
  void fillResult(SimResult &result);

private:
  bool stepUnit(PEState &pe, Unit unit);
  /// Aborts when the units ran past the cycle budget, the host time is up
  /// or the caller interrupts, at the first PE that is not finished.
  void checkBudget();
  /// The earliest cycle at which a DMA transfer of any PE may still start.
  uint64_t earliestTransferStart() const;
  bool executeCommand(PEState &pe, Unit unit, UnitState &state,
                      const Command &cmd);

  const TargetDesc &target;
  const Program &program;
  const LaunchConfig &config;
  std::vector<LaunchArg> args;
  std::vector<uint64_t> paramValues;
  /// The host memory of the launch's scratch buffer, which the kernels still
  /// queued when the machine ends read.
  std::vector<uint8_t> scratch;
  std::vector<PEState> pes;
  /// Declared before the components that hold it: they are built after it
  /// and destroyed before it, whose destructor runs the kernels still
  /// queued.
  KernelQueue kernels;
  Diagnostics diagnostics;
  Budget budget;
  MemorySystem memory;
  LocalMemory local;
  ReduceNetwork network;
  ControlCore core;
  DmaEngine dma;
  ComputeUnits compute;
};

void Machine::bind(const std::vector<LaunchArg> &launchArgs) {
  if (launchArgs.size() != program.params.size())
    abortLaunch("invalid_launch",
                "the kernel '" + program.kernel + "' takes " +
                    std::to_string(program.params.size()) + " arguments but " +
                    std::to_string(launchArgs.size()) + " were given");
  for (int64_t dim : config.grid)
    if (dim < 1 || dim > (int64_t(1) << 31))
      abortLaunch("invalid_launch", "grid dimensions must be in [1, 2^31]");
  // Program numbers, and the rounds' first numbers after the last, must fit
  // an int64_t.
  if (config.grid[0] * config.grid[1] > (int64_t(1) << 62) / config.grid[2])
    abortLaunch("invalid_launch", "the grid " + pidText(config.grid) +
                                      " has more than 2^62 programs");
  if (program.scratchBytes > kMaxScratchBytes / target.numPEs())
    abortLaunch("invalid_launch",
                "the program's scratch needs " +
                    std::to_string(program.scratchBytes) + " bytes per PE, " +
                    std::to_string(target.numPEs()) +
                    " PEs: more than the simulator's limit of " +
                    std::to_string(kMaxScratchBytes) + " bytes in all");
  scratch.assign(program.scratchBytes * target.numPEs(), 0);
  paramValues = memory.bind(program, launchArgs, scratch.data());
  args = launchArgs;
  local.plan();
}

bool Machine::executeCommand(PEState &pe, Unit unit, UnitState &state,
                             const Command &cmd) {
  const Inst &inst = *cmd.inst;
  if (inst.op >= Op::CbReserve && inst.op <= Op::CbPop)
    return local.executeCBOp(pe, unit, cmd, state.clock, state.readyTime,
                             state.blockedOn);
  if (inst.op == Op::ReXReduce || inst.op == Op::ReXBroadcast ||
      inst.op == Op::ReXShift)
    return network.execute(pe, state, cmd);
  const uint64_t start = std::max(state.clock, cmd.issueTime);
  if (unit == Unit::DmaIn || unit == Unit::DmaOut)
    dma.execute(pe, unit, state, cmd, start);
  else
    compute.execute(pe, unit, state, cmd, start);
  pe.localPort.forgetBefore(pe.localPortFloor());
  return true;
}

bool Machine::stepUnit(PEState &pe, Unit unit) {
  UnitState &state = pe.unit(unit);
  bool progressed = false;
  state.blockedOn.clear();
  while (!state.queue.empty()) {
    const Command &cmd = state.queue.front();
    if (local.waitsForVisitKernels(pe, *cmd.inst, state.blockedOn))
      break;
    const bool contributedBefore = state.contributed;
    if (!executeCommand(pe, unit, state, cmd)) {
      // Sending a tile into a cross-PE reduction is progress even though
      // the instruction waits for the other members.
      progressed |= state.contributed && !contributedBefore;
      break;
    }
    state.queue.pop_front();
    progressed = true;
  }
  return progressed;
}

void Machine::checkBudget() {
  const PEState *busy = nullptr;
  for (const PEState &pe : pes) {
    if (pe.finished())
      continue;
    if (!busy)
      busy = &pe;
    if (!config.maxCycles)
      break;
    for (const UnitState &state : pe.units)
      if (state.clock > config.maxCycles)
        budget.overCycles(pe);
  }
  if (busy)
    budget.poll(*busy);
}

void Machine::run() {
  constexpr unsigned kRoundsPerVisit = 8;
  const unsigned numPEs = target.numPEs();
  pes.resize(numPEs);
  for (unsigned p = 0; p < numPEs; ++p) {
    PEState &pe = pes[p];
    pe.index = static_cast<int>(p);
    pe.programs = ProgramSequence(p, numPEs, program, config.grid);
    pe.iregs.assign(program.numIntRegs, 0);
    pe.fregs.assign(program.numFloatRegs, 0.0);
    pe.localPort = BandwidthCalendar(target.localBytesPerCycle());
    if (pe.programs.empty())
      pe.ctlDone = true;
  }
  local.attach(pes);
  if (!program.collectiveAxes.empty())
    network.checkGroups(pes);
  while (true) {
    bool progressed = false, allDone = true;
    for (PEState &pe : pes) {
      pe.visitKernels = kernels.nextNumber();
      // A few rounds per visit keep the PE's local memory in the host's
      // cache; PEs interact only through global memory, whose bandwidth
      // calendar does not depend on the visiting order, and collectives
      // over the reduce network, whose results and times depend only on
      // the members' contributions and arrival times.
      for (unsigned round = 0; round < kRoundsPerVisit && !pe.finished();
           ++round) {
        bool moved = core.step(pe);
        for (unsigned u = 1; u < kNumUnits; ++u)
          moved |= stepUnit(pe, static_cast<Unit>(u));
        progressed |= moved;
        if (!moved)
          break;
      }
      allDone &= pe.finished();
    }
    if (allDone)
      return;
    if (!progressed)
      diagnostics.reportDeadlock(pes);
    checkBudget();
    memory.forgetBefore(earliestTransferStart());
  }
}

uint64_t Machine::earliestTransferStart() const {
  uint64_t earliest = UINT64_MAX;
  for (const PEState &pe : pes) {
    if (pe.finished())
      continue;
    for (Unit queue : {Unit::DmaIn, Unit::DmaOut})
      earliest = std::min(earliest, pe.nextStart(queue));
  }
  return earliest == UINT64_MAX ? 0 : earliest;
}

void Machine::fillResult(SimResult &result) {
  const unsigned numPEs = target.numPEs();
  result.peBusyCycles.assign(numPEs * kNumUnits, 0);
  uint64_t end = 0;
  for (const PEState &pe : pes) {
    end = std::max(end, pe.ctlClock);
    for (unsigned u = 1; u < kNumUnits; ++u) {
      const UnitState &state = pe.units[u];
      end = std::max({end, state.clock, state.readyTime});
      result.units[u].busyCycles += state.stats.busyCycles;
      result.units[u].instructions += state.stats.instructions;
      result.peBusyCycles[pe.index * kNumUnits + u] = state.stats.busyCycles;
    }
    result.peBusyCycles[pe.index * kNumUnits] = pe.ctlClock;
    result.units[0].busyCycles += pe.ctlClock;
  }
  result.units[0].instructions = core.steps();
  result.cycles = end;
  memory.report(result);
  result.localBytes = local.totalTraffic();
  network.report(result);
  diagnostics.report(pes, result);
}

} // namespace

SimResult mtia::simulate(const TargetDesc &target, const Program &program,
                         const std::vector<LaunchArg> &args,
                         const LaunchConfig &config) {
  SimResult result;
  Machine machine(target, program, config);
  try {
    machine.bind(args);
    machine.run();
  } catch (SimAbort &failure) {
    result.error = std::move(failure.error);
    machine.fillResult(result);
    return result;
  } catch (std::bad_alloc &) {
    result.error.kind = "resource";
    result.error.message = "the simulator ran out of host memory";
    return result;
  }
  machine.fillResult(result);
  result.ok = true;
  return result;
}
