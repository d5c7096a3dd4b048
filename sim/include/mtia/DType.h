//===- DType.h - Element types and exact conversions ------------*- C++ -*-===//
//
// The element types of tiles and global buffers, and the bit-exact
// conversions between them (IEEE round-to-nearest-even for every narrowing
// float conversion, including the fp8 formats).
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIM_DTYPE_H
#define MTIA_SIM_DTYPE_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

namespace mtia {

enum class DType : uint8_t {
  I1,
  I8,
  I16,
  I32,
  I64,
  F16,
  BF16,
  F32,
  F64,
  F8E4M3,
  F8E5M2,
  F8E4M3FNUZ,
  F8E5M2FNUZ,
};
/// The number of element types (the values of DType are 0 to kNumDTypes-1).
constexpr unsigned kNumDTypes = 13;

/// Parses a dtype name ("i1", "i8", ..., "f8e4m3", "f8e5m2", "f8e4m3fnuz",
/// "f8e5m2fnuz"). Returns false for an unknown name.
bool parseDType(const std::string &name, DType &type);
const char *dtypeName(DType type);
unsigned dtypeSize(DType type);
bool isFloat(DType type);
inline bool isInteger(DType type) { return !isFloat(type); }
/// Whether the type is one of the one-byte float formats.
inline bool isFp8(DType type) { return isFloat(type) && dtypeSize(type) == 1; }
/// The integer type of `bytes` bytes (1, 2, 4 or 8).
DType integerOfSize(unsigned bytes);

/// How a small float format encodes its special values.
enum class SpecialEncoding : uint8_t {
  /// IEEE 754: the top exponent field holds the infinities (zero mantissa)
  /// and the NaNs; overflow rounds to infinity (f16, bf16, e5m2).
  Ieee,
  /// No infinities; only the all-ones magnitude is NaN, so the top exponent
  /// field holds finite values otherwise (OCP e4m3fn).
  NanAllOnes,
  /// No infinities and no negative zero: the one NaN is the negative-zero
  /// pattern (0x80), every other code is finite, and a result that rounds
  /// to zero is +0 (the "fnuz" formats of MLIR and AMD's MI300).
  NanNegativeZero,
};

/// A small binary float format. Formats without infinities saturate: an
/// overflow or an infinity converts to the largest finite value of its sign
/// (like the hardware's "satfinite" conversions); NaN stays NaN.
struct SmallFloatFormat {
  int exponentBits;
  int mantissaBits;
  int bias;
  SpecialEncoding special;
};

extern const SmallFloatFormat kF16Format;
extern const SmallFloatFormat kBF16Format;
extern const SmallFloatFormat kE4M3Format;
extern const SmallFloatFormat kE5M2Format;
extern const SmallFloatFormat kE4M3FnuzFormat;
extern const SmallFloatFormat kE5M2FnuzFormat;

/// Rounds a double to the nearest representable value of the format (ties to
/// even) and returns its bit pattern.
uint32_t encodeSmallFloat(double value, const SmallFloatFormat &format);
/// Decodes a bit pattern of the format exactly.
double decodeSmallFloat(uint32_t bits, const SmallFloatFormat &format);

inline uint16_t floatToBF16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((bits >> 16) | 0x40u);
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>(bits >> 16);
}

inline float bf16ToFloat(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, 4);
  return value;
}

float f16ToFloat(uint16_t bits);

/// `value` rounded to f16 (nearest, ties to even; overflow to infinity), as
/// `encodeSmallFloat(value, kF16Format)` rounds it.
uint16_t floatToF16(float value);

/// Reads one element of any float type as a double (exact).
double loadFloat(DType type, const uint8_t *ptr);
/// Writes a double to an element of any float type with one rounding.
void storeFloat(DType type, uint8_t *ptr, double value);
/// Reads one element of an integer type, sign- or zero-extended.
int64_t loadInt(DType type, const uint8_t *ptr, bool isSigned = true);
/// Writes the low bits of an integer to an element of an integer type.
void storeInt(DType type, uint8_t *ptr, int64_t value);

/// Converts `count` elements between any two types. `isSigned` selects sign
/// or zero extension of an integer source and the signedness of an integer
/// destination of a float source. Float to integer saturates, NaN gives 0.
void convertElements(DType from, DType to, const uint8_t *src, uint8_t *dst,
                     int64_t count, bool isSigned);

/// Fills `count` elements with one value given as a double (for float types)
/// or an integer (for integer types).
void fillElements(DType type, uint8_t *dst, int64_t count, double floatValue,
                  int64_t intValue);

} // namespace mtia

#endif // MTIA_SIM_DTYPE_H
