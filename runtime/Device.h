//===- Device.h - The simulated MTIA chips as PyTorch devices ---*- C++ -*-===//
//
// The state of the simulated chips a process sees as `mtia:0`, `mtia:1`...:
// how many there are, which one is current, the memory each one's tensors
// hold and the target each one simulates. A chip's DRAM is host memory that
// the simulator reads and writes in place, so a tensor on `mtia` is a block of
// host memory that this runtime's allocator counts against the chip's DRAM.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_RUNTIME_DEVICE_H
#define MTIA_RUNTIME_DEVICE_H

#include <c10/core/Allocator.h>
#include <c10/core/Device.h>

#include <cstdint>
#include <map>
#include <string>

namespace mtia::runtime {

/// What a chip is, from its target description.
struct ChipProperties {
  std::string target = "mtia-2i";
  std::string arch = "2i";
  int64_t dramBytes = 0;
  int64_t sramBytes = 0;
  int64_t processingElements = 0;
  int64_t localMemoryBytes = 0;
  double clockGHz = 0;
};

/// The bytes a chip's tensors hold.
struct MemoryStatistics {
  int64_t allocatedBytes = 0;
  int64_t peakBytes = 0;
  int64_t allocations = 0;
};

/// Sets the number of chips and what they are; called once when the runtime
/// loads, before any tensor exists. Until then the process has no chip.
void configureDevices(int count, const ChipProperties &properties);

c10::DeviceIndex deviceCount();
const ChipProperties &chipProperties();

/// The current chip of the calling thread (`torch.mtia.set_device`).
c10::DeviceIndex currentDevice();
void setCurrentDevice(c10::DeviceIndex device);

/// Makes `device` current (a negative index keeps the current one) and
/// returns the device that was.
c10::DeviceIndex exchangeCurrentDevice(c10::DeviceIndex device);

/// Fails with a located error unless `device` names a chip of the process.
void checkDevice(c10::DeviceIndex device);

MemoryStatistics memoryStatistics(c10::DeviceIndex device);
void resetPeakMemory(c10::DeviceIndex device);

/// The allocator of `mtia` tensors: host memory, aligned for the DMA engine,
/// counted against the current chip's DRAM.
c10::Allocator *deviceAllocator();

/// The simulated time of the work issued to `device` so far, in seconds: the
/// clock that the device's events read. Each kernel launch on the simulator
/// advances it by the launch's simulated time.
double deviceClock(c10::DeviceIndex device);
void advanceClock(c10::DeviceIndex device, double seconds);

/// Counts an ATen operation that ran on the host for an `mtia` tensor.
void countHostOperation(const std::string &name);
std::map<std::string, int64_t> hostOperationCounts();
void resetHostOperationCounts();

} // namespace mtia::runtime

#endif // MTIA_RUNTIME_DEVICE_H
