//===- TileKernels.cpp - Kernels of the DPE, RE and MLU -------------------===//
//
// The matrix multiply of the DPE, the reductions, scans and histograms of
// the reduction engine, and the gathers and strided copies of the MLU, on
// dense row-major tiles.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"

#include "KernelSupport.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

using namespace mtia;

//===----------------------------------------------------------------------===//
// DPE
//===----------------------------------------------------------------------===//

namespace {

typedef double Vec4 __attribute__((vector_size(32)));

inline Vec4 loadVec(const double *p) {
  Vec4 v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

/// The f32 nearest to each lane of `v`, widened back to f64.
inline Vec4 roundToF32(Vec4 v) {
  typedef float Vec4F __attribute__((vector_size(16)));
  return __builtin_convertvector(__builtin_convertvector(v, Vec4F), Vec4);
}

/// C += A * B as a dot-product engine of depth `depth` computes it, with C
/// held in f64 but always an f32 value (C m x n, A m x k, B k x n): every
/// element of C takes the products of `depth` consecutive k at a time, adds
/// them to itself in f64 (in increasing k; the products of f32 values are
/// exact there) and rounds the sum once to f32. The result does not depend on
/// which clone runs: since every product is exact in f64, a fused
/// multiply-add rounds the same sum as a multiply and an add, so the clone
/// for processors with FMA may contract them (the simulator is otherwise
/// built with -ffp-contract=off).
__attribute__((target_clones("arch=x86-64-v3", "avx2", "default"),
               optimize("fp-contract=fast"))) void
gemmDotProducts(double *c, const double *a, const double *b, int64_t m,
                int64_t n, int64_t k, int64_t depth) {
  auto scalarColumns = [&](int64_t i, int64_t jBegin) {
    for (int64_t j = jBegin; j < n; ++j) {
      double sum = c[i * n + j];
      for (int64_t p = 0; p < k; ++p) {
        sum += a[i * k + p] * b[p * n + j];
        if ((p + 1) % depth == 0 || p + 1 == k)
          sum = static_cast<float>(sum);
      }
      c[i * n + j] = sum;
    }
  };
  int64_t i = 0;
  for (; i + 4 <= m; i += 4) {
    int64_t j = 0;
    for (; j + 8 <= n; j += 8) {
      Vec4 acc[4][2];
      for (int r = 0; r < 4; ++r) {
        acc[r][0] = loadVec(c + (i + r) * n + j);
        acc[r][1] = loadVec(c + (i + r) * n + j + 4);
      }
      for (int64_t blockBegin = 0; blockBegin < k; blockBegin += depth) {
        int64_t blockEnd = std::min(k, blockBegin + depth);
        for (int64_t p = blockBegin; p < blockEnd; ++p) {
          Vec4 b0 = loadVec(b + p * n + j);
          Vec4 b1 = loadVec(b + p * n + j + 4);
          for (int r = 0; r < 4; ++r) {
            double scalar = a[(i + r) * k + p];
            Vec4 product0 = b0 * scalar;
            Vec4 product1 = b1 * scalar;
            acc[r][0] += product0;
            acc[r][1] += product1;
          }
        }
        for (int r = 0; r < 4; ++r) {
          acc[r][0] = roundToF32(acc[r][0]);
          acc[r][1] = roundToF32(acc[r][1]);
        }
      }
      for (int r = 0; r < 4; ++r) {
        std::memcpy(c + (i + r) * n + j, &acc[r][0], sizeof(Vec4));
        std::memcpy(c + (i + r) * n + j + 4, &acc[r][1], sizeof(Vec4));
      }
    }
    for (int r = 0; r < 4; ++r)
      scalarColumns(i + r, j);
  }
  for (; i < m; ++i)
    scalarColumns(i, 0);
}

__attribute__((target_clones("avx2", "default"))) void
gemmI8(int32_t *c, const int8_t *a, const int8_t *b, int64_t m, int64_t n,
       int64_t k) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      int32_t scalar = a[i * k + p];
      for (int64_t j = 0; j < n; ++j)
        c[i * n + j] = static_cast<int32_t>(
            static_cast<uint32_t>(c[i * n + j]) +
            static_cast<uint32_t>(scalar * static_cast<int32_t>(b[p * n + j])));
    }
}

} // namespace

void mtia::dpeMatmul(DType inType, DType accType, uint8_t *c, const uint8_t *a,
                     const uint8_t *b, const uint8_t *acc, int64_t m, int64_t n,
                     int64_t k, int64_t depth) {
  const int64_t outBytes = m * n * 4;
  if (acc) {
    if (acc != c)
      std::memmove(c, acc, outBytes);
  } else {
    std::memset(c, 0, outBytes);
  }
  if (accType == DType::I32) {
    std::vector<int32_t> out(m * n);
    std::memcpy(out.data(), c, outBytes);
    gemmI8(out.data(), reinterpret_cast<const int8_t *>(a),
           reinterpret_cast<const int8_t *>(b), m, n, k);
    std::memcpy(c, out.data(), outBytes);
    return;
  }
  // The operands and the accumulator are widened to f64 through f32, whose
  // conversions from the narrow types have fast paths; f32 (the accumulator)
  // is copied as it is, which widens to the same doubles as converting it to
  // f32 first would.
  auto widen = [](DType type, const uint8_t *source, int64_t count,
                  std::vector<double> &wide) {
    std::vector<float> &narrow = scratch(0);
    narrow.resize(count);
    auto *bytes = reinterpret_cast<uint8_t *>(narrow.data());
    if (type == DType::F32)
      std::memcpy(bytes, source, count * sizeof(float));
    else
      convertElements(type, DType::F32, source, bytes, count, true);
    wide.assign(narrow.begin(), narrow.end());
  };
  thread_local std::vector<double> wideA, wideB, out;
  widen(inType, a, m * k, wideA);
  widen(inType, b, k * n, wideB);
  widen(DType::F32, c, m * n, out);
  gemmDotProducts(out.data(), wideA.data(), wideB.data(), m, n, k, depth);
  for (int64_t i = 0; i < m * n; ++i)
    storeAt<float>(c, i, static_cast<float>(out[i]));
}

//===----------------------------------------------------------------------===//
// Reduction engine
//===----------------------------------------------------------------------===//

namespace {

/// The combiner of a reduction or scan on values of type T.
template <typename T> T combine(ReduceFn fn, T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (fn) {
    case ReduceFn::Sum:
      return x + y;
    case ReduceFn::Prod:
      return x * y;
    case ReduceFn::RMax:
      return std::isnan(x) || std::isnan(y)
                 ? std::numeric_limits<T>::quiet_NaN()
                 : (x > y ? x : y);
    case ReduceFn::RMin:
      return std::isnan(x) || std::isnan(y)
                 ? std::numeric_limits<T>::quiet_NaN()
                 : (x < y ? x : y);
    case ReduceFn::RMaxNum:
      return std::fmax(x, y);
    case ReduceFn::RMinNum:
      return std::fmin(x, y);
    default:
      return x;
    }
  } else {
    using U = std::make_unsigned_t<T>;
    switch (fn) {
    case ReduceFn::Sum:
      return T(U(x) + U(y));
    case ReduceFn::Prod:
      return T(U(x) * U(y));
    case ReduceFn::RMax:
      return x > y ? x : y;
    case ReduceFn::RMin:
      return x < y ? x : y;
    case ReduceFn::RMaxU:
      return U(x) > U(y) ? x : y;
    case ReduceFn::RMinU:
      return U(x) < U(y) ? x : y;
    case ReduceFn::RAnd:
      return T(x & y);
    case ReduceFn::ROr:
      return T(x | y);
    case ReduceFn::RXor:
      return T(x ^ y);
    default:
      return x;
    }
  }
}

template <typename T>
void reduceTyped(ReduceFn fn, const uint8_t *src, uint8_t *dst, uint8_t *index,
                 int64_t outer, int64_t length, int64_t inner) {
  const T *in = reinterpret_cast<const T *>(src);
  bool arg = fn == ReduceFn::ArgMax || fn == ReduceFn::ArgMin;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      const T *column = in + o * length * inner + i;
      T value = column[0];
      int32_t position = 0;
      for (int64_t l = 1; l < length; ++l) {
        T next = column[l * inner];
        if (!arg) {
          value = combine(fn, value, next);
          continue;
        }
        // The first extreme wins; NaN never displaces a number.
        bool better = fn == ReduceFn::ArgMax ? next > value : next < value;
        if constexpr (std::is_floating_point_v<T>)
          better = better || (std::isnan(value) && !std::isnan(next));
        if (better) {
          value = next;
          position = static_cast<int32_t>(l);
        }
      }
      if (dst)
        storeAt<T>(dst, o * inner + i, value);
      if (index)
        storeAt<int32_t>(index, o * inner + i, position);
    }
}

template <typename T>
void scanTyped(ReduceFn fn, const uint8_t *src, uint8_t *dst, int64_t outer,
               int64_t length, int64_t inner, bool reverse) {
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      int64_t base = o * length * inner + i;
      T running{};
      for (int64_t step = 0; step < length; ++step) {
        int64_t l = reverse ? length - 1 - step : step;
        T value = loadAt<T>(src, base + l * inner);
        running = step == 0 ? value : combine(fn, running, value);
        storeAt<T>(dst, base + l * inner, running);
      }
    }
}

} // namespace

void mtia::reduceTile(ReduceFn fn, DType type, const uint8_t *src, uint8_t *dst,
                      uint8_t *index, int64_t outer, int64_t length,
                      int64_t inner) {
  if (type == DType::F32)
    return reduceTyped<float>(fn, src, dst, index, outer, length, inner);
  if (type == DType::F64)
    return reduceTyped<double>(fn, src, dst, index, outer, length, inner);
  if (isFloat(type)) {
    // Narrow floats reduce in f32 and round once at the end.
    int64_t elements = outer * length * inner;
    std::vector<float> wide(elements), result(outer * inner);
    convertElements(type, DType::F32, src,
                    reinterpret_cast<uint8_t *>(wide.data()), elements, true);
    reduceTyped<float>(fn, reinterpret_cast<const uint8_t *>(wide.data()),
                       reinterpret_cast<uint8_t *>(result.data()), index, outer,
                       length, inner);
    if (dst)
      convertElements(DType::F32, type,
                      reinterpret_cast<const uint8_t *>(result.data()), dst,
                      outer * inner, true);
    return;
  }
  dispatchInt(type, [&](auto tag) {
    reduceTyped<decltype(tag)>(fn, src, dst, index, outer, length, inner);
  });
}

void mtia::scanTile(ReduceFn fn, DType type, const uint8_t *src, uint8_t *dst,
                    int64_t outer, int64_t length, int64_t inner,
                    bool reverse) {
  if (type == DType::F32)
    return scanTyped<float>(fn, src, dst, outer, length, inner, reverse);
  if (type == DType::F64)
    return scanTyped<double>(fn, src, dst, outer, length, inner, reverse);
  if (isFloat(type)) {
    int64_t elements = outer * length * inner;
    std::vector<float> wide(elements), result(elements);
    convertElements(type, DType::F32, src,
                    reinterpret_cast<uint8_t *>(wide.data()), elements, true);
    scanTyped<float>(fn, reinterpret_cast<const uint8_t *>(wide.data()),
                     reinterpret_cast<uint8_t *>(result.data()), outer, length,
                     inner, reverse);
    convertElements(DType::F32, type,
                    reinterpret_cast<const uint8_t *>(result.data()), dst,
                    elements, true);
    return;
  }
  dispatchInt(type, [&](auto tag) {
    scanTyped<decltype(tag)>(fn, src, dst, outer, length, inner, reverse);
  });
}

void mtia::histogramTile(DType type, bool isSigned, const uint8_t *src,
                         const uint8_t *mask, uint8_t *counts, int64_t count,
                         int64_t bins) {
  std::memset(counts, 0, bins * 4);
  const unsigned esize = dtypeSize(type);
  for (int64_t i = 0; i < count; ++i) {
    if (mask && !mask[i])
      continue;
    // An unsigned 64-bit value of 2^63 or more loads as a negative number,
    // and is outside the bins like every negative one.
    int64_t value = loadInt(type, src + i * esize, isSigned);
    if (value < 0 || value >= bins)
      continue;
    storeAt<int32_t>(counts, value, loadAt<int32_t>(counts, value) + 1);
  }
}

//===----------------------------------------------------------------------===//
// Layout unit
//===----------------------------------------------------------------------===//

int64_t mtia::gatherTile(unsigned elementBytes, uint8_t *dst,
                         const uint8_t *src, const uint8_t *index,
                         DType indexType, int64_t outer, int64_t srcLength,
                         int64_t length, int64_t inner) {
  const int64_t elements = outer * length * inner;
  const unsigned indexBytes = dtypeSize(indexType);
  for (int64_t e = 0; e < elements; ++e) {
    int64_t position = loadInt(indexType, index + e * indexBytes);
    if (position < 0 || position >= srcLength)
      return e;
  }
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < length; ++j)
      for (int64_t i = 0; i < inner; ++i) {
        int64_t e = (o * length + j) * inner + i;
        int64_t position = loadInt(indexType, index + e * indexBytes);
        std::memcpy(dst + e * elementBytes,
                    src +
                        ((o * srcLength + position) * inner + i) * elementBytes,
                    elementBytes);
      }
  return -1;
}

namespace {

template <typename T>
void stridedCopyTyped(uint8_t *dst, const uint8_t *src, const int64_t *shape,
                      const int64_t *srcStrides, const int64_t *dstStrides,
                      unsigned rank) {
  int64_t dims[kMaxTileRank] = {1, 1, 1, 1};
  int64_t ss[kMaxTileRank] = {0, 0, 0, 0}, ds[kMaxTileRank] = {0, 0, 0, 0};
  // Right-align the dimensions in a rank-4 loop nest.
  unsigned shift = kMaxTileRank - rank;
  for (unsigned d = 0; d < rank; ++d) {
    dims[shift + d] = shape[d];
    ss[shift + d] = srcStrides[d];
    ds[shift + d] = dstStrides[d];
  }
  for (int64_t i0 = 0; i0 < dims[0]; ++i0)
    for (int64_t i1 = 0; i1 < dims[1]; ++i1)
      for (int64_t i2 = 0; i2 < dims[2]; ++i2) {
        int64_t s = i0 * ss[0] + i1 * ss[1] + i2 * ss[2];
        int64_t t = i0 * ds[0] + i1 * ds[1] + i2 * ds[2];
        for (int64_t i3 = 0; i3 < dims[3]; ++i3)
          storeAt<T>(dst, t + i3 * ds[3], loadAt<T>(src, s + i3 * ss[3]));
      }
}

} // namespace

void mtia::stridedCopy(unsigned elementBytes, uint8_t *dst, const uint8_t *src,
                       const int64_t *shape, const int64_t *srcStrides,
                       const int64_t *dstStrides, unsigned rank) {
  switch (elementBytes) {
  case 1:
    return stridedCopyTyped<uint8_t>(dst, src, shape, srcStrides, dstStrides,
                                     rank);
  case 2:
    return stridedCopyTyped<uint16_t>(dst, src, shape, srcStrides, dstStrides,
                                      rank);
  case 4:
    return stridedCopyTyped<uint32_t>(dst, src, shape, srcStrides, dstStrides,
                                      rank);
  default:
    return stridedCopyTyped<uint64_t>(dst, src, shape, srcStrides, dstStrides,
                                      rank);
  }
}
