//===- SimModule.cpp - nanobind bindings of the simulator -----------------===//
//
// The native module mtia_compiler._sim. The Python package
// mtia_compiler.sim wraps it; errors of a launch come back in the result
// dictionary and are raised as SimulationError there.
//
//===----------------------------------------------------------------------===//

#include "mtia/Simulator.h"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <optional>
#include <thread>

#ifdef __GLIBCXX__
#include <cxxabi.h>
#endif

namespace nb = nanobind;
using namespace mtia;

namespace {

using ByteArray =
    nb::ndarray<uint8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using ReadOnlyByteArray =
    nb::ndarray<const uint8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

nb::dict targetToDict(const TargetDesc &t) {
  nb::dict d;
  d["name"] = t.name;
  d["clock_ghz"] = t.clockGHz;
  d["pe_rows"] = t.peRows;
  d["pe_cols"] = t.peCols;
  d["num_pes"] = t.numPEs();
  d["local_memory_bytes"] = t.localMemoryBytes;
  d["local_bytes_per_cycle"] = t.localBytesPerCycle();
  d["cb_alignment_bytes"] = t.cbAlignmentBytes;
  d["sram_bytes"] = t.sram.bytes;
  d["sram_bytes_per_cycle"] = t.sramBytesPerCycle();
  d["sram_latency_cycles"] = t.sram.latencyCycles;
  d["sram_cache_bytes"] = t.sramCache.bytes;
  d["sram_cache_line_bytes"] = t.sramCache.lineBytes;
  d["sram_cache_ways"] = t.sramCache.ways;
  d["dram_bytes"] = t.dram.bytes;
  d["dram_bytes_per_cycle"] = t.dramBytesPerCycle();
  d["dram_latency_cycles"] = t.dram.latencyCycles;
  d["dma_alignment_bytes"] = t.dmaAlignmentBytes;
  d["dma_transaction_bytes"] = t.dmaTransactionBytes;
  d["dma_max_rank"] = t.dmaMaxRank;
  d["dma_latency_cycles"] = t.dmaLatencyCycles;
  d["dma_max_outstanding"] = t.dmaMaxOutstanding;
  d["dram_channels"] = t.dramStructure.channels;
  d["noc_pe_bytes_per_cycle"] = t.nocPeBytesPerCycle;
  d["noc_hop_cycles"] = t.nocHopCycles;
  d["dpe_tile"] = nb::make_tuple(t.dpeTileM, t.dpeTileN, t.dpeTileK);
  nb::dict macs;
  macs["f16"] = t.macsPerCyclePerPE(t.dpeTopsF16);
  macs["bf16"] = t.macsPerCyclePerPE(t.dpeTopsBF16);
  macs["f32"] = t.macsPerCyclePerPE(t.dpeTopsF32);
  macs["i8"] = t.macsPerCyclePerPE(t.dpeTopsI8);
  d["dpe_macs_per_cycle_per_pe"] = macs;
  nb::dict simd;
  simd["i8"] = t.simdOpsPerCyclePerPE(t.simdTopsI8);
  simd["f16"] = t.simdOpsPerCyclePerPE(t.simdTopsF16);
  simd["bf16"] = t.simdOpsPerCyclePerPE(t.simdTopsBF16);
  simd["f32"] = t.simdOpsPerCyclePerPE(t.simdTopsF32);
  simd["f64"] = t.simdOpsPerCyclePerPE(t.simdTopsF64);
  d["simd_ops_per_cycle_per_pe"] = simd;
  d["sfu_fraction"] = t.sfuFraction;
  d["reduce_elements_per_cycle"] = t.reduceElementsPerCycle;
  d["reduce_network_bytes_per_cycle"] = t.reduceNetworkBytesPerCycle;
  d["reduce_network_hop_cycles"] = t.reduceNetworkHopCycles;
  d["mlu_bytes_per_cycle"] = t.mluBytesPerCycle;
  d["mlu_transpose_bytes_per_cycle"] = t.mluTransposeBytesPerCycle;
  d["control_cycles_per_instruction"] = t.controlCyclesPerInstruction;
  d["circular_buffers"] = t.numCircularBuffers;
  d["command_queue_depth"] = t.commandQueueDepth;
  d["cb_handoff_cycles"] = t.cbHandoffCycles;
  d["launch_cycles"] = t.launchCycles();
  d["program_switch_cycles"] = t.programSwitchCycles;
  return d;
}

/// Whether the interpreter is finalizing: the main thread returned (or
/// raised) while this thread simulated.
bool interpreterFinalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing();
#else
  return _Py_IsFinalizing();
#endif
}

/// Blocks the calling thread until the process exits. CPython does the same
/// to a thread that asks for the GIL of a finalizing interpreter (since
/// 3.14; before, it ends the thread).
[[noreturn]] void parkUntilExit() {
  for (;;)
    std::this_thread::sleep_for(std::chrono::hours(1));
}

/// Takes back the GIL that `state`'s thread released. Before 3.14, CPython
/// ends a thread that asks for the GIL of a finalizing interpreter with
/// pthread_exit, whose forced unwinding would run through the simulator's
/// frames and nanobind's, which catch it without rethrowing: the process
/// aborts ("terminate called without an active exception"). A launch in a
/// thread the interpreter abandons therefore parks its thread instead, which
/// holds nothing the exit needs; the check before asking covers most cases
/// and the catch the finalization that starts while the thread asks.
void reacquireGil(PyThreadState *state) {
  if (interpreterFinalizing())
    parkUntilExit();
#ifdef __GLIBCXX__
  try {
    PyEval_RestoreThread(state);
  } catch (abi::__forced_unwind &) {
    parkUntilExit();
  }
#else
  PyEval_RestoreThread(state);
#endif
}

/// Releases the GIL for its lifetime, and takes it back with reacquireGil.
class ScopedGilRelease {
public:
  ScopedGilRelease() : state(PyEval_SaveThread()) {}
  ~ScopedGilRelease() { reacquireGil(state); }
  ScopedGilRelease(const ScopedGilRelease &) = delete;
  ScopedGilRelease &operator=(const ScopedGilRelease &) = delete;

  /// Holds the GIL from `acquire` to `release`.
  void acquire() { reacquireGil(state); }
  void release() { state = PyEval_SaveThread(); }

private:
  PyThreadState *state;
};

nb::dict errorToDict(const SimError &error) {
  nb::dict d;
  d["kind"] = error.kind;
  d["message"] = error.message;
  d["pe"] = error.pe;
  d["program_id"] = nb::make_tuple(error.programId[0], error.programId[1],
                                   error.programId[2]);
  d["instruction"] = error.instruction;
  d["location"] = error.location;
  return d;
}

/// Binds `item`, a 1-D uint8 array (a read-only one may only be read), as
/// the buffer of a pointer argument; false for anything else.
bool bindBuffer(nb::handle item, LaunchArg &arg) {
  if (nb::isinstance<ByteArray>(item)) {
    ByteArray bytes = nb::cast<ByteArray>(item);
    arg.kind = ParamKind::Ptr;
    arg.data = bytes.data();
    arg.bytes = bytes.shape(0);
    return true;
  }
  if (!nb::isinstance<ReadOnlyByteArray>(item))
    return false;
  ReadOnlyByteArray bytes = nb::cast<ReadOnlyByteArray>(item);
  arg.kind = ParamKind::Ptr;
  // Never written through: the simulator refuses writes to it.
  arg.data = const_cast<uint8_t *>(bytes.data());
  arg.bytes = bytes.shape(0);
  arg.readOnly = true;
  return true;
}

/// Binds `item`, an int (or bool) or a float, as a scalar argument; false
/// for anything else.
bool bindScalar(nb::handle item, LaunchArg &arg) {
  if (nb::isinstance<nb::bool_>(item) || nb::isinstance<nb::int_>(item)) {
    arg.kind = ParamKind::Int;
    arg.intValue = nb::cast<int64_t>(item);
    return true;
  }
  if (!nb::isinstance<nb::float_>(item))
    return false;
  arg.kind = ParamKind::Float;
  arg.floatValue = nb::cast<double>(item);
  return true;
}

/// Runs a launch. `args` holds, per kernel parameter, a 1-D uint8 array
/// (pointer; a read-only one may only be read) or a tuple of one and the
/// pointer's byte offset into it, an int or a float. The
/// launch stops at the budget of `max_steps`, `max_cycles` and
/// `max_seconds` (0: no limit), and when a signal handler raises (Ctrl-C's
/// KeyboardInterrupt), which is raised again here. `kernel_thread` lets the
/// numeric kernels, the copies of contiguous stores and the zeroing of local
/// memory run on a second host thread.
nb::dict run(const TargetDesc &target, const Program &program,
             const nb::list &args, std::array<int64_t, 3> grid, bool trace,
             uint64_t maxSteps, uint64_t maxCycles, double maxSeconds,
             bool kernelThread) {
  std::vector<LaunchArg> launch;
  for (size_t i = 0; i < args.size(); ++i) {
    nb::handle item = args[i];
    LaunchArg arg;
    const bool pointerIntoBuffer =
        nb::isinstance<nb::tuple>(item) && nb::len(item) == 2;
    if (pointerIntoBuffer && bindBuffer(nb::borrow<nb::tuple>(item)[0], arg)) {
      // A pointer into a buffer: the buffer and the pointer's byte offset.
      arg.offset = nb::cast<uint64_t>(nb::borrow<nb::tuple>(item)[1]);
    } else if (!bindBuffer(item, arg) && !bindScalar(item, arg)) {
      throw nb::type_error(("argument " + std::to_string(i) +
                            " must be a 1-D uint8 array, a tuple of one and "
                            "an offset into it, an int or a float")
                               .c_str());
    }
    launch.push_back(arg);
  }
  LaunchConfig config;
  config.grid = grid;
  config.trace = trace;
  config.maxSteps = maxSteps;
  config.maxCycles = maxCycles;
  config.maxSeconds = maxSeconds;
  config.kernelThread = kernelThread;
  // The simulator runs without the GIL; at intervals it takes it back to
  // run the signal handlers, and keeps the exception one raises.
  std::optional<nb::python_error> signal;
  SimResult result;
  {
    ScopedGilRelease release;
    config.interrupted = [&] {
      release.acquire();
      const bool raised = PyErr_CheckSignals() != 0;
      if (raised)
        signal.emplace();
      release.release();
      return raised;
    };
    result = simulate(target, program, launch, config);
  }
  if (signal)
    throw std::move(*signal);
  nb::dict d;
  d["ok"] = result.ok;
  d["error"] = result.ok ? nb::none() : nb::object(errorToDict(result.error));
  d["cycles"] = result.cycles;
  nb::dict units;
  nb::list peBusy;
  const unsigned numPEs = target.numPEs();
  for (unsigned u = 0; u < kNumUnits; ++u) {
    nb::dict stats;
    stats["busy_cycles"] = result.units[u].busyCycles;
    stats["instructions"] = result.units[u].instructions;
    units[unitName(static_cast<Unit>(u))] = stats;
  }
  for (unsigned p = 0; p < numPEs && !result.peBusyCycles.empty(); ++p) {
    nb::dict row;
    for (unsigned u = 0; u < kNumUnits; ++u)
      row[unitName(static_cast<Unit>(u))] =
          result.peBusyCycles[p * kNumUnits + u];
    peBusy.append(row);
  }
  d["units"] = units;
  d["pe_busy_cycles"] = peBusy;
  nb::dict bytes;
  bytes["dram_read"] = result.dramReadBytes;
  bytes["dram_write"] = result.dramWriteBytes;
  bytes["sram_read"] = result.sramReadBytes;
  bytes["sram_write"] = result.sramWriteBytes;
  bytes["cache_read"] = result.cacheReadBytes;
  bytes["local"] = result.localBytes;
  bytes["reduce_network"] = result.reduceNetworkBytes;
  d["bytes"] = bytes;
  nb::dict cache;
  cache["hits"] = result.cacheHits;
  cache["misses"] = result.cacheMisses;
  cache["evictions"] = result.cacheEvictions;
  d["cache"] = cache;
  d["output"] = result.output;
  d["trace"] =
      trace ? nb::object(nb::str(result.trace.c_str(), result.trace.size()))
            : nb::none();
  return d;
}

/// The vocabulary of the program format as the simulator reads it
/// (sim/include/mtia/Program.h): the program builder takes its names and
/// sizes from here instead of keeping copies.
nb::dict programFormat() {
  nb::dict format;
  format["version"] = kProgramFormatVersion;
  format["magic"] = nb::bytes(kProgramMagic, sizeof(kProgramMagic));
  format["header_bytes"] = kProgramHeaderBytes;
  format["max_rank"] = kMaxTileRank;
  format["slot_alignment"] = kSlotAlignmentBytes;
  nb::dict dtypes;
  for (unsigned i = 0; i < kNumDTypes; ++i)
    dtypes[dtypeName(static_cast<DType>(i))] = dtypeSize(static_cast<DType>(i));
  format["dtypes"] = dtypes;
  nb::list units;
  for (unsigned i = 0; i < kNumUnits; ++i)
    units.append(unitName(static_cast<Unit>(i)));
  format["units"] = units;
  nb::dict ops;
#define MTIA_OP_ENTRY(id, name, unit) ops[name] = unitName(Unit::unit);
  MTIA_OPS(MTIA_OP_ENTRY)
#undef MTIA_OP_ENTRY
  format["ops"] = ops;
  nb::dict functions;
  auto names = [](std::initializer_list<const char *> list) {
    nb::list result;
    for (const char *name : list)
      result.append(name);
    return result;
  };
#define MTIA_FN_NAME(id, name) name,
  functions["binary"] = names({MTIA_BINARY_FNS(MTIA_FN_NAME)});
  functions["unary"] = names({MTIA_UNARY_FNS(MTIA_FN_NAME)});
  functions["predicates"] = names({MTIA_PREDICATES(MTIA_FN_NAME)});
  functions["reduce"] = names({MTIA_REDUCE_FNS(MTIA_FN_NAME)});
  functions["atomic"] = names({MTIA_ATOMIC_FNS(MTIA_FN_NAME)});
  functions["pe"] = names({MTIA_PE_QUERIES(MTIA_FN_NAME)});
#undef MTIA_FN_NAME
  format["functions"] = functions;
  return format;
}

} // namespace

NB_MODULE(_sim, m) {
  m.doc() = "Native MTIA machine model (see mtia_compiler.sim)";
  // Targets and programs may be held until the interpreter exits by objects
  // of other modules (Triton's kernel caches hold launchers), which Python
  // finalizes after this module: that is not a leak, so say nothing at exit.
  nb::set_leak_warnings(false);

  nb::class_<TargetDesc>(m, "Target")
      .def_static(
          "from_json",
          [](const std::string &text) {
            TargetDesc target;
            std::string error = parseTarget(text, target);
            if (!error.empty())
              throw nb::value_error(error.c_str());
            return target;
          },
          nb::arg("text"), "Parses a target description (JSON text).")
      .def_static(
          "from_file",
          [](const std::string &path) {
            TargetDesc target;
            std::string error = loadTarget(path, target);
            if (!error.empty())
              throw nb::value_error(error.c_str());
            return target;
          },
          nb::arg("path"), "Reads a target description file.")
      .def_prop_ro("name", [](const TargetDesc &t) { return t.name; })
      .def_prop_ro("num_pes", [](const TargetDesc &t) { return t.numPEs(); })
      .def_prop_ro("clock_ghz", [](const TargetDesc &t) { return t.clockGHz; })
      .def("to_dict", &targetToDict,
           "The description with derived per-cycle rates.");

  nb::class_<Program>(m, "Program")
      .def_static(
          "parse",
          [](nb::bytes data) {
            Program program;
            std::string error =
                parseProgram(reinterpret_cast<const uint8_t *>(data.c_str()),
                             data.size(), program);
            if (!error.empty())
              throw nb::value_error(error.c_str());
            return program;
          },
          nb::arg("data"), "Parses and validates program bytes.")
      .def_prop_ro("kernel", [](const Program &p) { return p.kernel; })
      .def_prop_ro("param_names",
                   [](const Program &p) {
                     std::vector<std::string> names;
                     for (const Param &param : p.params)
                       names.push_back(param.name);
                     return names;
                   })
      .def_prop_ro("param_kinds",
                   [](const Program &p) {
                     std::vector<std::string> kinds;
                     for (const Param &param : p.params)
                       kinds.push_back(param.kind == ParamKind::Ptr ? "ptr"
                                       : param.kind == ParamKind::Int
                                           ? "int"
                                           : "float");
                     return kinds;
                   })
      .def_prop_ro("num_instructions",
                   [](const Program &p) { return p.code.size(); });

  m.def("program_format", &programFormat,
        "The vocabulary of the program format: version, magic, header size, "
        "ranks, slot alignment, dtypes and their sizes, units, ops and their "
        "units, function names.");
  m.def("run", &run, nb::arg("target"), nb::arg("program"), nb::arg("args"),
        nb::arg("grid"), nb::arg("trace") = false,
        nb::arg("max_steps") = uint64_t(1) << 34, nb::arg("max_cycles") = 0,
        nb::arg("max_seconds") = 0.0, nb::arg("kernel_thread") = true,
        "Simulates one launch; returns a result dictionary.");
}
