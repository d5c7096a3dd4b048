//===- Diagnostics.cpp - Errors, printed text and the trace ---------------===//
//
// Builds the errors that abort a launch and the deadlock report, and writes
// the Chrome trace-event JSON of a traced launch.
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cinttypes>
#include <cstdio>

using namespace mtia;

std::string mtia::pidText(const std::array<int64_t, 3> &pid) {
  return "(" + std::to_string(pid[0]) + ", " + std::to_string(pid[1]) + ", " +
         std::to_string(pid[2]) + ")";
}

std::string mtia::hex(uint64_t value) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%" PRIx64, value);
  return text;
}

void mtia::abortLaunch(const char *kind, const std::string &message) {
  SimAbort failure;
  failure.error.kind = kind;
  failure.error.message = message;
  throw failure;
}

std::string Diagnostics::peName(const PEState &pe) const {
  return "PE " + std::to_string(pe.index) + " (row " +
         std::to_string(pe.index / target.peCols) + ", col " +
         std::to_string(pe.index % target.peCols) + ")";
}

void Diagnostics::abort(const char *kind, const std::string &message,
                        const PEState &pe, const std::array<int64_t, 3> &pid,
                        int instruction) const {
  SimAbort failure;
  failure.error.kind = kind;
  failure.error.pe = pe.index;
  failure.error.programId = pid;
  failure.error.instruction = instruction;
  std::string where = peName(pe) + ", program " + pidText(pid);
  if (instruction >= 0 &&
      static_cast<size_t>(instruction) < program.code.size()) {
    const Inst &inst = program.code[instruction];
    where += ", instruction " + std::to_string(instruction) + " (" +
             opName(inst.op) + ")";
    if (inst.loc >= 0) {
      failure.error.location = program.locs[inst.loc];
      where += " at " + failure.error.location;
    }
  }
  failure.error.message = message + " [" + where + "]";
  throw failure;
}

const std::string *Diagnostics::location(int instruction) const {
  if (instruction < 0 ||
      static_cast<size_t>(instruction) >= program.code.size())
    return nullptr;
  const int loc = program.code[instruction].loc;
  return loc >= 0 ? &program.locs[loc] : nullptr;
}

void Diagnostics::reportDeadlock(const std::vector<PEState> &pes) const {
  std::string waits;
  unsigned listed = 0, total = 0;
  const PEState *first = nullptr;
  int firstInstruction = -1;
  for (const PEState &pe : pes) {
    auto note = [&](const char *agent, const std::string &what,
                    const char *instructionWord, int instruction) {
      ++total;
      if (!first) {
        first = &pe;
        firstInstruction = instruction;
      }
      if (listed++ >= 12)
        return;
      waits += "\n  " + peName(pe) + " program " + pidText(pe.pid) + " " +
               agent + ": " + what + " (" + instructionWord + " " +
               std::to_string(instruction);
      if (const std::string *where = location(instruction))
        waits += " at " + *where;
      waits += ")";
    };
    if (!pe.ctlDone && !pe.ctlBlockedOn.empty())
      note("ctl", pe.ctlBlockedOn, "at instruction", pe.pc);
    for (unsigned u = 1; u < kNumUnits; ++u) {
      const UnitState &state = pe.units[u];
      if (state.queue.empty())
        continue;
      note(unitName(static_cast<Unit>(u)), state.blockedOn, "instruction",
           state.queue.front().index);
    }
  }
  if (listed > 12)
    waits += "\n  ... and " + std::to_string(total - 12) + " more";
  SimAbort failure;
  failure.error.kind = "deadlock";
  failure.error.message =
      "deadlock: every agent is blocked; who waits on what:" + waits;
  if (first) {
    failure.error.pe = first->index;
    failure.error.programId = first->pid;
    failure.error.instruction = firstInstruction;
    if (const std::string *where = location(firstInstruction))
      failure.error.location = *where;
  }
  throw failure;
}

void Diagnostics::report(const std::vector<PEState> &pes, SimResult &result) {
  result.output = std::move(output);
  if (!tracing)
    return;
  result.trace = traceJson(pes);
}

std::string Diagnostics::traceJson(const std::vector<PEState> &pes) const {
  std::string text;
  llvm::raw_string_ostream stream(text);
  llvm::json::OStream json(stream);
  const double cyclesPerMicrosecond = target.clockGHz * 1000.0;
  json.object([&] {
    json.attribute("displayTimeUnit", "ns");
    json.attributeArray("traceEvents", [&] {
      for (const PEState &pe : pes) {
        json.object([&] {
          json.attribute("name", "process_name");
          json.attribute("ph", "M");
          json.attribute("pid", pe.index);
          json.attributeObject("args",
                               [&] { json.attribute("name", peName(pe)); });
        });
        for (unsigned u = 1; u < kNumUnits; ++u)
          json.object([&] {
            json.attribute("name", "thread_name");
            json.attribute("ph", "M");
            json.attribute("pid", pe.index);
            json.attribute("tid", u);
            json.attributeObject("args", [&] {
              json.attribute("name", unitName(static_cast<Unit>(u)));
            });
          });
      }
      for (const TraceEvent &event : trace)
        json.object([&] {
          json.attribute("name", opName(event.op));
          json.attribute("ph", "X");
          json.attribute("pid", event.pe);
          json.attribute("tid", static_cast<int>(event.unit));
          json.attribute("ts", event.start / cyclesPerMicrosecond);
          json.attribute("dur", event.duration / cyclesPerMicrosecond);
          json.attributeObject("args", [&] {
            json.attribute("start_cycle", static_cast<int64_t>(event.start));
            json.attribute("cycles", static_cast<int64_t>(event.duration));
            json.attribute("instruction", event.instruction);
            if (const std::string *where = location(event.instruction))
              json.attribute("location", *where);
          });
        });
    });
  });
  stream.flush();
  return text;
}
