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
};
/// The number of element types (the values of DType are 0 to kNumDTypes-1).
constexpr unsigned kNumDTypes = 11;

/// Parses a dtype name ("i1", "i8", ..., "f8e4m3", "f8e5m2"). Returns false
/// for an unknown name.
bool parseDType(const std::string &name, DType &type);
const char *dtypeName(DType type);
unsigned dtypeSize(DType type);
bool isFloat(DType type);
inline bool isInteger(DType type) { return !isFloat(type); }
/// The integer type of `bytes` bytes (1, 2, 4 or 8).
DType integerOfSize(unsigned bytes);

/// A small IEEE-like binary float format.
struct SmallFloatFormat {
  int exponentBits;
  int mantissaBits;
  int bias;
  /// e4m3fn has no infinities and a single NaN mantissa pattern; overflow
  /// saturates to the largest finite value for it (like the hardware's
  /// "satfinite" conversion) and rounds to infinity for the IEEE formats.
  bool ieee;
};

extern const SmallFloatFormat kF16Format;
extern const SmallFloatFormat kBF16Format;
extern const SmallFloatFormat kE4M3Format;
extern const SmallFloatFormat kE5M2Format;

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
inline uint16_t floatToF16(float value) {
  return static_cast<uint16_t>(encodeSmallFloat(value, kF16Format));
}

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
