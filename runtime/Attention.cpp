//===- Attention.cpp - The attention backend of `mtia` tensors ------------===//
//
// `scaled_dot_product_attention` asks each device which backend computes it
// (`_fused_sdp_choice_stub`). For `mtia` tensors the runtime chooses the
// backend PyTorch keeps for devices outside its tree, "overrideable"
// (`_scaled_dot_product_fused_attention_overrideable` and its backward,
// which the runtime implements as flash-attention Triton kernels on the
// simulator, `attention.py`), when the kernels take the call, and otherwise
// the math backend, which decomposes attention into operations of its own.
// `torch.nn.attention.sdpa_kernel` selects among them as it does on other
// devices.
//
//===----------------------------------------------------------------------===//

#include <ATen/Context.h>
#include <ATen/core/Tensor.h>
#include <ATen/native/transformers/attention.h>
#include <ATen/native/transformers/sdp_utils_cpp.h>

#include <optional>

namespace mtia::runtime {
namespace {

/// The size of dimension `dim` of `tensor`, if it is a known integer.
std::optional<int64_t> staticSize(const at::Tensor &tensor, int64_t dim) {
  return tensor.sym_size(dim).maybe_as_int();
}

bool isKernelType(at::ScalarType type) {
  return type == at::kFloat || type == at::kHalf || type == at::kBFloat16;
}

/// Whether `mask` (boolean or additive) broadcasts to the scores of
/// `query` and `key`, (batch, heads, queries, keys), with static sizes.
bool broadcastsToScores(const at::Tensor &mask, const at::Tensor &query,
                        const at::Tensor &key) {
  if (mask.dim() > 4 || mask.is_nested())
    return false;
  const std::optional<int64_t> scores[] = {
      staticSize(query, 0), staticSize(query, 1), staticSize(query, 2),
      staticSize(key, 2)};
  for (int64_t dim = 1; dim <= mask.dim(); ++dim) {
    std::optional<int64_t> size = staticSize(mask, -dim);
    std::optional<int64_t> target = scores[4 - dim];
    if (!size || !target || (*size != 1 && *size != *target))
      return false;
  }
  return mask.scalar_type() == at::kBool || isKernelType(mask.scalar_type());
}

/// Whether the flash-attention kernels compute this call: 4-D dense query,
/// key and value of one floating type the kernels take, with elements and
/// static sizes; the key's heads shared by groups of query heads only with
/// `enableGqa`; no dropout; a mask that broadcasts to the scores (with or
/// without the causal mask, as the CPU's flash attention takes both).
bool kernelsTake(const at::Tensor &query, const at::Tensor &key,
                 const at::Tensor &value, const std::optional<at::Tensor> &mask,
                 double dropout, bool enableGqa) {
  for (const at::Tensor *tensor : {&query, &key, &value}) {
    if (tensor->dim() != 4 || tensor->is_nested() ||
        tensor->scalar_type() != query.scalar_type())
      return false;
    for (int64_t dim = 0; dim < 4; ++dim) {
      std::optional<int64_t> size = staticSize(*tensor, dim);
      if (!size || *size == 0)
        return false;
    }
  }
  if (!isKernelType(query.scalar_type()) || dropout != 0.0)
    return false;
  int64_t queryHeads = *staticSize(query, 1), keyHeads = *staticSize(key, 1);
  bool sameBatchAndHeads = *staticSize(key, 0) == *staticSize(query, 0) &&
                           *staticSize(value, 0) == *staticSize(query, 0) &&
                           *staticSize(value, 1) == keyHeads &&
                           *staticSize(value, 2) == *staticSize(key, 2) &&
                           *staticSize(key, 3) == *staticSize(query, 3);
  bool headsShared = queryHeads == keyHeads ||
                     (enableGqa && queryHeads % keyHeads == 0);
  if (!sameBatchAndHeads || !headsShared)
    return false;
  return !mask || broadcastsToScores(*mask, query, key);
}

int64_t chooseAttentionBackend(const at::Tensor &query, const at::Tensor &key,
                               const at::Tensor &value,
                               const std::optional<at::Tensor> &mask,
                               double dropout, bool /*isCausal*/,
                               std::optional<double> /*scale*/,
                               bool enableGqa) {
  at::Context &context = at::globalContext();
  if (context.userEnabledOverrideableSDP() &&
      kernelsTake(query, key, value, mask, dropout, enableGqa))
    return static_cast<int64_t>(sdp::SDPBackend::overrideable);
  if (context.userEnabledMathSDP())
    return static_cast<int64_t>(sdp::SDPBackend::math);
  return static_cast<int64_t>(sdp::SDPBackend::error);
}

} // namespace
} // namespace mtia::runtime

namespace at::native {
REGISTER_MTIA_DISPATCH(_fused_sdp_choice_stub,
                       &mtia::runtime::chooseAttentionBackend)
} // namespace at::native
