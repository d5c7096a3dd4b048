"""Real architectures from Hugging Face `transformers`, built offline from
small configurations (random weights from a fixed seed, nothing downloaded):
language models (encoders, decoders with grouped-query attention, mixtures of
experts, encoder-decoders), vision transformers and CNNs, and speech. Each is a
`ZooModel` like the hand-written ones of `zoo.py`: `make(scale, device)` builds
the model and its inputs (`scale` times the batch), `step` runs inference or
a training step (the loss and every gradient).

`benchmarks/models.py --architectures` runs them all; the test suite runs a
handful (`test_architectures.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from .zoo import Made, ZooModel

#: The sizes every language model shares: two layers of width 64 in 4 heads.
TEXT = {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
        "intermediate_size": 128, "vocab_size": 256, "max_position_embeddings": 128}
#: Decoders with fewer key-value heads than query heads (grouped-query attention).
GROUPED = {**TEXT, "num_key_value_heads": 2}
#: Four experts of which each token takes two.
EXPERTS = {**GROUPED, "num_local_experts": 4, "num_experts_per_tok": 2}
VISION = {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
          "intermediate_size": 128, "image_size": 32, "patch_size": 8}
SEQUENCE = 16
IMAGE = 32


@dataclass(frozen=True)
class Architecture:
    """A `transformers` model class built from its configuration class with
    `config`, and the inputs it takes (`inputs(batch, generator)`)."""

    model_class: str
    config_class: str
    config: dict[str, Any]
    inputs: Callable[[int, torch.Generator], dict[str, torch.Tensor]]
    #: The output to compare (an attribute of the model's output).
    output: str = "last_hidden_state"


def _tokens(batch: int, generator: torch.Generator) -> dict[str, torch.Tensor]:
    return {"input_ids": torch.randint(0, 256, (batch, SEQUENCE), generator=generator)}


def _padded_tokens(batch: int, generator: torch.Generator) -> dict[str, torch.Tensor]:
    """Tokens with an attention mask whose first sequence ends early."""
    mask = torch.ones(batch, SEQUENCE, dtype=torch.long)
    mask[0, SEQUENCE - 5:] = 0
    return {**_tokens(batch, generator), "attention_mask": mask}


def _encoder_decoder_tokens(batch: int, generator: torch.Generator) -> dict[str, torch.Tensor]:
    return {**_padded_tokens(batch, generator),
            "decoder_input_ids": torch.randint(0, 256, (batch, SEQUENCE // 2),
                                               generator=generator)}


def _pixels(batch: int, generator: torch.Generator) -> dict[str, torch.Tensor]:
    return {"pixel_values": torch.randn(batch, 3, IMAGE, IMAGE, generator=generator)}


def _audio(batch: int, generator: torch.Generator) -> dict[str, torch.Tensor]:
    """Whisper's log-mel features (80 bins of 2 x its 32 positions) and the
    decoder's first tokens."""
    return {"input_features": torch.randn(batch, 80, 64, generator=generator),
            "decoder_input_ids": torch.randint(0, 256, (batch, 4), generator=generator)}


def _text_and_pixels(batch: int, generator: torch.Generator) -> dict[str, torch.Tensor]:
    return {**_padded_tokens(batch, generator), **_pixels(batch, generator)}


ARCHITECTURES: dict[str, Architecture] = {
    "bert": Architecture("BertModel", "BertConfig", TEXT, _padded_tokens),
    "roberta": Architecture("RobertaModel", "RobertaConfig", {**TEXT, "pad_token_id": 1},
                            _padded_tokens),
    "gpt2": Architecture("GPT2LMHeadModel", "GPT2Config",
                         {"n_embd": 64, "n_layer": 2, "n_head": 4, "vocab_size": 256,
                          "n_positions": 128, "bos_token_id": 0, "eos_token_id": 0},
                         _tokens, "logits"),
    "llama": Architecture("LlamaForCausalLM", "LlamaConfig", GROUPED, _padded_tokens, "logits"),
    "mistral": Architecture("MistralModel", "MistralConfig", {**GROUPED, "sliding_window": 8},
                            _tokens),
    "qwen2": Architecture("Qwen2Model", "Qwen2Config", GROUPED, _tokens),
    "phi": Architecture("PhiModel", "PhiConfig", TEXT, _tokens),
    "gemma": Architecture("GemmaModel", "GemmaConfig", {**GROUPED, "head_dim": 16}, _tokens),
    "mixtral": Architecture("MixtralModel", "MixtralConfig", EXPERTS, _tokens),
    "qwen2_moe": Architecture("Qwen2MoeModel", "Qwen2MoeConfig",
                              {**GROUPED, "num_experts": 4, "num_experts_per_tok": 2,
                               "moe_intermediate_size": 64,
                               "shared_expert_intermediate_size": 64}, _tokens),
    "t5": Architecture("T5Model", "T5Config",
                       {"d_model": 64, "d_kv": 16, "d_ff": 128, "num_layers": 2,
                        "num_heads": 4, "vocab_size": 256}, _encoder_decoder_tokens),
    "bart": Architecture("BartModel", "BartConfig",
                         {"d_model": 64, "encoder_layers": 2, "decoder_layers": 2,
                          "encoder_attention_heads": 4, "decoder_attention_heads": 4,
                          "encoder_ffn_dim": 128, "decoder_ffn_dim": 128, "vocab_size": 256,
                          "max_position_embeddings": 128}, _encoder_decoder_tokens),
    "vit": Architecture("ViTModel", "ViTConfig", VISION, _pixels),
    "clip": Architecture("CLIPModel", "CLIPConfig",
                         {"text_config": {**TEXT, "max_position_embeddings": SEQUENCE},
                          "vision_config": VISION, "projection_dim": 32},
                         _text_and_pixels, "logits_per_image"),
    "swin": Architecture("SwinModel", "SwinConfig",
                         {"image_size": IMAGE, "patch_size": 4, "embed_dim": 32,
                          "depths": [1, 1], "num_heads": [2, 4], "window_size": 4},
                         _pixels),
    "resnet": Architecture("ResNetModel", "ResNetConfig",
                           {"embedding_size": 16, "hidden_sizes": [16, 32, 64],
                            "depths": [1, 1, 1], "layer_type": "basic"}, _pixels),
    "convnext": Architecture("ConvNextModel", "ConvNextConfig",
                             {"hidden_sizes": [16, 32], "depths": [1, 1], "num_stages": 2},
                             _pixels),
    # Convolutions initialised wider than the default (0.02), with which the
    # outputs vanish (1e-25) through 17 blocks and no tolerance would notice
    # a wrong number; at 0.25 they are of order 1.
    "mobilenet_v2": Architecture("MobileNetV2Model", "MobileNetV2Config",
                                 {"image_size": IMAGE, "depth_multiplier": 0.35,
                                  "initializer_range": 0.25}, _pixels),
    "whisper": Architecture("WhisperModel", "WhisperConfig",
                            {"d_model": 64, "encoder_layers": 2, "decoder_layers": 2,
                             "encoder_attention_heads": 4, "decoder_attention_heads": 4,
                             "encoder_ffn_dim": 128, "decoder_ffn_dim": 128,
                             "vocab_size": 256, "num_mel_bins": 80,
                             "max_source_positions": 32, "max_target_positions": 32,
                             "pad_token_id": 0, "bos_token_id": 0, "eos_token_id": 0,
                             "decoder_start_token_id": 0},
                            _audio),
}


def build(name: str, scale: int, device: str) -> Made:
    """The model `name` (in evaluation mode: no dropout) and its inputs, as
    one keyword dictionary, on `device`."""
    import transformers

    architecture = ARCHITECTURES[name]
    torch.manual_seed(0)
    config = getattr(transformers, architecture.config_class)(**architecture.config)
    model = getattr(transformers, architecture.model_class)(config).eval().to(device)
    inputs = architecture.inputs(2 * scale, torch.Generator().manual_seed(1))
    return model, ({key: value.to(device) for key, value in inputs.items()},)


def _output(name: str, result: Any) -> torch.Tensor:
    return getattr(result, ARCHITECTURES[name].output)


def inference(name: str) -> Callable[[Callable[..., Any], Any, tuple[Any, ...]],
                                     list[torch.Tensor]]:
    def step(call: Callable[..., Any], model: Any, inputs: tuple[Any, ...]
             ) -> list[torch.Tensor]:
        with torch.no_grad():
            return [_output(name, call(**inputs[0]))]

    return step


def training(name: str) -> Callable[[Callable[..., Any], Any, tuple[Any, ...]],
                                    list[torch.Tensor]]:
    """A training step: a loss of the output, its backward; the loss and the
    gradient of every parameter (zeros where the loss does not reach it: a
    compiled graph may give those zeros rather than none)."""
    def step(call: Callable[..., Any], model: Any, inputs: tuple[Any, ...]
             ) -> list[torch.Tensor]:
        model.zero_grad(set_to_none=True)
        output = _output(name, call(**inputs[0]))
        loss = output.float().square().mean()
        loss.backward()
        return [loss.detach(), *(torch.zeros_like(p) if p.grad is None else p.grad
                                 for p in model.parameters())]

    return step


def _model(name: str, train: bool) -> ZooModel:
    return ZooModel(f"{name}_training" if train else name,
                    lambda scale, device: build(name, scale, device),
                    training(name) if train else inference(name), rtol=1e-4, atol=1e-4)


ARCHITECTURE_ZOO: dict[str, ZooModel] = {
    model.name: model for name in ARCHITECTURES for model in (_model(name, False),
                                                               _model(name, True))}
