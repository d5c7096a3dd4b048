//===- ControlCore.h - A PE's control core ----------------------*- C++ -*-===//
//
// The core that runs a program's control code on each PE: scalar arithmetic,
// branches, scalar loads, stores and atomics on global memory, reads of
// local memory, prints and asserts, barriers, and the issue of unit
// instructions into the units' bounded in-order command queues. It starts
// the PE's programs one after another.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIM_CONTROLCORE_H
#define MTIA_SIM_CONTROLCORE_H

#include "Budget.h"
#include "Diagnostics.h"
#include "LocalMemory.h"
#include "MemorySystem.h"
#include "PEState.h"
#include "ReduceNetwork.h"

#include "mtia/Program.h"
#include "mtia/Simulator.h"
#include "mtia/Target.h"

#include <cstdint>
#include <vector>

namespace mtia {

class ControlCore {
public:
  /// `paramValues` and `args` are the launch's bound parameters, read when
  /// the control code asks for them.
  ControlCore(const TargetDesc &target, const Program &program,
              const LaunchConfig &config, Diagnostics &diagnostics,
              Budget &budget, MemorySystem &memory, LocalMemory &local,
              ReduceNetwork &network, const std::vector<uint64_t> &paramValues,
              const std::vector<LaunchArg> &args)
      : target(target), program(program), config(config),
        diagnostics(diagnostics), budget(budget), memory(memory), local(local),
        network(network), paramValues(paramValues), args(args) {}

  /// Runs the control core of `pe` until it blocks, yields after an atomic
  /// or runs out of programs; returns whether it progressed.
  bool step(PEState &pe);
  /// Control instructions executed by all PEs.
  uint64_t steps() const { return controlSteps; }

private:
  bool startNextProgram(PEState &pe);
  void issue(PEState &pe, const Inst &inst);
  void executeScalar(PEState &pe, const Inst &inst);
  /// Performs an amo; returns false, saying why in the PE's ctlBlockedOn,
  /// while a release waits for the units to drain.
  bool executeAtomic(PEState &pe, const Inst &inst);
  void executeScalarAccess(PEState &pe, const Inst &inst);
  /// Waits at a barrier: first for the units to drain, then for the group;
  /// returns false, saying why in the PE's ctlBlockedOn, while it waits,
  /// and sets `arrived` when the core arrives at the group's barrier.
  bool executeBarrier(PEState &pe, const Inst &inst, bool &arrived);
  /// Reads one element of a page the control core waited for (ldl).
  void loadLocal(PEState &pe, const Inst &inst);
  void print(PEState &pe, const Inst &inst);
  /// Whether every unit queue of `pe` is empty, and then in `done` when
  /// their work completes; otherwise says in the PE's ctlBlockedOn that
  /// `what` waits.
  bool drained(PEState &pe, const char *what, uint64_t &done) const;
  /// The control core's current instruction as a command, for diagnostics
  /// and for the CB operations it executes itself.
  Command coreCommand(const PEState &pe) const;

  const TargetDesc &target;
  const Program &program;
  const LaunchConfig &config;
  Diagnostics &diagnostics;
  Budget &budget;
  MemorySystem &memory;
  LocalMemory &local;
  ReduceNetwork &network;
  const std::vector<uint64_t> &paramValues;
  const std::vector<LaunchArg> &args;
  uint64_t controlSteps = 0;
  uint64_t programsStarted = 0; // By all PEs.
  uint64_t coreAtomics = 0;     // amo instructions performed by all PEs.
};

} // namespace mtia

#endif // MTIA_SIM_CONTROLCORE_H
