//===- Budget.h - Steps, cycles and host time of a launch -------*- C++ -*-===//
//
// Enforces the budget a launch was given (LaunchConfig): control steps,
// simulated cycles and host seconds, and asks the caller at intervals of
// host time whether to stop. A launch over budget aborts with `timeout` at
// the instruction a control core is at, which names the endless loop's
// source line.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIM_BUDGET_H
#define MTIA_SIM_BUDGET_H

#include "Diagnostics.h"
#include "PEState.h"

#include "mtia/Simulator.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace mtia {

class Budget {
public:
  Budget(const LaunchConfig &config, const Diagnostics &diagnostics)
      : config(config), diagnostics(diagnostics), start(Clock::now()),
        lastPoll(start) {}

  /// Checks the budget after the `steps`-th control step, of `pe` at its
  /// program counter; aborts when the launch is over budget or interrupted.
  void step(uint64_t steps, const PEState &pe) {
    if (steps > config.maxSteps)
      abort("timeout",
            "the control code ran for more than " +
                std::to_string(config.maxSteps) + " steps (an endless loop?)",
            pe);
    if (config.maxCycles && pe.ctlClock > config.maxCycles)
      overCycles(pe);
    if ((steps & kStepsPerPoll) == 0)
      poll(pe);
  }

  /// Aborts when the launch has run for longer than its host time or its
  /// caller interrupts it, at the instruction `pe` is at.
  void poll(const PEState &pe) {
    const Clock::time_point now = Clock::now();
    if (config.maxSeconds > 0 &&
        std::chrono::duration<double>(now - start).count() > config.maxSeconds)
      abort("timeout",
            "the launch ran for more than " + seconds(config.maxSeconds) +
                " s of host time",
            pe);
    if (!config.interrupted || now - lastPoll < kPollInterval)
      return;
    lastPoll = now;
    if (config.interrupted())
      abort("interrupted", "the launch was interrupted", pe);
  }

  [[noreturn]] void overCycles(const PEState &pe) const {
    abort("timeout",
          "the launch ran for more than " + std::to_string(config.maxCycles) +
              " simulated cycles",
          pe);
  }

private:
  [[noreturn]] void abort(const char *kind, const std::string &message,
                          const PEState &pe) const {
    diagnostics.abort(kind, message, pe, pe.pid,
                      pe.inProgram ? static_cast<int>(pe.pc) : -1);
  }
  static std::string seconds(double value) {
    char text[32];
    std::snprintf(text, sizeof(text), "%g", value);
    return text;
  }

  using Clock = std::chrono::steady_clock;
  /// Steps between two reads of the host clock, less one (a mask).
  static constexpr uint64_t kStepsPerPoll = (1 << 12) - 1;
  static constexpr std::chrono::milliseconds kPollInterval{50};

  const LaunchConfig &config;
  const Diagnostics &diagnostics;
  Clock::time_point start, lastPoll;
};

} // namespace mtia

#endif // MTIA_SIM_BUDGET_H
