//===- Device.cpp - The simulated MTIA chips as PyTorch devices -----------===//

#include "runtime/Device.h"

#include <c10/util/Exception.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace mtia::runtime {
namespace {

/// Tensors start on this boundary, which every DMA transfer and vector load of
/// the target accepts.
constexpr size_t kAlignment = 128;

struct Devices {
  std::mutex mutex;
  /// No chip until the runtime is configured (`configureDevices`).
  int count = 0;
  ChipProperties properties;
  std::vector<MemoryStatistics> memory = std::vector<MemoryStatistics>(1);
  std::vector<double> clocks = std::vector<double>(1);
  /// The chip and size of each live allocation, by address.
  std::unordered_map<void *, std::pair<c10::DeviceIndex, int64_t>> blocks;
  std::map<std::string, int64_t> hostOperations;
};

Devices &devices() {
  static auto *state = new Devices();
  return *state;
}

thread_local c10::DeviceIndex threadDevice = 0;

void releaseBlock(void *data) {
  if (!data)
    return;
  Devices &state = devices();
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    auto found = state.blocks.find(data);
    if (found != state.blocks.end()) {
      MemoryStatistics &memory = state.memory[found->second.first];
      memory.allocatedBytes -= found->second.second;
      --memory.allocations;
      state.blocks.erase(found);
    }
  }
  std::free(data);
}

class DeviceAllocator final : public c10::Allocator {
public:
  c10::DataPtr allocate(size_t bytes) override {
    c10::DeviceIndex device = currentDevice();
    checkDevice(device);
    c10::Device where(c10::DeviceType::MTIA, device);
    if (bytes == 0)
      return {nullptr, nullptr, &releaseBlock, where};
    Devices &state = devices();
    auto size = static_cast<int64_t>(bytes);
    {
      std::lock_guard<std::mutex> lock(state.mutex);
      MemoryStatistics &memory = state.memory[device];
      TORCH_CHECK_WITH(OutOfMemoryError,
                       memory.allocatedBytes + size <=
                           state.properties.dramBytes,
                       "MTIA out of memory: ", bytes, " bytes requested on ",
                       where, ", which holds ", memory.allocatedBytes,
                       " of its ", state.properties.dramBytes,
                       " bytes of DRAM (", state.properties.target, ")");
    }
    size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
    void *data = std::aligned_alloc(kAlignment, rounded);
    TORCH_CHECK_WITH(OutOfMemoryError, data, "MTIA out of memory: the host ",
                     "could not provide ", bytes, " bytes for ", where);
    {
      std::lock_guard<std::mutex> lock(state.mutex);
      MemoryStatistics &memory = state.memory[device];
      memory.allocatedBytes += size;
      memory.peakBytes = std::max(memory.peakBytes, memory.allocatedBytes);
      ++memory.allocations;
      state.blocks[data] = {device, size};
    }
    return {data, data, &releaseBlock, where};
  }

  c10::DeleterFnPtr raw_deleter() const override { return &releaseBlock; }

  void copy_data(void *destination, const void *source,
                 std::size_t bytes) const override {
    std::memcpy(destination, source, bytes);
  }
};

} // namespace

void configureDevices(int count, const ChipProperties &properties) {
  TORCH_CHECK(count >= 1, "the number of MTIA devices must be at least 1, got ",
              count);
  Devices &state = devices();
  std::lock_guard<std::mutex> lock(state.mutex);
  TORCH_CHECK(state.blocks.empty(), "the MTIA devices cannot be configured ",
              "again once tensors live on them");
  state.count = count;
  state.properties = properties;
  state.memory.assign(count, MemoryStatistics());
  state.clocks.assign(count, 0.0);
}

c10::DeviceIndex deviceCount() {
  return static_cast<c10::DeviceIndex>(devices().count);
}

const ChipProperties &chipProperties() { return devices().properties; }

c10::DeviceIndex currentDevice() { return threadDevice; }

void checkDevice(c10::DeviceIndex device) {
  TORCH_CHECK(deviceCount() > 0, "this process has no simulated MTIA device: ",
              "the runtime did not load (see the MTIARuntimeWarning of ",
              "`import torch`)");
  TORCH_CHECK(device >= 0 && device < deviceCount(), "mtia:", int(device),
              " does not exist: this process has ", int(deviceCount()),
              " simulated MTIA device(s) (set MTIA_DEVICE_COUNT for more)");
}

void setCurrentDevice(c10::DeviceIndex device) {
  checkDevice(device);
  threadDevice = device;
}

c10::DeviceIndex exchangeCurrentDevice(c10::DeviceIndex device) {
  c10::DeviceIndex previous = currentDevice();
  if (device >= 0 && device != previous)
    setCurrentDevice(device);
  return previous;
}

MemoryStatistics memoryStatistics(c10::DeviceIndex device) {
  checkDevice(device);
  Devices &state = devices();
  std::lock_guard<std::mutex> lock(state.mutex);
  return state.memory[device];
}

void resetPeakMemory(c10::DeviceIndex device) {
  checkDevice(device);
  Devices &state = devices();
  std::lock_guard<std::mutex> lock(state.mutex);
  MemoryStatistics &memory = state.memory[device];
  memory.peakBytes = memory.allocatedBytes;
}

c10::Allocator *deviceAllocator() {
  static DeviceAllocator allocator;
  return &allocator;
}

double deviceClock(c10::DeviceIndex device) {
  checkDevice(device);
  Devices &state = devices();
  std::lock_guard<std::mutex> lock(state.mutex);
  return state.clocks[device];
}

void advanceClock(c10::DeviceIndex device, double seconds) {
  checkDevice(device);
  TORCH_CHECK(seconds >= 0, "a launch takes no negative time, got ", seconds);
  Devices &state = devices();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.clocks[device] += seconds;
}

void countHostOperation(const std::string &name) {
  Devices &state = devices();
  std::lock_guard<std::mutex> lock(state.mutex);
  ++state.hostOperations[name];
}

std::map<std::string, int64_t> hostOperationCounts() {
  Devices &state = devices();
  std::lock_guard<std::mutex> lock(state.mutex);
  return state.hostOperations;
}

void resetHostOperationCounts() {
  Devices &state = devices();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.hostOperations.clear();
}

REGISTER_ALLOCATOR(c10::DeviceType::MTIA, deviceAllocator());

} // namespace mtia::runtime
