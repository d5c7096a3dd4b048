//===- Operations.cpp - ATen operations on `mtia` tensors -----------------===//
//
// The operations PyTorch needs of every device (allocation, views, resizing,
// copies between devices), and a fallback that runs every other ATen
// operation of an `mtia` tensor on the host: PyTorch's CPU fallback moves the
// operands to the host, runs the CPU kernel and writes the results back to
// the device. Each such run is counted, by operation, for the report; the
// operations that matter reach the simulator as Triton kernels (through
// `torch.compile` or a `@triton.jit` launch).
//
//===----------------------------------------------------------------------===//

#include "runtime/Device.h"

#include <ATen/EmptyTensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/native/CPUFallback.h>
#include <ATen/ops/_reshape_alias_native.h>
#include <ATen/ops/as_strided_native.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/resize_native.h>
#include <ATen/ops/set_native.h>
#include <ATen/ops/unfold_native.h>
#include <ATen/ops/view_native.h>
#include <c10/core/DeviceGuard.h>
#include <torch/library.h>

#include <utility>

namespace mtia::runtime {
namespace {

constexpr c10::DispatchKeySet kMTIAKeys(c10::DispatchKey::MTIA);

/// Makes the chip of `device` current for this scope, so that the allocator
/// places memory on it (a device without an index means the current one).
c10::OptionalDeviceGuard guardFor(std::optional<c10::Device> device) {
  if (device && device->has_index())
    checkDevice(device->index());
  return c10::OptionalDeviceGuard(device);
}

/// Fails unless a factory's options describe what an `mtia` tensor can be.
void checkDeviceOptions(std::optional<at::Layout> layout,
                        std::optional<bool> pinMemory) {
  TORCH_CHECK(!pinMemory.value_or(false),
              "pinned memory is host memory: it cannot live on mtia");
  TORCH_CHECK(c10::layout_or_default(layout) == c10::kStrided,
              "mtia tensors are strided, got layout ",
              c10::layout_or_default(layout));
}

at::Tensor empty(c10::IntArrayRef size, std::optional<at::ScalarType> dtype,
                 std::optional<at::Layout> layout,
                 std::optional<c10::Device> device,
                 std::optional<bool> pinMemory,
                 std::optional<c10::MemoryFormat> memoryFormat) {
  checkDeviceOptions(layout, pinMemory);
  auto guard = guardFor(device);
  return at::detail::empty_generic(size, deviceAllocator(), kMTIAKeys,
                                   c10::dtype_or_default(dtype), memoryFormat);
}

at::Tensor emptyStrided(c10::IntArrayRef size, c10::IntArrayRef stride,
                        std::optional<at::ScalarType> dtype,
                        std::optional<at::Layout> layout,
                        std::optional<c10::Device> device,
                        std::optional<bool> pinMemory) {
  checkDeviceOptions(layout, pinMemory);
  auto guard = guardFor(device);
  return at::detail::empty_strided_generic(
      size, stride, deviceAllocator(), kMTIAKeys, c10::dtype_or_default(dtype));
}

/// A CPU tensor over the same host memory as `tensor` (an `mtia` tensor's
/// memory is host memory the simulator reads in place).
at::Tensor hostAlias(const at::Tensor &tensor) {
  if (tensor.is_cpu())
    return tensor;
  return at::from_blob(tensor.data_ptr(), tensor.sizes(), tensor.strides(),
                       tensor.options().device(c10::kCPU));
}

/// Copies `source` into `destination`, either of which may be on the host or
/// on a chip: a copy of host memory into host memory, converting the dtype and
/// following the strides as the CPU's copy does.
at::Tensor copyFrom(const at::Tensor &source, const at::Tensor &destination,
                    bool /*nonBlocking*/) {
  TORCH_CHECK(source.is_cpu() || source.is_mtia(), "cannot copy from ",
              source.device(), " to ", destination.device());
  TORCH_CHECK(destination.is_cpu() || destination.is_mtia(),
              "cannot copy from ", source.device(), " to ",
              destination.device());
  if (destination.numel() == 0)
    return destination;
  hostAlias(destination).copy_(hostAlias(source));
  return destination;
}

/// Resizing may allocate: the new memory must be on the tensor's own chip.
const at::Tensor &resize(const at::Tensor &self, c10::IntArrayRef size,
                         std::optional<c10::MemoryFormat> memoryFormat) {
  c10::DeviceGuard guard(self.device());
  return at::native::resize_(self, size, memoryFormat);
}

at::Tensor &setStorage(at::Tensor &self, at::Storage source, int64_t offset,
                       c10::IntArrayRef size, c10::IntArrayRef stride) {
  c10::DeviceGuard guard(self.device());
  return at::native::set_storage_cpu_(self, std::move(source), offset, size,
                                      stride);
}

at::Tensor copyFromAndResize(const at::Tensor &source,
                             const at::Tensor &destination) {
  resize(destination, source.sizes(), std::nullopt);
  return copyFrom(source, destination, false);
}

/// Fills of device memory, which the fallback would copy to the host and
/// back: written in place (as the chip's DMA engine would), and counted as
/// host operations, since the host writes them.
at::Tensor &fill(at::Tensor &self, const at::Scalar &value) {
  countHostOperation("aten::fill_.Scalar");
  hostAlias(self).fill_(value);
  return self;
}

at::Tensor &zero(at::Tensor &self) {
  countHostOperation("aten::zero_");
  hostAlias(self).zero_();
  return self;
}

void hostFallback(const c10::OperatorHandle &op, torch::jit::Stack *stack) {
  countHostOperation(c10::toString(op.schema().operator_name()));
  at::native::cpu_fallback(op, stack, /*error_on_views=*/true);
}

} // namespace

TORCH_LIBRARY_IMPL(aten, MTIA, m) {
  m.impl("empty.memory_format", TORCH_FN(empty));
  m.impl("empty_strided", TORCH_FN(emptyStrided));
  m.impl("as_strided", TORCH_FN(at::native::as_strided_tensorimpl));
  m.impl("view", TORCH_FN(at::native::view));
  m.impl("_reshape_alias", TORCH_FN(at::native::_reshape_alias));
  m.impl("unfold", TORCH_FN(at::native::unfold));
  m.impl("resize_", TORCH_FN(resize));
  m.impl("set_.source_Storage", TORCH_FN(at::native::set_));
  m.impl("set_.source_Storage_storage_offset", TORCH_FN(setStorage));
  m.impl("_copy_from", TORCH_FN(copyFrom));
  m.impl("_copy_from_and_resize", TORCH_FN(copyFromAndResize));
  m.impl("fill_.Scalar", TORCH_FN(fill));
  m.impl("zero_", TORCH_FN(zero));
}

TORCH_LIBRARY_IMPL(_, MTIA, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<&hostFallback>());
}

} // namespace mtia::runtime
