//===- HostMemory.h - What the host allows on buffers' memory ---*- C++ -*-===//
//
// A caller may bind a buffer over host memory that it cannot write, though
// its array says it can (torch.from_numpy of a read-only np.memmap, viewed
// as numpy again, keeps the memory of the read-only file mapping), or not
// even read. The simulator's copies from and into such memory would fault
// (SIGSEGV) and kill the caller's process. HostMappings reads the host's
// memory mappings once per launch, so that the memory system binds such a
// buffer as read-only, or refuses it, before the launch starts.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIM_HOSTMEMORY_H
#define MTIA_SIM_HOSTMEMORY_H

#include <cstdint>
#include <vector>

namespace mtia {

/// What the host allows on all of a range of its memory.
struct HostAccess {
  bool readable = true;
  bool writable = true;
};

class HostMappings {
public:
  /// Reads the mappings of the process (Linux: /proc/self/maps). Where they
  /// cannot be read, every range counts as readable and writable.
  HostMappings();

  /// What the host allows on all of [data, data + bytes): a range that
  /// several mappings cover is readable (writable) when all of them are and
  /// they leave no gap.
  HostAccess access(const uint8_t *data, uint64_t bytes) const;

private:
  struct Mapping {
    uintptr_t start = 0, end = 0;
    bool readable = false, writable = false;
  };

  /// In increasing address order, as the kernel lists them.
  std::vector<Mapping> mappings;
  bool known = false;
};

} // namespace mtia

#endif // MTIA_SIM_HOSTMEMORY_H
