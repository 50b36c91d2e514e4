"""Encoder-decoder transformers (BART's layout): how MarianMT, mBART-50, M2M100 and NLLB-200 checkpoints are read.

The encoder and the one-step decoder share the checkpoint's names ("model.encoder.layers.N.self_attn.q_proj"…);
the loaders differ in where the LayerNorms sit, their position tables and whether the encoder reads the
decoder's embedding, and each says so by overriding the hooks below.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

from ..config_sizes import Stated
from ..weights import Attention, Layer, Lazy, Norm, Seq2SeqWeights, Tensors, read_layer_norm, read_linear
from .base import Loader

LAYER_NORM_EPS = 1e-5  # torch's LayerNorm default, which the BART-layout models use throughout
SIDES = ("encoder", "decoder")


def _first(tensors: Tensors, names: tuple[str, ...]) -> str:
    """The first of several names a checkpoint may store one tensor under (tied weights are saved once)."""
    for name in names:
        if tensors.has(name):
            return name
    raise ValueError(f"the checkpoint has none of {', '.join(names)}")


class EncoderDecoderLoader(Loader):
    pre_norm: ClassVar[bool] = True  # LayerNorm before each sublayer, one after each stack (else after each)
    layernorm_embedding: ClassVar[bool] = False  # a LayerNorm right after embeddings + positions
    # how the position tables are had: "sinusoidal" (MarianMT, computed unless stored), "learned" (mBART, stored),
    # "fairseq" (M2M100, NLLB: computed, offset by the pad id)
    positions: ClassVar[str] = "sinusoidal"

    # --- positions ---------------------------------------------------------------------------------
    def position_offset(self, config: Any) -> int:
        """The row of the position table that holds position 0."""
        return 0

    def pad_position(self, config: Any) -> int | None:
        """fairseq positions: pad tokens take this row and are not counted."""
        return None

    # --- export -----------------------------------------------------------------------------------
    def shares_embeddings(self, config: Any) -> bool:
        """Whether the encoder reads the decoder's embedding matrix (always, but for some MarianMT models)."""
        return True

    def weights(self, tensors: Tensors, config: Any, positions: tuple[np.ndarray, np.ndarray]) -> Seq2SeqWeights:
        """The model's weights by their state-dict names; `positions` are the encoder's and decoder's tables."""
        cfg = config
        if cfg.d_model % cfg.encoder_attention_heads or cfg.encoder_attention_heads != cfg.decoder_attention_heads:
            raise ValueError("encoder and decoder must use the same number of attention heads dividing d_model")
        # tied matrices are one parameter in transformers: a checkpoint stores it under any one of their names
        shared: tuple[str, ...] = (
            "model.shared.weight",
            "model.encoder.embed_tokens.weight",
            "model.decoder.embed_tokens.weight",
        )
        head = ("lm_head.weight",)
        if self.shares_embeddings(cfg):
            dec_names = shared + head if cfg.tie_word_embeddings else shared
            enc_emb = dec_emb = tensors.array(_first(tensors, dec_names))
        else:
            enc_emb = tensors.array("model.encoder.embed_tokens.weight")
            dec_names = ("model.decoder.embed_tokens.weight",) + (head if cfg.tie_word_embeddings else ())
            dec_emb = tensors.array(_first(tensors, dec_names))
        lm_head = dec_emb if cfg.tie_word_embeddings else tensors.array(_first(tensors, head))

        def attention(prefix: str) -> Attention:
            return Attention(*(read_linear(tensors, f"{prefix}.{p}_proj") for p in ("q", "k", "v", "out")))

        def layer(prefix: str, cross: bool) -> Layer:
            return Layer(
                attention(f"{prefix}.self_attn"),
                read_layer_norm(tensors, f"{prefix}.self_attn_layer_norm"),
                read_linear(tensors, f"{prefix}.fc1"),
                read_linear(tensors, f"{prefix}.fc2"),
                read_layer_norm(tensors, f"{prefix}.final_layer_norm"),
                cross_attn=attention(f"{prefix}.encoder_attn") if cross else None,
                cross_norm=read_layer_norm(tensors, f"{prefix}.encoder_attn_layer_norm") if cross else None,
            )

        def stack_norm(side: str, name: str, present: bool) -> Norm | None:
            return read_layer_norm(tensors, f"model.{side}.{name}") if present else None

        bias = "final_logits_bias"  # M2M100 has none
        return Seq2SeqWeights(
            d_model=cfg.d_model,
            heads=cfg.decoder_attention_heads,
            activation=cfg.activation_function,
            embed_scale=math.sqrt(cfg.d_model) if cfg.scale_embedding else 1.0,
            layer_norm_eps=LAYER_NORM_EPS,
            encoder_embedding=enc_emb,
            decoder_embedding=dec_emb,
            lm_head=lm_head,
            final_logits_bias=tensors.array(bias).reshape(-1)
            if tensors.has(bias)
            else np.zeros(dec_emb.shape[0], np.float32),
            encoder_positions=positions[0],
            decoder_positions=positions[1],
            encoder_layers=Lazy(cfg.encoder_layers, lambda i: layer(f"model.encoder.layers.{i}", False)),
            decoder_layers=Lazy(cfg.decoder_layers, lambda i: layer(f"model.decoder.layers.{i}", True)),
            pre_norm=self.pre_norm,
            position_offset=self.position_offset(cfg),
            pad_position=self.pad_position(cfg),
            encoder_embedding_norm=stack_norm("encoder", "layernorm_embedding", self.layernorm_embedding),
            decoder_embedding_norm=stack_norm("decoder", "layernorm_embedding", self.layernorm_embedding),
            encoder_final_norm=stack_norm("encoder", "layer_norm", self.pre_norm),
            decoder_final_norm=stack_norm("decoder", "layer_norm", self.pre_norm),
        )

    def stated_shapes(self, config: Any, tensors: Tensors) -> list[Stated]:
        cfg, width = config, ("d_model", config.d_model)
        shared = ("model.shared.weight", "model.encoder.embed_tokens.weight", "model.decoder.embed_tokens.weight")
        embedding = next((name for name in shared if tensors.has(name)), shared[0])
        return [
            Stated(embedding, (("vocab_size", cfg.vocab_size), width)),
            Stated("model.encoder.layers.0.self_attn.q_proj.weight", (width, width)),
            Stated("model.encoder.layers.0.fc1.weight", (("encoder_ffn_dim", cfg.encoder_ffn_dim), width)),
            Stated("model.decoder.layers.0.fc1.weight", (("decoder_ffn_dim", cfg.decoder_ffn_dim), width)),
        ]

    def stated_layers(self, config: Any, tensors: Tensors) -> list[tuple[str, int, str]]:
        return [(f"{side}_layers", getattr(config, f"{side}_layers"), f"model.{side}.layers.") for side in SIDES]

    def position_rows(self, config: Any) -> int:
        """The rows of each position table: max_position_embeddings and the family's extra rows."""
        return int(config.max_position_embeddings) + self.family.extra_position_rows()

    def manifest_architecture(self, config: Any, weights: Any) -> dict[str, Any]:
        cfg = config
        return {
            "d_model": cfg.d_model,
            "encoder_layers": cfg.encoder_layers,
            "decoder_layers": cfg.decoder_layers,
            "heads": cfg.decoder_attention_heads,
            "head_dim": cfg.d_model // cfg.decoder_attention_heads,
            "ffn_dim": cfg.decoder_ffn_dim,
            "vocab_size": int(weights.lm_head.shape[0]),
            "max_positions": cfg.max_position_embeddings,
            "activation": cfg.activation_function,
            # how the graphs were built, for the record
            "pre_norm": self.pre_norm,
            "layernorm_embedding": self.layernorm_embedding,
            "positions": self.positions,
            "embed_scale": bool(cfg.scale_embedding),
        }
