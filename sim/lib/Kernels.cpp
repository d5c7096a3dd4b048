//===- Kernels.cpp - Tile-granular numeric kernels ------------------------===//

#include "Kernels.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

using namespace mtia;

namespace {

template <typename T> T loadAt(const uint8_t *base, int64_t i) {
  T value;
  std::memcpy(&value, base + sizeof(T) * i, sizeof(T));
  return value;
}

template <typename T> void storeAt(uint8_t *base, int64_t i, T value) {
  std::memcpy(base + sizeof(T) * i, &value, sizeof(T));
}

/// Scratch buffers of widened f32 values, reused across calls.
std::vector<float> &scratch(int which) {
  thread_local std::vector<float> buffers[4];
  return buffers[which];
}

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
    for (double c : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                     0.00021858087, -0.00125372503, -0.00417768164,
                     0.246640727, 1.50140941})
      p = c + p * w;
    x = p * y;
  } else {
    w = std::sqrt(w) - 3;
    double p = -0.000200214257;
    for (double c : {0.000100950558, 0.00134934322, -0.00367342844,
                     0.00573950773, -0.0076224613, 0.00943887047,
                     1.00167406, 2.83297682})
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

/// Runs `body.template operator()<T>()` with T the storage type of an
/// integer dtype (i1 is stored in a byte).
template <typename Body> void dispatchInt(DType type, Body &&body) {
  switch (type) {
  case DType::I1:
  case DType::I8:
    return body(int8_t());
  case DType::I16:
    return body(int16_t());
  case DType::I32:
    return body(int32_t());
  default:
    return body(int64_t());
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
  dispatchInt(type, [&](auto tag) {
    intBinary<decltype(tag)>(fn, d, a, b, count);
  });
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
    return compareFloat<float>(pred, d,
                               reinterpret_cast<const uint8_t *>(x.data()),
                               reinterpret_cast<const uint8_t *>(y.data()),
                               count);
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
  dispatchInt(type, [&](auto tag) {
    compareInt<decltype(tag)>(pred, d, a, b, count);
  });
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

//===----------------------------------------------------------------------===//
// DPE
//===----------------------------------------------------------------------===//

namespace {

typedef float Vec8 __attribute__((vector_size(32)));

inline Vec8 loadVec(const float *p) {
  Vec8 v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

inline void storeVec(float *p, Vec8 v) { std::memcpy(p, &v, sizeof(v)); }

/// C += A * B on f32 (C m x n, A m x k, B k x n). Every C element adds its
/// products in increasing k with separate multiply and add roundings, so the
/// result does not depend on which clone runs.
__attribute__((target_clones("avx2", "default"))) void
gemmF32(float *c, const float *a, const float *b, int64_t m, int64_t n,
        int64_t k) {
  int64_t i = 0;
  for (; i + 4 <= m; i += 4) {
    int64_t j = 0;
    for (; j + 16 <= n; j += 16) {
      Vec8 acc[4][2];
      for (int r = 0; r < 4; ++r) {
        acc[r][0] = loadVec(c + (i + r) * n + j);
        acc[r][1] = loadVec(c + (i + r) * n + j + 8);
      }
      for (int64_t p = 0; p < k; ++p) {
        Vec8 b0 = loadVec(b + p * n + j);
        Vec8 b1 = loadVec(b + p * n + j + 8);
        for (int r = 0; r < 4; ++r) {
          float scalar = a[(i + r) * k + p];
          Vec8 product0 = b0 * scalar;
          Vec8 product1 = b1 * scalar;
          acc[r][0] += product0;
          acc[r][1] += product1;
        }
      }
      for (int r = 0; r < 4; ++r) {
        storeVec(c + (i + r) * n + j, acc[r][0]);
        storeVec(c + (i + r) * n + j + 8, acc[r][1]);
      }
    }
    for (int r = 0; r < 4; ++r)
      for (int64_t p = 0; p < k; ++p) {
        float scalar = a[(i + r) * k + p];
        for (int64_t jj = j; jj < n; ++jj) {
          float product = scalar * b[p * n + jj];
          c[(i + r) * n + jj] += product;
        }
      }
  }
  for (; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      float scalar = a[i * k + p];
      for (int64_t jj = 0; jj < n; ++jj) {
        float product = scalar * b[p * n + jj];
        c[i * n + jj] += product;
      }
    }
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
                     const uint8_t *b, const uint8_t *acc, int64_t m,
                     int64_t n, int64_t k) {
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
  std::vector<float> &wideA = scratch(0), &wideB = scratch(1),
                     &out = scratch(2);
  wideA.resize(m * k);
  wideB.resize(k * n);
  out.resize(m * n);
  convertElements(inType, DType::F32, a,
                  reinterpret_cast<uint8_t *>(wideA.data()), m * k, true);
  convertElements(inType, DType::F32, b,
                  reinterpret_cast<uint8_t *>(wideB.data()), k * n, true);
  std::memcpy(out.data(), c, outBytes);
  gemmF32(out.data(), wideA.data(), wideB.data(), m, n, k);
  std::memcpy(c, out.data(), outBytes);
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

void mtia::reduceTile(ReduceFn fn, DType type, const uint8_t *src,
                      uint8_t *dst, uint8_t *index, int64_t outer,
                      int64_t length, int64_t inner) {
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
                       reinterpret_cast<uint8_t *>(result.data()), index,
                       outer, length, inner);
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

int64_t mtia::histogramTile(DType type, bool isSigned, const uint8_t *src,
                            const uint8_t *mask, uint8_t *counts,
                            int64_t count, int64_t bins) {
  std::memset(counts, 0, bins * 4);
  const unsigned esize = dtypeSize(type);
  for (int64_t i = 0; i < count; ++i) {
    if (mask && !mask[i])
      continue;
    int64_t value = loadInt(type, src + i * esize, isSigned);
    if (value < 0 || value >= bins)
      return i;
    storeAt<int32_t>(counts, value, loadAt<int32_t>(counts, value) + 1);
  }
  return -1;
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
                    src + ((o * srcLength + position) * inner + i) *
                              elementBytes,
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
