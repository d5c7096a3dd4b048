//===- SimdKernels.cpp - Elementwise kernels of the SIMD engine -----------===//
//
// The elementwise arithmetic of the SIMD engine and its special-function
// tables: binary and unary functions, comparisons, selects and fused
// multiply-adds, with f16/bf16/fp8 computed in f32 and rounded once. The
// control core's scalar arithmetic runs the same kernels on one element.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"

#include "KernelSupport.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

using namespace mtia;

namespace {

/// For f16/bf16/fp8 tiles: widens inputs to f32, runs `body` on f32 tiles
/// and narrows the result with one rounding.
template <typename Body>
void viaFloat(DType type, uint8_t *d, std::initializer_list<const uint8_t *> in,
              int64_t count, Body body) {
  const uint8_t *widened[3] = {nullptr, nullptr, nullptr};
  int slot = 0;
  for (const uint8_t *input : in) {
    std::vector<float> &buffer = scratch(slot);
    buffer.resize(count);
    convertElements(type, DType::F32, input,
                    reinterpret_cast<uint8_t *>(buffer.data()), count, true);
    widened[slot++] = reinterpret_cast<const uint8_t *>(buffer.data());
  }
  std::vector<float> &out = scratch(3);
  out.resize(count);
  uint8_t *outBytes = reinterpret_cast<uint8_t *>(out.data());
  body(outBytes, widened);
  convertElements(DType::F32, type, outBytes, d, count, true);
}

template <typename T, typename F>
void binaryLoop(uint8_t *d, const uint8_t *a, const uint8_t *b, int64_t count,
                F f) {
  T *out = reinterpret_cast<T *>(d);
  // Tiles in local memory are aligned to their element size; the builder
  // and the parser guarantee it, so the loops may use typed pointers.
  const T *x = reinterpret_cast<const T *>(a);
  const T *y = reinterpret_cast<const T *>(b);
  for (int64_t i = 0; i < count; ++i)
    out[i] = f(x[i], y[i]);
}

template <typename T>
void floatBinary(BinaryFn fn, uint8_t *d, const uint8_t *a, const uint8_t *b,
                 int64_t count) {
  switch (fn) {
  case BinaryFn::Add:
    return binaryLoop<T>(d, a, b, count, [](T x, T y) { return x + y; });
  case BinaryFn::Sub:
    return binaryLoop<T>(d, a, b, count, [](T x, T y) { return x - y; });
  case BinaryFn::Mul:
    return binaryLoop<T>(d, a, b, count, [](T x, T y) { return x * y; });
  case BinaryFn::Div:
    return binaryLoop<T>(d, a, b, count, [](T x, T y) { return x / y; });
  case BinaryFn::Rem:
    return binaryLoop<T>(d, a, b, count,
                         [](T x, T y) { return std::fmod(x, y); });
  case BinaryFn::Min:
    return binaryLoop<T>(d, a, b, count, [](T x, T y) {
      if (std::isnan(x) || std::isnan(y))
        return std::numeric_limits<T>::quiet_NaN();
      if (x == y)
        return std::signbit(x) ? x : y;
      return x < y ? x : y;
    });
  case BinaryFn::Max:
    return binaryLoop<T>(d, a, b, count, [](T x, T y) {
      if (std::isnan(x) || std::isnan(y))
        return std::numeric_limits<T>::quiet_NaN();
      if (x == y)
        return std::signbit(x) ? y : x;
      return x > y ? x : y;
    });
  case BinaryFn::MinNum:
    return binaryLoop<T>(d, a, b, count,
                         [](T x, T y) { return std::fmin(x, y); });
  case BinaryFn::MaxNum:
    return binaryLoop<T>(d, a, b, count,
                         [](T x, T y) { return std::fmax(x, y); });
  case BinaryFn::Pow:
    return binaryLoop<T>(d, a, b, count,
                         [](T x, T y) { return std::pow(x, y); });
  case BinaryFn::Atan2:
    return binaryLoop<T>(d, a, b, count,
                         [](T x, T y) { return std::atan2(x, y); });
  case BinaryFn::CopySign:
    return binaryLoop<T>(d, a, b, count,
                         [](T x, T y) { return std::copysign(x, y); });
  default:
    return;
  }
}

template <typename T>
void intBinary(BinaryFn fn, uint8_t *d, const uint8_t *a, const uint8_t *b,
               int64_t count) {
  using U = std::make_unsigned_t<T>;
  constexpr unsigned kBits = 8 * sizeof(T);
  using Wide = std::conditional_t<kBits == 64, __int128, int64_t>;
  using UWide = std::conditional_t<kBits == 64, unsigned __int128, uint64_t>;
  switch (fn) {
  case BinaryFn::Add:
    return binaryLoop<T>(d, a, b, count,
                         [](T x, T y) { return T(U(x) + U(y)); });
  case BinaryFn::Sub:
    return binaryLoop<T>(d, a, b, count,
                         [](T x, T y) { return T(U(x) - U(y)); });
  case BinaryFn::Mul:
    return binaryLoop<T>(d, a, b, count,
                         [](T x, T y) { return T(U(x) * U(y)); });
  // Division follows RISC-V: x / 0 = -1, x % 0 = x, MIN / -1 = MIN.
  case BinaryFn::Div:
    return binaryLoop<T>(d, a, b, count, [](T x, T y) {
      if (y == 0)
        return T(-1);
      if (y == -1)
        return T(U(0) - U(x));
      return T(x / y);
    });
  case BinaryFn::Rem:
    return binaryLoop<T>(d, a, b, count, [](T x, T y) {
      if (y == 0)
        return x;
      if (y == -1)
        return T(0);
      return T(x % y);
    });
  case BinaryFn::DivU:
    return binaryLoop<T>(d, a, b, count, [](T x, T y) {
      return y == 0 ? T(-1) : T(U(x) / U(y));
    });
  case BinaryFn::RemU:
    return binaryLoop<T>(d, a, b, count,
                         [](T x, T y) { return y == 0 ? x : T(U(x) % U(y)); });
  case BinaryFn::Min:
    return binaryLoop<T>(d, a, b, count,
                         [](T x, T y) { return x < y ? x : y; });
  case BinaryFn::Max:
    return binaryLoop<T>(d, a, b, count,
                         [](T x, T y) { return x > y ? x : y; });
  case BinaryFn::MinU:
    return binaryLoop<T>(d, a, b, count,
                         [](T x, T y) { return U(x) < U(y) ? x : y; });
  case BinaryFn::MaxU:
    return binaryLoop<T>(d, a, b, count,
                         [](T x, T y) { return U(x) > U(y) ? x : y; });
  case BinaryFn::And:
    return binaryLoop<T>(d, a, b, count, [](T x, T y) { return T(x & y); });
  case BinaryFn::Or:
    return binaryLoop<T>(d, a, b, count, [](T x, T y) { return T(x | y); });
  case BinaryFn::Xor:
    return binaryLoop<T>(d, a, b, count, [](T x, T y) { return T(x ^ y); });
  // Shift amounts are unsigned; amounts of the width or more clamp.
  case BinaryFn::Shl:
    return binaryLoop<T>(d, a, b, count, [](T x, T y) {
      return U(y) >= kBits ? T(0) : T(U(x) << U(y));
    });
  case BinaryFn::ShrU:
    return binaryLoop<T>(d, a, b, count, [](T x, T y) {
      return U(y) >= kBits ? T(0) : T(U(x) >> U(y));
    });
  case BinaryFn::ShrS:
    return binaryLoop<T>(d, a, b, count, [](T x, T y) {
      return U(y) >= kBits ? T(x < 0 ? -1 : 0) : T(x >> U(y));
    });
  case BinaryFn::MulHiU:
    return binaryLoop<T>(d, a, b, count, [](T x, T y) {
      return T((UWide(U(x)) * UWide(U(y))) >> kBits);
    });
  case BinaryFn::MulHiS:
    return binaryLoop<T>(d, a, b, count, [](T x, T y) {
      return T((Wide(x) * Wide(y)) >> kBits);
    });
  default:
    return;
  }
}

template <typename T, typename F>
void unaryLoop(uint8_t *d, const uint8_t *a, int64_t count, F f) {
  T *out = reinterpret_cast<T *>(d);
  const T *x = reinterpret_cast<const T *>(a);
  for (int64_t i = 0; i < count; ++i)
    out[i] = f(x[i]);
}

/// The inverse error function: Giles' single-precision approximation
/// ("Approximating the erfinv function", GPU Computing Gems, 2011) refined
/// by two Newton steps on erf in double precision.
double inverseErf(double y) {
  if (std::isnan(y) || std::fabs(y) > 1)
    return std::numeric_limits<double>::quiet_NaN();
  if (std::fabs(y) == 1)
    return std::copysign(std::numeric_limits<double>::infinity(), y);
  double w = -std::log((1 - y) * (1 + y));
  double x;
  if (w < 5) {
    w -= 2.5;
    double p = 2.81022636e-08;
    for (double c :
         {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
          -0.00125372503, -0.00417768164, 0.246640727, 1.50140941})
      p = c + p * w;
    x = p * y;
  } else {
    w = std::sqrt(w) - 3;
    double p = -0.000200214257;
    for (double c :
         {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
          -0.0076224613, 0.00943887047, 1.00167406, 2.83297682})
      p = c + p * w;
    x = p * y;
  }
  const double twoOverSqrtPi = 1.1283791670955126;
  for (int step = 0; step < 2; ++step)
    x -= (std::erf(x) - y) / (twoOverSqrtPi * std::exp(-x * x));
  return x;
}

template <typename T>
void floatUnary(UnaryFn fn, uint8_t *d, const uint8_t *a, int64_t count) {
#define MTIA_UNARY_CASE(id, expr)                                              \
  case UnaryFn::id:                                                            \
    return unaryLoop<T>(d, a, count, [](T x) { return T(expr); });
  switch (fn) {
    MTIA_UNARY_CASE(Neg, -x)
    MTIA_UNARY_CASE(Abs, std::fabs(x))
    MTIA_UNARY_CASE(Floor, std::floor(x))
    MTIA_UNARY_CASE(Ceil, std::ceil(x))
    MTIA_UNARY_CASE(Trunc, std::trunc(x))
    MTIA_UNARY_CASE(Round, std::round(x))
    MTIA_UNARY_CASE(Rint, std::nearbyint(x))
    MTIA_UNARY_CASE(Sqrt, std::sqrt(x))
    MTIA_UNARY_CASE(Rsqrt, T(1) / std::sqrt(x))
    MTIA_UNARY_CASE(Exp, std::exp(x))
    MTIA_UNARY_CASE(Exp2, std::exp2(x))
    MTIA_UNARY_CASE(Expm1, std::expm1(x))
    MTIA_UNARY_CASE(Log, std::log(x))
    MTIA_UNARY_CASE(Log2, std::log2(x))
    MTIA_UNARY_CASE(Log10, std::log10(x))
    MTIA_UNARY_CASE(Log1p, std::log1p(x))
    MTIA_UNARY_CASE(Sin, std::sin(x))
    MTIA_UNARY_CASE(Cos, std::cos(x))
    MTIA_UNARY_CASE(Tan, std::tan(x))
    MTIA_UNARY_CASE(Asin, std::asin(x))
    MTIA_UNARY_CASE(Acos, std::acos(x))
    MTIA_UNARY_CASE(Atan, std::atan(x))
    MTIA_UNARY_CASE(Sinh, std::sinh(x))
    MTIA_UNARY_CASE(Cosh, std::cosh(x))
    MTIA_UNARY_CASE(Tanh, std::tanh(x))
    MTIA_UNARY_CASE(Asinh, std::asinh(x))
    MTIA_UNARY_CASE(Acosh, std::acosh(x))
    MTIA_UNARY_CASE(Atanh, std::atanh(x))
    MTIA_UNARY_CASE(Erf, std::erf(x))
    MTIA_UNARY_CASE(Erfc, std::erfc(x))
    MTIA_UNARY_CASE(Cbrt, std::cbrt(x))
    MTIA_UNARY_CASE(Sigmoid, T(1) / (T(1) + std::exp(-x)))
    MTIA_UNARY_CASE(Erfinv, inverseErf(double(x)))
  default:
    return;
  }
#undef MTIA_UNARY_CASE
}

template <typename T>
void intUnary(UnaryFn fn, uint8_t *d, const uint8_t *a, int64_t count) {
  using U = std::make_unsigned_t<T>;
  switch (fn) {
  case UnaryFn::Neg:
    return unaryLoop<T>(d, a, count, [](T x) { return T(U(0) - U(x)); });
  case UnaryFn::Abs:
    return unaryLoop<T>(d, a, count,
                        [](T x) { return x < 0 ? T(U(0) - U(x)) : x; });
  case UnaryFn::Not:
    return unaryLoop<T>(d, a, count, [](T x) { return T(~x); });
  case UnaryFn::Popcount:
    return unaryLoop<T>(d, a, count, [](T x) {
      return T(__builtin_popcountll(static_cast<unsigned long long>(U(x))));
    });
  default:
    return;
  }
}

/// Masks i1 results back to 0/1 after byte-wide integer arithmetic.
void normalizeBool(DType type, uint8_t *d, int64_t count) {
  if (type != DType::I1)
    return;
  for (int64_t i = 0; i < count; ++i)
    d[i] &= 1;
}

} // namespace

bool mtia::binaryFnSupports(BinaryFn fn, DType type) {
  bool floatOnly = fn == BinaryFn::MinNum || fn == BinaryFn::MaxNum ||
                   fn == BinaryFn::Pow || fn == BinaryFn::Atan2 ||
                   fn == BinaryFn::CopySign;
  bool intOnly = fn >= BinaryFn::And;
  return isFloat(type) ? !intOnly : !floatOnly;
}

bool mtia::unaryFnSupports(UnaryFn fn, DType type) {
  if (isFloat(type))
    return fn != UnaryFn::Not && fn != UnaryFn::Popcount;
  return fn == UnaryFn::Neg || fn == UnaryFn::Abs || fn == UnaryFn::Not ||
         fn == UnaryFn::Popcount;
}

bool mtia::reduceFnSupports(ReduceFn fn, DType type) {
  if (isFloat(type))
    return fn != ReduceFn::RMaxU && fn != ReduceFn::RMinU &&
           fn != ReduceFn::RAnd && fn != ReduceFn::ROr && fn != ReduceFn::RXor;
  return fn != ReduceFn::RMaxNum && fn != ReduceFn::RMinNum;
}

bool mtia::isTranscendental(UnaryFn fn) { return fn >= UnaryFn::Sqrt; }

void mtia::simdBinary(BinaryFn fn, DType type, uint8_t *d, const uint8_t *a,
                      const uint8_t *b, int64_t count) {
  if (type == DType::F32)
    return floatBinary<float>(fn, d, a, b, count);
  if (type == DType::F64)
    return floatBinary<double>(fn, d, a, b, count);
  if (isFloat(type))
    return viaFloat(type, d, {a, b}, count,
                    [&](uint8_t *out, const uint8_t *const *in) {
                      floatBinary<float>(fn, out, in[0], in[1], count);
                    });
  dispatchInt(type,
              [&](auto tag) { intBinary<decltype(tag)>(fn, d, a, b, count); });
  normalizeBool(type, d, count);
}

void mtia::simdUnary(UnaryFn fn, DType type, uint8_t *d, const uint8_t *a,
                     int64_t count) {
  if (type == DType::F32)
    return floatUnary<float>(fn, d, a, count);
  if (type == DType::F64)
    return floatUnary<double>(fn, d, a, count);
  if (isFloat(type))
    return viaFloat(type, d, {a}, count,
                    [&](uint8_t *out, const uint8_t *const *in) {
                      floatUnary<float>(fn, out, in[0], count);
                    });
  dispatchInt(type,
              [&](auto tag) { intUnary<decltype(tag)>(fn, d, a, count); });
  normalizeBool(type, d, count);
}

namespace {

template <typename T>
void compareFloat(Pred pred, uint8_t *d, const uint8_t *a, const uint8_t *b,
                  int64_t count) {
  const T *x = reinterpret_cast<const T *>(a);
  const T *y = reinterpret_cast<const T *>(b);
#define MTIA_CMP_CASE(id, expr)                                                \
  case Pred::id:                                                               \
    for (int64_t i = 0; i < count; ++i) {                                      \
      T p = x[i], q = y[i];                                                    \
      bool unordered = std::isnan(p) || std::isnan(q);                         \
      (void)unordered;                                                         \
      d[i] = (expr) ? 1 : 0;                                                   \
    }                                                                          \
    return;
  switch (pred) {
    MTIA_CMP_CASE(Oeq, p == q)
    MTIA_CMP_CASE(One, !unordered && p != q)
    MTIA_CMP_CASE(Olt, p < q)
    MTIA_CMP_CASE(Ole, p <= q)
    MTIA_CMP_CASE(Ogt, p > q)
    MTIA_CMP_CASE(Oge, p >= q)
    MTIA_CMP_CASE(Ord, !unordered)
    MTIA_CMP_CASE(Ueq, unordered || p == q)
    MTIA_CMP_CASE(Une, p != q)
    MTIA_CMP_CASE(FUlt, unordered || p < q)
    MTIA_CMP_CASE(FUle, unordered || p <= q)
    MTIA_CMP_CASE(FUgt, unordered || p > q)
    MTIA_CMP_CASE(FUge, unordered || p >= q)
    MTIA_CMP_CASE(Uno, unordered)
  default:
    return;
  }
#undef MTIA_CMP_CASE
}

template <typename T>
void compareInt(Pred pred, uint8_t *d, const uint8_t *a, const uint8_t *b,
                int64_t count) {
  using U = std::make_unsigned_t<T>;
  const T *x = reinterpret_cast<const T *>(a);
  const T *y = reinterpret_cast<const T *>(b);
#define MTIA_CMP_CASE(id, expr)                                                \
  case Pred::id:                                                               \
    for (int64_t i = 0; i < count; ++i) {                                      \
      T p = x[i], q = y[i];                                                    \
      d[i] = (expr) ? 1 : 0;                                                   \
    }                                                                          \
    return;
  switch (pred) {
    MTIA_CMP_CASE(Eq, p == q)
    MTIA_CMP_CASE(Ne, p != q)
    MTIA_CMP_CASE(Slt, p < q)
    MTIA_CMP_CASE(Sle, p <= q)
    MTIA_CMP_CASE(Sgt, p > q)
    MTIA_CMP_CASE(Sge, p >= q)
    MTIA_CMP_CASE(Ult, U(p) < U(q))
    MTIA_CMP_CASE(Ule, U(p) <= U(q))
    MTIA_CMP_CASE(Ugt, U(p) > U(q))
    MTIA_CMP_CASE(Uge, U(p) >= U(q))
  default:
    return;
  }
#undef MTIA_CMP_CASE
}

} // namespace

void mtia::simdCompare(Pred pred, DType type, uint8_t *d, const uint8_t *a,
                       const uint8_t *b, int64_t count) {
  if (type == DType::F64)
    return compareFloat<double>(pred, d, a, b, count);
  if (isFloat(type)) {
    if (type == DType::F32)
      return compareFloat<float>(pred, d, a, b, count);
    std::vector<float> &x = scratch(0), &y = scratch(1);
    x.resize(count);
    y.resize(count);
    convertElements(type, DType::F32, a, reinterpret_cast<uint8_t *>(x.data()),
                    count, true);
    convertElements(type, DType::F32, b, reinterpret_cast<uint8_t *>(y.data()),
                    count, true);
    return compareFloat<float>(
        pred, d, reinterpret_cast<const uint8_t *>(x.data()),
        reinterpret_cast<const uint8_t *>(y.data()), count);
  }
  if (type == DType::I1) {
    // i1 compares as a 1-bit value: unsigned 0/1, signed 0/-1.
    for (int64_t i = 0; i < count; ++i) {
      int8_t p = static_cast<int8_t>(-(a[i] & 1));
      int8_t q = static_cast<int8_t>(-(b[i] & 1));
      compareInt<int8_t>(pred, d + i, reinterpret_cast<const uint8_t *>(&p),
                         reinterpret_cast<const uint8_t *>(&q), 1);
    }
    return;
  }
  dispatchInt(
      type, [&](auto tag) { compareInt<decltype(tag)>(pred, d, a, b, count); });
}

void mtia::simdSelect(DType type, uint8_t *d, const uint8_t *c,
                      const uint8_t *a, const uint8_t *b, int64_t count) {
  switch (dtypeSize(type)) {
  case 1:
    for (int64_t i = 0; i < count; ++i)
      d[i] = c[i] ? a[i] : b[i];
    return;
  case 2:
    for (int64_t i = 0; i < count; ++i)
      storeAt<uint16_t>(d, i, loadAt<uint16_t>(c[i] ? a : b, i));
    return;
  case 4:
    for (int64_t i = 0; i < count; ++i)
      storeAt<uint32_t>(d, i, loadAt<uint32_t>(c[i] ? a : b, i));
    return;
  default:
    for (int64_t i = 0; i < count; ++i)
      storeAt<uint64_t>(d, i, loadAt<uint64_t>(c[i] ? a : b, i));
    return;
  }
}

void mtia::simdFma(DType type, uint8_t *d, const uint8_t *a, const uint8_t *b,
                   const uint8_t *c, int64_t count) {
  if (type == DType::F64) {
    for (int64_t i = 0; i < count; ++i)
      storeAt<double>(d, i,
                      std::fma(loadAt<double>(a, i), loadAt<double>(b, i),
                               loadAt<double>(c, i)));
    return;
  }
  if (type == DType::F32) {
    for (int64_t i = 0; i < count; ++i)
      storeAt<float>(d, i,
                     std::fma(loadAt<float>(a, i), loadAt<float>(b, i),
                              loadAt<float>(c, i)));
    return;
  }
  // The f32 fma of widened narrow operands is exact before the final
  // rounding to the narrow type.
  viaFloat(type, d, {a, b, c}, count,
           [&](uint8_t *out, const uint8_t *const *in) {
             simdFma(DType::F32, out, in[0], in[1], in[2], count);
           });
}

void mtia::simdMatmulF64(uint8_t *c, const uint8_t *a, const uint8_t *b,
                         const uint8_t *acc, int64_t m, int64_t n, int64_t k) {
  for (int64_t i = 0; i < m * n; ++i)
    storeAt<double>(c, i, acc ? loadAt<double>(acc, i) : 0.0);
  for (int64_t p = 0; p < k; ++p)
    for (int64_t i = 0; i < m; ++i) {
      double scalar = loadAt<double>(a, i * k + p);
      // The simulator is built without contraction, so the product is
      // rounded before the sum, not fused into it.
      for (int64_t j = 0; j < n; ++j)
        storeAt<double>(c, i * n + j,
                        loadAt<double>(c, i * n + j) +
                            scalar * loadAt<double>(b, p * n + j));
    }
}
