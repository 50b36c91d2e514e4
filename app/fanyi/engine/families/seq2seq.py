"""Encoder-decoder transformers (BART's layout): what MarianMT, mBART-50, M2M100 and NLLB-200 share.

One encoder graph and one one-step decoder graph (fanyi.export.transformer_graphs), run by
fanyi.engine.runner.Runner. The families differ in where the LayerNorms sit, their position
tables, their tokenizers and how a request names its languages; each says so by overriding the
hooks below.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ..runner import Runner
from ..schema import BOOLEAN, Invalid, one_of
from .base import ACTIVATION, HEADS, LAYERS, POSITIONS, VOCAB, WIDTH, Family, informative
from .weights import Attention, Layer, Linear, Norm, Seq2SeqWeights

if TYPE_CHECKING:
    from ..pack_view import PackView

POSITION_TABLES = ("shared.encoder_positions", "shared.decoder_positions")  # [max_positions, d_model]


def array(tensor: Any) -> np.ndarray:
    """A torch tensor (or parameter) of any float type, bfloat16 included, as float32 numpy, without
    importing torch."""
    values: np.ndarray = tensor.detach().float().cpu().numpy()
    return values


def linear(module: Any) -> Linear:
    return Linear(array(module.weight).T.copy(), None if module.bias is None else array(module.bias))


def layer_norm(module: Any) -> Norm:
    return Norm(array(module.weight), array(module.bias))


def _attention(module: Any) -> Attention:
    return Attention(linear(module.q_proj), linear(module.k_proj), linear(module.v_proj), linear(module.out_proj))


def _position_table(module: Any) -> np.ndarray:
    # learned tables are a weight, sinusoidal ones (Marian, M2M100) a weight or a buffer
    return array(module.weight if hasattr(module, "weight") else module.weights)


class EncoderDecoder(Family):
    graphs = ("encoder.onnx", "decoder.onnx")
    architecture_fields: ClassVar[dict[str, Any]] = {
        "d_model": WIDTH,
        "encoder_layers": LAYERS,
        "decoder_layers": LAYERS,
        "heads": HEADS,
        "head_dim": WIDTH,
        "ffn_dim": WIDTH,
        "vocab_size": VOCAB,
        "max_positions": POSITIONS,
        "activation": ACTIVATION,
        "pre_norm": informative(BOOLEAN),
        "layernorm_embedding": informative(BOOLEAN),
        "positions": informative(one_of("sinusoidal", "learned", "fairseq")),
        "embed_scale": informative(BOOLEAN),
    }
    pre_norm: ClassVar[bool] = True  # LayerNorm before each sublayer, one after each stack (else after each)
    layernorm_embedding: ClassVar[bool] = False  # a LayerNorm right after embeddings + positions
    positions: ClassVar[str] = "sinusoidal"  # for the record: how position_offset/pad_position read the table

    # --- positions ---------------------------------------------------------------------------------
    def position_offset(self, config: Any) -> int:
        """The row of the position table that holds position 0."""
        return 0

    def pad_position(self, config: Any) -> int | None:
        """fairseq positions: pad tokens take this row and are not counted."""
        return None

    # --- export -----------------------------------------------------------------------------------
    def weights(self, model: Any) -> Seq2SeqWeights:
        cfg = model.config
        enc, dec = model.model.encoder, model.model.decoder
        if cfg.d_model % cfg.encoder_attention_heads or cfg.encoder_attention_heads != cfg.decoder_attention_heads:
            raise ValueError("encoder and decoder must use the same number of attention heads dividing d_model")
        eps = enc.layers[0].self_attn_layer_norm.eps if len(enc.layers) else 1e-5
        dec_emb_t = dec.embed_tokens.weight
        dec_emb = array(dec_emb_t)

        def shared_or_copy(tensor: Any) -> np.ndarray:
            return dec_emb if tensor.data_ptr() == dec_emb_t.data_ptr() else array(tensor)

        def layer(block: Any, cross: bool) -> Layer:
            return Layer(
                _attention(block.self_attn),
                layer_norm(block.self_attn_layer_norm),
                linear(block.fc1),
                linear(block.fc2),
                layer_norm(block.final_layer_norm),
                cross_attn=_attention(block.encoder_attn) if cross else None,
                cross_norm=layer_norm(block.encoder_attn_layer_norm) if cross else None,
            )

        bias = getattr(model, "final_logits_bias", None)  # M2M100 has none
        embedding_norm = self.layernorm_embedding
        return Seq2SeqWeights(
            d_model=cfg.d_model,
            heads=cfg.decoder_attention_heads,
            activation=cfg.activation_function,
            embed_scale=math.sqrt(cfg.d_model) if cfg.scale_embedding else 1.0,
            layer_norm_eps=float(eps),
            encoder_embedding=shared_or_copy(enc.embed_tokens.weight),
            decoder_embedding=dec_emb,
            lm_head=shared_or_copy(model.lm_head.weight),
            final_logits_bias=np.zeros(dec_emb.shape[0], np.float32) if bias is None else array(bias).reshape(-1),
            encoder_positions=_position_table(enc.embed_positions),
            decoder_positions=_position_table(dec.embed_positions),
            encoder_layers=[layer(block, False) for block in enc.layers],
            decoder_layers=[layer(block, True) for block in dec.layers],
            pre_norm=self.pre_norm,
            position_offset=self.position_offset(cfg),
            pad_position=self.pad_position(cfg),
            encoder_embedding_norm=layer_norm(enc.layernorm_embedding) if embedding_norm else None,
            decoder_embedding_norm=layer_norm(dec.layernorm_embedding) if embedding_norm else None,
            encoder_final_norm=layer_norm(enc.layer_norm) if self.pre_norm else None,
            decoder_final_norm=layer_norm(dec.layer_norm) if self.pre_norm else None,
        )

    def manifest_architecture(self, model: Any) -> dict[str, Any]:
        cfg = model.config
        return {
            "d_model": cfg.d_model,
            "encoder_layers": cfg.encoder_layers,
            "decoder_layers": cfg.decoder_layers,
            "heads": cfg.decoder_attention_heads,
            "head_dim": cfg.d_model // cfg.decoder_attention_heads,
            "ffn_dim": cfg.decoder_ffn_dim,
            "vocab_size": int(model.get_output_embeddings().weight.shape[0]),
            "max_positions": cfg.max_position_embeddings,
            "activation": cfg.activation_function,
            # how the graphs were built, for the record
            "pre_norm": self.pre_norm,
            "layernorm_embedding": self.layernorm_embedding,
            "positions": self.positions,
            "embed_scale": bool(cfg.scale_embedding),
        }

    # --- the manifest -----------------------------------------------------------------------------
    def check_manifest(self, manifest: dict[str, Any]) -> None:
        arch = manifest["architecture"]
        if arch["heads"] * arch["head_dim"] != arch["d_model"]:
            raise Invalid(
                "architecture",
                f"says {arch['heads']} heads of {arch['head_dim']} values, which is not d_model {arch['d_model']}",
            )
        # the tables bound the source and target lengths the runtime allows (architecture.max_positions)
        rows = arch["max_positions"] + self.extra_position_rows()
        for name in POSITION_TABLES:
            entry = manifest["external_tensors"].get(name)
            if entry is not None and entry["shape"] != [rows, arch["d_model"]]:
                raise Invalid(
                    f"external_tensors.{name}",
                    f"has the shape {entry['shape']}, the architecture says [{rows}, {arch['d_model']}]",
                )

    # --- the runtime ------------------------------------------------------------------------------
    def open_runner(self, pack: PackView, threads: int | None) -> Runner:
        return Runner(pack, threads)

    def max_source_tokens(self, pack: PackView) -> int:
        return int(pack.architecture["max_positions"])
