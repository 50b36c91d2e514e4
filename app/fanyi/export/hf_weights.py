"""Read a Hugging Face model folder into its loader, numpy weights and computed tables, without torch.

Which loader reads a folder is the registry's answer (fanyi.export.loaders); anything else is
refused with a message naming its architecture. The configuration is config.json over the defaults
of transformers' configuration class; the weights come from the safetensors files by their names
(checkpoint.py); the tables a model computes rather than stores (sinusoidal positions, rotary cos/sin)
are computed here (tables.py); generation settings are generation_config.json (generation.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from . import tables
from .checkpoint import Checkpoint
from .config_sizes import check_shapes
from .errors import ExportError
from .loaders import ExportRefused, HfFolder, Loader, loader_for_folder
from .loaders.causal_lm import CausalLMLoader
from .loaders.seq2seq import EncoderDecoderLoader
from .weights import CausalWeights, RopeSpec, Rotary, Seq2SeqWeights


def detect_loader(hf_dir: Path) -> tuple[Loader, HfFolder]:
    """The loader of a Hugging Face folder and the folder's configuration; ExportError when none reads it."""
    try:
        folder = HfFolder.read(hf_dir)
        loader = loader_for_folder(folder)
        loader.check_folder(folder)
        loader.model_config(folder)  # its sizes held to the limits before anything is done with them
    except ExportRefused as exc:
        raise ExportError(str(exc)) from None
    return loader, folder


def model_class(loader: Loader, folder: HfFolder) -> str:
    """The transformers class of the folder (for validating against it): its own architecture where the family
    exports it (Gemma 3 takes Gemma3ForCausalLM and Gemma3ForConditionalGeneration), else the family's."""
    return folder.architecture if folder.architecture in loader.architectures else loader.model_class


def rotary_tables(specs: dict[str, RopeSpec], positions: int) -> dict[str, Rotary]:
    """Each rotary embedding's cos and sin at every position, as the model computes them in float32."""
    out = {}
    for key, spec in specs.items():
        base = spec.theta
        if spec.alpha:  # HunYuan's NTK alpha: theta · alpha^(dim/(dim−2)) in float64, the power correctly rounded
            base = spec.theta * float(tables.exact_power(spec.alpha, spec.dim / (spec.dim - 2)))
        cos, sin = tables.rotary_table(tables.inverse_frequencies(base, spec.dim, spec.factor), positions)
        out[key] = Rotary(cos, sin)
    return out


def position_tables(loader: EncoderDecoderLoader, config: Any, tensors: Checkpoint) -> tuple[np.ndarray, np.ndarray]:
    """The encoder's and decoder's position tables: stored in the checkpoint (mBART's learned ones, and MarianMT's
    where it saved them, which transformers then loads), else computed as the model computes them."""
    rows = loader.position_rows(config)

    def table(side: str) -> np.ndarray:
        name = f"model.{side}.embed_positions.weight"
        if loader.positions != "fairseq" and tensors.has(name):
            stored = tensors.array(name)
            if stored.shape != (rows, config.d_model):
                raise ExportError(f"{name} has the shape {list(stored.shape)}, the configuration says {rows} rows")
            return stored
        if loader.positions == "sinusoidal":
            return tables.marian_positions(rows, config.d_model)
        if loader.positions == "fairseq":
            return tables.fairseq_positions(rows, config.d_model, loader.pad_position(config))
        raise ExportError(f"the checkpoint has no {name}")

    encoder = table("encoder")
    decoder = table("decoder")
    if np.array_equal(encoder, decoder):
        decoder = encoder  # one array: the pack stores equal tables once either way
    return encoder, decoder


def model_weights(loader: Loader, config: Any, hf_dir: Path) -> Seq2SeqWeights | CausalWeights:
    """The model's weights as the graph builders take them."""
    tensors = Checkpoint.open(hf_dir)
    try:
        check_shapes(loader.stated_shapes(config, tensors), loader.stated_layers(config, tensors), tensors)
        if isinstance(loader, CausalLMLoader):
            rotary = rotary_tables(loader.rotary_specs(config), loader.table_positions(config))
            return loader.weights(tensors, config, rotary)
        assert isinstance(loader, EncoderDecoderLoader)
        return loader.weights(tensors, config, position_tables(loader, config, tensors))
    except ValueError as exc:
        raise ExportError(str(exc)) from None
