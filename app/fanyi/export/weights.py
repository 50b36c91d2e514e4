"""A model's weights as plain numpy arrays, in the shape the graph builders take them.

The loaders (fanyi.export.loaders) fill these from a checkpoint's tensors, named as the model's own
state dict names them (fanyi.export.checkpoint reads them from safetensors files); the graph
builders in fanyi.export read them. Weights of linear layers are [in, out], as the graphs multiply.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, overload

import numpy as np

T = TypeVar("T")


class Tensors(Protocol):
    """A checkpoint's tensors by name, each read as float32 when asked for (fanyi.export.checkpoint.Checkpoint)."""

    def has(self, name: str) -> bool: ...

    def shape(self, name: str) -> tuple[int, ...]: ...

    def array(self, name: str) -> np.ndarray: ...

    def rows(self, name: str, start: int, stop: int) -> np.ndarray: ...


class Lazy(Sequence[T], Generic[T]):
    """A model's layers, each read from the checkpoint when a graph builder comes to it and dropped after: the
    model is never held whole in float32."""

    def __init__(self, count: int, make: Callable[[int], T]):
        self._count, self._make = count, make

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...

    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if not -self._count <= index < self._count:
            raise IndexError(index)
        return self._make(index % self._count)

    def __iter__(self) -> Iterator[T]:
        return (self._make(i) for i in range(self._count))


class Table:
    """A large [rows, width] matrix (an LLM's embedding / output matrix) read a block of rows at a time, or whole
    (np.asarray) where a graph stores it in float32."""

    def __init__(self, tensors: Tensors, name: str):
        self._tensors, self._name = tensors, name
        rows, width = tensors.shape(name)
        self.shape = (rows, width)

    def rows(self, start: int, stop: int) -> np.ndarray:
        return self._tensors.rows(self._name, start, stop)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        whole = self._tensors.array(self._name)
        return whole if dtype is None else whole.astype(dtype)


def read_linear(tensors: Tensors, prefix: str) -> Linear:
    """`prefix`.weight ([out, in] in the checkpoint) as [in, out], and `prefix`.bias where there is one."""
    bias = f"{prefix}.bias"
    return Linear(tensors.array(f"{prefix}.weight").T.copy(), tensors.array(bias) if tensors.has(bias) else None)


def read_layer_norm(tensors: Tensors, prefix: str) -> Norm:
    return Norm(tensors.array(f"{prefix}.weight"), tensors.array(f"{prefix}.bias"))


# --- encoder-decoder (MarianMT, mBART-50, M2M100, NLLB-200) ---------------------------------------
@dataclass
class Linear:
    weight: np.ndarray  # [in, out]
    bias: np.ndarray | None


def side_by_side(parts: list[Linear]) -> Linear:
    """Projections of one input as one: their columns side by side, a zero bias for a part without one
    (adding zeros changes nothing) when any has a bias."""
    weight = np.concatenate([p.weight for p in parts], axis=1)
    if all(p.bias is None for p in parts):
        return Linear(weight, None)
    return Linear(
        weight, np.concatenate([np.zeros(p.weight.shape[1], np.float32) if p.bias is None else p.bias for p in parts])
    )


@dataclass
class Norm:
    weight: np.ndarray
    bias: np.ndarray


@dataclass
class Attention:
    q: Linear
    k: Linear
    v: Linear
    out: Linear


@dataclass
class Layer:
    self_attn: Attention
    self_norm: Norm
    fc1: Linear
    fc2: Linear
    final_norm: Norm
    cross_attn: Attention | None = None
    cross_norm: Norm | None = None


@dataclass
class Seq2SeqWeights:
    d_model: int
    heads: int
    activation: str
    embed_scale: float
    layer_norm_eps: float
    encoder_embedding: np.ndarray  # [vocab, d_model]
    decoder_embedding: np.ndarray
    lm_head: np.ndarray  # [vocab, d_model]
    final_logits_bias: np.ndarray  # [vocab]
    encoder_positions: np.ndarray  # [rows, d_model]: the model's whole table
    decoder_positions: np.ndarray
    encoder_layers: Sequence[Layer]
    decoder_layers: Sequence[Layer]
    pre_norm: bool = False  # LayerNorm before each sublayer (mBART, M2M100) instead of after (Marian)
    position_offset: int = 0  # the table row of position 0
    pad_position: int | None = None  # fairseq positions: pad tokens take this row and are not counted
    encoder_embedding_norm: Norm | None = None  # mBART's layernorm_embedding
    decoder_embedding_norm: Norm | None = None
    encoder_final_norm: Norm | None = None  # pre-norm stacks end with a LayerNorm
    decoder_final_norm: Norm | None = None

    @property
    def head_dim(self) -> int:
        return self.d_model // self.heads


# --- decoder-only (the translation LLMs) -----------------------------------------------------------
@dataclass(frozen=True)
class RopeSpec:
    """A rotary embedding as a configuration states it; fanyi.export.tables computes its cos and sin."""

    theta: float  # the base of the frequencies
    dim: int  # the rotated width of a head
    factor: float = 1.0  # linear scaling: frequencies divided by it (Gemma 3's global layers)
    alpha: float | None = None  # HunYuan's NTK alpha: the base becomes theta · alpha^(dim / (dim − 2))


@dataclass
class Rotary:
    """One rotary embedding as the model computes it: cos and sin of every position up to the table's
    length, [positions, head_dim / 2], taken from the model itself so that they are its exact values."""

    cos: np.ndarray
    sin: np.ndarray


@dataclass
class DecoderBlock:
    """One layer of a decoder-only model. Norms are RMSNorm multipliers as applied (Gemma's 1 + w already
    added). Qwen3/HunYuan: x + attn(norm(x)), then x + mlp(pre_ffn_norm(x)); Gemma 3 also normalises each
    sublayer's output (post_attention_norm, post_ffn_norm) before the residual add."""

    input_norm: np.ndarray
    q: Linear
    k: Linear
    v: Linear
    o: Linear
    pre_ffn_norm: np.ndarray
    gate: Linear
    up: Linear
    down: Linear
    rotary: str  # the key into CausalWeights.rotary
    q_norm: np.ndarray | None = None  # per-head RMSNorm of queries and keys (Qwen3, HunYuan, Gemma 3)
    k_norm: np.ndarray | None = None
    post_attention_norm: np.ndarray | None = None  # Gemma 3's sandwich norms
    post_ffn_norm: np.ndarray | None = None
    sliding_window: int | None = None  # keys at most this many positions back (Gemma 3's local layers)


@dataclass
class CausalWeights:
    hidden_size: int
    heads: int
    kv_heads: int
    head_dim: int
    activation: str  # "silu" (SwiGLU) or "gelu_tanh" (GeGLU)
    rms_eps: float
    embedding: Table  # [vocab, hidden]
    lm_head: Table  # [vocab, hidden]; the same object where the model ties them
    final_norm: np.ndarray
    layers: Sequence[DecoderBlock]
    rotary: dict[str, Rotary]
    attention_scale: float  # softmax(scale · q kᵀ)
    embed_scale: float = 1.0  # Gemma multiplies the embeddings by sqrt(hidden_size)
    qk_norm_after_rotary: bool = False  # HunYuan normalises queries and keys after the rotary embedding
    attention_softcap: float | None = None  # tanh soft-capping of attention scores / final logits, where set
    final_softcap: float | None = None
    vocab_size: int = field(init=False)

    def __post_init__(self) -> None:
        self.vocab_size = int(self.embedding.shape[0])

    @property
    def tied(self) -> bool:
        return self.lm_head is self.embedding
