//===- ComputeUnits.cpp - A PE's compute units ----------------------------===//
//
// Runs the numeric kernels of compute instructions on their resolved pages
// and derives each instruction's occupancy from the target's unit rates.
//
//===----------------------------------------------------------------------===//

#include "ComputeUnits.h"

#include "kernels/Kernels.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

using namespace mtia;

namespace {

bool isSimdElementwise(Op op) {
  return op == Op::SimdBinary || op == Op::SimdUnary || op == Op::SimdCmp ||
         op == Op::SimdSelect || op == Op::SimdFma;
}

/// Computes the `count` elements of the SIMD element-wise instruction
/// `inst` into `d` from its inputs `in`.
void computeSimdElementwise(const Inst &inst, uint8_t *d,
                            const uint8_t *const in[3], int64_t count) {
  switch (inst.op) {
  case Op::SimdBinary:
    simdBinary(static_cast<BinaryFn>(inst.fn), inst.type, d, in[0], in[1],
               count);
    return;
  case Op::SimdUnary:
    simdUnary(static_cast<UnaryFn>(inst.fn), inst.type, d, in[0], count);
    return;
  case Op::SimdCmp:
    simdCompare(static_cast<Pred>(inst.fn), inst.type, d, in[0], in[1],
                count);
    return;
  case Op::SimdSelect:
    simdSelect(inst.type, d, in[0], in[1], in[2], count);
    return;
  default:
    simdFma(inst.type, d, in[0], in[1], in[2], count);
    return;
  }
}

} // namespace

bool ComputeUnits::runsOnKernelQueue(const Inst &inst) {
  if (!isSimdElementwise(inst.op))
    return false;
  return std::all_of(inst.inputs.begin(), inst.inputs.end(),
                     [](const SimdInput &input) {
                       return input.isTile && !input.splat &&
                              input.broadcastShape.empty();
                     });
}

void ComputeUnits::execute(PEState &pe, Unit unit, UnitState &state,
                           const Command &cmd, uint64_t start) {
  const Work work = run(pe, unit, cmd);
  local.countTraffic(work.localBytes);
  // The unit computes while the port moves its bytes, at whatever share of
  // the port the other units leave it.
  const uint64_t end =
      std::max(start + work.cycles, pe.localPort.book(start, work.localBytes));
  const uint64_t occupancy = std::max<uint64_t>(end - start, 1);
  uint64_t latency = unit == Unit::Dpe    ? target.dpeLatencyCycles
                     : unit == Unit::Simd ? target.simdLatencyCycles
                     : unit == Unit::Re   ? target.reduceLatencyCycles
                                          : target.mluLatencyCycles;
  state.retire(start, occupancy, latency);
  diagnostics.span(pe, unit, cmd, start, occupancy);
}

void ComputeUnits::printTile(const Command &cmd, const uint8_t *data) {
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
      std::snprintf(value, sizeof(value), "%.9g",
                    loadFloat(inst.type, element));
    } else {
      std::snprintf(value, sizeof(value), "%" PRId64,
                    loadInt(inst.type, element, inst.isSigned));
    }
    diagnostics.print("pid " + pidText(cmd.pid) + " idx (" + idx + ")" +
                      inst.text + value + "\n");
  }
}

double ComputeUnits::simdRate(DType type) const {
  // Integers run at the rate of the floats of their width: the engine's
  // lanes are 8, 16, 32 or 64 bits wide. The fp8 formats are computed in
  // f16, which the engine has (it has no fp8 arithmetic).
  double tops = target.simdTopsF32;
  switch (type) {
  case DType::I1:
  case DType::I8:
    tops = target.simdTopsI8;
    break;
  case DType::I16:
  case DType::F16:
  case DType::F8E4M3:
  case DType::F8E5M2:
  case DType::F8E4M3FNUZ:
  case DType::F8E5M2FNUZ:
    tops = target.simdTopsF16;
    break;
  case DType::BF16:
    tops = target.simdTopsBF16;
    break;
  case DType::I32:
  case DType::F32:
    tops = target.simdTopsF32;
    break;
  case DType::I64:
  case DType::F64:
    tops = target.simdTopsF64;
    break;
  }
  return target.simdOpsPerCyclePerPE(tops);
}

ComputeUnits::Work ComputeUnits::run(PEState &pe, Unit unit,
                                     const Command &cmd) {
  const Inst &inst = *cmd.inst;
  auto cycles = [](double work, double rate) {
    return static_cast<uint64_t>(std::ceil(work / rate));
  };
  switch (inst.op) {
  case Op::DpeMma: {
    int64_t m = inst.shape[0], n = inst.shape[1], k = inst.shape[2];
    // The product is computed by the KernelQueue; its timing does not
    // depend on it. When the queue defers it, it reads a copy, taken now,
    // of each operand page that is not ordered for it.
    using KernelUse = LocalMemory::KernelUse;
    const SlotRef &aRef = inst.slots[0], &bRef = inst.slots[1],
                  &cRef = inst.slots[2], &accRef = inst.slots[3];
    const uint8_t *a = local.resolve(pe, unit, aRef, cmd, KernelUse::Reads);
    const uint8_t *b = local.resolve(pe, unit, bRef, cmd, KernelUse::Reads);
    const uint8_t *acc = local.resolve(pe, unit, accRef, cmd, KernelUse::Reads);
    uint8_t *c = local.resolve(pe, unit, cRef, cmd, KernelUse::Writes);
    const DType in = inst.type, out = inst.type2;
    const int64_t depth = target.dpeTileK;
    std::shared_ptr<std::vector<uint8_t>> copies;
    if (kernels.defers()) {
      copies = std::make_shared<std::vector<uint8_t>>();
      const size_t aBytes = m * k * dtypeSize(in);
      const size_t bBytes = k * n * dtypeSize(in);
      const size_t accBytes = m * n * dtypeSize(out);
      // Reserved at once, so that the copies do not move.
      copies->reserve(aBytes + bBytes + accBytes);
      auto keep = [&](const SlotRef &ref, const uint8_t *&page, size_t bytes) {
        if (!page || local.orderedForKernel(pe, ref))
          return;
        const uint8_t *copy = copies->data() + copies->size();
        copies->insert(copies->end(), page, page + bytes);
        page = copy;
      };
      keep(aRef, a, aBytes);
      keep(bRef, b, bBytes);
      keep(accRef, acc, accBytes);
    }
    kernels.submit([=] {
      // The kernel owns the copies it reads.
      (void)copies;
      dpeMatmul(in, out, c, a, b, acc, m, n, k, depth);
    });
    auto roundUp = [](int64_t value, int64_t step) {
      return (value + step - 1) / step * step;
    };
    double macs = double(roundUp(m, target.dpeTileM)) *
                  roundUp(n, target.dpeTileN) * roundUp(k, target.dpeTileK);
    double tops = inst.type == DType::I8     ? target.dpeTopsI8
                  : inst.type == DType::F32  ? target.dpeTopsF32
                  : inst.type == DType::BF16 ? target.dpeTopsBF16
                                             : target.dpeTopsF16;
    // The DPE reads both operands (it caches one and streams the other),
    // reads the accumulator and writes the product.
    const uint64_t bytes =
        (m * k + k * n) * dtypeSize(inst.type) + m * n * 4 * (acc ? 2 : 1);
    return {cycles(macs, target.macsPerCyclePerPE(tops)), bytes};
  }
  case Op::SimdMma: {
    int64_t m = inst.shape[0], n = inst.shape[1], k = inst.shape[2];
    const uint8_t *a = local.resolve(pe, unit, inst.slots[0], cmd);
    const uint8_t *b = local.resolve(pe, unit, inst.slots[1], cmd);
    uint8_t *c = local.resolve(pe, unit, inst.slots[2], cmd);
    const uint8_t *acc = local.resolve(pe, unit, inst.slots[3], cmd);
    simdMatmulF64(c, a, b, acc, m, n, k);
    // One pass over the accumulator per k: a multiply and an add per
    // element (two operations) at the SIMD engine's f64 rate, reading and
    // writing the accumulator and reading a column element of A and a row
    // of B.
    const double operations = 2.0 * double(m) * n * k;
    const uint64_t bytes = k * (2 * m * n + m + n) * dtypeSize(inst.type);
    return {cycles(operations, simdRate(inst.type)), bytes};
  }
  case Op::SimdBinary:
  case Op::SimdUnary:
  case Op::SimdCmp:
  case Op::SimdSelect:
  case Op::SimdFma: {
    const int64_t n = inst.count;
    // On the KernelQueue, the operation reads its tiles where they are
    // (a host buffer that a page aliases included), which stay unwritten
    // until it has run.
    const bool queued = runsOnKernelQueue(inst);
    using KernelUse = LocalMemory::KernelUse;
    uint8_t *d = local.resolve(pe, unit, inst.slots[0], cmd,
                               queued ? KernelUse::Fills : KernelUse::None);
    const uint8_t *in[3] = {nullptr, nullptr, nullptr};
    for (size_t i = 0; i < inst.inputs.size(); ++i) {
      const bool condition = inst.op == Op::SimdSelect && i == 0;
      const DType type = condition ? DType::I1 : inst.type;
      in[i] = queued ? local.resolveKernelRead(pe, unit, inst.inputs[i].slot,
                                               cmd, n * dtypeSize(type))
                     : local.resolveInput(pe, unit, inst.inputs[i], cmd, type,
                                          n, static_cast<int>(i),
                                          /*inPlace=*/true);
    }
    if (queued)
      kernels.submit([&inst, d, a = in[0], b = in[1], c = in[2], n] {
        const uint8_t *const inputs[3] = {a, b, c};
        computeSimdElementwise(inst, d, inputs, n);
      });
    else
      computeSimdElementwise(inst, d, in, n);
    double rate = simdRate(inst.type);
    if (inst.op == Op::SimdUnary &&
        isTranscendental(static_cast<UnaryFn>(inst.fn)))
      rate *= target.sfuFraction;
    // A fused multiply-add is two operations per element, the others one.
    const double operations = double(n) * (inst.op == Op::SimdFma ? 2 : 1);
    const uint64_t bytes = n * dtypeSize(inst.type) * (inst.inputs.size() + 1);
    return {cycles(operations, rate), bytes};
  }
  case Op::SimdCast: {
    uint8_t *d = local.resolve(pe, unit, inst.slots[0], cmd);
    const uint8_t *a = local.resolveRead(pe, unit, inst.slots[1], cmd,
                                         inst.count * dtypeSize(inst.type));
    if (inst.flag)
      std::memmove(d, a, inst.count * dtypeSize(inst.type));
    else
      convertElements(inst.type, inst.type2, a, d, inst.count, inst.isSigned);
    const unsigned fromSize = dtypeSize(inst.type);
    const unsigned toSize = dtypeSize(inst.type2);
    // A conversion runs at the rate of the wider type, of the slower one
    // when both are as wide.
    const double fromRate = simdRate(inst.type), toRate = simdRate(inst.type2);
    const double rate = fromSize > toSize   ? fromRate
                        : toSize > fromSize ? toRate
                                            : std::min(fromRate, toRate);
    return {cycles(inst.count, rate),
            static_cast<uint64_t>(inst.count) * (fromSize + toSize)};
  }
  case Op::SimdFill:
  case Op::SimdIota: {
    uint8_t *d = local.resolve(pe, unit, inst.slots[0], cmd);
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
    return {cycles(inst.count, simdRate(inst.type)),
            static_cast<uint64_t>(inst.count) * dtypeSize(inst.type)};
  }
  case Op::SimdPrint:
    printTile(cmd, local.resolve(pe, unit, inst.slots[0], cmd));
    return {1, 0};
  case Op::SimdAssert: {
    const uint8_t *c = local.resolve(pe, unit, inst.slots[0], cmd);
    for (int64_t i = 0; i < inst.count; ++i)
      if (!c[i])
        diagnostics.abortAt("assert",
                            "assertion failed: " + inst.text + " (element " +
                                std::to_string(i) + ")",
                            pe, cmd);
    return {cycles(inst.count, simdRate(DType::I1)), 0};
  }
  case Op::ReReduce:
  case Op::ReScan: {
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < inst.axis; ++d)
      outer *= inst.shape[d];
    for (size_t d = inst.axis + 1; d < inst.shape.size(); ++d)
      inner *= inst.shape[d];
    int64_t length = inst.shape[inst.axis];
    const uint8_t *src = local.resolve(pe, unit, inst.slots[0], cmd);
    uint8_t *dst = local.resolve(pe, unit, inst.slots[1], cmd);
    uint8_t *index = local.resolve(pe, unit, inst.slots[2], cmd);
    if (inst.op == Op::ReReduce)
      reduceTile(static_cast<ReduceFn>(inst.fn), inst.type, src, dst, index,
                 outer, length, inner);
    else
      scanTile(static_cast<ReduceFn>(inst.fn), inst.type, src, dst, outer,
               length, inner, inst.flag);
    const uint64_t elements = outer * length * inner;
    return {cycles(double(elements), target.reduceElementsPerCycle),
            elements * dtypeSize(inst.type)};
  }
  case Op::ReHistogram: {
    const unsigned esize = dtypeSize(inst.type);
    const uint8_t *src = local.resolve(pe, unit, inst.slots[0], cmd);
    uint8_t *counts = local.resolve(pe, unit, inst.slots[1], cmd);
    const uint8_t *mask = local.resolve(pe, unit, inst.slots[2], cmd);
    histogramTile(inst.type, inst.isSigned, src, mask, counts, inst.count,
                  inst.bins);
    return {
        cycles(double(inst.count + inst.bins), target.reduceElementsPerCycle),
        static_cast<uint64_t>(inst.count * esize + (mask ? inst.count : 0) +
                              inst.bins * 4)};
  }
  case Op::MluGather: {
    const unsigned esize = static_cast<unsigned>(inst.count);
    const unsigned indexBytes = dtypeSize(inst.type2);
    uint8_t *d = local.resolve(pe, unit, inst.slots[0], cmd);
    const uint8_t *src = local.resolve(pe, unit, inst.slots[1], cmd);
    const uint8_t *index = local.resolve(pe, unit, inst.slots[2], cmd);
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
    std::vector<uint8_t> &gathered = scratch;
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
      diagnostics.abortAt(
          "out_of_bounds",
          "mlu.gather index " +
              std::to_string(loadInt(inst.type2, index + bad * indexBytes)) +
              " at position (" + position + ") is outside [0, " +
              std::to_string(srcLength) + ") along axis " +
              std::to_string(inst.axis) + " of the source",
          pe, cmd);
    }
    std::memcpy(d, gathered.data(), elements * esize);
    // A gather reads its source element by element, like a transpose.
    const uint64_t bytes = elements * (2 * esize + indexBytes);
    return {cycles(double(bytes), target.mluTransposeBytesPerCycle), bytes};
  }
  case Op::MluCopy: {
    uint8_t *d = local.resolve(pe, unit, inst.slots[0], cmd);
    const uint8_t *src = local.resolve(pe, unit, inst.slots[1], cmd);
    const unsigned esize = static_cast<unsigned>(inst.count);
    int64_t elements = 1;
    for (int64_t dim : inst.shape)
      elements *= dim;
    // Copy through scratch so that overlapping source and destination
    // behave like a read of the whole source before any write.
    int64_t srcSpan = inst.srcOffset + 1;
    for (size_t dim = 0; dim < inst.shape.size(); ++dim)
      srcSpan +=
          std::max<int64_t>(inst.srcStrides[dim], 0) * (inst.shape[dim] - 1);
    std::vector<uint8_t> &copy = scratch;
    copy.assign(src, src + srcSpan * esize);
    stridedCopy(esize, d + inst.dstOffset * esize,
                copy.data() + inst.srcOffset * esize, inst.shape.data(),
                inst.srcStrides.data(), inst.dstStrides.data(),
                static_cast<unsigned>(inst.shape.size()));
    // Rows that are contiguous on both sides move at the copy rate; a
    // transpose or permute, strided on one side, at the transpose rate.
    // The rows run along the innermost dimension that has more than one
    // element (a dimension of one element has no stride to follow).
    bool contiguous = true;
    for (size_t dim = inst.shape.size(); dim-- > 0;) {
      if (inst.shape[dim] == 1)
        continue;
      contiguous = inst.srcStrides[dim] == 1 && inst.dstStrides[dim] == 1;
      break;
    }
    const uint64_t bytes = 2 * elements * esize;
    return {cycles(double(bytes), contiguous
                                      ? target.mluBytesPerCycle
                                      : target.mluTransposeBytesPerCycle),
            bytes};
  }
  default:
    return {};
  }
}
