//===- Diagnostics.h - Errors, printed text and the trace -------*- C++ -*-===//
//
// How the machine model reports: the errors that abort a launch (built with
// the PE, program id, instruction and source location they concern), the
// deadlock report, the text of print instructions and the Chrome trace of
// unit instructions.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIM_DIAGNOSTICS_H
#define MTIA_SIM_DIAGNOSTICS_H

#include "PEState.h"

#include "mtia/Program.h"
#include "mtia/Simulator.h"
#include "mtia/Target.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mtia {

/// Thrown inside the machine; simulate() converts it into the result.
struct SimAbort {
  SimError error;
};

/// "(x, y, z)".
std::string pidText(const std::array<int64_t, 3> &pid);
/// "0x..." in lower-case hex.
std::string hex(uint64_t value);

/// Aborts a launch with an error that concerns no PE (a bad launch or a
/// program that does not fit the target).
[[noreturn]] void abortLaunch(const char *kind, const std::string &message);

class Diagnostics {
public:
  Diagnostics(const TargetDesc &target, const Program &program, bool tracing)
      : target(target), program(program), tracing(tracing) {}

  /// Aborts the launch with an error of program `pid` on `pe` at
  /// `instruction` (-1: none).
  [[noreturn]] void abort(const char *kind, const std::string &message,
                          const PEState &pe, const std::array<int64_t, 3> &pid,
                          int instruction) const;
  [[noreturn]] void abortAt(const char *kind, const std::string &message,
                            const PEState &pe, const Command &cmd) const {
    abort(kind, message, pe, cmd.pid, cmd.index);
  }
  /// Aborts with the list of who waits on what when no agent can progress.
  [[noreturn]] void reportDeadlock(const std::vector<PEState> &pes) const;
  std::string peName(const PEState &pe) const;
  /// The source location of `instruction`, if the program has one.
  const std::string *location(int instruction) const;

  /// Appends text of a print instruction to the output.
  void print(const std::string &text) { output += text; }
  /// Records a span of a unit instruction for the trace, when tracing.
  void span(const PEState &pe, Unit unit, const Command &cmd, uint64_t start,
            uint64_t duration) {
    if (tracing)
      trace.push_back({pe.index, unit, cmd.inst->op, start, duration, cmd.index});
  }

  /// Moves the printed text and, when tracing, the trace into `result`.
  void report(const std::vector<PEState> &pes, SimResult &result);

private:
  struct TraceEvent {
    int pe;
    Unit unit;
    Op op;
    uint64_t start, duration;
    /// The instruction's index in the program's code.
    int instruction;
  };

  std::string traceJson(const std::vector<PEState> &pes) const;

  const TargetDesc &target;
  const Program &program;
  const bool tracing;
  std::string output;
  std::vector<TraceEvent> trace;
};

} // namespace mtia

#endif // MTIA_SIM_DIAGNOSTICS_H
