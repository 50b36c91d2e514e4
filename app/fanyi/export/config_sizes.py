"""config.json's sizes, checked before any work is done with them.

First against the bounds of fanyi.limits (the same ones a pack's manifest is held to), as soon as config.json is
read: a layer count, head count, width, vocabulary or position count that is not a positive whole number or is
past its bound is refused in one line before a table is computed, a weight read or (``fanyi models get``) the
weights downloaded. Then against the checkpoint's own tensor shapes, read from the safetensors headers alone:
transformers refuses to load a checkpoint whose shapes differ from its configuration, and so does the export,
before it computes a position or rotary table from those numbers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .. import limits
from .checkpoint import Checkpoint
from .errors import ExportError

# the config.json keys a model is built from, by the bound that holds each
BOUNDS = {
    **dict.fromkeys(("encoder_layers", "decoder_layers", "num_hidden_layers"), limits.MAX_LAYERS),
    **dict.fromkeys(
        ("encoder_attention_heads", "decoder_attention_heads", "num_attention_heads", "num_key_value_heads"),
        limits.MAX_HEADS,
    ),
    **dict.fromkeys(
        ("d_model", "hidden_size", "encoder_ffn_dim", "decoder_ffn_dim", "intermediate_size", "head_dim"),
        limits.MAX_MODEL_WIDTH,
    ),
    "vocab_size": limits.MAX_VOCAB_SIZE,
    "max_position_embeddings": limits.MAX_POSITIONS,
}


def check_bounds(config: Any, *, positions: bool) -> None:
    """ExportError for a size of ``config`` that is not a positive whole number or is past its bound.
    ``positions``: whether every position gets a row of a table (an encoder-decoder's); a decoder-only
    model's rotary tables stop at a fixed count whatever its max_position_embeddings says."""
    for key, bound in BOUNDS.items():
        value = getattr(config, key, None)
        if value is None:
            continue
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ExportError(f"config.json: {key} {value!r} is not a positive whole number")
        if value > bound and (positions or key != "max_position_embeddings"):
            raise ExportError(f"config.json: {key} {value} is more than Fanyi converts (at most {bound})")


@dataclass(frozen=True)
class Stated:
    """A tensor whose shape config.json states: each dimension with the key (or keys) it comes from."""

    name: str
    dims: tuple[tuple[str, int], ...]


def stored_layers(tensors: Checkpoint, prefix: str) -> int:
    """How many layers the checkpoint stores under ``prefix`` ("model.encoder.layers.")."""
    pattern = re.compile(re.escape(prefix) + r"(\d+)\.")
    return len({m.group(1) for name in tensors.names if (m := pattern.match(name))})


def check_shapes(stated: Iterable[Stated], layers: Iterable[tuple[str, int, str]], tensors: Checkpoint) -> None:
    """ExportError where config.json states another shape than the checkpoint's or another number of layers.
    ``layers``: (key, value, prefix) — the layers config.json counts and where the checkpoint keeps them."""
    for key, value, prefix in layers:
        found = stored_layers(tensors, prefix)
        if found != value:
            raise ExportError(f"config.json says {value} {key}, but the checkpoint has {found}")
    for tensor in stated:
        if not tensors.has(tensor.name):
            continue  # a missing tensor is named where it is read
        shape = tensors.shape(tensor.name)
        if shape != tuple(value for _key, value in tensor.dims):
            wrong = [(k, v) for (k, v), got in zip(tensor.dims, shape) if v != got] or [tensor.dims[0]]
            key, value = wrong[0]
            raise ExportError(
                f"config.json says {key} {value}, but the checkpoint's {tensor.name} is {list(shape)}: "
                "the configuration does not belong to these weights"
            )
