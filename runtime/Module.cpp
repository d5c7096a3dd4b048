//===- Module.cpp - The runtime's Python module ---------------------------===//
//
// `mtia.host_runtime.torch_mtia._runtime`: loading it registers the MTIA
// hooks, device guard, allocator and operations with PyTorch; its functions
// configure the simulated chips and read the count of host operations.
//
//===----------------------------------------------------------------------===//

#include "runtime/Device.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>

namespace nb = nanobind;
using namespace mtia::runtime;

NB_MODULE(_runtime, m) {
  m.doc() = "The simulated MTIA chips as PyTorch's mtia device.";
  m.def(
      "configure",
      [](int count, const std::string &target, const std::string &arch,
         int64_t dramBytes, int64_t sramBytes, int64_t processingElements,
         int64_t localMemoryBytes, double clockGHz) {
        ChipProperties properties;
        properties.target = target;
        properties.arch = arch;
        properties.dramBytes = dramBytes;
        properties.sramBytes = sramBytes;
        properties.processingElements = processingElements;
        properties.localMemoryBytes = localMemoryBytes;
        properties.clockGHz = clockGHz;
        configureDevices(count, properties);
      },
      nb::arg("count"), nb::arg("target"), nb::arg("arch"),
      nb::arg("dram_bytes"), nb::arg("sram_bytes"),
      nb::arg("processing_elements"), nb::arg("local_memory_bytes"),
      nb::arg("clock_ghz"),
      "Sets how many simulated chips the process has and what they are.");
  m.def("advance_clock", &advanceClock, nb::arg("device"), nb::arg("seconds"),
        "Advances the simulated clock of a device by a launch's time.");
  m.def("device_clock", &deviceClock, nb::arg("device"),
        "The simulated seconds of the work issued to a device so far.");
  m.def("host_operations", &hostOperationCounts,
        "How often each ATen operation ran on the host for mtia tensors.");
  m.def("count_host_operation", &countHostOperation, nb::arg("name"),
        "Counts one run of an ATen operation on the host for mtia tensors.");
  m.def("reset_host_operations", &resetHostOperationCounts);
}
