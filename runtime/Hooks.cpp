//===- Hooks.cpp - PyTorch's MTIA hooks and device guard ------------------===//
//
// What `torch.mtia` and `torch.device("mtia")` ask of a runtime: the device
// count and the current device, streams and events, synchronisation, memory
// statistics and properties. Launches on the simulator finish before they
// return, so each device has one stream, events complete when recorded, and
// synchronising has nothing to wait for.
//
//===----------------------------------------------------------------------===//

#include "runtime/Device.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/detail/MTIAHooksInterface.h>
#include <c10/core/CPUAllocator.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>

#include <Python.h>

namespace mtia::runtime {
namespace {

constexpr c10::DeviceType kMTIA = c10::DeviceType::MTIA;

c10::Stream onlyStream(c10::DeviceIndex device) {
  return c10::Stream(c10::Stream::DEFAULT, c10::Device(kMTIA, device));
}

c10::DeviceIndex resolve(c10::DeviceIndex device) {
  return device < 0 ? currentDevice() : device;
}

/// Sets `key` of `dict` to `value`, which it steals.
void setItem(PyObject *dict, const char *key, PyObject *value) {
  PyDict_SetItemString(dict, key, value);
  Py_DECREF(value);
}

/// Fails for what PyTorch's MTIA interface offers and the simulated chip's
/// runtime does not.
[[noreturn]] void unsupported(const char *what) {
  TORCH_CHECK(false, "the simulated MTIA runtime does not provide ", what);
}

class GuardImpl final : public c10::impl::DeviceGuardImplInterface {
public:
  c10::DeviceType type() const override { return kMTIA; }

  c10::Device exchangeDevice(c10::Device device) const override {
    return c10::Device(kMTIA, exchangeCurrentDevice(device.index()));
  }

  c10::Device getDevice() const override {
    return c10::Device(kMTIA, currentDevice());
  }

  void setDevice(c10::Device device) const override {
    TORCH_CHECK(device.is_mtia(), "expected an MTIA device, got ", device);
    setCurrentDevice(device.index());
  }

  void uncheckedSetDevice(c10::Device device) const noexcept override {
    if (device.index() >= 0 && device.index() < deviceCount())
      setCurrentDevice(device.index());
  }

  c10::Stream getStream(c10::Device device) const override {
    return onlyStream(resolve(device.index()));
  }

  c10::Stream getDefaultStream(c10::Device device) const override {
    return onlyStream(resolve(device.index()));
  }

  c10::Stream getNewStream(c10::Device device, int) const override {
    return onlyStream(resolve(device.index()));
  }

  c10::Stream exchangeStream(c10::Stream stream) const override {
    return onlyStream(stream.device_index());
  }

  c10::DeviceIndex deviceCount() const noexcept override {
    return runtime::deviceCount();
  }

  // Work is done when it is issued (launches return once simulated), so an
  // event is complete once recorded; it holds the device's simulated clock
  // at that moment, and the time between two events is simulated time.
  void record(void **event, const c10::Stream &stream,
              const c10::DeviceIndex deviceIndex,
              const c10::EventFlag) const override {
    c10::DeviceIndex device =
        deviceIndex >= 0 ? deviceIndex : stream.device_index();
    if (!*event)
      *event = new double(0);
    *static_cast<double *>(*event) = deviceClock(device);
  }
  void destroyEvent(void *event,
                    const c10::DeviceIndex) const noexcept override {
    delete static_cast<double *>(event);
  }
  double elapsedTime(void *start, void *end,
                     const c10::DeviceIndex) const override {
    TORCH_CHECK(start && end,
                "both events must be recorded before measuring between them");
    return (*static_cast<double *>(end) - *static_cast<double *>(start)) * 1e3;
  }
  void block(void *, const c10::Stream &) const override {}
  bool queryEvent(void *) const override { return true; }
  bool queryStream(const c10::Stream &) const override { return true; }
  void synchronizeStream(const c10::Stream &) const override {}
  void synchronizeEvent(void *) const override {}
  void synchronizeDevice(const c10::DeviceIndex) const override {}
};

C10_REGISTER_GUARD_IMPL(MTIA, GuardImpl);

} // namespace

class MTIAHooks final : public at::MTIAHooksInterface {
public:
  MTIAHooks() = default;

  bool hasMTIA() const override { return true; }
  bool isAvailable() const override { return true; }
  bool isBuilt() const override { return true; }
  void init() const override {}

  c10::DeviceIndex deviceCount() const override {
    return runtime::deviceCount();
  }
  c10::DeviceIndex getDeviceCount() const override {
    return runtime::deviceCount();
  }
  void deviceSynchronize(c10::DeviceIndex device) const override {
    checkDevice(resolve(device));
  }
  std::string showConfig() const override {
    const ChipProperties &chip = chipProperties();
    return "MTIA runtime of mtia-compiler: " + std::to_string(deviceCount()) +
           " simulated " + chip.target + " device(s)\n";
  }
  bool hasPrimaryContext(c10::DeviceIndex) const override { return true; }

  void setCurrentDevice(c10::DeviceIndex device) const override {
    runtime::setCurrentDevice(device);
  }
  c10::DeviceIndex getCurrentDevice() const override { return currentDevice(); }
  c10::DeviceIndex exchangeDevice(c10::DeviceIndex device) const override {
    return exchangeCurrentDevice(device);
  }
  c10::DeviceIndex maybeExchangeDevice(c10::DeviceIndex device) const override {
    return exchangeCurrentDevice(device);
  }

  c10::Stream getCurrentStream(c10::DeviceIndex device) const override {
    return onlyStream(resolve(device));
  }
  int64_t getCurrentRawStream(c10::DeviceIndex) const override { return 0; }
  c10::Stream getDefaultStream(c10::DeviceIndex device) const override {
    return onlyStream(resolve(device));
  }
  void setCurrentStream(const c10::Stream &stream) const override {
    checkDevice(stream.device_index());
  }

  bool isPinnedPtr(const void *) const override { return false; }
  c10::Allocator *getPinnedMemoryAllocator() const override {
    return c10::GetCPUAllocator();
  }

  PyObject *memoryStats(c10::DeviceIndex device) const override {
    MemoryStatistics memory = memoryStatistics(resolve(device));
    PyObject *dram = PyDict_New();
    setItem(dram, "allocated_bytes",
            PyLong_FromLongLong(memory.allocatedBytes));
    setItem(dram, "peak_bytes", PyLong_FromLongLong(memory.peakBytes));
    setItem(dram, "allocations", PyLong_FromLongLong(memory.allocations));
    setItem(dram, "total_bytes",
            PyLong_FromLongLong(chipProperties().dramBytes));
    PyObject *stats = PyDict_New();
    setItem(stats, "dram", dram);
    return stats;
  }

  void resetPeakMemoryStats(c10::DeviceIndex device) const override {
    resetPeakMemory(resolve(device));
  }

  void emptyCache() const override {}

  PyObject *memorySnapshot(const std::optional<std::string> &) const override {
    unsupported("memory snapshots");
  }
  void recordMemoryHistory(const std::optional<std::string> &,
                           const std::string &, size_t) const override {
    unsupported("a memory history");
  }
  void attachOutOfMemoryObserver(PyObject *) const override {
    unsupported("out-of-memory observers");
  }
  int64_t mtiagraphCreate(bool) const override {
    unsupported("MTIA graphs (each launch runs when it is issued)");
  }

  PyObject *getDeviceCapability(c10::DeviceIndex device) const override {
    checkDevice(resolve(device));
    // MTIA 2i is the second generation of the chip.
    return Py_BuildValue("(ii)", 2, 0);
  }

  PyObject *getDeviceProperties(c10::DeviceIndex device) const override {
    checkDevice(resolve(device));
    const ChipProperties &chip = chipProperties();
    PyObject *properties = PyDict_New();
    setItem(properties, "name", PyUnicode_FromString(chip.target.c_str()));
    setItem(properties, "arch", PyUnicode_FromString(chip.arch.c_str()));
    setItem(properties, "total_memory", PyLong_FromLongLong(chip.dramBytes));
    setItem(properties, "sram_bytes", PyLong_FromLongLong(chip.sramBytes));
    setItem(properties, "processing_elements",
            PyLong_FromLongLong(chip.processingElements));
    setItem(properties, "local_memory_bytes",
            PyLong_FromLongLong(chip.localMemoryBytes));
    setItem(properties, "clock_ghz", PyFloat_FromDouble(chip.clockGHz));
    return properties;
  }

  // Random numbers of `mtia` tensors are drawn on the host, by the host's
  // generator (see the host fallback), so that one seed rules both.
  const at::Generator &getDefaultGenerator(c10::DeviceIndex) const override {
    return at::detail::getDefaultCPUGenerator();
  }
  at::Generator getNewGenerator(c10::DeviceIndex) const override {
    return at::detail::createCPUGenerator();
  }
};

} // namespace mtia::runtime

namespace at {
using mtia::runtime::MTIAHooks;
REGISTER_MTIA_HOOKS(MTIAHooks);
} // namespace at
