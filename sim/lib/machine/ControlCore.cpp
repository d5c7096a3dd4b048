//===- ControlCore.cpp - A PE's control core ------------------------------===//
//
// Steps the control code of one PE: it issues unit instructions while their
// queues have room and executes control instructions itself, each costing
// the target's control-core cycles.
//
//===----------------------------------------------------------------------===//

#include "ControlCore.h"

#include "kernels/Kernels.h"

#include <algorithm>
#include <cstdio>

using namespace mtia;

namespace {

/// Sign-extends the low `width` bits.
int64_t wrap(int64_t value, unsigned width) {
  if (width == 64)
    return value;
  return static_cast<int64_t>(static_cast<int32_t>(value));
}

} // namespace

bool ControlCore::startNextProgram(PEState &pe) {
  if (pe.programs.empty()) {
    pe.ctlDone = true;
    return false;
  }
  // The PE's first program starts when the launch reaches the PEs; every
  // later one after the control core has switched programs.
  if (pe.started)
    pe.ctlClock += target.programSwitchCycles;
  else
    pe.ctlClock = target.launchCycles();
  pe.started = true;
  pe.pid = pidOf(config.grid, pe.programs.peek());
  pe.programs.advance();
  std::fill(pe.iregs.begin(), pe.iregs.end(), 0);
  std::fill(pe.fregs.begin(), pe.fregs.end(), 0.0);
  pe.collectivesStarted.fill(0);
  pe.pc = 0;
  pe.inProgram = true;
  // A program start is a step of the budget, so that a launch of empty
  // programs over a huge grid stops at it too.
  budget.step(controlSteps + ++programsStarted, pe);
  return true;
}

void ControlCore::issue(PEState &pe, const Inst &inst) {
  UnitState &state = pe.unit(inst.unit);
  Command &cmd = state.queue.emplace_back();
  cmd.inst = &inst;
  cmd.index = pe.pc;
  cmd.pid = pe.pid;
  cmd.issueTime = pe.ctlClock;
  if (inst.groupAxes)
    cmd.sequence = pe.collectivesStarted[inst.groupAxes]++;
  for (size_t i = 0; i < inst.ints.size(); ++i)
    cmd.ints[i] =
        inst.ints[i].isReg ? pe.iregs[inst.ints[i].value] : inst.ints[i].value;
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

void ControlCore::executeScalar(PEState &pe, const Inst &inst) {
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
    int64_t b =
        wrap(inst.operandB.isReg ? r[inst.operandB.value] : inst.operandB.value,
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
  case Op::FMvX: {
    // The bits of the float, as the signed integer of the float's width.
    uint8_t bits[8] = {0};
    storeFloat(inst.type, bits, f[inst.srcA]);
    r[inst.dst] = loadInt(integerOfSize(dtypeSize(inst.type)), bits);
    return;
  }
  case Op::FMvF: {
    // The low bits of the register, read as a float of their width.
    uint8_t bits[8];
    storeInt(DType::I64, bits, r[inst.srcA]);
    f[inst.dst] = loadFloat(inst.type, bits);
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
  case Op::PE: {
    // The hart identity: the PE's place in the grid, whatever program the
    // launch assigned to it.
    const int64_t rows = target.peRows, cols = target.peCols;
    const int64_t values[] = {pe.index / cols, pe.index % cols, rows, cols,
                              pe.index};
    r[inst.dst] = values[inst.fn];
    return;
  }
  case Op::Scratch:
    r[inst.dst] = static_cast<int64_t>(memory.scratchAddress() +
                                       pe.index * program.scratchBytes);
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

Command ControlCore::coreCommand(const PEState &pe) const {
  Command here;
  here.inst = &program.code[pe.pc];
  here.index = pe.pc;
  here.pid = pe.pid;
  here.issueTime = pe.ctlClock;
  return here;
}

void ControlCore::loadLocal(PEState &pe, const Inst &inst) {
  const Command here = coreCommand(pe);
  const SlotRef &ref = inst.slots[0];
  const uint8_t *tile = local.resolve(pe, Unit::Ctl, ref, here);
  const int64_t index =
      inst.ints[0].isReg ? pe.iregs[inst.ints[0].value] : inst.ints[0].value;
  const unsigned size = dtypeSize(inst.type);
  const CBDesc &desc = program.cbs[ref.cb];
  const int64_t elements = (desc.pageBytes - ref.offset) / size;
  if (index < 0 || index >= elements)
    diagnostics.abortAt("out_of_bounds",
                        "ldl reads element " + std::to_string(index) + " of " +
                            dtypeName(inst.type) + " at offset " +
                            std::to_string(ref.offset) + " of a page of CB '" +
                            desc.name + "', which holds " +
                            std::to_string(elements) + " such elements there",
                        pe, here);
  const uint8_t *element = tile + index * size;
  if (isFloat(inst.type))
    pe.fregs[inst.dst] = loadFloat(inst.type, element);
  else
    pe.iregs[inst.dst] = loadInt(inst.type, element);
  local.countTraffic(size);
}

bool ControlCore::drained(PEState &pe, const char *what, uint64_t &done) const {
  done = pe.ctlClock;
  for (unsigned u = 1; u < kNumUnits; ++u) {
    if (!pe.units[u].queue.empty()) {
      pe.ctlBlockedOn = std::string(what) + " waits for " +
                        unitName(static_cast<Unit>(u)) + " to drain";
      return false;
    }
    done = std::max({done, pe.units[u].clock, pe.units[u].readyTime});
  }
  return true;
}

bool ControlCore::executeBarrier(PEState &pe, const Inst &inst, bool &arrived) {
  arrived = false;
  if (!pe.ctlArrived) {
    // Like a fence: the PE's stores are complete before its group mates
    // pass the barrier. The core arrives once the instruction has run.
    uint64_t done;
    if (!drained(pe, "barrier", done))
      return false;
    pe.ctlClock = done + target.controlCyclesPerInstruction;
    pe.ctlSequence = pe.collectivesStarted[inst.groupAxes]++;
    arrived = true;
  }
  Command here = coreCommand(pe);
  here.sequence = pe.ctlSequence;
  return network.barrier(pe, here);
}

bool ControlCore::executeAtomic(PEState &pe, const Inst &inst) {
  const Command here = coreCommand(pe);
  // Release: the PE's earlier stores and atomics complete first.
  if (inst.release) {
    uint64_t done;
    if (!drained(pe, "release atomic", done))
      return false;
    pe.ctlClock = done;
  }
  if (++coreAtomics > (uint64_t(1) << 24))
    diagnostics.abortAt("timeout",
                        "the control cores performed more than 2^24 atomics "
                        "(a spin lock that is never released?)",
                        pe, here);
  bool floatType = isFloat(inst.type);
  if (inst.maskReg < 0 || pe.iregs[inst.maskReg] != 0) {
    uint64_t address = static_cast<uint64_t>(pe.iregs[inst.srcA]);
    uint8_t previous[8], value[8], compare[8];
    if (floatType) {
      storeFloat(inst.type, value, pe.fregs[inst.srcB]);
      if (inst.srcC >= 0)
        storeFloat(inst.type, compare, pe.fregs[inst.srcC]);
    } else {
      storeInt(inst.type, value, pe.iregs[inst.srcB]);
      if (inst.srcC >= 0)
        storeInt(inst.type, compare, pe.iregs[inst.srcC]);
    }
    memory.atomic(address, static_cast<AtomicFn>(inst.fn), inst.type, value,
                  compare, previous, pe, here);
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
  return true;
}

void ControlCore::executeScalarAccess(PEState &pe, const Inst &inst) {
  uint64_t address = static_cast<uint64_t>(pe.iregs[inst.srcA]);
  unsigned size = dtypeSize(inst.type);
  const Command here = coreCommand(pe);
  const GlobalBuffer &buffer =
      memory.checkedBuffer(address, size, inst.op != Op::Ld, pe, here,
                           inst.op == Op::Ld ? "scalar load" : "scalar store");
  if (address % size != 0)
    diagnostics.abortAt("misaligned_dma",
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
}

void ControlCore::print(PEState &pe, const Inst &inst) {
  std::string line = "pid " + pidText(pe.pid) + " idx ()" + inst.text;
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
  diagnostics.print(line + "\n");
}

bool ControlCore::step(PEState &pe) {
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
    budget.step(++controlSteps + programsStarted, pe);
    const Inst &inst = program.code[pe.pc];
    if (inst.unit != Unit::Ctl) {
      if (pe.unit(inst.unit).queue.size() >= target.commandQueueDepth) {
        pe.ctlBlockedOn =
            std::string("waits for room in the command queue of ") +
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
    if (local.waitsForVisitKernels(pe, inst, pe.ctlBlockedOn)) {
      --controlSteps;
      break;
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
      uint64_t done;
      if (!drained(pe, "fence", done)) {
        --controlSteps;
        return progressed;
      }
      pe.ctlClock = done;
      ++pe.pc;
      break;
    }
    case Op::Barrier: {
      bool arrived;
      if (!executeBarrier(pe, inst, arrived)) {
        --controlSteps;
        // Arriving is progress even though the core waits for the group.
        return progressed || arrived;
      }
      // The core continues at the release time, which includes the
      // instruction's own cycles.
      ++pe.pc;
      progressed = true;
      continue;
    }
    case Op::Amo:
      if (!executeAtomic(pe, inst)) {
        --controlSteps;
        return progressed;
      }
      // The core yields after every atomic, so that a PE spinning on a lock
      // lets the other PEs run (and the holder release it).
      return true;
    case Op::Ld:
    case Op::St:
      executeScalarAccess(pe, inst);
      ++pe.pc;
      break;
    case Op::CbWait:
    case Op::CbPop:
      // The control core is the consumer of this CB: it blocks until the
      // pages are pushed, and its reads are complete when it pops.
      if (!local.executeCBOp(pe, Unit::Ctl, coreCommand(pe), pe.ctlClock,
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
    case Op::Print:
      print(pe, inst);
      ++pe.pc;
      break;
    case Op::Assert:
      if (pe.iregs[inst.srcC] == 0)
        diagnostics.abortAt("assert", "assertion failed: " + inst.text, pe,
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
