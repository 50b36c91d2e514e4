"""Encoder-decoder transformers (BART's layout): what MarianMT, mBART-50, M2M100 and NLLB-200 share.

One encoder graph and one one-step decoder graph (fanyi.export.transformer_graphs), run by
fanyi.engine.runner.Runner. The families differ in their tokenizers, their position tables' extra rows
and how a request names its languages; each says so by overriding the hooks below (how a checkpoint is
read is fanyi.export.loaders').
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..runner import Runner
from ..schema import BOOLEAN, Invalid, one_of
from .base import ACTIVATION, HEADS, LAYERS, POSITIONS, VOCAB, WIDTH, Family, informative

if TYPE_CHECKING:
    from ..pack_view import PackView

POSITION_TABLES = ("shared.encoder_positions", "shared.decoder_positions")  # [max_positions, d_model]


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
