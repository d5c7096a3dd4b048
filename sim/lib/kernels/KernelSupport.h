//===- KernelSupport.h - Helpers of the numeric kernels ---------*- C++ -*-===//
//
// Unaligned element access, the shared f32 scratch buffers and the integer
// type dispatch that the SIMD kernels (SimdKernels.cpp) and the DPE, RE and
// MLU kernels (TileKernels.cpp) both use. Internal to the kernels.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIM_KERNELSUPPORT_H
#define MTIA_SIM_KERNELSUPPORT_H

#include "mtia/DType.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace mtia {

template <typename T> T loadAt(const uint8_t *base, int64_t i) {
  T value;
  std::memcpy(&value, base + sizeof(T) * i, sizeof(T));
  return value;
}

template <typename T> void storeAt(uint8_t *base, int64_t i, T value) {
  std::memcpy(base + sizeof(T) * i, &value, sizeof(T));
}

/// Scratch buffers of widened f32 values, reused across calls.
inline std::vector<float> &scratch(int which) {
  thread_local std::vector<float> buffers[4];
  return buffers[which];
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

} // namespace mtia

#endif // MTIA_SIM_KERNELSUPPORT_H
