//===- Simulator.cpp - The MTIA machine model -----------------------------===//
//
// Each PE has a control core and six units (two DMA queues, DPE, SIMD, RE,
// MLU). The control core runs the program's control code and issues unit
// instructions into bounded in-order queues; a unit executes its queue in
// order, blocking on circular-buffer conditions. Agents are stepped in a
// fixed order until all finish, so results are deterministic; each agent
// keeps its own clock and CB events carry timestamps, which yields dataflow
// timing independent of the stepping order. Chip-wide DRAM and SRAM
// bandwidth is shared through a bucketed booking calendar; the SRAM's
// hardware-cache part decides which DRAM transactions the SRAM serves.
//
//===----------------------------------------------------------------------===//

#include "mtia/Simulator.h"

#include "Cache.h"
#include "Kernels.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <deque>
#include <map>
#include <sstream>

using namespace mtia;

namespace {

/// Thrown inside the machine; simulate() converts it into the result.
struct SimAbort {
  SimError error;
};

struct ScalarValue {
  int64_t i = 0;
  double f = 0;
};

/// A unit instruction with its register operands read at issue.
struct Command {
  const Inst *inst = nullptr;
  int32_t index = 0;
  int64_t ints[kMaxCommandInts];
  ScalarValue scalars[kMaxCommandScalars];
  std::array<int64_t, 3> pid;
  uint64_t issueTime = 0;
  int64_t sequence = 0; // Of a re.xreduce among its program's re.xreduces.
};

struct GlobalBuffer {
  uint64_t base = 0;
  uint64_t bytes = 0;
  uint8_t *host = nullptr;
  std::string name;
  MemorySpace space = MemorySpace::Dram;
};

/// Books transfers against a shared bandwidth, in buckets of fixed length;
/// a transfer fills the earliest buckets with spare capacity at or after
/// its start.
class BandwidthCalendar {
public:
  explicit BandwidthCalendar(double bytesPerCycle = 1)
      : bytesPerCycle(bytesPerCycle),
        bucketCapacity(bytesPerCycle * kBucketCycles) {}

  /// Returns the cycle at which `bytes` requested at `start` have moved:
  /// never before the whole bandwidth could move them, since buckets do
  /// not record where in them their bytes moved.
  uint64_t book(uint64_t start, double bytes) {
    if (bytes <= 0)
      return start;
    const uint64_t alone =
        start + static_cast<uint64_t>(std::ceil(bytes / bytesPerCycle));
    uint64_t bucket = std::max(start / kBucketCycles, firstBucket);
    while (true) {
      size_t slot = bucket - firstBucket;
      if (slot >= used.size())
        used.resize(std::max<size_t>(slot + 1, used.size() * 2), 0.0);
      double spare = bucketCapacity - used[slot];
      double take = std::min(spare, bytes);
      used[slot] += take;
      bytes -= take;
      if (bytes <= 0) {
        uint64_t end = bucket * kBucketCycles +
                       static_cast<uint64_t>(std::ceil(
                           used[slot] / bucketCapacity * kBucketCycles));
        return std::max(end, alone);
      }
      ++bucket;
    }
  }

  /// Drops the buckets before `cycle`, which no later booking starts at.
  void forgetBefore(uint64_t cycle) {
    uint64_t bucket = cycle / kBucketCycles;
    if (bucket <= firstBucket)
      return;
    size_t dead = std::min<size_t>(bucket - firstBucket, used.size());
    // Erase in large steps only, to keep the cost amortised.
    if (dead < 1024 || dead * 2 < used.size())
      return;
    used.erase(used.begin(), used.begin() + dead);
    firstBucket += dead;
  }

private:
  static constexpr uint64_t kBucketCycles = 64;
  double bytesPerCycle;
  double bucketCapacity;
  uint64_t firstBucket = 0;
  std::vector<double> used;
};

struct CBState {
  int64_t base = 0;
  int64_t pushed = 0, popped = 0;
  int64_t reserved = 0, waited = 0;
  std::vector<uint64_t> pushTime, popTime;
  int producer = -1, consumer = -1;
};

struct UnitState {
  std::deque<Command> queue;
  uint64_t clock = 0;     // When the unit can start its next instruction.
  uint64_t readyTime = 0; // When all results of started work are complete.
  UnitStats stats;
  std::string blockedOn;
  bool contributed = false; // The head re.xreduce has sent its tile.
};

struct PEState {
  int index = 0;
  std::vector<int64_t> programs;
  size_t nextProgram = 0;
  bool ctlDone = false;
  bool inProgram = false;
  int32_t pc = 0;
  std::array<int64_t, 3> pid = {0, 0, 0};
  int64_t crossReducesIssued = 0; // By the current program.
  std::vector<int64_t> iregs;
  std::vector<double> fregs;
  uint64_t ctlClock = 0;
  std::string ctlBlockedOn;
  UnitState units[kNumUnits];
  std::vector<CBState> cbs;
  uint8_t *local = nullptr;
  /// The local-memory port shared by the PE's two DMA queues.
  BandwidthCalendar dmaLocalPort;

  bool finished() const {
    if (!ctlDone)
      return false;
    for (unsigned u = 1; u < kNumUnits; ++u)
      if (!units[u].queue.empty())
        return false;
    return true;
  }
};

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

struct TraceEvent {
  int pe;
  Unit unit;
  Op op;
  uint64_t start, duration;
};

class Machine {
public:
  Machine(const TargetDesc &target, const Program &program,
          const LaunchConfig &config)
      : target(target), program(program), config(config),
        dram(target.dramBytesPerCycle()), sram(target.sramBytesPerCycle()),
        cache(target.sramCache.bytes, target.sramCache.lineBytes,
              target.dmaTransactionBytes, target.sramCache.ways) {}

  void bind(const std::vector<LaunchArg> &args);
  void planLocalMemory();
  void run();
  void fillResult(SimResult &result);

private:
  // Diagnostics.
  [[noreturn]] void abort(const char *kind, const std::string &message,
                          const PEState &pe, const std::array<int64_t, 3> &pid,
                          int instruction);
  [[noreturn]] void abortAt(const char *kind, const std::string &message,
                            const PEState &pe, const Command &cmd) {
    abort(kind, message, pe, cmd.pid, cmd.index);
  }
  std::string describeAddress(uint64_t address) const;
  std::string peName(const PEState &pe) const;

  // Global memory.
  const GlobalBuffer *findBuffer(uint64_t address, uint64_t bytes) const;
  const GlobalBuffer &checkedBuffer(uint64_t address, uint64_t bytes,
                                    const PEState &pe, const Command &cmd,
                                    const char *what);
  /// Books `bytes` at `address` (a multiple of dma.transaction_bytes, which
  /// `bytes` is too) of `buffer`, requested at `start`; returns when the
  /// memory has moved them.
  uint64_t bookTransfer(const GlobalBuffer &buffer, bool write, uint64_t start,
                        uint64_t address, uint64_t bytes);
  uint64_t bookCachedTransfer(bool write, uint64_t start, uint64_t address,
                              uint64_t bytes);

  // Agents.
  bool stepControl(PEState &pe);
  bool stepUnit(PEState &pe, Unit unit);
  bool startNextProgram(PEState &pe);
  void issue(PEState &pe, const Inst &inst);
  void executeScalar(PEState &pe, const Inst &inst);
  bool executeCommand(PEState &pe, Unit unit, UnitState &state,
                      const Command &cmd);
  /// Executes a CB operation of `unit` (a unit or the control core) whose
  /// clock is `clock` and whose started work completes at `readyTime`;
  /// returns false, saying why in `blockedOn`, while it must wait.
  bool executeCBOp(PEState &pe, Unit unit, const Command &cmd,
                   uint64_t &clock, uint64_t readyTime,
                   std::string &blockedOn);
  /// The control core's current instruction as a command, for diagnostics
  /// and for the CB operations it executes itself.
  Command coreCommand(const PEState &pe) const;
  /// Reads one element of a page the control core waited for (ldl).
  void loadLocal(PEState &pe, const Inst &inst);

  // Units.
  uint8_t *resolve(PEState &pe, Unit unit, const SlotRef &ref,
                   const Command &cmd);
  const uint8_t *resolveInput(PEState &pe, Unit unit, const SimdInput &input,
                              const Command &cmd, DType type, int64_t count,
                              int scratchIndex);
  uint64_t runDmaStrided(PEState &pe, Unit unit, const Command &cmd,
                         uint64_t start);
  uint64_t runDmaIndexed(PEState &pe, Unit unit, const Command &cmd,
                         uint64_t start);
  /// Writes to `host` the new value of an atomic on one element whose
  /// previous value is `previous` (`compare` is the cas comparand).
  void combineAtomic(AtomicFn fn, DType type, const uint8_t *previous,
                     const uint8_t *value, const uint8_t *compare,
                     uint8_t *host, PEState &pe, const Command &cmd);
  uint64_t runAtomic(PEState &pe, Unit unit, const Command &cmd,
                     uint64_t start);
  bool executeCrossReduce(PEState &pe, UnitState &state, const Command &cmd);
  void combineCrossReduce(CrossReduce &reduce);
  uint64_t runCompute(PEState &pe, Unit unit, const Command &cmd);
  void printTile(PEState &pe, const Command &cmd, const uint8_t *data);
  void complete(PEState &pe, Unit unit, UnitState &state, const Command &cmd,
                uint64_t start, uint64_t occupancy, uint64_t latency);

  void reportDeadlock();

  // Cross-PE reduction groups: programs that agree on the grid axes outside
  // program.reduceGroupAxes; a member's rank linearises its ids along the
  // group axes (lowest axis fastest).
  int64_t groupOf(const std::array<int64_t, 3> &pid) const;
  int64_t rankOf(const std::array<int64_t, 3> &pid) const;
  std::array<int64_t, 3> memberOf(int64_t group, int64_t rank) const;
  std::array<int64_t, 3> pidOf(int64_t linear) const {
    return {linear % config.grid[0], (linear / config.grid[0]) % config.grid[1],
            linear / (config.grid[0] * config.grid[1])};
  }
  int64_t linearOf(const std::array<int64_t, 3> &pid) const {
    return pid[0] + config.grid[0] * (pid[1] + config.grid[1] * pid[2]);
  }
  std::string describeGroup(int64_t group) const;
  void checkReduceGroups();

  const TargetDesc &target;
  const Program &program;
  const LaunchConfig &config;
  std::vector<GlobalBuffer> buffers;
  std::vector<LaunchArg> args;
  std::vector<uint64_t> paramValues;
  std::vector<PEState> pes;
  std::vector<int64_t> cbBases;
  int64_t localBytesNeeded = 0;
  BandwidthCalendar dram, sram;
  LastLevelCache cache;
  uint64_t dramRead = 0, dramWrite = 0, sramRead = 0, sramWrite = 0;
  uint64_t localTraffic = 0;
  uint64_t reduceNetworkTraffic = 0;
  int64_t groupSize = 1;
  std::map<std::pair<int64_t, int64_t>, CrossReduce> crossReduces;
  uint64_t memoryLatency = 0; // Of the global memory the current DMA touched.
  /// When the cache fills the current DMA read found in flight arrive in the
  /// SRAM (0: none).
  uint64_t cacheFillArrival = 0;
  uint64_t controlSteps = 0;
  uint64_t coreAtomics = 0; // amo instructions performed by all PEs.
  std::string output;
  std::vector<TraceEvent> trace;
  std::vector<uint8_t> scratch[4];
};

std::string Machine::peName(const PEState &pe) const {
  return "PE " + std::to_string(pe.index) + " (row " +
         std::to_string(pe.index / target.peCols) + ", col " +
         std::to_string(pe.index % target.peCols) + ")";
}

void Machine::abort(const char *kind, const std::string &message,
                    const PEState &pe, const std::array<int64_t, 3> &pid,
                    int instruction) {
  SimAbort failure;
  failure.error.kind = kind;
  failure.error.pe = pe.index;
  failure.error.programId = pid;
  failure.error.instruction = instruction;
  std::string where = peName(pe) + ", program (" + std::to_string(pid[0]) +
                      ", " + std::to_string(pid[1]) + ", " +
                      std::to_string(pid[2]) + ")";
  if (instruction >= 0) {
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

std::string pidText(const std::array<int64_t, 3> &pid) {
  return "(" + std::to_string(pid[0]) + ", " + std::to_string(pid[1]) + ", " +
         std::to_string(pid[2]) + ")";
}

std::string hex(uint64_t value) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%" PRIx64, value);
  return text;
}

std::string Machine::describeAddress(uint64_t address) const {
  const GlobalBuffer *nearest = nullptr;
  uint64_t bestDistance = UINT64_MAX;
  for (const GlobalBuffer &buffer : buffers) {
    uint64_t distance = address < buffer.base ? buffer.base - address
                        : address >= buffer.base + buffer.bytes
                            ? address - (buffer.base + buffer.bytes) + 1
                            : 0;
    if (distance < bestDistance) {
      bestDistance = distance;
      nearest = &buffer;
    }
  }
  if (!nearest)
    return "no buffers are bound";
  return "nearest buffer '" + nearest->name + "' spans [" + hex(nearest->base) +
         ", " + hex(nearest->base + nearest->bytes) + ") (" +
         std::to_string(nearest->bytes) + " bytes)";
}

const GlobalBuffer *Machine::findBuffer(uint64_t address,
                                        uint64_t bytes) const {
  for (const GlobalBuffer &buffer : buffers)
    if (address >= buffer.base && bytes <= buffer.bytes &&
        address - buffer.base <= buffer.bytes - bytes)
      return &buffer;
  return nullptr;
}

const GlobalBuffer &Machine::checkedBuffer(uint64_t address, uint64_t bytes,
                                           const PEState &pe,
                                           const Command &cmd,
                                           const char *what) {
  if (const GlobalBuffer *buffer = findBuffer(address, bytes))
    return *buffer;
  abortAt("out_of_bounds",
          std::string("out-of-bounds ") + what + " of " +
              std::to_string(bytes) + " bytes at address " + hex(address) +
              "; " + describeAddress(address),
          pe, cmd);
}

uint64_t Machine::bookTransfer(const GlobalBuffer &buffer, bool write,
                               uint64_t start, uint64_t address,
                               uint64_t bytes) {
  if (buffer.space == MemorySpace::Sram) {
    memoryLatency = std::max<uint64_t>(memoryLatency, target.sram.latencyCycles);
    (write ? sramWrite : sramRead) += bytes;
    return sram.book(start, static_cast<double>(bytes));
  }
  if (cache.enabled())
    return bookCachedTransfer(write, start, address, bytes);
  memoryLatency = std::max<uint64_t>(memoryLatency, target.dram.latencyCycles);
  (write ? dramWrite : dramRead) += bytes;
  return dram.book(start, static_cast<double>(bytes));
}

uint64_t Machine::bookCachedTransfer(bool write, uint64_t start,
                                     uint64_t address, uint64_t bytes) {
  const uint64_t sectorBytes = target.dmaTransactionBytes;
  const uint64_t firstSector = address / sectorBytes;
  const uint64_t sectors = bytes / sectorBytes;
  const uint64_t dramLatency = target.dram.latencyCycles;
  if (write) {
    // Write-through with allocation: every byte goes on to DRAM, and the
    // cache keeps the sectors for later reads from the time the write has
    // passed.
    memoryLatency = std::max(memoryLatency, dramLatency);
    dramWrite += bytes;
    const uint64_t finish = dram.book(start, static_cast<double>(bytes));
    cache.write(firstSector, sectors, finish);
    return finish;
  }
  // Hits come from the SRAM, misses from DRAM; a hit whose fill is still in
  // flight is forwarded when the fill arrives.
  uint64_t finish = start;
  const CacheReadOutcome outcome =
      cache.read(firstSector, sectors, start, [&](uint64_t missSectors) {
        const uint64_t missBytes = missSectors * sectorBytes;
        memoryLatency = std::max(memoryLatency, dramLatency);
        dramRead += missBytes;
        const uint64_t dramFinish =
            dram.book(start, static_cast<double>(missBytes));
        finish = std::max(finish, dramFinish);
        return dramFinish + dramLatency;
      });
  if (outcome.hitSectors == 0)
    return finish;
  const uint64_t hitBytes = outcome.hitSectors * sectorBytes;
  memoryLatency = std::max<uint64_t>(memoryLatency, target.sram.latencyCycles);
  cacheFillArrival = std::max(cacheFillArrival, outcome.inFlightUntil);
  return std::max(finish, sram.book(start, static_cast<double>(hitBytes)));
}

void Machine::bind(const std::vector<LaunchArg> &launchArgs) {
  SimAbort failure;
  failure.error.kind = "invalid_launch";
  if (launchArgs.size() != program.params.size()) {
    failure.error.message = "the kernel '" + program.kernel + "' takes " +
                            std::to_string(program.params.size()) +
                            " arguments but " +
                            std::to_string(launchArgs.size()) + " were given";
    throw failure;
  }
  for (int64_t dim : config.grid) {
    if (dim < 1 || dim > (int64_t(1) << 31)) {
      failure.error.message = "grid dimensions must be in [1, 2^31]";
      throw failure;
    }
  }
  const uint64_t firstAddress = 0x10000000;
  uint64_t next = firstAddress;
  uint64_t sramUsed = 0;
  for (size_t i = 0; i < launchArgs.size(); ++i) {
    const Param &param = program.params[i];
    const LaunchArg &arg = launchArgs[i];
    if (arg.kind != param.kind) {
      failure.error.message = "argument " + std::to_string(i) + " ('" +
                              param.name + "') has the wrong kind";
      throw failure;
    }
    if (param.kind == ParamKind::Int) {
      paramValues.push_back(static_cast<uint64_t>(arg.intValue));
      continue;
    }
    if (param.kind == ParamKind::Float) {
      paramValues.push_back(0);
      continue;
    }
    GlobalBuffer buffer;
    buffer.base = next;
    buffer.bytes = arg.bytes;
    buffer.host = arg.data;
    buffer.name = param.name;
    buffer.space = param.space;
    if (param.space == MemorySpace::Sram)
      sramUsed += arg.bytes;
    // Buffers are 4 KiB aligned with at least one unmapped page between
    // them, so that an overrun never lands in a neighbour.
    next += (arg.bytes + 4096 + 4095) / 4096 * 4096;
    paramValues.push_back(buffer.base);
    buffers.push_back(std::move(buffer));
  }
  if (sramUsed > target.sramScratchBytes()) {
    failure.error.message =
        "the buffers placed in SRAM need " + std::to_string(sramUsed) +
        " bytes but " + target.name + " has " +
        std::to_string(target.sramScratchBytes()) +
        " (its SRAM's software-managed part; " +
        std::to_string(target.sramCache.bytes) + " bytes are hardware cache)";
    throw failure;
  }
  if (cache.enabled())
    cache.cover(firstAddress, next);
  args = launchArgs;
}

void Machine::planLocalMemory() {
  SimAbort failure;
  if (program.cbs.size() > target.numCircularBuffers) {
    failure.error.kind = "cb_misuse";
    failure.error.message = "the program declares " +
                            std::to_string(program.cbs.size()) +
                            " circular buffers but the command processor of " +
                            target.name + " tracks " +
                            std::to_string(target.numCircularBuffers);
    throw failure;
  }
  const int64_t alignment = target.cbAlignmentBytes;
  int64_t offset = 0;
  std::string plan;
  for (const CBDesc &cb : program.cbs) {
    cbBases.push_back(offset);
    int64_t bytes = cb.pageBytes * cb.pages;
    plan += " '" + cb.name + "' " + std::to_string(cb.pages) + " x " +
            std::to_string(cb.pageBytes) + " B;";
    offset += (bytes + alignment - 1) / alignment * alignment;
  }
  localBytesNeeded = offset;
  if (static_cast<uint64_t>(offset) > target.localMemoryBytes) {
    failure.error.kind = "local_memory_overflow";
    failure.error.message = "the circular buffers need " +
                            std::to_string(offset) +
                            " bytes of local memory but a PE of " +
                            target.name + " has " +
                            std::to_string(target.localMemoryBytes) + ":" +
                            plan;
    throw failure;
  }
}

bool Machine::startNextProgram(PEState &pe) {
  if (pe.nextProgram >= pe.programs.size()) {
    pe.ctlDone = true;
    return false;
  }
  pe.pid = pidOf(pe.programs[pe.nextProgram++]);
  std::fill(pe.iregs.begin(), pe.iregs.end(), 0);
  std::fill(pe.fregs.begin(), pe.fregs.end(), 0.0);
  pe.crossReducesIssued = 0;
  pe.pc = 0;
  pe.inProgram = true;
  return true;
}

void Machine::issue(PEState &pe, const Inst &inst) {
  UnitState &state = pe.units[static_cast<int>(inst.unit)];
  Command &cmd = state.queue.emplace_back();
  cmd.inst = &inst;
  cmd.index = pe.pc;
  cmd.pid = pe.pid;
  cmd.issueTime = pe.ctlClock;
  if (inst.op == Op::ReXReduce)
    cmd.sequence = pe.crossReducesIssued++;
  for (size_t i = 0; i < inst.ints.size(); ++i)
    cmd.ints[i] = inst.ints[i].isReg ? pe.iregs[inst.ints[i].value]
                                     : inst.ints[i].value;
  for (size_t i = 0; i < inst.scalars.size(); ++i) {
    const ScalarOperand &operand = inst.scalars[i];
    ScalarValue &value = cmd.scalars[i];
    switch (operand.kind) {
    case ScalarOperand::Imm:
      value.i = operand.intImm;
      value.f = operand.floatImm;
      break;
    case ScalarOperand::IReg:
      value.i = pe.iregs[operand.reg];
      value.f = static_cast<double>(value.i);
      break;
    case ScalarOperand::FReg:
      value.f = pe.fregs[operand.reg];
      value.i = static_cast<int64_t>(value.f);
      break;
    }
  }
}

/// Sign-extends the low `width` bits.
int64_t wrap(int64_t value, unsigned width) {
  if (width == 64)
    return value;
  return static_cast<int64_t>(static_cast<int32_t>(value));
}

void Machine::executeScalar(PEState &pe, const Inst &inst) {
  std::vector<int64_t> &r = pe.iregs;
  std::vector<double> &f = pe.fregs;
  switch (inst.op) {
  case Op::Li:
    r[inst.dst] = inst.intImm;
    return;
  case Op::Lf:
    f[inst.dst] = inst.floatImm;
    return;
  case Op::Mov:
    r[inst.dst] = r[inst.srcA];
    return;
  case Op::FMov:
    f[inst.dst] = f[inst.srcA];
    return;
  case Op::IOp:
  case Op::ICmp: {
    int64_t a = wrap(r[inst.srcA], inst.width);
    int64_t b = wrap(inst.operandB.isReg ? r[inst.operandB.value]
                                         : inst.operandB.value,
                     inst.width);
    DType type = inst.width == 32 ? DType::I32 : DType::I64;
    uint8_t x[8], y[8], out[8] = {0};
    storeInt(type, x, a);
    storeInt(type, y, b);
    if (inst.op == Op::IOp) {
      simdBinary(static_cast<BinaryFn>(inst.fn), type, out, x, y, 1);
      r[inst.dst] = loadInt(type, out);
    } else {
      simdCompare(static_cast<Pred>(inst.fn), type, out, x, y, 1);
      r[inst.dst] = out[0];
    }
    return;
  }
  case Op::FOp:
  case Op::FCmp:
  case Op::FUn: {
    uint8_t x[8], y[8], out[8] = {0};
    storeFloat(inst.type, x, f[inst.srcA]);
    if (inst.op != Op::FUn)
      storeFloat(inst.type, y, f[inst.srcB]);
    if (inst.op == Op::FOp) {
      simdBinary(static_cast<BinaryFn>(inst.fn), inst.type, out, x, y, 1);
      f[inst.dst] = loadFloat(inst.type, out);
    } else if (inst.op == Op::FUn) {
      simdUnary(static_cast<UnaryFn>(inst.fn), inst.type, out, x, 1);
      f[inst.dst] = loadFloat(inst.type, out);
    } else {
      simdCompare(static_cast<Pred>(inst.fn), inst.type, out, x, y, 1);
      r[inst.dst] = out[0];
    }
    return;
  }
  case Op::FFma: {
    uint8_t x[8], y[8], z[8], out[8] = {0};
    storeFloat(inst.type, x, f[inst.srcA]);
    storeFloat(inst.type, y, f[inst.srcB]);
    storeFloat(inst.type, z, f[inst.srcC]);
    simdFma(inst.type, out, x, y, z, 1);
    f[inst.dst] = loadFloat(inst.type, out);
    return;
  }
  case Op::IToF: {
    uint8_t in[8], out[8];
    storeInt(DType::I64, in, r[inst.srcA]);
    convertElements(DType::I64, inst.type, in, out, 1, inst.isSigned);
    f[inst.dst] = loadFloat(inst.type, out);
    return;
  }
  case Op::FToI: {
    uint8_t in[8], out[8];
    DType type = inst.width == 32 ? DType::I32 : DType::I64;
    storeFloat(DType::F64, in, f[inst.srcA]);
    convertElements(DType::F64, type, in, out, 1, inst.isSigned);
    r[inst.dst] = loadInt(type, out, inst.isSigned);
    return;
  }
  case Op::ISel:
    r[inst.dst] = r[inst.srcC] ? r[inst.srcA] : r[inst.srcB];
    return;
  case Op::FSel:
    f[inst.dst] = r[inst.srcC] ? f[inst.srcA] : f[inst.srcB];
    return;
  case Op::Pid:
    r[inst.dst] = pe.pid[inst.axis];
    return;
  case Op::NProg:
    r[inst.dst] = config.grid[inst.axis];
    return;
  case Op::Param:
    r[inst.dst] = static_cast<int64_t>(paramValues[inst.intImm]);
    return;
  case Op::FParam:
    f[inst.dst] = args[inst.intImm].floatValue;
    return;
  default:
    return;
  }
}

Command Machine::coreCommand(const PEState &pe) const {
  Command here;
  here.inst = &program.code[pe.pc];
  here.index = pe.pc;
  here.pid = pe.pid;
  here.issueTime = pe.ctlClock;
  return here;
}

void Machine::loadLocal(PEState &pe, const Inst &inst) {
  const Command here = coreCommand(pe);
  const SlotRef &ref = inst.slots[0];
  const uint8_t *tile = resolve(pe, Unit::Ctl, ref, here);
  const int64_t index = inst.ints[0].isReg ? pe.iregs[inst.ints[0].value]
                                           : inst.ints[0].value;
  const unsigned size = dtypeSize(inst.type);
  const CBDesc &desc = program.cbs[ref.cb];
  const int64_t elements = (desc.pageBytes - ref.offset) / size;
  if (index < 0 || index >= elements)
    abortAt("out_of_bounds",
            "ldl reads element " + std::to_string(index) + " of " +
                dtypeName(inst.type) + " at offset " +
                std::to_string(ref.offset) + " of a page of CB '" + desc.name +
                "', which holds " + std::to_string(elements) +
                " such elements there",
            pe, here);
  const uint8_t *element = tile + index * size;
  if (isFloat(inst.type))
    pe.fregs[inst.dst] = loadFloat(inst.type, element);
  else
    pe.iregs[inst.dst] = loadInt(inst.type, element);
  localTraffic += size;
}

bool Machine::stepControl(PEState &pe) {
  bool progressed = false;
  pe.ctlBlockedOn.clear();
  while (!pe.ctlDone) {
    if (!pe.inProgram && !startNextProgram(pe))
      break;
    if (pe.pc >= static_cast<int32_t>(program.code.size())) {
      pe.inProgram = false;
      progressed = true;
      continue;
    }
    if (++controlSteps > (uint64_t(1) << 34))
      abortAt("timeout", "the control code ran for more than 2^34 steps", pe,
              coreCommand(pe));
    const Inst &inst = program.code[pe.pc];
    if (inst.unit != Unit::Ctl) {
      UnitState &state = pe.units[static_cast<int>(inst.unit)];
      if (state.queue.size() >= target.commandQueueDepth) {
        pe.ctlBlockedOn = std::string("waits for room in the command queue of ") +
                          unitName(inst.unit);
        --controlSteps;
        break;
      }
      issue(pe, inst);
      pe.ctlClock += target.controlIssueCycles;
      ++pe.pc;
      progressed = true;
      continue;
    }
    switch (inst.op) {
    case Op::End:
      pe.inProgram = false;
      progressed = true;
      continue;
    case Op::Jmp:
      pe.pc = inst.target;
      break;
    case Op::Bz:
    case Op::Bnz:
      pe.pc = (pe.iregs[inst.srcC] == 0) == (inst.op == Op::Bz) ? inst.target
                                                                 : pe.pc + 1;
      break;
    case Op::Fence: {
      uint64_t done = pe.ctlClock;
      for (unsigned u = 1; u < kNumUnits; ++u) {
        if (!pe.units[u].queue.empty()) {
          pe.ctlBlockedOn = std::string("fence waits for ") +
                            unitName(static_cast<Unit>(u)) + " to drain";
          --controlSteps;
          return progressed;
        }
        done = std::max({done, pe.units[u].clock, pe.units[u].readyTime});
      }
      pe.ctlClock = done;
      ++pe.pc;
      break;
    }
    case Op::Amo: {
      const Command here = coreCommand(pe);
      // Release: the PE's earlier stores and atomics complete first.
      if (inst.release) {
        uint64_t done = pe.ctlClock;
        for (unsigned u = 1; u < kNumUnits; ++u) {
          if (!pe.units[u].queue.empty()) {
            pe.ctlBlockedOn = std::string("release atomic waits for ") +
                              unitName(static_cast<Unit>(u)) + " to drain";
            --controlSteps;
            return progressed;
          }
          done = std::max({done, pe.units[u].clock, pe.units[u].readyTime});
        }
        pe.ctlClock = done;
      }
      if (++coreAtomics > (uint64_t(1) << 24))
        abortAt("timeout",
                "the control cores performed more than 2^24 atomics (a spin "
                "lock that is never released?)",
                pe, here);
      bool floatType = isFloat(inst.type);
      if (inst.maskReg < 0 || pe.iregs[inst.maskReg] != 0) {
        uint64_t address = static_cast<uint64_t>(pe.iregs[inst.srcA]);
        unsigned size = dtypeSize(inst.type);
        const GlobalBuffer &buffer =
            checkedBuffer(address, size, pe, here, "atomic access");
        if (address % size != 0)
          abortAt("misaligned_dma",
                  "atomic access at " + hex(address) + " is not aligned to " +
                      std::to_string(size) + " bytes",
                  pe, here);
        uint8_t *host = buffer.host + (address - buffer.base);
        uint8_t previous[8], value[8], compare[8];
        std::memcpy(previous, host, size);
        if (floatType) {
          storeFloat(inst.type, value, pe.fregs[inst.srcB]);
          if (inst.srcC >= 0)
            storeFloat(inst.type, compare, pe.fregs[inst.srcC]);
        } else {
          storeInt(inst.type, value, pe.iregs[inst.srcB]);
          if (inst.srcC >= 0)
            storeInt(inst.type, compare, pe.iregs[inst.srcC]);
        }
        combineAtomic(static_cast<AtomicFn>(inst.fn), inst.type, previous,
                      value, compare, host, pe, here);
        if (floatType)
          pe.fregs[inst.dst] = loadFloat(inst.type, previous);
        else
          pe.iregs[inst.dst] = loadInt(inst.type, previous);
        // The core waits for the result, so later accesses (acquire) start
        // after the atomic.
        pe.ctlClock += target.scalarMemoryLatencyCycles;
      } else if (floatType) {
        pe.fregs[inst.dst] = 0;
      } else {
        pe.iregs[inst.dst] = 0;
      }
      ++pe.pc;
      pe.ctlClock += target.controlCyclesPerInstruction;
      // The core yields after every atomic, so that a PE spinning on a lock
      // lets the other PEs run (and the holder release it).
      return true;
    }
    case Op::Ld:
    case Op::St: {
      uint64_t address = static_cast<uint64_t>(pe.iregs[inst.srcA]);
      unsigned size = dtypeSize(inst.type);
      const Command here = coreCommand(pe);
      const GlobalBuffer &buffer =
          checkedBuffer(address, size, pe, here,
                        inst.op == Op::Ld ? "scalar load" : "scalar store");
      if (address % size != 0)
        abortAt("misaligned_dma",
                "scalar access of " + std::to_string(size) +
                    " bytes at unaligned address " + hex(address),
                pe, here);
      uint8_t *host = buffer.host + (address - buffer.base);
      if (inst.op == Op::Ld) {
        if (isFloat(inst.type))
          pe.fregs[inst.dst] = loadFloat(inst.type, host);
        else
          pe.iregs[inst.dst] = loadInt(inst.type, host);
      } else if (isFloat(inst.type)) {
        storeFloat(inst.type, host, pe.fregs[inst.srcB]);
      } else {
        storeInt(inst.type, host, pe.iregs[inst.srcB]);
      }
      pe.ctlClock += target.scalarMemoryLatencyCycles;
      ++pe.pc;
      break;
    }
    case Op::CbWait:
    case Op::CbPop:
      // The control core is the consumer of this CB: it blocks until the
      // pages are pushed, and its reads are complete when it pops.
      if (!executeCBOp(pe, Unit::Ctl, coreCommand(pe), pe.ctlClock,
                       pe.ctlClock, pe.ctlBlockedOn)) {
        --controlSteps;
        return progressed;
      }
      ++pe.pc;
      break;
    case Op::Ldl:
      loadLocal(pe, inst);
      pe.ctlClock += target.controlLocalMemoryLatencyCycles;
      ++pe.pc;
      break;
    case Op::Print: {
      std::string line = "pid (" + std::to_string(pe.pid[0]) + ", " +
                         std::to_string(pe.pid[1]) + ", " +
                         std::to_string(pe.pid[2]) + ") idx ()" + inst.text;
      for (const ScalarOperand &operand : inst.scalars) {
        line += ' ';
        if (operand.kind == ScalarOperand::FReg) {
          char text[40];
          std::snprintf(text, sizeof(text), "%.9g", pe.fregs[operand.reg]);
          line += text;
        } else {
          line += std::to_string(operand.kind == ScalarOperand::IReg
                                     ? pe.iregs[operand.reg]
                                     : operand.intImm);
        }
      }
      output += line + "\n";
      ++pe.pc;
      break;
    }
    case Op::Assert:
      if (pe.iregs[inst.srcC] == 0)
        abortAt("assert", "assertion failed: " + inst.text, pe,
                coreCommand(pe));
      ++pe.pc;
      break;
    default:
      executeScalar(pe, inst);
      ++pe.pc;
      break;
    }
    pe.ctlClock += target.controlCyclesPerInstruction;
    progressed = true;
  }
  return progressed;
}

uint8_t *Machine::resolve(PEState &pe, Unit unit, const SlotRef &ref,
                          const Command &cmd) {
  if (!ref.present())
    return nullptr;
  const CBDesc &desc = program.cbs[ref.cb];
  CBState &cb = pe.cbs[ref.cb];
  int owner = ref.back ? cb.producer : cb.consumer;
  int64_t held = ref.back ? cb.reserved : cb.waited;
  const char *side = ref.back ? "reserved" : "waited-for";
  if (owner != static_cast<int>(unit) || ref.page >= held)
    abortAt("cb_misuse",
            std::string(unitName(unit)) + " accesses " + side + " page " +
                std::to_string(ref.page) + " of CB '" + desc.name +
                "' but holds " +
                std::to_string(owner == static_cast<int>(unit) ? held : 0) +
                " such pages (" + (ref.back ? "reserve" : "wait") +
                " before accessing)",
            pe, cmd);
  int64_t first = ref.back ? cb.pushed : cb.popped;
  int64_t physical = (first + ref.page) % desc.pages;
  return pe.local + cb.base + physical * desc.pageBytes + ref.offset;
}

const uint8_t *Machine::resolveInput(PEState &pe, Unit unit,
                                     const SimdInput &input,
                                     const Command &cmd, DType type,
                                     int64_t count, int scratchIndex) {
  if (input.isTile && !input.splat)
    return resolve(pe, unit, input.slot, cmd);
  std::vector<uint8_t> &buffer = scratch[scratchIndex];
  if (input.isTile) {
    const size_t size = dtypeSize(type);
    const uint8_t *element = resolve(pe, unit, input.slot, cmd);
    buffer.resize(count * size + 8);
    for (int64_t i = 0; i < count; ++i)
      std::memcpy(buffer.data() + i * size, element, size);
    return buffer.data();
  }
  buffer.resize(count * dtypeSize(type) + 8);
  const ScalarValue &value = cmd.scalars[input.scalar];
  fillElements(type, buffer.data(), count, value.f, value.i);
  return buffer.data();
}

bool Machine::executeCBOp(PEState &pe, Unit unit, const Command &cmd,
                          uint64_t &clock, uint64_t readyTime,
                          std::string &blockedOn) {
  const Inst &inst = *cmd.inst;
  const CBDesc &desc = program.cbs[inst.cb];
  CBState &cb = pe.cbs[inst.cb];
  const int self = static_cast<int>(unit);
  const bool producerOp = inst.op == Op::CbReserve || inst.op == Op::CbPush;
  int &owner = producerOp ? cb.producer : cb.consumer;
  if (owner >= 0 && owner != self)
    abortAt("cb_misuse",
            std::string(unitName(unit)) + " moves the " +
                (producerOp ? "write" : "read") + " pointer of CB '" +
                desc.name + "' that " + unitName(static_cast<Unit>(owner)) +
                " already moves (one producer and one consumer per CB)",
            pe, cmd);
  owner = self;
  const int64_t n = inst.count;
  if (n > desc.pages)
    abortAt("cb_misuse",
            std::string(opName(inst.op)) + " of " + std::to_string(n) +
                " pages exceeds the capacity of CB '" + desc.name + "' (" +
                std::to_string(desc.pages) + " pages)",
            pe, cmd);
  uint64_t now = std::max(clock, cmd.issueTime);
  switch (inst.op) {
  case Op::CbReserve: {
    int64_t free = desc.pages - (cb.pushed - cb.popped);
    if (free < n) {
      blockedOn = "reserve(" + std::to_string(n) + ") on CB '" + desc.name +
                  "': " + std::to_string(free) + " pages free";
      return false;
    }
    uint64_t freedAt = cb.popTime[(cb.pushed + n - 1) % desc.pages];
    clock = std::max(now, freedAt);
    cb.reserved = std::max(cb.reserved, n);
    return true;
  }
  case Op::CbPush: {
    if (n > cb.reserved)
      abortAt("cb_misuse",
              "push(" + std::to_string(n) + ") on CB '" + desc.name +
                  "' without reserving: " + std::to_string(cb.reserved) +
                  " pages reserved",
              pe, cmd);
    uint64_t at = std::max(now, readyTime);
    for (int64_t i = 0; i < n; ++i)
      cb.pushTime[(cb.pushed + i) % desc.pages] = at;
    cb.pushed += n;
    cb.reserved -= n;
    return true;
  }
  case Op::CbWait: {
    int64_t available = cb.pushed - cb.popped;
    if (available < n) {
      blockedOn = "wait(" + std::to_string(n) + ") on CB '" + desc.name +
                  "': " + std::to_string(available) + " pages available";
      return false;
    }
    uint64_t readyAt = cb.pushTime[(cb.popped + n - 1) % desc.pages];
    clock = std::max(now, readyAt);
    cb.waited = std::max(cb.waited, n);
    return true;
  }
  case Op::CbPop: {
    if (n > cb.waited)
      abortAt("cb_misuse",
              "pop(" + std::to_string(n) + ") on CB '" + desc.name +
                  "' without waiting: " + std::to_string(cb.waited) +
                  " pages waited for",
              pe, cmd);
    uint64_t at = std::max(now, readyTime);
    for (int64_t i = 0; i < n; ++i)
      cb.popTime[(cb.popped + i) % desc.pages] = at;
    cb.popped += n;
    cb.waited -= n;
    return true;
  }
  default:
    return true;
  }
}

void Machine::complete(PEState &pe, Unit unit, UnitState &state,
                       const Command &cmd, uint64_t start, uint64_t occupancy,
                       uint64_t latency) {
  state.clock = start + occupancy;
  state.readyTime = std::max(state.readyTime, start + occupancy + latency);
  state.stats.busyCycles += occupancy;
  ++state.stats.instructions;
  if (config.trace)
    trace.push_back({pe.index, unit, cmd.inst->op, start, occupancy});
}

uint64_t Machine::runDmaStrided(PEState &pe, Unit unit, const Command &cmd,
                                uint64_t start) {
  const Inst &inst = *cmd.inst;
  const bool load = inst.op == Op::DmaLoad;
  const unsigned rank = inst.rank;
  const unsigned esize = dtypeSize(inst.type);
  const uint64_t base = static_cast<uint64_t>(cmd.ints[0]);
  const int64_t *strides = cmd.ints + 1;
  const int64_t *lo = inst.hasBounds ? cmd.ints + 1 + rank : nullptr;
  const int64_t *hi = inst.hasBounds ? cmd.ints + 1 + 2 * rank : nullptr;
  uint8_t *local = resolve(pe, unit, inst.slots[0], cmd);
  const uint8_t *mask = resolve(pe, unit, inst.slots[1], cmd);
  uint8_t padding[8] = {0};
  if (load) {
    const ScalarValue &other = cmd.scalars[0];
    if (isFloat(inst.type))
      storeFloat(inst.type, padding, other.f);
    else
      storeInt(inst.type, padding, other.i);
  }
  const int64_t rowLength = inst.shape[rank - 1];
  const int64_t innerStride = strides[rank - 1];
  int64_t rows = 1;
  for (unsigned d = 0; d + 1 < rank; ++d)
    rows *= inst.shape[d];
  const uint64_t granule = target.dmaTransactionBytes;
  const uint64_t alignment = target.dmaAlignmentBytes;
  uint64_t finish = start;
  uint64_t transferred = 0;
  int64_t index[kMaxTileRank] = {0, 0, 0, 0};

  auto padElements = [&](uint8_t *dst, int64_t count) {
    if (!load)
      return;
    if (esize == 1) {
      std::memset(dst, padding[0], count);
      return;
    }
    for (int64_t i = 0; i < count; ++i)
      std::memcpy(dst + i * esize, padding, esize);
  };

  for (int64_t row = 0; row < rows; ++row) {
    // Decompose the row number into the outer indices.
    int64_t rest = row;
    for (int d = static_cast<int>(rank) - 2; d >= 0; --d) {
      index[d] = rest % inst.shape[d];
      rest /= inst.shape[d];
    }
    bool rowValid = true;
    int64_t offset = 0;
    for (unsigned d = 0; d + 1 < rank; ++d) {
      offset += index[d] * strides[d];
      if (lo && (index[d] < lo[d] || index[d] >= hi[d]))
        rowValid = false;
    }
    uint8_t *localRow = local + row * rowLength * esize;
    const uint8_t *maskRow = mask ? mask + row * rowLength : nullptr;
    const uint64_t rowAddress =
        base + static_cast<uint64_t>(offset) * esize;
    int64_t first = lo ? std::max<int64_t>(lo[rank - 1], 0) : 0;
    int64_t last = hi ? std::min<int64_t>(hi[rank - 1], rowLength) : rowLength;
    if (!rowValid || first >= last) {
      padElements(localRow, rowLength);
      continue;
    }
    // An elementwise transfer moves every element on its own, so its rows
    // need no alignment.
    const bool elementwise = inst.flag;
    if (innerStride == 1 && !maskRow && !elementwise) {
      if (rowAddress % alignment != 0)
        abortAt("misaligned_dma",
                std::string("DMA row start ") + hex(rowAddress) +
                    " is not aligned to " + std::to_string(alignment) +
                    " bytes (use a gather for unaligned accesses)",
                pe, cmd);
      uint64_t runStart = rowAddress + first * esize;
      uint64_t runBytes = (last - first) * esize;
      const GlobalBuffer &buffer = checkedBuffer(
          runStart, runBytes, pe, cmd, load ? "DMA read" : "DMA write");
      uint8_t *host = buffer.host + (runStart - buffer.base);
      if (load) {
        padElements(localRow, first);
        std::memcpy(localRow + first * esize, host, runBytes);
        padElements(localRow + last * esize, rowLength - last);
      } else {
        std::memcpy(host, localRow + first * esize, runBytes);
      }
      uint64_t spanStart = runStart / granule * granule;
      uint64_t spanEnd = (runStart + runBytes + granule - 1) / granule * granule;
      finish = std::max(finish, bookTransfer(buffer, !load, start, spanStart,
                                             spanEnd - spanStart));
      transferred += spanEnd - spanStart;
      continue;
    }
    // Element-granular path: a strided row, a per-element mask or an
    // elementwise transfer. Each element is its own transaction.
    for (int64_t i = 0; i < rowLength; ++i) {
      uint8_t *element = localRow + i * esize;
      bool valid = i >= first && i < last && (!maskRow || maskRow[i]);
      if (!valid) {
        padElements(element, 1);
        continue;
      }
      uint64_t address =
          rowAddress + static_cast<uint64_t>(i * innerStride) * esize;
      if (innerStride == 1 && !elementwise && i == first &&
          rowAddress % alignment != 0)
        abortAt("misaligned_dma",
                std::string("DMA row start ") + hex(rowAddress) +
                    " is not aligned to " + std::to_string(alignment) +
                    " bytes (use a gather for unaligned accesses)",
                pe, cmd);
      const GlobalBuffer &buffer = checkedBuffer(
          address, esize, pe, cmd, load ? "DMA read" : "DMA write");
      uint8_t *host = buffer.host + (address - buffer.base);
      if (load)
        std::memcpy(element, host, esize);
      else
        std::memcpy(host, element, esize);
      finish =
          std::max(finish, bookTransfer(buffer, !load, start,
                                        address / granule * granule, granule));
      transferred += granule;
    }
  }
  localTraffic += transferred;
  return std::max(finish, pe.dmaLocalPort.book(start, transferred));
}

uint64_t Machine::runDmaIndexed(PEState &pe, Unit unit, const Command &cmd,
                                uint64_t start) {
  const Inst &inst = *cmd.inst;
  const bool gather = inst.op == Op::DmaGather;
  const unsigned esize = dtypeSize(inst.type);
  const uint64_t base = static_cast<uint64_t>(cmd.ints[0]);
  uint8_t *local = resolve(pe, unit, inst.slots[0], cmd);
  const uint8_t *indices = resolve(pe, unit, inst.slots[1], cmd);
  const uint8_t *mask = resolve(pe, unit, inst.slots[2], cmd);
  uint8_t padding[8] = {0};
  if (gather) {
    const ScalarValue &other = cmd.scalars[0];
    if (isFloat(inst.type))
      storeFloat(inst.type, padding, other.f);
    else
      storeInt(inst.type, padding, other.i);
  }
  uint64_t finish = start;
  uint64_t transferred = 0;
  for (int64_t i = 0; i < inst.count; ++i) {
    uint8_t *element = local + i * esize;
    if (mask && !mask[i]) {
      if (gather)
        std::memcpy(element, padding, esize);
      continue;
    }
    int64_t offset = loadInt(inst.type2, indices + i * dtypeSize(inst.type2));
    uint64_t address = base + static_cast<uint64_t>(offset) * esize;
    const GlobalBuffer &buffer = checkedBuffer(
        address, esize, pe, cmd, gather ? "gather read" : "scatter write");
    uint8_t *host = buffer.host + (address - buffer.base);
    if (gather)
      std::memcpy(element, host, esize);
    else
      std::memcpy(host, element, esize);
    const uint64_t granule = target.dmaTransactionBytes;
    finish =
        std::max(finish, bookTransfer(buffer, !gather, start,
                                      address / granule * granule, granule));
    transferred += target.dmaTransactionBytes;
  }
  localTraffic += transferred;
  return std::max(finish, pe.dmaLocalPort.book(start, transferred));
}

void Machine::combineAtomic(AtomicFn fn, DType type, const uint8_t *previous,
                            const uint8_t *value, const uint8_t *compare,
                            uint8_t *host, PEState &pe, const Command &cmd) {
  const unsigned esize = dtypeSize(type);
  uint8_t result[8];
  switch (fn) {
  case AtomicFn::AXchg:
    std::memcpy(result, value, esize);
    break;
  case AtomicFn::ACas:
    std::memcpy(result,
                std::memcmp(previous, compare, esize) == 0 ? value : previous,
                esize);
    break;
  default: {
    static constexpr BinaryFn kFns[] = {
        BinaryFn::Add,  BinaryFn::Max, BinaryFn::Min, BinaryFn::MaxU,
        BinaryFn::MinU, BinaryFn::And, BinaryFn::Or,  BinaryFn::Xor};
    BinaryFn binary = kFns[static_cast<int>(fn)];
    // Float max/min ignore NaN operands like Triton's atomics.
    if (isFloat(type) && binary == BinaryFn::Max)
      binary = BinaryFn::MaxNum;
    if (isFloat(type) && binary == BinaryFn::Min)
      binary = BinaryFn::MinNum;
    if (!binaryFnSupports(binary, type))
      abortAt("invalid_program",
              std::string("atomic ") + binaryFnName(binary) +
                  " does not apply to " + dtypeName(type),
              pe, cmd);
    simdBinary(binary, type, result, previous, value, 1);
    break;
  }
  }
  std::memcpy(host, result, esize);
}

uint64_t Machine::runAtomic(PEState &pe, Unit unit, const Command &cmd,
                            uint64_t start) {
  const Inst &inst = *cmd.inst;
  const unsigned esize = dtypeSize(inst.type);
  const uint64_t base = static_cast<uint64_t>(cmd.ints[0]);
  const uint8_t *indices = resolve(pe, unit, inst.slots[0], cmd);
  const uint8_t *mask = resolve(pe, unit, inst.slots[1], cmd);
  uint8_t *old = resolve(pe, unit, inst.slots[2], cmd);
  const uint8_t *values =
      resolveInput(pe, unit, inst.inputs[0], cmd, inst.type, inst.count, 0);
  const uint8_t *compares =
      inst.inputs.size() > 1
          ? resolveInput(pe, unit, inst.inputs[1], cmd, inst.type, inst.count,
                         1)
          : nullptr;
  const AtomicFn fn = static_cast<AtomicFn>(inst.fn);
  uint64_t finish = start;
  for (int64_t i = 0; i < inst.count; ++i) {
    if (mask && !mask[i])
      continue;
    int64_t offset =
        indices ? loadInt(inst.type2, indices + i * dtypeSize(inst.type2)) : i;
    uint64_t address = base + static_cast<uint64_t>(offset) * esize;
    const GlobalBuffer &buffer =
        checkedBuffer(address, esize, pe, cmd, "atomic access");
    if (address % esize != 0)
      abortAt("misaligned_dma",
              "atomic access at " + hex(address) + " is not aligned to " +
                  std::to_string(esize) + " bytes",
              pe, cmd);
    uint8_t *host = buffer.host + (address - buffer.base);
    uint8_t previous[8];
    std::memcpy(previous, host, esize);
    if (old)
      std::memcpy(old + i * esize, previous, esize);
    combineAtomic(fn, inst.type, previous, values + i * esize,
                  compares ? compares + i * esize : nullptr, host, pe, cmd);
    // A read-modify-write is a read and a write transaction.
    const uint64_t granule = target.dmaTransactionBytes;
    const uint64_t transaction = address / granule * granule;
    bookTransfer(buffer, false, start, transaction, granule);
    finish = std::max(finish,
                      bookTransfer(buffer, true, start, transaction, granule));
  }
  return finish;
}

void Machine::printTile(PEState &pe, const Command &cmd, const uint8_t *data) {
  const Inst &inst = *cmd.inst;
  const unsigned esize = dtypeSize(inst.type);
  int64_t count = 1;
  for (int64_t dim : inst.shape)
    count *= dim;
  for (int64_t i = 0; i < count; ++i) {
    std::string idx;
    int64_t rest = i;
    std::vector<int64_t> position(inst.shape.size());
    for (int d = static_cast<int>(inst.shape.size()) - 1; d >= 0; --d) {
      position[d] = rest % inst.shape[d];
      rest /= inst.shape[d];
    }
    for (size_t d = 0; d < position.size(); ++d)
      idx += (d ? ", " : "") + std::to_string(position[d]);
    char value[48];
    const uint8_t *element = data + i * esize;
    if (inst.flag) {
      uint64_t bits = 0;
      std::memcpy(&bits, element, esize);
      std::snprintf(value, sizeof(value), "0x%0*" PRIx64, int(2 * esize), bits);
    } else if (isFloat(inst.type)) {
      std::snprintf(value, sizeof(value), "%.9g", loadFloat(inst.type, element));
    } else {
      std::snprintf(value, sizeof(value), "%" PRId64,
                    loadInt(inst.type, element, inst.isSigned));
    }
    output += "pid (" + std::to_string(cmd.pid[0]) + ", " +
              std::to_string(cmd.pid[1]) + ", " + std::to_string(cmd.pid[2]) +
              ") idx (" + idx + ")" + inst.text + value + "\n";
  }
}

/// Executes a compute instruction and returns its occupancy in cycles.
uint64_t Machine::runCompute(PEState &pe, Unit unit, const Command &cmd) {
  const Inst &inst = *cmd.inst;
  const double localRate = target.localBytesPerCycle();
  auto cycles = [](double work, double rate) {
    return static_cast<uint64_t>(std::ceil(work / rate));
  };
  switch (inst.op) {
  case Op::DpeMma: {
    int64_t m = inst.shape[0], n = inst.shape[1], k = inst.shape[2];
    const uint8_t *a = resolve(pe, unit, inst.slots[0], cmd);
    const uint8_t *b = resolve(pe, unit, inst.slots[1], cmd);
    uint8_t *c = resolve(pe, unit, inst.slots[2], cmd);
    const uint8_t *acc = resolve(pe, unit, inst.slots[3], cmd);
    dpeMatmul(inst.type, inst.type2, c, a, b, acc, m, n, k);
    auto roundUp = [](int64_t value, int64_t step) {
      return (value + step - 1) / step * step;
    };
    double macs = double(roundUp(m, target.dpeTileM)) *
                  roundUp(n, target.dpeTileN) * roundUp(k, target.dpeTileK);
    double tops = inst.type == DType::I8     ? target.dpeTopsI8
                  : inst.type == DType::F32  ? target.dpeTopsF32
                  : inst.type == DType::BF16 ? target.dpeTopsBF16
                                             : target.dpeTopsF16;
    double bytes = double(m * k + k * n) * dtypeSize(inst.type) +
                   double(m * n) * 4 * (acc ? 2 : 1);
    localTraffic += static_cast<uint64_t>(bytes);
    return std::max(cycles(macs, target.macsPerCyclePerPE(tops)),
                    cycles(bytes, localRate));
  }
  case Op::SimdBinary:
  case Op::SimdUnary:
  case Op::SimdCmp:
  case Op::SimdSelect:
  case Op::SimdFma: {
    const int64_t n = inst.count;
    uint8_t *d = resolve(pe, unit, inst.slots[0], cmd);
    const uint8_t *in[3] = {nullptr, nullptr, nullptr};
    for (size_t i = 0; i < inst.inputs.size(); ++i) {
      bool condition = inst.op == Op::SimdSelect && i == 0;
      in[i] = resolveInput(pe, unit, inst.inputs[i], cmd,
                           condition ? DType::I1 : inst.type, n,
                           static_cast<int>(i));
    }
    double rate = target.simdElementsPerCycle();
    switch (inst.op) {
    case Op::SimdBinary:
      simdBinary(static_cast<BinaryFn>(inst.fn), inst.type, d, in[0], in[1],
                 n);
      break;
    case Op::SimdUnary:
      simdUnary(static_cast<UnaryFn>(inst.fn), inst.type, d, in[0], n);
      if (isTranscendental(static_cast<UnaryFn>(inst.fn)))
        rate *= target.sfuFraction;
      break;
    case Op::SimdCmp:
      simdCompare(static_cast<Pred>(inst.fn), inst.type, d, in[0], in[1], n);
      break;
    case Op::SimdSelect:
      simdSelect(inst.type, d, in[0], in[1], in[2], n);
      break;
    default:
      simdFma(inst.type, d, in[0], in[1], in[2], n);
      break;
    }
    double bytes = double(n) * dtypeSize(inst.type) * (inst.inputs.size() + 1);
    localTraffic += static_cast<uint64_t>(bytes);
    return std::max(cycles(n, rate), cycles(bytes, localRate));
  }
  case Op::SimdCast: {
    uint8_t *d = resolve(pe, unit, inst.slots[0], cmd);
    const uint8_t *a = resolve(pe, unit, inst.slots[1], cmd);
    if (inst.flag)
      std::memmove(d, a, inst.count * dtypeSize(inst.type));
    else
      convertElements(inst.type, inst.type2, a, d, inst.count, inst.isSigned);
    double bytes =
        double(inst.count) * (dtypeSize(inst.type) + dtypeSize(inst.type2));
    localTraffic += static_cast<uint64_t>(bytes);
    return std::max(cycles(inst.count, target.simdElementsPerCycle()),
                    cycles(bytes, localRate));
  }
  case Op::SimdFill:
  case Op::SimdIota: {
    uint8_t *d = resolve(pe, unit, inst.slots[0], cmd);
    const ScalarValue &value = cmd.scalars[0];
    if (inst.op == Op::SimdFill) {
      fillElements(inst.type, d, inst.count, value.f, value.i);
    } else {
      const unsigned esize = dtypeSize(inst.type);
      for (int64_t i = 0; i < inst.count; ++i) {
        if (isFloat(inst.type))
          storeFloat(inst.type, d + i * esize, value.f + double(i));
        else
          storeInt(inst.type, d + i * esize, value.i + i);
      }
    }
    localTraffic += inst.count * dtypeSize(inst.type);
    return cycles(inst.count, target.simdElementsPerCycle());
  }
  case Op::SimdPrint:
    printTile(pe, cmd, resolve(pe, unit, inst.slots[0], cmd));
    return 1;
  case Op::SimdAssert: {
    const uint8_t *c = resolve(pe, unit, inst.slots[0], cmd);
    for (int64_t i = 0; i < inst.count; ++i)
      if (!c[i])
        abortAt("assert",
                "assertion failed: " + inst.text + " (element " +
                    std::to_string(i) + ")",
                pe, cmd);
    return cycles(inst.count, target.simdElementsPerCycle());
  }
  case Op::ReReduce:
  case Op::ReScan: {
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < inst.axis; ++d)
      outer *= inst.shape[d];
    for (size_t d = inst.axis + 1; d < inst.shape.size(); ++d)
      inner *= inst.shape[d];
    int64_t length = inst.shape[inst.axis];
    const uint8_t *src = resolve(pe, unit, inst.slots[0], cmd);
    uint8_t *dst = resolve(pe, unit, inst.slots[1], cmd);
    uint8_t *index = resolve(pe, unit, inst.slots[2], cmd);
    if (inst.op == Op::ReReduce)
      reduceTile(static_cast<ReduceFn>(inst.fn), inst.type, src, dst, index,
                 outer, length, inner);
    else
      scanTile(static_cast<ReduceFn>(inst.fn), inst.type, src, dst, outer,
               length, inner, inst.flag);
    localTraffic += outer * length * inner * dtypeSize(inst.type);
    return cycles(double(outer * length * inner),
                  target.reduceElementsPerCycle);
  }
  case Op::ReHistogram: {
    const unsigned esize = dtypeSize(inst.type);
    const uint8_t *src = resolve(pe, unit, inst.slots[0], cmd);
    uint8_t *counts = resolve(pe, unit, inst.slots[1], cmd);
    const uint8_t *mask = resolve(pe, unit, inst.slots[2], cmd);
    int64_t bad = histogramTile(inst.type, inst.isSigned, src, mask, counts,
                                inst.count, inst.bins);
    if (bad >= 0)
      abortAt("out_of_bounds",
              "re.histogram value " +
                  std::to_string(
                      loadInt(inst.type, src + bad * esize, inst.isSigned)) +
                  " at element " + std::to_string(bad) +
                  " is outside the bins [0, " + std::to_string(inst.bins) +
                  ")",
              pe, cmd);
    localTraffic += inst.count * esize + (mask ? inst.count : 0) + inst.bins * 4;
    return cycles(double(inst.count + inst.bins),
                  target.reduceElementsPerCycle);
  }
  case Op::MluGather: {
    const unsigned esize = static_cast<unsigned>(inst.count);
    const unsigned indexBytes = dtypeSize(inst.type2);
    uint8_t *d = resolve(pe, unit, inst.slots[0], cmd);
    const uint8_t *src = resolve(pe, unit, inst.slots[1], cmd);
    const uint8_t *index = resolve(pe, unit, inst.slots[2], cmd);
    int64_t outer = 1, inner = 1;
    for (int dim = 0; dim < inst.axis; ++dim)
      outer *= inst.shape[dim];
    for (size_t dim = inst.axis + 1; dim < inst.shape.size(); ++dim)
      inner *= inst.shape[dim];
    const int64_t length = inst.shape[inst.axis];
    const int64_t srcLength = inst.srcShape[inst.axis];
    const int64_t elements = outer * length * inner;
    // Gather through scratch so that a destination overlapping the source
    // or the indices reads them whole before any write.
    std::vector<uint8_t> &gathered = scratch[3];
    gathered.resize(elements * esize);
    int64_t bad = gatherTile(esize, gathered.data(), src, index, inst.type2,
                             outer, srcLength, length, inner);
    if (bad >= 0) {
      std::string position;
      int64_t rest = bad;
      for (int dim = static_cast<int>(inst.shape.size()) - 1; dim >= 0; --dim) {
        position = std::to_string(rest % inst.shape[dim]) +
                   (position.empty() ? "" : ", ") + position;
        rest /= inst.shape[dim];
      }
      abortAt("out_of_bounds",
              "mlu.gather index " +
                  std::to_string(loadInt(inst.type2, index + bad * indexBytes)) +
                  " at position (" + position + ") is outside [0, " +
                  std::to_string(srcLength) + ") along axis " +
                  std::to_string(inst.axis) + " of the source",
              pe, cmd);
    }
    std::memcpy(d, gathered.data(), elements * esize);
    const double bytes = double(elements) * (2 * esize + indexBytes);
    localTraffic += static_cast<uint64_t>(bytes);
    return cycles(bytes, target.mluBytesPerCycle);
  }
  case Op::MluCopy: {
    uint8_t *d = resolve(pe, unit, inst.slots[0], cmd);
    const uint8_t *src = resolve(pe, unit, inst.slots[1], cmd);
    const unsigned esize = static_cast<unsigned>(inst.count);
    int64_t elements = 1;
    for (int64_t dim : inst.shape)
      elements *= dim;
    // Copy through scratch so that overlapping source and destination
    // behave like a read of the whole source before any write.
    int64_t srcSpan = inst.srcOffset + 1;
    for (size_t dim = 0; dim < inst.shape.size(); ++dim)
      srcSpan += std::max<int64_t>(inst.srcStrides[dim], 0) *
                 (inst.shape[dim] - 1);
    std::vector<uint8_t> &copy = scratch[3];
    copy.assign(src, src + srcSpan * esize);
    stridedCopy(esize, d + inst.dstOffset * esize,
                copy.data() + inst.srcOffset * esize, inst.shape.data(),
                inst.srcStrides.data(), inst.dstStrides.data(),
                static_cast<unsigned>(inst.shape.size()));
    localTraffic += 2 * elements * esize;
    return cycles(double(2 * elements * esize), target.mluBytesPerCycle);
  }
  default:
    return 0;
  }
}

bool Machine::executeCommand(PEState &pe, Unit unit, UnitState &state,
                             const Command &cmd) {
  const Inst &inst = *cmd.inst;
  if (inst.op >= Op::CbReserve && inst.op <= Op::CbPop)
    return executeCBOp(pe, unit, cmd, state.clock, state.readyTime,
                       state.blockedOn);
  if (inst.op == Op::ReXReduce)
    return executeCrossReduce(pe, state, cmd);
  uint64_t start = std::max(state.clock, cmd.issueTime);
  memoryLatency = 0;
  cacheFillArrival = 0;
  switch (unit) {
  case Unit::DmaIn:
  case Unit::DmaOut: {
    uint64_t finish = inst.op == Op::DmaAtomic ? runAtomic(pe, unit, cmd, start)
                      : inst.op == Op::DmaLoad || inst.op == Op::DmaStore
                          ? runDmaStrided(pe, unit, cmd, start)
                          : runDmaIndexed(pe, unit, cmd, start);
    // The memory latency overlaps later transfers; it delays only the
    // visibility of this one, as do cache fills still in flight, whose data
    // is forwarded as it arrives.
    const uint64_t end = start + std::max<uint64_t>(finish - start, 1);
    const uint64_t visible =
        std::max(end + target.dmaLatencyCycles + memoryLatency,
                 cacheFillArrival + target.dmaLatencyCycles);
    complete(pe, unit, state, cmd, start, end - start, visible - end);
    // No later transfer of either queue starts before its clock (or, for
    // an empty queue, before the control core's next issue).
    uint64_t floor = UINT64_MAX;
    for (Unit queue : {Unit::DmaIn, Unit::DmaOut}) {
      const UnitState &other = pe.units[static_cast<int>(queue)];
      floor = std::min(floor, other.queue.empty()
                                  ? std::max(other.clock, pe.ctlClock)
                                  : other.clock);
    }
    pe.dmaLocalPort.forgetBefore(floor);
    return true;
  }
  default: {
    uint64_t occupancy = std::max<uint64_t>(runCompute(pe, unit, cmd), 1);
    uint64_t latency = unit == Unit::Dpe    ? target.dpeLatencyCycles
                       : unit == Unit::Simd ? target.simdLatencyCycles
                       : unit == Unit::Re   ? target.reduceLatencyCycles
                                            : target.mluLatencyCycles;
    complete(pe, unit, state, cmd, start, occupancy, latency);
    return true;
  }
  }
}

bool Machine::stepUnit(PEState &pe, Unit unit) {
  UnitState &state = pe.units[static_cast<int>(unit)];
  bool progressed = false;
  state.blockedOn.clear();
  while (!state.queue.empty()) {
    const bool contributedBefore = state.contributed;
    if (!executeCommand(pe, unit, state, state.queue.front())) {
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

void Machine::reportDeadlock() {
  std::string waits;
  unsigned listed = 0, total = 0;
  const PEState *first = nullptr;
  for (const PEState &pe : pes) {
    auto note = [&](const char *agent, const std::string &what) {
      ++total;
      if (!first)
        first = &pe;
      if (listed++ >= 12)
        return;
      waits += "\n  " + peName(pe) + " program (" + std::to_string(pe.pid[0]) +
               ", " + std::to_string(pe.pid[1]) + ", " +
               std::to_string(pe.pid[2]) + ") " + agent + ": " + what;
    };
    if (!pe.ctlDone && !pe.ctlBlockedOn.empty())
      note("ctl", pe.ctlBlockedOn + " (at instruction " +
                      std::to_string(pe.pc) + ")");
    for (unsigned u = 1; u < kNumUnits; ++u) {
      const UnitState &state = pe.units[u];
      if (state.queue.empty())
        continue;
      note(unitName(static_cast<Unit>(u)),
           state.blockedOn + " (instruction " +
               std::to_string(state.queue.front().index) + ")");
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
  }
  throw failure;
}

int64_t Machine::groupOf(const std::array<int64_t, 3> &pid) const {
  int64_t group = 0, scale = 1;
  for (unsigned a = 0; a < 3; ++a) {
    if (program.reduceGroupAxes & (1u << a))
      continue;
    group += pid[a] * scale;
    scale *= config.grid[a];
  }
  return group;
}

int64_t Machine::rankOf(const std::array<int64_t, 3> &pid) const {
  int64_t rank = 0, scale = 1;
  for (unsigned a = 0; a < 3; ++a) {
    if (!(program.reduceGroupAxes & (1u << a)))
      continue;
    rank += pid[a] * scale;
    scale *= config.grid[a];
  }
  return rank;
}

std::array<int64_t, 3> Machine::memberOf(int64_t group, int64_t rank) const {
  std::array<int64_t, 3> pid;
  for (unsigned a = 0; a < 3; ++a) {
    int64_t &rest = program.reduceGroupAxes & (1u << a) ? rank : group;
    pid[a] = rest % config.grid[a];
    rest /= config.grid[a];
  }
  return pid;
}

std::string Machine::describeGroup(int64_t group) const {
  std::array<int64_t, 3> pid = memberOf(group, 0);
  std::string text = "reduce group (";
  for (unsigned a = 0; a < 3; ++a)
    text += (a ? ", " : "") + (program.reduceGroupAxes & (1u << a)
                                   ? std::string("*")
                                   : std::to_string(pid[a]));
  return text + ")";
}

void Machine::checkReduceGroups() {
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
    failure.error.message =
        "re.xreduce (instruction " + std::to_string(i) + ") sends to root " +
        std::to_string(inst.root) + " but its reduce groups have " +
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
    int64_t group = groupOf(pidOf(pe.programs[head[pe.index]]));
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
      const PEState &pe = pes[linearOf(memberOf(group, rank)) % numPEs];
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
  const int64_t group = groupOf(pidOf(stuck->programs[head[stuck->index]]));
  failure.error.pe = stuck->index;
  failure.error.programId = memberOf(group, 0);
  std::vector<int64_t> rankOnPE(numPEs, -1);
  for (int64_t rank = 0; rank < groupSize; ++rank) {
    std::array<int64_t, 3> member = memberOf(group, rank);
    int64_t peIndex = linearOf(member) % numPEs;
    if (rankOnPE[peIndex] >= 0) {
      failure.error.message =
          "programs " + pidText(memberOf(group, rankOnPE[peIndex])) + " and " +
          pidText(member) + " of " + describeGroup(group) +
          " both run on PE " + std::to_string(peIndex) + " with " + launch +
          "; every program of a reduce group must be resident at once, but "
          "a PE runs its programs one after another";
      throw failure;
    }
    rankOnPE[peIndex] = rank;
  }
  for (int64_t rank = 0; rank < groupSize; ++rank) {
    std::array<int64_t, 3> member = memberOf(group, rank);
    const PEState &pe = pes[linearOf(member) % numPEs];
    std::array<int64_t, 3> current = pidOf(pe.programs[head[pe.index]]);
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

/// The bytes one member of a cross-PE reduction sends: its tile and, for
/// argmax/argmin, the i32 indices that go with it.
uint64_t crossReduceWireBytes(const Inst &inst) {
  return inst.count * (dtypeSize(inst.type) + (inst.slots[2].present() ? 4 : 0));
}

void Machine::combineCrossReduce(CrossReduce &reduce) {
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

bool Machine::executeCrossReduce(PEState &pe, UnitState &state,
                                 const Command &cmd) {
  const Inst &inst = *cmd.inst;
  const int64_t group = groupOf(cmd.pid), rank = rankOf(cmd.pid);
  const auto key = std::make_pair(group, cmd.sequence);
  CrossReduce &reduce = crossReduces[key];
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
               std::to_string(i.count) + " x " + dtypeName(i.type) +
               " (root " + std::to_string(i.root) + ")";
      };
      abortAt("collective_mismatch",
              what + ": this program contributes " + describe(inst) +
                  " but program " + pidText(reduce.firstPid) +
                  " contributed " + describe(*reduce.inst),
              pe, cmd);
    }
    std::memcpy(reduce.values.data() + rank * tileBytes,
                resolve(pe, Unit::Re, inst.slots[0], cmd), tileBytes);
    if (arg)
      std::memcpy(reduce.indices.data() + rank * n,
                  resolve(pe, Unit::Re, inst.slots[2], cmd), n * 4);
    reduce.joined[rank] = true;
    ++reduce.contributions;
    reduce.latestStart = std::max(reduce.latestStart, start);
    reduceNetworkTraffic += wireBytes;
    localTraffic += wireBytes;
    state.contributed = true;
    if (reduce.contributions == groupSize)
      combineCrossReduce(reduce);
  }
  const bool receives = inst.root < 0 || rank == inst.root;
  if (receives && !reduce.combined) {
    std::string missing;
    unsigned listed = 0;
    for (int64_t r = 0; r < groupSize && listed < 4; ++r)
      if (!reduce.joined[r])
        missing += (listed++ ? ", " : "") + pidText(memberOf(group, r));
    state.blockedOn = what + ": " + std::to_string(reduce.contributions) +
                      " of " + std::to_string(groupSize) +
                      " programs contributed; waits for " + missing +
                      (groupSize - reduce.contributions > listed ? ", ..."
                                                                 : "");
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
    if (uint8_t *d = resolve(pe, Unit::Re, inst.slots[1], cmd))
      std::memcpy(d, reduce.result.data(), tileBytes);
    if (uint8_t *idx = resolve(pe, Unit::Re, inst.slots[3], cmd))
      std::memcpy(idx, reduce.resultIndices.data(), n * 4);
    localTraffic += wireBytes;
    if (--reduce.receiversLeft == 0)
      crossReduces.erase(key);
  }
  complete(pe, Unit::Re, state, cmd, start, finish - start,
           target.reduceLatencyCycles);
  return true;
}

void Machine::run() {
  constexpr unsigned kRoundsPerVisit = 8;
  const unsigned numPEs = target.numPEs();
  const int64_t total = config.grid[0] * config.grid[1] * config.grid[2];
  pes.resize(numPEs);
  // Local memories are carved from one zeroed pool that is kept between
  // launches: fresh pages per launch would cost more than the simulation.
  thread_local std::vector<uint8_t> localPool;
  localPool.resize(numPEs * localBytesNeeded);
  std::memset(localPool.data(), 0, localPool.size());
  for (unsigned p = 0; p < numPEs; ++p) {
    PEState &pe = pes[p];
    pe.index = static_cast<int>(p);
    for (int64_t id = p; id < total; id += numPEs)
      pe.programs.push_back(id);
    pe.iregs.assign(program.numIntRegs, 0);
    pe.fregs.assign(program.numFloatRegs, 0.0);
    pe.local = localPool.data() + p * localBytesNeeded;
    pe.dmaLocalPort = BandwidthCalendar(target.localBytesPerCycle());
    pe.cbs.resize(program.cbs.size());
    for (size_t c = 0; c < program.cbs.size(); ++c) {
      pe.cbs[c].base = cbBases[c];
      pe.cbs[c].pushTime.assign(program.cbs[c].pages, 0);
      pe.cbs[c].popTime.assign(program.cbs[c].pages, 0);
    }
    if (pe.programs.empty())
      pe.ctlDone = true;
  }
  if (program.reduceGroupAxes)
    checkReduceGroups();
  while (true) {
    bool progressed = false, allDone = true;
    for (PEState &pe : pes) {
      // A few rounds per visit keep the PE's local memory in the host's
      // cache; PEs interact only through global memory, whose bandwidth
      // calendar does not depend on the visiting order, and cross-PE
      // reductions, whose results and times depend only on the members'
      // contributions.
      for (unsigned round = 0; round < kRoundsPerVisit && !pe.finished();
           ++round) {
        bool moved = stepControl(pe);
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
      reportDeadlock();
  }
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
  result.units[0].instructions = controlSteps;
  result.cycles = end;
  result.dramReadBytes = dramRead;
  result.dramWriteBytes = dramWrite;
  result.sramReadBytes = sramRead;
  result.sramWriteBytes = sramWrite;
  result.cacheReadBytes = cache.hits() * target.dmaTransactionBytes;
  result.cacheHits = cache.hits();
  result.cacheMisses = cache.misses();
  result.cacheEvictions = cache.evictions();
  result.localBytes = localTraffic;
  result.reduceNetworkBytes = reduceNetworkTraffic;
  result.output = std::move(output);
  if (!config.trace)
    return;
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
          json.attributeObject("args", [&] { json.attribute("name", peName(pe)); });
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
          });
        });
    });
  });
  stream.flush();
  result.trace = std::move(text);
}

} // namespace

SimResult mtia::simulate(const TargetDesc &target, const Program &program,
                         const std::vector<LaunchArg> &args,
                         const LaunchConfig &config) {
  SimResult result;
  Machine machine(target, program, config);
  try {
    machine.bind(args);
    machine.planLocalMemory();
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
