//===- DType.cpp - Element types and exact conversions --------------------===//

#include "mtia/DType.h"

#include <array>
#include <cmath>
#include <cstring>
#include <immintrin.h>
#include <limits>
#include <vector>

using namespace mtia;

const SmallFloatFormat mtia::kF16Format = {5, 10, 15, SpecialEncoding::Ieee};
const SmallFloatFormat mtia::kBF16Format = {8, 7, 127, SpecialEncoding::Ieee};
const SmallFloatFormat mtia::kE4M3Format = {4, 3, 7,
                                            SpecialEncoding::NanAllOnes};
const SmallFloatFormat mtia::kE5M2Format = {5, 2, 15, SpecialEncoding::Ieee};
const SmallFloatFormat mtia::kE4M3FnuzFormat = {
    4, 3, 8, SpecialEncoding::NanNegativeZero};
const SmallFloatFormat mtia::kE5M2FnuzFormat = {
    5, 2, 16, SpecialEncoding::NanNegativeZero};

namespace {
struct DTypeInfo {
  const char *name;
  unsigned size;
  bool isFloat;
};

constexpr DTypeInfo kInfo[] = {
    {"i1", 1, false},        {"i8", 1, false},    {"i16", 2, false},
    {"i32", 4, false},       {"i64", 8, false},   {"f16", 2, true},
    {"bf16", 2, true},       {"f32", 4, true},    {"f64", 8, true},
    {"f8e4m3", 1, true},     {"f8e5m2", 1, true}, {"f8e4m3fnuz", 1, true},
    {"f8e5m2fnuz", 1, true},
};
static_assert(sizeof(kInfo) / sizeof(kInfo[0]) == kNumDTypes,
              "one entry per element type");
} // namespace

bool mtia::parseDType(const std::string &name, DType &type) {
  for (unsigned i = 0; i < sizeof(kInfo) / sizeof(kInfo[0]); ++i) {
    if (name == kInfo[i].name) {
      type = static_cast<DType>(i);
      return true;
    }
  }
  return false;
}

const char *mtia::dtypeName(DType type) {
  return kInfo[static_cast<int>(type)].name;
}
unsigned mtia::dtypeSize(DType type) {
  return kInfo[static_cast<int>(type)].size;
}
bool mtia::isFloat(DType type) { return kInfo[static_cast<int>(type)].isFloat; }

DType mtia::integerOfSize(unsigned bytes) {
  switch (bytes) {
  case 1:
    return DType::I8;
  case 2:
    return DType::I16;
  case 4:
    return DType::I32;
  default:
    return DType::I64;
  }
}

uint32_t mtia::encodeSmallFloat(double value, const SmallFloatFormat &format) {
  const int m = format.mantissaBits;
  const bool negativeZeroIsNan =
      format.special == SpecialEncoding::NanNegativeZero;
  const uint32_t signMask = 1u << (format.exponentBits + m);
  const uint32_t signBit = std::signbit(value) ? signMask : 0u;
  const uint32_t maxExponentField = (1u << format.exponentBits) - 1;
  const uint32_t mantissaMask = (1u << m) - 1;
  // The largest finite magnitude, the NaN and what an overflow becomes: IEEE
  // formats reserve the top exponent field and overflow to infinity; e4m3fn
  // reserves only the all-ones magnitude; the fnuz formats reserve no
  // magnitude at all (their NaN is the negative-zero pattern).
  uint32_t maxFinite, nanBits, overflowBits;
  switch (format.special) {
  case SpecialEncoding::Ieee:
    maxFinite = ((maxExponentField - 1) << m) | mantissaMask;
    nanBits = (maxExponentField << m) | (1u << (m - 1));
    overflowBits = maxExponentField << m;
    break;
  case SpecialEncoding::NanAllOnes:
    maxFinite = (maxExponentField << m) | (mantissaMask - 1);
    nanBits = (maxExponentField << m) | mantissaMask;
    overflowBits = maxFinite;
    break;
  case SpecialEncoding::NanNegativeZero:
    maxFinite = (maxExponentField << m) | mantissaMask;
    nanBits = signMask;
    overflowBits = maxFinite;
    break;
  }
  if (std::isnan(value))
    return signBit | nanBits;
  double magnitude = std::fabs(value);
  if (std::isinf(magnitude))
    return signBit | overflowBits;
  // A format without negative zero has only +0, also for what rounds to it.
  if (magnitude == 0)
    return negativeZeroIsNan ? 0 : signBit;
  const int minExponent = 1 - format.bias;
  int exponent;
  std::frexp(magnitude, &exponent);
  exponent = std::max(exponent - 1, minExponent);
  // Scale so that one unit in the last place is 1; the division by a power
  // of two is exact and nearbyint rounds ties to even.
  double scaled = std::ldexp(magnitude, m - exponent);
  double rounded = std::nearbyint(scaled);
  if (rounded >= std::ldexp(1.0, m + 1)) {
    rounded /= 2;
    exponent += 1;
  }
  uint32_t bits;
  if (rounded < std::ldexp(1.0, m)) {
    bits = static_cast<uint32_t>(rounded); // Subnormal (or zero).
  } else {
    int64_t field = exponent + format.bias;
    uint32_t mantissa = static_cast<uint32_t>(rounded) - (1u << m);
    if (field > static_cast<int64_t>(maxExponentField))
      bits = ~0u;
    else
      bits = (static_cast<uint32_t>(field) << m) | mantissa;
  }
  if (bits > maxFinite)
    return signBit | overflowBits;
  if (bits == 0 && negativeZeroIsNan)
    return 0;
  return signBit | bits;
}

double mtia::decodeSmallFloat(uint32_t bits, const SmallFloatFormat &format) {
  const int m = format.mantissaBits;
  const uint32_t maxExponentField = (1u << format.exponentBits) - 1;
  const uint32_t mantissaMask = (1u << m) - 1;
  const uint32_t signMask = 1u << (format.exponentBits + m);
  bool negative = bits & signMask;
  uint32_t field = (bits >> m) & maxExponentField;
  uint32_t mantissa = bits & mantissaMask;
  bool isNan = false;
  bool isInf = false;
  switch (format.special) {
  case SpecialEncoding::Ieee:
    isNan = field == maxExponentField && mantissa != 0;
    isInf = field == maxExponentField && mantissa == 0;
    break;
  case SpecialEncoding::NanAllOnes:
    isNan = field == maxExponentField && mantissa == mantissaMask;
    break;
  case SpecialEncoding::NanNegativeZero:
    // The NaN's sign bit is no sign: it decodes to a positive NaN.
    isNan = bits == signMask;
    negative = negative && !isNan;
    break;
  }
  double magnitude;
  if (isNan)
    magnitude = std::numeric_limits<double>::quiet_NaN();
  else if (isInf)
    magnitude = std::numeric_limits<double>::infinity();
  else if (field == 0)
    magnitude = std::ldexp(static_cast<double>(mantissa), 1 - format.bias - m);
  else
    magnitude = std::ldexp(static_cast<double>(mantissa | (1u << m)),
                           static_cast<int>(field) - format.bias - m);
  return negative ? -magnitude : magnitude;
}

namespace {

/// Every value of a format of `Count` encodings, decoded once: the units
/// decode f16 and fp8 elements in their inner loops, and a table lookup
/// gives the same value as `decodeSmallFloat` (each is exact in a float).
template <size_t Count> class DecodeTable {
public:
  explicit DecodeTable(const SmallFloatFormat &format) {
    for (size_t bits = 0; bits < Count; ++bits)
      values[bits] = static_cast<float>(
          decodeSmallFloat(static_cast<uint32_t>(bits), format));
  }
  float operator[](uint32_t bits) const { return values[bits]; }

private:
  std::array<float, Count> values;
};

const DecodeTable<65536> &f16Table() {
  static const DecodeTable<65536> table(kF16Format);
  return table;
}

/// The encodings in every float type of the 256 values of each fp8 type, as
/// the element-by-element conversion gives them: an fp8 source has so few
/// values that a lookup per element beats decoding and encoding it.
class Fp8ConversionTables {
public:
  Fp8ConversionTables() {
    for (unsigned from = 0; from < kNumDTypes; ++from)
      for (unsigned to = 0; to < kNumDTypes; ++to) {
        const DType source = static_cast<DType>(from);
        const DType target = static_cast<DType>(to);
        if (!isFp8(source) || !isFloat(target))
          continue;
        std::vector<uint8_t> &table = tables[from * kNumDTypes + to];
        table.resize(256 * dtypeSize(target));
        for (unsigned bits = 0; bits < 256; ++bits) {
          const uint8_t encoding = static_cast<uint8_t>(bits);
          storeFloat(target, table.data() + bits * dtypeSize(target),
                     loadFloat(source, &encoding));
        }
      }
  }

  /// The table of `from` (an fp8 type) to `to` (a float type).
  const uint8_t *of(DType from, DType to) const {
    return tables[static_cast<unsigned>(from) * kNumDTypes +
                  static_cast<unsigned>(to)]
        .data();
  }

private:
  std::array<std::vector<uint8_t>, kNumDTypes * kNumDTypes> tables;
};

/// `wide` with its NaNs made the quiet NaN of their sign.
__attribute__((target("avx2"))) inline __m256d canonicalNaNs(__m256d wide) {
  const __m256d isNaN = _mm256_cmp_pd(wide, wide, _CMP_UNORD_Q);
  const __m256d signedNaN =
      _mm256_or_pd(_mm256_set1_pd(std::numeric_limits<double>::quiet_NaN()),
                   _mm256_and_pd(wide, _mm256_set1_pd(-0.0)));
  return _mm256_blendv_pd(wide, signedNaN, isNaN);
}

/// Widens `count` f16 values at `src` to f64 at `dst` with the processor's
/// conversion instructions (F16C), eight at a time, and the rest through
/// the table. Every f16 is exact in f32 and f64, so the values are the
/// table's; NaNs, whose payload the instructions keep, are made the table's
/// quiet NaN of the same sign.
__attribute__((target("avx2,f16c"))) void
widenF16WithF16C(const uint8_t *src, uint8_t *dst, int64_t count) {
  int64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    __m128i halves;
    std::memcpy(&halves, src + 2 * i, sizeof(halves));
    const __m256 floats = _mm256_cvtph_ps(halves);
    const __m256d low = _mm256_cvtps_pd(_mm256_castps256_ps128(floats));
    const __m256d high = _mm256_cvtps_pd(_mm256_extractf128_ps(floats, 1));
    _mm256_storeu_pd(reinterpret_cast<double *>(dst + 8 * i), canonicalNaNs(low));
    _mm256_storeu_pd(reinterpret_cast<double *>(dst + 8 * i + 32),
                     canonicalNaNs(high));
  }
  const DecodeTable<65536> &table = f16Table();
  for (; i < count; ++i) {
    uint16_t bits;
    std::memcpy(&bits, src + 2 * i, sizeof(bits));
    const double value = table[bits];
    std::memcpy(dst + 8 * i, &value, sizeof(value));
  }
}

/// The decoded values of the fp8 format `type`.
const DecodeTable<256> &fp8Table(DType type) {
  static const DecodeTable<256> e4m3(kE4M3Format), e5m2(kE5M2Format),
      e4m3fnuz(kE4M3FnuzFormat), e5m2fnuz(kE5M2FnuzFormat);
  switch (type) {
  case DType::F8E4M3:
    return e4m3;
  case DType::F8E5M2:
    return e5m2;
  case DType::F8E4M3FNUZ:
    return e4m3fnuz;
  default:
    return e5m2fnuz;
  }
}

} // namespace

float mtia::f16ToFloat(uint16_t bits) { return f16Table()[bits]; }

uint16_t mtia::floatToF16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  const auto sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u)
    return sign | 0x7e00u; // NaN, as encodeSmallFloat makes it.
  // 65520, halfway between the largest finite f16 (65504) and 2^16, and
  // above round to infinity (the tie goes to the even 2^16).
  if (magnitude >= 0x477ff000u)
    return sign | 0x7c00u;
  if (magnitude < 0x38800000u) {
    // Below 2^-14 the result is subnormal: a multiple of 2^-24, rounded to
    // the nearest, ties to even (scaling by a power of two is exact).
    const float scaled = std::fabs(value) * 16777216.0f;
    return sign | static_cast<uint16_t>(std::nearbyint(scaled));
  }
  // Rebias the exponent (127 -> 15) and round the 13 dropped mantissa bits
  // to nearest even; a carry moves into the exponent as it should.
  const uint32_t rebiased = magnitude - (112u << 23);
  return sign | static_cast<uint16_t>(
                    (rebiased + 0xfffu + ((rebiased >> 13) & 1u)) >> 13);
}

double mtia::loadFloat(DType type, const uint8_t *ptr) {
  switch (type) {
  case DType::F16: {
    uint16_t bits;
    std::memcpy(&bits, ptr, 2);
    return f16ToFloat(bits);
  }
  case DType::BF16: {
    uint16_t bits;
    std::memcpy(&bits, ptr, 2);
    return bf16ToFloat(bits);
  }
  case DType::F32: {
    float value;
    std::memcpy(&value, ptr, 4);
    return value;
  }
  case DType::F64: {
    double value;
    std::memcpy(&value, ptr, 8);
    return value;
  }
  case DType::F8E4M3:
  case DType::F8E5M2:
  case DType::F8E4M3FNUZ:
  case DType::F8E5M2FNUZ:
    return fp8Table(type)[*ptr];
  default:
    return static_cast<double>(loadInt(type, ptr));
  }
}

void mtia::storeFloat(DType type, uint8_t *ptr, double value) {
  switch (type) {
  case DType::F16: {
    uint16_t bits = static_cast<uint16_t>(encodeSmallFloat(value, kF16Format));
    std::memcpy(ptr, &bits, 2);
    return;
  }
  case DType::BF16: {
    uint16_t bits = static_cast<uint16_t>(encodeSmallFloat(value, kBF16Format));
    std::memcpy(ptr, &bits, 2);
    return;
  }
  case DType::F32: {
    float narrow = static_cast<float>(value);
    std::memcpy(ptr, &narrow, 4);
    return;
  }
  case DType::F64:
    std::memcpy(ptr, &value, 8);
    return;
  case DType::F8E4M3:
    *ptr = static_cast<uint8_t>(encodeSmallFloat(value, kE4M3Format));
    return;
  case DType::F8E5M2:
    *ptr = static_cast<uint8_t>(encodeSmallFloat(value, kE5M2Format));
    return;
  case DType::F8E4M3FNUZ:
    *ptr = static_cast<uint8_t>(encodeSmallFloat(value, kE4M3FnuzFormat));
    return;
  case DType::F8E5M2FNUZ:
    *ptr = static_cast<uint8_t>(encodeSmallFloat(value, kE5M2FnuzFormat));
    return;
  default:
    storeInt(type, ptr, static_cast<int64_t>(value));
    return;
  }
}

int64_t mtia::loadInt(DType type, const uint8_t *ptr, bool isSigned) {
  switch (type) {
  case DType::I1:
    return *ptr & 1;
  case DType::I8:
    return isSigned ? static_cast<int64_t>(static_cast<int8_t>(*ptr))
                    : static_cast<int64_t>(*ptr);
  case DType::I16: {
    uint16_t bits;
    std::memcpy(&bits, ptr, 2);
    return isSigned ? static_cast<int64_t>(static_cast<int16_t>(bits))
                    : static_cast<int64_t>(bits);
  }
  case DType::I32: {
    uint32_t bits;
    std::memcpy(&bits, ptr, 4);
    return isSigned ? static_cast<int64_t>(static_cast<int32_t>(bits))
                    : static_cast<int64_t>(bits);
  }
  case DType::I64: {
    int64_t value;
    std::memcpy(&value, ptr, 8);
    return value;
  }
  default:
    return static_cast<int64_t>(loadFloat(type, ptr));
  }
}

void mtia::storeInt(DType type, uint8_t *ptr, int64_t value) {
  switch (type) {
  case DType::I1:
    *ptr = static_cast<uint8_t>(value & 1);
    return;
  case DType::I8:
    *ptr = static_cast<uint8_t>(value);
    return;
  case DType::I16: {
    uint16_t bits = static_cast<uint16_t>(value);
    std::memcpy(ptr, &bits, 2);
    return;
  }
  case DType::I32: {
    uint32_t bits = static_cast<uint32_t>(value);
    std::memcpy(ptr, &bits, 4);
    return;
  }
  case DType::I64:
    std::memcpy(ptr, &value, 8);
    return;
  default:
    storeFloat(type, ptr, static_cast<double>(value));
    return;
  }
}

namespace {

/// Float to integer of `bits` width: truncation toward zero, saturating at
/// the destination's range, NaN to zero.
int64_t saturatingFloatToInt(double value, unsigned bits, bool isSigned) {
  if (std::isnan(value))
    return 0;
  double truncated = std::trunc(value);
  if (isSigned) {
    double lo = -std::ldexp(1.0, bits - 1);
    double hi = std::ldexp(1.0, bits - 1);
    if (truncated <= lo)
      return bits == 64 ? std::numeric_limits<int64_t>::min()
                        : -(int64_t(1) << (bits - 1));
    if (truncated >= hi)
      return bits == 64 ? std::numeric_limits<int64_t>::max()
                        : (int64_t(1) << (bits - 1)) - 1;
    return static_cast<int64_t>(truncated);
  }
  if (truncated <= 0)
    return 0;
  if (truncated >= std::ldexp(1.0, bits))
    return bits == 64 ? -1 : static_cast<int64_t>((uint64_t(1) << bits) - 1);
  return static_cast<int64_t>(static_cast<uint64_t>(truncated));
}

/// The magnitude rounded to 53 significant bits with rounding to odd: bits
/// shifted out set the last kept bit. The result is exact in a double, and
/// rounding it to a format of at most 51 significant bits gives the
/// correctly rounded magnitude (no double rounding).
double roundToOddDouble(uint64_t magnitude) {
  int shift = 0;
  while ((magnitude >> shift) >= (uint64_t(1) << 53))
    ++shift;
  uint64_t kept = magnitude >> shift;
  if ((kept << shift) != magnitude)
    kept |= 1;
  return std::ldexp(static_cast<double>(kept), shift);
}

/// Integer to float with a single rounding: directly for f32 and f64 (exact
/// RNE from the integer), through a rounded-to-odd double for the narrower
/// formats.
void storeIntAsFloat(DType to, uint8_t *dst, int64_t value, bool isSigned) {
  if (to == DType::F32) {
    float narrow = isSigned ? static_cast<float>(value)
                            : static_cast<float>(static_cast<uint64_t>(value));
    std::memcpy(dst, &narrow, 4);
    return;
  }
  if (to == DType::F64) {
    double wide = isSigned ? static_cast<double>(value)
                           : static_cast<double>(static_cast<uint64_t>(value));
    std::memcpy(dst, &wide, 8);
    return;
  }
  const bool negative = isSigned && value < 0;
  const uint64_t magnitude = negative
                                 ? uint64_t(0) - static_cast<uint64_t>(value)
                                 : static_cast<uint64_t>(value);
  const double odd = roundToOddDouble(magnitude);
  storeFloat(to, dst, negative ? -odd : odd);
}

/// Converts `count` elements of type `Src` at `src` to `Dst` at `dst`
/// through `convert`.
template <typename Src, typename Dst, typename Convert>
void convertEach(const uint8_t *src, uint8_t *dst, int64_t count,
                 Convert convert) {
  for (int64_t i = 0; i < count; ++i) {
    Src value;
    std::memcpy(&value, src + sizeof(Src) * i, sizeof(Src));
    Dst result = convert(value);
    std::memcpy(dst + sizeof(Dst) * i, &result, sizeof(Dst));
  }
}

} // namespace

void mtia::convertElements(DType from, DType to, const uint8_t *src,
                           uint8_t *dst, int64_t count, bool isSigned) {
  const unsigned fromSize = dtypeSize(from);
  const unsigned toSize = dtypeSize(to);
  // The common hot conversions get dedicated loops.
  if (from == DType::F32 && to == DType::BF16)
    return convertEach<float, uint16_t>(src, dst, count, floatToBF16);
  if (from == DType::BF16 && to == DType::F32)
    return convertEach<uint16_t, float>(src, dst, count, bf16ToFloat);
  if (from == DType::F16 && to == DType::F32) {
    // The table is looked up once: a call of f16ToFloat per element costs
    // more than the conversion itself.
    const DecodeTable<65536> &table = f16Table();
    return convertEach<uint16_t, float>(
        src, dst, count, [&table](uint16_t bits) { return table[bits]; });
  }
  if (from == DType::F32 && to == DType::F16)
    return convertEach<float, uint16_t>(src, dst, count, floatToF16);
  // The widenings of the DPE's operands: i8 to i32, the floats to f64.
  if (from == DType::I8 && to == DType::I32 && isSigned)
    return convertEach<int8_t, int32_t>(src, dst, count,
                                        [](int8_t value) { return value; });
  if (from == DType::F16 && to == DType::F64) {
    if (__builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx2"))
      return widenF16WithF16C(src, dst, count);
    const DecodeTable<65536> &table = f16Table();
    return convertEach<uint16_t, double>(
        src, dst, count, [&table](uint16_t bits) { return table[bits]; });
  }
  if (from == DType::BF16 && to == DType::F64)
    return convertEach<uint16_t, double>(src, dst, count, bf16ToFloat);
  if (from == DType::F32 && to == DType::F64)
    return convertEach<float, double>(src, dst, count,
                                      [](float value) { return value; });
  if (isFp8(from) && isFloat(to)) {
    static const Fp8ConversionTables conversions;
    const uint8_t *table = conversions.of(from, to);
    for (int64_t i = 0; i < count; ++i)
      std::memcpy(dst + toSize * i, table + toSize * src[i], toSize);
    return;
  }
  if (isFloat(from) && isFloat(to)) {
    for (int64_t i = 0; i < count; ++i)
      storeFloat(to, dst + toSize * i, loadFloat(from, src + fromSize * i));
    return;
  }
  if (isInteger(from) && isInteger(to)) {
    for (int64_t i = 0; i < count; ++i)
      storeInt(to, dst + toSize * i,
               loadInt(from, src + fromSize * i, isSigned));
    return;
  }
  if (isInteger(from)) {
    for (int64_t i = 0; i < count; ++i)
      storeIntAsFloat(to, dst + toSize * i,
                      loadInt(from, src + fromSize * i, isSigned), isSigned);
    return;
  }
  unsigned bits = to == DType::I1 ? 1 : 8 * toSize;
  for (int64_t i = 0; i < count; ++i) {
    int64_t value = saturatingFloatToInt(loadFloat(from, src + fromSize * i),
                                         bits, isSigned);
    storeInt(to, dst + toSize * i, value);
  }
}

void mtia::fillElements(DType type, uint8_t *dst, int64_t count,
                        double floatValue, int64_t intValue) {
  const unsigned size = dtypeSize(type);
  uint8_t pattern[8];
  if (isFloat(type))
    storeFloat(type, pattern, floatValue);
  else
    storeInt(type, pattern, intValue);
  if (size == 1) {
    std::memset(dst, pattern[0], count);
    return;
  }
  for (int64_t i = 0; i < count; ++i)
    std::memcpy(dst + size * i, pattern, size);
}
