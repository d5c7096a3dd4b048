//===- DmaEngine.cpp - A PE's two DMA queues ------------------------------===//
//
// Moves the data of DMA instructions between global buffers and local
// memory. Contiguous rows book whole transactions; strided, masked and
// element-wise rows, gathers, scatters and atomics book one transaction per
// element. The memory latency delays only the visibility of a transfer.
//
//===----------------------------------------------------------------------===//

#include "DmaEngine.h"

#include <algorithm>
#include <cstring>
#include <vector>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

using namespace mtia;

namespace {

/// Adds `index` times `stride` to `offset`; returns true when that overflows.
bool addScaled(int64_t &offset, int64_t index, int64_t stride) {
  int64_t product;
  return __builtin_mul_overflow(index, stride, &product) ||
         __builtin_add_overflow(offset, product, &offset);
}

/// A row a store copies from local memory (or the host bytes its page
/// aliases) to a host buffer.
struct RowCopy {
  uint8_t *host;
  const uint8_t *local;
  uint64_t bytes;
};

/// Copies `bytes` from local memory to a host buffer. The bytes of a long
/// run go around the host's caches: a store's destination is seldom read
/// again soon, and writing it through the caches would first read every
/// line of it from host memory.
void copyToHost(uint8_t *host, const uint8_t *local, uint64_t bytes) {
#ifdef __SSE2__
  constexpr uint64_t kStreamingBytes = 4096;
  if (bytes < kStreamingBytes) {
    std::memcpy(host, local, bytes);
    return;
  }
  // Streaming stores need 16-byte aligned destinations.
  const uint64_t head = (16 - reinterpret_cast<uintptr_t>(host) % 16) % 16;
  std::memcpy(host, local, head);
  host += head;
  local += head;
  bytes -= head;
  for (; bytes >= 64; bytes -= 64, host += 64, local += 64) {
    const auto *source = reinterpret_cast<const __m128i *>(local);
    auto *destination = reinterpret_cast<__m128i *>(host);
    const __m128i a = _mm_loadu_si128(source), b = _mm_loadu_si128(source + 1);
    const __m128i c = _mm_loadu_si128(source + 2),
                  d = _mm_loadu_si128(source + 3);
    _mm_stream_si128(destination, a);
    _mm_stream_si128(destination + 1, b);
    _mm_stream_si128(destination + 2, c);
    _mm_stream_si128(destination + 3, d);
  }
  // Orders the streaming stores before any later access to the buffer.
  _mm_sfence();
#endif
  std::memcpy(host, local, bytes);
}

} // namespace

uint64_t DmaEngine::elementAddress(uint64_t base, int64_t elements,
                                   unsigned esize, bool overflowed,
                                   const PEState &pe,
                                   const Command &cmd) const {
  int64_t bytes = 0;
  if (overflowed || __builtin_mul_overflow(elements, int64_t(esize), &bytes))
    diagnostics.abortAt("out_of_bounds",
                        "the address of a DMA element overflows 64 bits "
                        "(its offset or strides are too large)",
                        pe, cmd);
  // Addresses are modulo 2^64: a negative offset lands below the base,
  // where no buffer is.
  return base + static_cast<uint64_t>(bytes);
}

void DmaEngine::execute(PEState &pe, Unit unit, UnitState &state,
                        const Command &cmd, uint64_t start) {
  const Inst &inst = *cmd.inst;
  memory.beginTransfers();
  uint64_t finish = inst.op == Op::DmaAtomic ? runAtomic(pe, unit, cmd, start)
                    : inst.op == Op::DmaLoad || inst.op == Op::DmaStore
                        ? runStrided(pe, unit, cmd, start)
                        : runIndexed(pe, unit, cmd, start);
  // The memory latency overlaps later transfers; it delays only the
  // visibility of this one, as do cache fills still in flight, whose data
  // is forwarded as it arrives.
  const uint64_t end = start + std::max<uint64_t>(finish - start, 1);
  // The requests and the data cross the mesh between the PE and the
  // memory once each way.
  const uint64_t network = 2 * uint64_t(target.nocHops(pe.index)) *
                           target.nocHopCycles;
  const uint64_t visible = std::max(
      end + target.dmaLatencyCycles + network + memory.transferLatency(),
      memory.cacheFillArrival() + target.dmaLatencyCycles + network);
  state.retire(start, end - start, visible - end);
  diagnostics.span(pe, unit, cmd, start, end - start);
}

uint64_t DmaEngine::runStrided(PEState &pe, Unit unit, const Command &cmd,
                               uint64_t start) {
  const Inst &inst = *cmd.inst;
  const bool load = inst.op == Op::DmaLoad;
  const unsigned rank = inst.rank;
  const unsigned esize = dtypeSize(inst.type);
  const uint64_t base = static_cast<uint64_t>(cmd.ints[0]);
  const int64_t *strides = cmd.ints + 1;
  const int64_t *lo = inst.hasBounds ? cmd.ints + 1 + rank : nullptr;
  const int64_t *hi = inst.hasBounds ? cmd.ints + 1 + 2 * rank : nullptr;
  const int64_t rowLength = inst.shape[rank - 1];
  const int64_t innerStride = strides[rank - 1];
  int64_t rows = 1;
  for (unsigned d = 0; d + 1 < rank; ++d)
    rows *= inst.shape[d];
  // An unmasked load of one row may leave its data in the host buffer (see
  // HostAlias); any other transfer moves it.
  const bool mayAlias = load && rows == 1 && !inst.slots[1].present();
  // A store of whole contiguous rows copies them on the KernelQueue, after
  // the kernels that compute its tile; its bytes are checked and booked
  // now.
  const bool queued = !load && innerStride == 1 && !inst.slots[1].present() &&
                      !inst.flag;
  HostAlias *alias = nullptr;
  uint8_t *tile =
      mayAlias ? local.resolveLoad(pe, unit, inst.slots[0], cmd,
                                   rowLength * esize, alias)
      // (A store only reads its tile.)
      : queued ? const_cast<uint8_t *>(local.resolveKernelRead(
                     pe, unit, inst.slots[0], cmd, rows * rowLength * esize))
               : local.resolve(pe, unit, inst.slots[0], cmd);
  std::vector<RowCopy> copies;
  const uint8_t *mask = local.resolve(pe, unit, inst.slots[1], cmd);
  uint8_t padding[8] = {0};
  if (load) {
    const ScalarValue &other = cmd.scalars[0];
    if (isFloat(inst.type))
      storeFloat(inst.type, padding, other.f);
    else
      storeInt(inst.type, padding, other.i);
  }
  const uint64_t granule = target.dmaTransactionBytes;
  const uint64_t alignment = target.dmaAlignmentBytes;
  RequestStream requests{double(start), target.nocHops(pe.index)};
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
    bool overflowed = false;
    int64_t offset = 0;
    for (unsigned d = 0; d + 1 < rank; ++d) {
      overflowed |= addScaled(offset, index[d], strides[d]);
      if (lo && (index[d] < lo[d] || index[d] >= hi[d]))
        rowValid = false;
    }
    uint8_t *localRow = tile + row * rowLength * esize;
    const uint8_t *maskRow = mask ? mask + row * rowLength : nullptr;
    int64_t first = lo ? std::max<int64_t>(lo[rank - 1], 0) : 0;
    int64_t last = hi ? std::min<int64_t>(hi[rank - 1], rowLength) : rowLength;
    if (!rowValid || first >= last) {
      padElements(localRow, rowLength);
      continue;
    }
    const uint64_t rowAddress =
        elementAddress(base, offset, esize, overflowed, pe, cmd);
    // An elementwise transfer moves every element on its own, so its rows
    // need no alignment.
    const bool elementwise = inst.flag;
    if (innerStride == 1 && !maskRow && !elementwise) {
      if (rowAddress % alignment != 0)
        diagnostics.abortAt("misaligned_dma",
                            std::string("DMA row start ") + hex(rowAddress) +
                                " is not aligned to " +
                                std::to_string(alignment) +
                                " bytes (use a gather for unaligned accesses)",
                            pe, cmd);
      uint64_t runStart = rowAddress + first * esize;
      uint64_t runBytes = (last - first) * esize;
      const GlobalBuffer &buffer =
          memory.checkedBuffer(runStart, runBytes, !load, pe, cmd,
                               load ? "DMA read" : "DMA write", queued);
      uint8_t *host = buffer.host + (runStart - buffer.base);
      if (mayAlias && first == 0 && last == rowLength) {
        memory.aliasHost(*alias, localRow, buffer, host, runBytes);
      } else if (queued) {
        memory.accessForKernel(memory.indexOf(buffer), host, runBytes,
                               /*write=*/true);
        copies.push_back({host, localRow + first * esize, runBytes});
      } else if (load) {
        padElements(localRow, first);
        std::memcpy(localRow + first * esize, host, runBytes);
        padElements(localRow + last * esize, rowLength - last);
      } else {
        copyToHost(host, localRow + first * esize, runBytes);
      }
      uint64_t spanStart = runStart / granule * granule;
      uint64_t spanEnd =
          (runStart + runBytes + granule - 1) / granule * granule;
      finish = std::max(finish,
                        memory.bookTransfer(buffer, !load, requests, spanStart,
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
      int64_t elementOffset = offset;
      const bool elementOverflowed =
          addScaled(elementOffset, i, innerStride);
      const uint64_t address = elementAddress(base, elementOffset, esize,
                                              elementOverflowed, pe, cmd);
      if (innerStride == 1 && !elementwise && i == first &&
          rowAddress % alignment != 0)
        diagnostics.abortAt("misaligned_dma",
                            std::string("DMA row start ") + hex(rowAddress) +
                                " is not aligned to " +
                                std::to_string(alignment) +
                                " bytes (use a gather for unaligned accesses)",
                            pe, cmd);
      const GlobalBuffer &buffer = memory.checkedBuffer(
          address, esize, !load, pe, cmd, load ? "DMA read" : "DMA write");
      uint8_t *host = buffer.host + (address - buffer.base);
      if (load)
        std::memcpy(element, host, esize);
      else
        std::memcpy(host, element, esize);
      finish = std::max(finish, memory.bookTransfer(
                                    buffer, !load, requests,
                                    address / granule * granule, granule));
      transferred += granule;
    }
  }
  if (!copies.empty())
    kernels.submit([copies = std::move(copies)] {
      for (const RowCopy &copy : copies)
        copyToHost(copy.host, copy.local, copy.bytes);
    });
  local.countTraffic(transferred);
  return std::max(finish, pe.localPort.book(start, transferred));
}

uint64_t DmaEngine::runIndexed(PEState &pe, Unit unit, const Command &cmd,
                               uint64_t start) {
  const Inst &inst = *cmd.inst;
  const bool gather = inst.op == Op::DmaGather;
  const unsigned esize = dtypeSize(inst.type);
  const uint64_t base = static_cast<uint64_t>(cmd.ints[0]);
  uint8_t *tile = local.resolve(pe, unit, inst.slots[0], cmd);
  const uint8_t *indices = local.resolve(pe, unit, inst.slots[1], cmd);
  const uint8_t *mask = local.resolve(pe, unit, inst.slots[2], cmd);
  uint8_t padding[8] = {0};
  if (gather) {
    const ScalarValue &other = cmd.scalars[0];
    if (isFloat(inst.type))
      storeFloat(inst.type, padding, other.f);
    else
      storeInt(inst.type, padding, other.i);
  }
  RequestStream requests{double(start), target.nocHops(pe.index)};
  uint64_t finish = start;
  uint64_t transferred = 0;
  for (int64_t i = 0; i < inst.count; ++i) {
    uint8_t *element = tile + i * esize;
    if (mask && !mask[i]) {
      if (gather)
        std::memcpy(element, padding, esize);
      continue;
    }
    int64_t offset = loadInt(inst.type2, indices + i * dtypeSize(inst.type2));
    uint64_t address = elementAddress(base, offset, esize, false, pe, cmd);
    const GlobalBuffer &buffer = memory.checkedBuffer(
        address, esize, !gather, pe, cmd, gather ? "gather read" : "scatter write");
    uint8_t *host = buffer.host + (address - buffer.base);
    if (gather)
      std::memcpy(element, host, esize);
    else
      std::memcpy(host, element, esize);
    const uint64_t granule = target.dmaTransactionBytes;
    finish = std::max(finish, memory.bookTransfer(
                                  buffer, !gather, requests,
                                  address / granule * granule, granule));
    transferred += granule;
  }
  local.countTraffic(transferred);
  return std::max(finish, pe.localPort.book(start, transferred));
}

uint64_t DmaEngine::runAtomic(PEState &pe, Unit unit, const Command &cmd,
                              uint64_t start) {
  const Inst &inst = *cmd.inst;
  const unsigned esize = dtypeSize(inst.type);
  const uint64_t base = static_cast<uint64_t>(cmd.ints[0]);
  const uint8_t *indices = local.resolve(pe, unit, inst.slots[0], cmd);
  const uint8_t *mask = local.resolve(pe, unit, inst.slots[1], cmd);
  uint8_t *old = local.resolve(pe, unit, inst.slots[2], cmd);
  const uint8_t *values = local.resolveInput(pe, unit, inst.inputs[0], cmd,
                                             inst.type, inst.count, 0);
  const uint8_t *compares =
      inst.inputs.size() > 1 ? local.resolveInput(pe, unit, inst.inputs[1], cmd,
                                                  inst.type, inst.count, 1)
                             : nullptr;
  const AtomicFn fn = static_cast<AtomicFn>(inst.fn);
  RequestStream requests{double(start), target.nocHops(pe.index)};
  uint64_t finish = start;
  for (int64_t i = 0; i < inst.count; ++i) {
    if (mask && !mask[i])
      continue;
    int64_t offset =
        indices ? loadInt(inst.type2, indices + i * dtypeSize(inst.type2)) : i;
    uint64_t address = elementAddress(base, offset, esize, false, pe, cmd);
    // The previous value goes straight to its `old` page when there is one.
    uint8_t scratch[8];
    uint8_t *previous = old ? old + i * esize : scratch;
    const GlobalBuffer &buffer = memory.atomic(
        address, fn, inst.type, values + i * esize,
        compares ? compares + i * esize : nullptr, previous, pe, cmd);
    // A read-modify-write is a read and a write transaction.
    const uint64_t granule = target.dmaTransactionBytes;
    const uint64_t transaction = address / granule * granule;
    memory.bookTransfer(buffer, false, requests, transaction, granule);
    finish = std::max(finish, memory.bookTransfer(buffer, true, requests,
                                                  transaction, granule));
  }
  return finish;
}
