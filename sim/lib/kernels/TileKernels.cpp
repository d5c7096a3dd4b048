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

/// `Lanes` elements of type T.
template <typename T, int Lanes> struct VectorOf {
  typedef T type __attribute__((vector_size(sizeof(T) * Lanes)));
};

/// How the DPE accumulates f32 outputs from operands widened to f64, in
/// vectors of `Lanes`: each output element adds the products of `depth`
/// consecutive k at a time to itself in f64 (the products of f32 values are
/// exact there) and rounds the sum once to f32.
template <int Lanes> struct F32Accumulation {
  using Operand = double;
  using Wide = typename VectorOf<double, Lanes>::type;
  using Narrow = typename VectorOf<float, Lanes>::type;
  static constexpr int lanes = Lanes;
  static constexpr size_t elementBytes = sizeof(float);
  static constexpr bool roundsPerDepth = true;

  /// The DPE's NaN: which operand's NaN an addition passes on depends on
  /// the order the host's instructions take them in, so every NaN result is
  /// this one.
  static constexpr float nan = std::numeric_limits<float>::quiet_NaN();

  /// The f32 values at `c` (which may be unaligned), widened to f64.
  static Wide load(const uint8_t *c) {
    Narrow narrow;
    std::memcpy(&narrow, c, sizeof(narrow));
    return __builtin_convertvector(narrow, Wide);
  }
  /// Stores the lanes of `v`, each an f32 value or NaN, as f32 at `c`.
  static void store(uint8_t *c, Wide v) {
    Narrow narrow = __builtin_convertvector(v, Narrow);
    narrow = narrow != narrow ? Narrow{} + nan : narrow;
    std::memcpy(c, &narrow, sizeof(narrow));
  }
  /// The f32 nearest to each lane of `v`, widened back to f64.
  static Wide round(Wide v) {
    return __builtin_convertvector(__builtin_convertvector(v, Narrow), Wide);
  }
  static Wide multiply(Wide row, Operand scalar) { return row * scalar; }

  // The same, one element at a time.
  static double loadElement(const uint8_t *c) {
    float stored;
    std::memcpy(&stored, c, sizeof(float));
    return stored;
  }
  static void storeElement(uint8_t *c, double sum) {
    const float stored = std::isnan(sum) ? nan : static_cast<float>(sum);
    std::memcpy(c, &stored, sizeof(float));
  }
  static double roundElement(double sum) { return static_cast<float>(sum); }
  static double multiplyElement(Operand x, Operand y) { return x * y; }
};

/// How the DPE accumulates i32 outputs from i8 operands widened to i32, in
/// vectors of `Lanes`: every product is exact, and the sums wrap (in any
/// order, the same bits).
template <int Lanes> struct I32Accumulation {
  using Operand = int32_t;
  using Wide = typename VectorOf<uint32_t, Lanes>::type;
  using Signed = typename VectorOf<int32_t, Lanes>::type;
  static constexpr int lanes = Lanes;
  static constexpr size_t elementBytes = sizeof(int32_t);
  static constexpr bool roundsPerDepth = false;

  static Wide load(const uint8_t *c) {
    Wide v;
    std::memcpy(&v, c, sizeof(v));
    return v;
  }
  static void store(uint8_t *c, Wide v) { std::memcpy(c, &v, sizeof(v)); }
  static Wide round(Wide v) { return v; }
  /// The products of i8 values fit in i32.
  static Wide multiply(Signed row, Operand scalar) {
    return reinterpret_cast<Wide>(row * scalar);
  }

  // The same, one element at a time.
  static uint32_t loadElement(const uint8_t *c) {
    uint32_t stored;
    std::memcpy(&stored, c, sizeof(stored));
    return stored;
  }
  static void storeElement(uint8_t *c, uint32_t sum) {
    std::memcpy(c, &sum, sizeof(sum));
  }
  static uint32_t roundElement(uint32_t sum) { return sum; }
  static uint32_t multiplyElement(Operand x, Operand y) {
    return static_cast<uint32_t>(x * y);
  }
};

/// C[i, j] += A[i, :] * B[:, j] (see gemmBlocked), one element at a time.
template <typename Accumulation>
inline void gemmElement(uint8_t *c, const typename Accumulation::Operand *a,
                        const typename Accumulation::Operand *b, int64_t n,
                        int64_t k, int64_t depth, int64_t i, int64_t j) {
  uint8_t *element = c + (i * n + j) * Accumulation::elementBytes;
  auto sum = Accumulation::loadElement(element);
  for (int64_t p = 0; p < k; ++p) {
    sum += Accumulation::multiplyElement(a[i * k + p], b[p * n + j]);
    if (Accumulation::roundsPerDepth && ((p + 1) % depth == 0 || p + 1 == k))
      sum = Accumulation::roundElement(sum);
  }
  Accumulation::storeElement(element, sum);
}

/// C[i : i + Rows, j : j + lanes * Columns] += A * B (see gemmBlocked), with
/// the block's accumulators in registers.
template <typename Accumulation, int Rows, int Columns>
[[gnu::always_inline]] inline void
gemmBlock(uint8_t *c, const typename Accumulation::Operand *a,
          const typename Accumulation::Operand *b, int64_t n, int64_t k,
          int64_t depth, int64_t i, int64_t j) {
  using Operand = typename Accumulation::Operand;
  constexpr int lanes = Accumulation::lanes;
  using Row = typename VectorOf<Operand, lanes>::type;
  auto element = [&](int64_t row, int64_t column) {
    return c + (row * n + column) * Accumulation::elementBytes;
  };
  typename Accumulation::Wide acc[Rows][Columns];
  for (int r = 0; r < Rows; ++r)
    for (int v = 0; v < Columns; ++v)
      acc[r][v] = Accumulation::load(element(i + r, j + v * lanes));
  const int64_t step = Accumulation::roundsPerDepth ? depth : k;
  for (int64_t blockBegin = 0; blockBegin < k; blockBegin += step) {
    const int64_t blockEnd = std::min(k, blockBegin + step);
    for (int64_t p = blockBegin; p < blockEnd; ++p) {
      Row row[Columns];
      for (int v = 0; v < Columns; ++v)
        std::memcpy(&row[v], b + p * n + j + v * lanes, sizeof(Row));
      for (int r = 0; r < Rows; ++r) {
        const Operand scalar = a[(i + r) * k + p];
        for (int v = 0; v < Columns; ++v)
          acc[r][v] += Accumulation::multiply(row[v], scalar);
      }
    }
    if (Accumulation::roundsPerDepth)
      for (int r = 0; r < Rows; ++r)
        for (int v = 0; v < Columns; ++v)
          acc[r][v] = Accumulation::round(acc[r][v]);
  }
  for (int r = 0; r < Rows; ++r)
    for (int v = 0; v < Columns; ++v)
      Accumulation::store(element(i + r, j + v * lanes), acc[r][v]);
}

/// C += A * B on the tile C (m x n, row-major, possibly unaligned) from the
/// widened tiles A (m x k) and B (k x n), as a dot-product engine of depth
/// `depth` computes it (see the Accumulation). Rows are taken `Rows` at a
/// time (then one at a time) and columns `Columns` vectors at a time (then
/// one at a time). Every element takes the same operations whatever the
/// blocking, and NaNs are one NaN, so the result does not depend on the
/// host's vector width.
template <typename Accumulation, int Rows, int Columns>
[[gnu::always_inline]] inline void
gemmBlocked(uint8_t *c, const typename Accumulation::Operand *a,
            const typename Accumulation::Operand *b, int64_t m, int64_t n,
            int64_t k, int64_t depth) {
  constexpr int64_t blockWidth = int64_t(Accumulation::lanes) * Columns;
  const int64_t vectorColumns = n - n % blockWidth;
  int64_t i = 0;
  for (; i + Rows <= m; i += Rows)
    for (int64_t j = 0; j < vectorColumns; j += blockWidth)
      gemmBlock<Accumulation, Rows, Columns>(c, a, b, n, k, depth, i, j);
  for (; i < m; ++i)
    for (int64_t j = 0; j < vectorColumns; j += blockWidth)
      gemmBlock<Accumulation, 1, Columns>(c, a, b, n, k, depth, i, j);
  for (i = 0; i < m; ++i)
    for (int64_t j = vectorColumns; j < n; ++j)
      gemmElement<Accumulation>(c, a, b, n, k, depth, i, j);
}

// The DPE's kernels for processors of each vector width. Since every product
// of f32 values is exact in f64, a fused multiply-add rounds the same sum as
// a multiply and an add, so the clones for processors with FMA may contract
// them (the simulator is otherwise built with -ffp-contract=off).

__attribute__((target("arch=x86-64-v4"), optimize("fp-contract=fast"))) void
gemmF32Avx512(uint8_t *c, const double *a, const double *b, int64_t m,
              int64_t n, int64_t k, int64_t depth) {
  gemmBlocked<F32Accumulation<8>, 8, 2>(c, a, b, m, n, k, depth);
}

__attribute__((target_clones("arch=x86-64-v3", "avx2", "default"),
               optimize("fp-contract=fast"))) void
gemmF32(uint8_t *c, const double *a, const double *b, int64_t m, int64_t n,
        int64_t k, int64_t depth) {
  gemmBlocked<F32Accumulation<4>, 4, 2>(c, a, b, m, n, k, depth);
}

__attribute__((target("arch=x86-64-v4"))) void
gemmI32Avx512(uint8_t *c, const int32_t *a, const int32_t *b, int64_t m,
              int64_t n, int64_t k) {
  gemmBlocked<I32Accumulation<16>, 8, 2>(c, a, b, m, n, k, k);
}

__attribute__((target_clones("avx2", "default"))) void
gemmI32(uint8_t *c, const int32_t *a, const int32_t *b, int64_t m, int64_t n,
        int64_t k) {
  gemmBlocked<I32Accumulation<8>, 4, 2>(c, a, b, m, n, k, k);
}

} // namespace

void mtia::dpeMatmul(DType inType, DType accType, uint8_t *c, const uint8_t *a,
                     const uint8_t *b, const uint8_t *acc, int64_t m, int64_t n,
                     int64_t k, int64_t depth) {
  // The operands are widened before the accumulator is written, so that a
  // result page that overlaps an operand reads the operand as it was.
  auto initialiseAccumulator = [&] {
    const int64_t outBytes = m * n * 4;
    if (!acc)
      std::memset(c, 0, outBytes);
    else if (acc != c)
      std::memmove(c, acc, outBytes);
  };
  // The AVX-512 variants need the whole x86-64-v4 level they are compiled
  // for.
  const bool avx512 = __builtin_cpu_supports("x86-64-v4");
  if (accType == DType::I32) {
    // The i8 operands are widened to i32; the kernel reads and writes the
    // i32 accumulator in place.
    thread_local std::vector<int32_t> wideA, wideB;
    wideA.resize(m * k);
    wideB.resize(k * n);
    convertElements(DType::I8, DType::I32, a,
                    reinterpret_cast<uint8_t *>(wideA.data()), m * k, true);
    convertElements(DType::I8, DType::I32, b,
                    reinterpret_cast<uint8_t *>(wideB.data()), k * n, true);
    initialiseAccumulator();
    if (avx512)
      return gemmI32Avx512(c, wideA.data(), wideB.data(), m, n, k);
    return gemmI32(c, wideA.data(), wideB.data(), m, n, k);
  }
  // The operands are widened to f64; the kernel reads and writes the f32
  // accumulator in place.
  thread_local std::vector<double> wideA, wideB;
  wideA.resize(m * k);
  wideB.resize(k * n);
  convertElements(inType, DType::F64, a,
                  reinterpret_cast<uint8_t *>(wideA.data()), m * k, true);
  convertElements(inType, DType::F64, b,
                  reinterpret_cast<uint8_t *>(wideB.data()), k * n, true);
  initialiseAccumulator();
  if (avx512)
    return gemmF32Avx512(c, wideA.data(), wideB.data(), m, n, k, depth);
  gemmF32(c, wideA.data(), wideB.data(), m, n, k, depth);
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
