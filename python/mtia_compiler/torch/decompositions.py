"""Decompositions that keep two common operations on MTIA.

For the CPU device Inductor leaves some operations to ATen, which runs them on
the host: a compilation for MTIA decomposes them into operations Inductor
generates Triton kernels for.

* `scaled_dot_product_attention` reaches Inductor as
  `_scaled_dot_product_flash_attention_for_cpu`, which it calls on the host.
  PyTorch's own decomposition (into the math of attention: two matmuls, a
  softmax, the masks) is applied.
* `embedding_bag` (`_embedding_bag`, `_embedding_bag_forward_only`), an ATen
  fallback in Inductor, becomes a gather of the rows and an `index_add` of
  them into their bags (an atomic add in the kernel), for the modes sum and
  mean; `max` stays on the host.
"""

from __future__ import annotations

from typing import Any

import torch

aten = torch.ops.aten

#: `embedding_bag`'s modes.
MODE_SUM, MODE_MEAN = 0, 1


def embedding_bag(weight: torch.Tensor, indices: torch.Tensor, offsets: torch.Tensor,
                  scale_grad_by_freq: bool = False, mode: int = 0, sparse: bool = False,
                  per_sample_weights: torch.Tensor | None = None,
                  include_last_offset: bool = False, padding_idx: int = -1) -> Any:
    """`aten._embedding_bag` for 1-D indices with offsets in the modes sum
    and mean: (output, offset2bag, bag_size, max_indices). The last three
    only feed `_embedding_bag`'s own backward, which a decomposed graph does
    not use (autograd differentiates the decomposition)."""
    if mode not in (MODE_SUM, MODE_MEAN) or indices.dim() != 1:
        return NotImplemented
    bags = offsets.shape[0] - (1 if include_last_offset else 0)
    positions = torch.arange(indices.shape[0], device=indices.device, dtype=offsets.dtype)
    # The bag of each index: how many of the later bags' offsets are at or
    # before its position.
    offset2bag = torch.bucketize(positions, offsets[1:bags], right=True)
    rows = weight[indices]
    counted = torch.ones_like(indices, dtype=weight.dtype)
    if padding_idx >= 0:
        counted = (indices != padding_idx).to(weight.dtype)
        rows = rows * counted.unsqueeze(1)
    if per_sample_weights is not None:
        rows = rows * per_sample_weights.unsqueeze(1).to(weight.dtype)
    output = weight.new_zeros(bags, weight.shape[1]).index_add(0, offset2bag, rows)
    bag_size = weight.new_zeros(bags).index_add(0, offset2bag, counted)
    if mode == MODE_MEAN:
        output = output / bag_size.clamp(min=1).unsqueeze(1)
    bag_size = bag_size.to(offsets.dtype)
    return output, offset2bag, bag_size, torch.zeros_like(bag_size)


def decompositions() -> dict[Any, Any]:
    """Inductor's decomposition table with the decompositions above."""
    from torch._decomp import decomposition_table
    from torch._inductor.decomposition import select_decomp_table

    table = dict(select_decomp_table())
    sdpa = aten._scaled_dot_product_flash_attention_for_cpu.default
    table[sdpa] = decomposition_table[sdpa]
    table[aten._embedding_bag.default] = embedding_bag
    table[aten._embedding_bag_forward_only.default] = embedding_bag
    return table
