//===- LocalMemory.cpp - A PE's local memory and circular buffers ---------===//
//
// The CB plan, page resolution with the ownership checks of tt-metal's CB
// semantics (one producer and one consumer per CB, pages touched only while
// held), and the CB operations whose page events carry the times that give
// the machine its dataflow timing.
//
//===----------------------------------------------------------------------===//

#include "LocalMemory.h"

#include "HugePageArray.h"

#include "kernels/Kernels.h"

#include <algorithm>
#include <cstring>

using namespace mtia;

void LocalMemory::plan() {
  if (program.cbs.size() > target.numCircularBuffers)
    abortLaunch("cb_misuse",
                "the program declares " + std::to_string(program.cbs.size()) +
                    " circular buffers but the command processor of " +
                    target.name + " tracks " +
                    std::to_string(target.numCircularBuffers));
  const int64_t alignment = target.cbAlignmentBytes;
  int64_t offset = 0;
  std::string layout;
  for (const CBDesc &cb : program.cbs) {
    cbBases.push_back(offset);
    int64_t bytes = cb.pageBytes * cb.pages;
    layout += " '" + cb.name + "' " + std::to_string(cb.pages) + " x " +
              std::to_string(cb.pageBytes) + " B;";
    offset += (bytes + alignment - 1) / alignment * alignment;
  }
  bytesPerPE = offset;
  if (static_cast<uint64_t>(offset) > target.localMemoryBytes)
    abortLaunch("local_memory_overflow",
                "the circular buffers need " + std::to_string(offset) +
                    " bytes of local memory but a PE of " + target.name +
                    " has " + std::to_string(target.localMemoryBytes) + ":" +
                    layout);
}

void LocalMemory::attach(std::vector<PEState> &pes) {
  // Local memories are carved from one pool that is kept between launches:
  // fresh pages per launch would cost more than the simulation.
  thread_local HugePageArray pool;
  pool.reserve(pes.size() * bytesPerPE);
  for (PEState &pe : pes) {
    pe.local = pool.data() + pe.index * bytesPerPE;
    // The KernelQueue zeroes the local memory of a PE that runs programs,
    // as a kernel that writes every page, while the machine steps the PEs
    // before it.
    uint64_t zeroing = 0;
    if (!pe.programs.empty() && bytesPerPE != 0) {
      zeroing = kernels.nextNumber();
      kernels.submit([local = pe.local, bytes = bytesPerPE] {
        std::memset(local, 0, bytes);
      });
    }
    pe.cbs.resize(program.cbs.size());
    for (size_t c = 0; c < program.cbs.size(); ++c) {
      pe.cbs[c].base = cbBases[c];
      pe.cbs[c].pushTime.assign(program.cbs[c].pages, 0);
      pe.cbs[c].popTime.assign(program.cbs[c].pages, 0);
      pe.cbs[c].aliases.assign(program.cbs[c].pages, HostAlias());
      pe.cbs[c].lastKernel.assign(program.cbs[c].pages, zeroing);
      pe.cbs[c].lastProduct.assign(program.cbs[c].pages, zeroing);
    }
  }
}

uint8_t *LocalMemory::locate(PEState &pe, Unit unit, const SlotRef &ref,
                             const Command &cmd, HostAlias *&alias,
                             KernelUse use) {
  const CBDesc &desc = program.cbs[ref.cb];
  CBState &cb = pe.cbs[ref.cb];
  int owner = ref.side == SlotSide::Front ? cb.consumer : cb.producer;
  int64_t held = 0;
  const char *side = "", *remedy = "";
  switch (ref.side) {
  case SlotSide::Front:
    held = cb.waited;
    side = "waited-for";
    remedy = "wait before accessing";
    break;
  case SlotSide::Back:
    held = cb.reserved;
    side = "reserved";
    remedy = "reserve before accessing";
    break;
  case SlotSide::Pushed:
    // A pushed page keeps its tile until the producer reserves it again.
    held = std::min<int64_t>(cb.pushed, desc.pages - cb.reserved);
    side = "pushed";
    remedy = "read a pushed page before reserving it again";
    break;
  }
  if (ref.side == SlotSide::Pushed && owner != static_cast<int>(unit))
    remedy = "only the CB's producer reads its pushed pages";
  if (owner != static_cast<int>(unit) || ref.page >= held)
    diagnostics.abortAt(
        "cb_misuse",
        std::string(unitName(unit)) + " accesses " + side + " page " +
            std::to_string(ref.page) + " of CB '" + desc.name + "' but holds " +
            std::to_string(owner == static_cast<int>(unit) ? held : 0) +
            " such pages (" + remedy + ")",
        pe, cmd);
  const int64_t physical = physicalPage(pe, ref);
  alias = &cb.aliases[physical];
  // A kernel runs after every kernel submitted before it, so one that
  // writes the page, or reads it while a kernel may still write it, is
  // ordered after them by its number; anything else waits for them.
  // The DPE products a page is ordered for follow the same rule on their
  // own; an access that any other kernel orders drops them, as one that
  // waits does.
  uint64_t &last = cb.lastKernel[physical];
  uint64_t &product = cb.lastProduct[physical];
  const uint64_t next = kernels.nextNumber();
  switch (use) {
  case KernelUse::None:
    kernels.waitFor(last);
    last = product = 0;
    break;
  case KernelUse::Reads:
    if (last != 0)
      last = next;
    if (product != 0)
      product = next;
    break;
  case KernelUse::Writes:
    last = product = next;
    break;
  case KernelUse::Keeps:
    // While the page aliases host bytes the kernel reads them there (see
    // readInPlace), and the page is free for its next load.
    if (!alias->host)
      last = next;
    product = 0;
    break;
  case KernelUse::Fills:
    last = next;
    product = 0;
    break;
  }
  return pe.local + cb.base + physical * desc.pageBytes + ref.offset;
}

int64_t LocalMemory::physicalPage(const PEState &pe, const SlotRef &ref) const {
  const CBState &cb = pe.cbs[ref.cb];
  const int64_t pages = program.cbs[ref.cb].pages;
  switch (ref.side) {
  case SlotSide::Front:
    return (cb.popped + ref.page) % pages;
  case SlotSide::Back:
    return (cb.pushed + ref.page) % pages;
  case SlotSide::Pushed:
    // Non-negative even before `locate` has checked that the page was
    // pushed: the stepping asks for the pages an instruction names first.
    return ((cb.pushed - 1 - ref.page) % pages + pages) % pages;
  }
  return 0;
}

bool LocalMemory::orderedForKernel(const PEState &pe,
                                   const SlotRef &ref) const {
  return ref.present() && pe.cbs[ref.cb].lastKernel[physicalPage(pe, ref)] ==
                              kernels.nextNumber();
}

uint8_t *LocalMemory::resolve(PEState &pe, Unit unit, const SlotRef &ref,
                              const Command &cmd, KernelUse use) {
  if (!ref.present())
    return nullptr;
  HostAlias *alias;
  uint8_t *address = locate(pe, unit, ref, cmd, alias, use);
  if (alias->host)
    memory.materialise(*alias);
  return address;
}

bool LocalMemory::waitsForVisitKernels(const PEState &pe, const Inst &inst,
                                       std::string &blockedOn) const {
  if (inst.op == Op::DpeMma)
    return false;
  auto touched = [&](const SlotRef &ref) {
    return ref.present() &&
           pe.cbs[ref.cb].lastProduct[physicalPage(pe, ref)] >= pe.visitKernels;
  };
  const bool waits =
      std::any_of(inst.slots.begin(), inst.slots.end(), touched) ||
      std::any_of(inst.inputs.begin(), inst.inputs.end(),
                  [&](const SimdInput &input) {
                    return input.isTile && touched(input.slot);
                  });
  if (waits)
    blockedOn = "waits for the PE's next visit: a DPE kernel of this visit "
                "uses a page it names";
  return waits;
}

const uint8_t *LocalMemory::resolveRead(PEState &pe, Unit unit,
                                        const SlotRef &ref, const Command &cmd,
                                        uint64_t bytes) {
  return readInPlace(pe, unit, ref, cmd, bytes, KernelUse::None);
}

const uint8_t *LocalMemory::resolveKernelRead(PEState &pe, Unit unit,
                                              const SlotRef &ref,
                                              const Command &cmd,
                                              uint64_t bytes) {
  return readInPlace(pe, unit, ref, cmd, bytes, KernelUse::Keeps);
}

const uint8_t *LocalMemory::readInPlace(PEState &pe, Unit unit,
                                        const SlotRef &ref, const Command &cmd,
                                        uint64_t bytes, KernelUse use) {
  HostAlias *alias;
  uint8_t *address = locate(pe, unit, ref, cmd, alias, use);
  if (!alias->host)
    return address;
  if (address >= alias->local &&
      address + bytes <= alias->local + alias->bytes) {
    const uint8_t *host = alias->host + (address - alias->local);
    if (use == KernelUse::Keeps)
      memory.accessForKernel(alias->buffer, host, bytes, /*write=*/false);
    return host;
  }
  memory.materialise(*alias);
  if (use == KernelUse::Keeps)
    pe.cbs[ref.cb].lastKernel[physicalPage(pe, ref)] = kernels.nextNumber();
  return address;
}

uint8_t *LocalMemory::resolveLoad(PEState &pe, Unit unit, const SlotRef &ref,
                                  const Command &cmd, uint64_t bytes,
                                  HostAlias *&alias) {
  uint8_t *address = locate(pe, unit, ref, cmd, alias, KernelUse::None);
  if (!alias->host)
    return address;
  // Bytes the load overwrites need no copy.
  if (alias->local >= address &&
      alias->local + alias->bytes <= address + bytes)
    memory.dropAlias(*alias);
  else
    memory.materialise(*alias);
  return address;
}

const uint8_t *LocalMemory::resolveInput(PEState &pe, Unit unit,
                                         const SimdInput &input,
                                         const Command &cmd, DType type,
                                         int64_t count, int scratchIndex,
                                         bool inPlace) {
  if (input.isTile && !input.splat && input.broadcastShape.empty())
    return inPlace ? resolveRead(pe, unit, input.slot, cmd,
                                 count * dtypeSize(type))
                   : resolve(pe, unit, input.slot, cmd);
  std::vector<uint8_t> &buffer = scratch[scratchIndex];
  if (!input.broadcastShape.empty()) {
    // Spread the tile over the operation's elements, row-major.
    const unsigned size = dtypeSize(type);
    const std::vector<int64_t> &shape = input.broadcastShape;
    std::vector<int64_t> dense(shape.size(), 1);
    for (size_t d = shape.size() - 1; d > 0; --d)
      dense[d - 1] = dense[d] * shape[d];
    buffer.resize(count * size + 8);
    stridedCopy(size, buffer.data(), resolve(pe, unit, input.slot, cmd),
                shape.data(), input.broadcastStrides.data(), dense.data(),
                static_cast<unsigned>(shape.size()));
    return buffer.data();
  }
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

bool LocalMemory::executeCBOp(PEState &pe, Unit unit, const Command &cmd,
                              uint64_t &clock, uint64_t readyTime,
                              std::string &blockedOn) {
  const Inst &inst = *cmd.inst;
  const CBDesc &desc = program.cbs[inst.cb];
  CBState &cb = pe.cbs[inst.cb];
  const int self = static_cast<int>(unit);
  const bool producerOp = inst.op == Op::CbReserve || inst.op == Op::CbPush;
  int &owner = producerOp ? cb.producer : cb.consumer;
  if (owner >= 0 && owner != self)
    diagnostics.abortAt(
        "cb_misuse",
        std::string(unitName(unit)) + " moves the " +
            (producerOp ? "write" : "read") + " pointer of CB '" + desc.name +
            "' that " + unitName(static_cast<Unit>(owner)) +
            " already moves (one producer and one consumer per CB)",
        pe, cmd);
  owner = self;
  const int64_t n = inst.count;
  if (n > desc.pages)
    diagnostics.abortAt("cb_misuse",
                        std::string(opName(inst.op)) + " of " +
                            std::to_string(n) +
                            " pages exceeds the capacity of CB '" + desc.name +
                            "' (" + std::to_string(desc.pages) + " pages)",
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
      diagnostics.abortAt("cb_misuse",
                          "push(" + std::to_string(n) + ") on CB '" +
                              desc.name + "' without reserving: " +
                              std::to_string(cb.reserved) + " pages reserved",
                          pe, cmd);
    // The consumer sees the pages once the command processor has handed
    // them over.
    uint64_t at = std::max(now, readyTime) + target.cbHandoffCycles;
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
      diagnostics.abortAt("cb_misuse",
                          "pop(" + std::to_string(n) + ") on CB '" + desc.name +
                              "' without waiting: " +
                              std::to_string(cb.waited) + " pages waited for",
                          pe, cmd);
    // The producer sees the freed pages once the command processor has
    // handed them back.
    uint64_t at = std::max(now, readyTime) + target.cbHandoffCycles;
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
