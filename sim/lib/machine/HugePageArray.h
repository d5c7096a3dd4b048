//===- HugePageArray.h - Large host arrays on huge pages --------*- C++ -*-===//
//
// The simulator's large arrays kept from launch to launch (the PEs' local
// memories, the cache's sets) span tens of megabytes, which on the host's
// small pages miss its TLB on most accesses. A HugePageArray is aligned to
// a huge page and asks the host kernel to back it with huge pages where the
// kernel offers them.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIM_HUGEPAGEARRAY_H
#define MTIA_SIM_HUGEPAGEARRAY_H

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

#include <sys/mman.h>

namespace mtia {

class HugePageArray {
public:
  /// Makes the array hold at least `bytes`, keeping its storage when it
  /// already does; the contents are unspecified after a growth. Throws
  /// std::bad_alloc when the host has no memory left.
  void reserve(size_t bytes) {
    if (bytes <= capacity)
      return;
    const size_t rounded =
        (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    storage.reset(
        static_cast<uint8_t *>(std::aligned_alloc(kHugePageBytes, rounded)));
    if (!storage) {
      capacity = 0;
      throw std::bad_alloc();
    }
    capacity = rounded;
#ifdef MADV_HUGEPAGE
    // Only advice: without huge pages the array works on small ones.
    madvise(storage.get(), rounded, MADV_HUGEPAGE);
#endif
  }

  uint8_t *data() const { return storage.get(); }

private:
  /// The huge page size of x86-64 and of AArch64 with 4 KiB pages.
  static constexpr size_t kHugePageBytes = size_t(2) << 20;

  struct Free {
    void operator()(uint8_t *pointer) const { std::free(pointer); }
  };
  std::unique_ptr<uint8_t, Free> storage;
  size_t capacity = 0;
};

} // namespace mtia

#endif // MTIA_SIM_HUGEPAGEARRAY_H
