"""Encoder and one-step decoder graphs of an encoder-decoder transformer, built from its weights.

One builder for every family (fanyi.engine.families): MarianMT is post-norm with sinusoidal
positions; mBART-50 is pre-norm with final LayerNorms, a LayerNorm on the embeddings and learned
positions offset by 2; M2M100 and NLLB-200 are pre-norm with final LayerNorms and fairseq's
sinusoidal positions, which count only non-pad tokens. The weights say which (Seq2SeqWeights).

Graph contract (the runtime in fanyi.engine.search relies on it):

encoder.onnx
  inputs   input_ids int64 [batch, src], attention_mask int64 [batch, src]
  outputs  last_hidden_state float [batch, src, d_model],
           cross_key_{i}, cross_value_{i} float [batch, heads, src, head_dim] for every decoder layer i
decoder.onnx (one step; every row of the batch is at the same step)
  inputs   input_ids int64 [batch, 1], position int32 [1] (the step, and the number of cached positions),
           encoder_attention_mask int64 [sources, src],
           cross_key_{i}, cross_value_{i} float [sources, heads, src, head_dim] for every decoder layer i,
           past_key_{i}, past_value_{i} float [batch, heads, capacity, head_dim]: the self-attention cache,
             positions 0 … position - 1 filled, capacity > position,
           beam_width int32 [1], cache_indirection int32 [sources, beams, capacity]: entry [s, b, t] is the
             beam of source s whose cache row holds position t of beam b's prefix,
           top_k int64 [1], log_probs_wanted bool [1]
           batch = sources × beams: rows i·beams … i·beams + beams - 1 are the beams of source i, which
           share its cross-attention keys and values (reading them once per source, not once per beam)
  outputs  logits float [batch, padded vocab]: the vocabulary padded to whole blocks of the top-id
             search, the padding at -1e30 (the runtime reads the first vocab columns),
           log_probs float [batch, padded vocab] (log-softmax of the logits) when log_probs_wanted,
             else [0, 0]: greedy search does not need it,
           top_ids int64 [batch, min(top_k, blocks)] (ids of the largest logits, best first),
           present_key_{i}, present_value_{i} [batch, heads, capacity, head_dim]: the cache with
             this step's keys and values at `position`, written in place when bound to the same
             buffers as the past (ONNX Runtime's DecoderMaskedMultiHeadAttention with
             past_present_share_buffer)

A beam search reorders no cache: a new beam that continues beam b of its source keeps its own rows,
and cache_indirection tells the attention where each earlier position of its prefix is.
The search reads the few top ids of each row instead of sorting 65k scores per row in Python; the
graph finds them block by block (the best blocks by their maximum, then the best ids in those), three
times faster than ONNX Runtime's TopK over a whole 65k row.

Tensors whose names start with "shared." (the tied embedding / output matrix and the position
table) are written once to shared.bin and referenced by both graphs as external data.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from ..engine.pack_format import INT8_SCALE_SUFFIX, INT8_WEIGHT_SUFFIX
from ..engine.runner import MAX_TOP_IDS
from .graph import MS_DOMAIN, GraphBuilder, LayerDone, Shape, nothing, quantize_columns
from .weights import Attention, Layer, Linear, Norm, Seq2SeqWeights, side_by_side

FLOAT, INT64, INT32, BOOL = TensorProto.FLOAT, TensorProto.INT64, TensorProto.INT32, TensorProto.BOOL
TOP_BLOCK = 128  # the top-id search scans the logits in blocks of this many tokens
# at least this many blocks: more than the widest candidate table a search asks for
MIN_BLOCKS = MAX_TOP_IDS
PADDING_LOGIT = -1e30  # the logit of the padding columns: never a candidate, nothing in a softmax


def top_block(vocab: int) -> int:
    """The block size of the top-id search: TOP_BLOCK, smaller for a small vocabulary."""
    block = TOP_BLOCK
    while block > 1 and vocab < block * MIN_BLOCKS:
        block //= 2
    return block


def padded_vocab(vocab: int) -> int:
    block = top_block(vocab)
    return -(-vocab // block) * block


@dataclass(frozen=True)
class QuantizeSpec:
    """What to store as int8; recorded in the manifest."""

    linear: bool = False  # every attention and feed-forward MatMul weight
    output_projection: bool = False  # the lm_head MatMul
    embeddings: bool = False  # the embedding lookups (only with a quantized, tied output matrix)

    @property
    def mode(self) -> str:
        return "int8" if (self.linear or self.output_projection) else "none"


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a is b or (a.shape == b.shape and np.array_equal(a, b))


class _Embeddings:
    """Embedding lookups and the output projection sharing one [d_model, vocab] matrix where tied.

    The matrix is stored transposed so that the output projection is a plain MatMul and the
    lookup a Gather along axis 1: both read the same initializer, so it is stored once.
    """

    def __init__(self, w: Seq2SeqWeights, spec: QuantizeSpec):
        self.w, self.spec = w, spec
        self.tied = _same(w.lm_head, w.decoder_embedding)
        self.shared_encoder = _same(w.encoder_embedding, w.decoder_embedding)
        self._scales: dict[str, np.ndarray] = {}  # an int8 table's column scales, by its name

    def _table(
        self, g: GraphBuilder, name: str, matrix: np.ndarray, int8: bool, pad: bool = True
    ) -> tuple[str, str | None]:
        if name in g.initializers:
            return name, (f"{name}{INT8_SCALE_SUFFIX}" if int8 else None)
        transposed = _pad_columns(matrix.T) if pad else np.ascontiguousarray(matrix.T, np.float32)
        if not int8:
            return g.initializer(name, transposed), None
        q = quantize_columns(transposed)
        self._scales[name] = q.scale
        return g.initializer(name, q.values), g.initializer(f"{name}{INT8_SCALE_SUFFIX}", q.scale)

    def _embedding_table(self, g: GraphBuilder, side: str) -> tuple[str, str | None]:
        w = self.w
        if side == "encoder" and not self.shared_encoder:
            return self._table(g, "encoder.embedding_t", w.encoder_embedding, False, pad=False)
        int8 = self.tied and self.spec.output_projection and self.spec.embeddings
        name = f"shared.embedding_t{INT8_WEIGHT_SUFFIX}" if int8 else "shared.embedding_t"
        return self._table(g, name, w.decoder_embedding, int8)

    def lookup(self, g: GraphBuilder, ids: str, side: str) -> str:
        table, scale = self._embedding_table(g, side)
        rows = g.op("Gather", table, ids, axis=1)  # [D, B, T]
        if scale is not None:
            rows = g.op("Cast", rows, to=FLOAT)
        embedded = g.op("Transpose", rows, perm=[1, 2, 0])  # [B, T, D]
        if scale is not None:
            row_scale = g.op("Unsqueeze", g.op("Gather", scale, ids, axis=0), g.const([-1]))
            embedded = g.op("Mul", embedded, row_scale)
        if self.w.embed_scale != 1.0:
            embedded = g.op("Mul", embedded, g.const(self.w.embed_scale, np.float32))
        return embedded

    def project(self, g: GraphBuilder, hidden: str) -> str:
        w = self.w
        bias = np.asarray(w.final_logits_bias, np.float32).reshape(-1)
        padded = np.full(padded_vocab(bias.size), PADDING_LOGIT, np.float32)
        padded[: bias.size] = bias
        added = padded if padded.size > bias.size or np.any(bias) else None
        if self.spec.output_projection:
            name = f"shared.embedding_t{INT8_WEIGHT_SUFFIX}" if self.tied else f"lm_head{INT8_WEIGHT_SUFFIX}"
            table, _ = self._table(g, name, w.lm_head, True)
            return g.wide_int8_matmul(hidden, table, self._scales[table], added)
        if self.tied:
            logits = g.op("MatMul", hidden, self._table(g, "shared.embedding_t", w.decoder_embedding, False)[0])
        else:
            logits = g.linear(hidden, "lm_head", _pad_columns(w.lm_head.T), None, False)
        # ONNX Runtime adds it inside the MatMul's kernel
        return logits if added is None else g.op("Add", logits, g.initializer("final_logits_bias", added))


def _pad_columns(matrix: np.ndarray) -> np.ndarray:
    """A [d_model, vocab] output matrix with zero columns up to the padded vocabulary."""
    out = np.zeros((matrix.shape[0], padded_vocab(matrix.shape[1])), np.float32)
    out[:, : matrix.shape[1]] = matrix
    return out


def top_ids(g: GraphBuilder, logits: str, top_k: str, block: int) -> str:
    """The ids of each row's min(top_k, blocks) largest logits, best first: the blocks with the largest
    maxima hold them all, so only those blocks are sorted."""
    blocks = g.op("Reshape", logits, g.const([0, -1, block]))  # [B, blocks, block]
    maxima = g.op("ReduceMax", blocks, axes=[2], keepdims=0)
    k = g.op("Min", top_k, g.op("Shape", maxima, start=1))
    _, best_blocks = g.op("TopK", maxima, k, outputs=2, axis=-1, largest=1, sorted=1)
    where = g.op("Unsqueeze", best_blocks, g.const([-1]))  # [B, k, 1]
    values = g.op("Reshape", g.op("GatherND", blocks, where, batch_dims=1), g.const([0, -1]))
    ids = g.op("Reshape", g.op("Add", g.op("Mul", where, g.const(block)), g.const(np.arange(block))), g.const([0, -1]))
    _, best = g.op("TopK", values, k, outputs=2, axis=-1, largest=1, sorted=1)
    return g.op("GatherElements", ids, best, axis=1)


def _log_probs(g: GraphBuilder, logits: str, wanted: str) -> str:
    """log-softmax of the logits when `wanted`, else an empty [0, 0] (ONNX Runtime runs every node
    of a graph whatever outputs are asked for, so the choice is an If)."""
    then = g.branch(
        "log_softmax", helper.make_node("LogSoftmax", [logits], ["log_softmax"], axis=-1), "log_softmax", FLOAT
    )
    empty = helper.make_node(
        "Constant", [], ["no_log_probs"], value=numpy_helper.from_array(np.zeros((0, 0), np.float32))
    )
    return g.op("If", wanted, then_branch=then, else_branch=g.branch("none", empty, "no_log_probs", FLOAT))


def _scaled(lin: Linear, scale: float) -> Linear:
    """The projection times `scale`: the attention scaling folded into the query projection, one
    multiply less per step."""
    if scale == 1.0:
        return lin
    return Linear(lin.weight * np.float32(scale), None if lin.bias is None else lin.bias * np.float32(scale))


def _projection(g: GraphBuilder, x: str, prefix: str, lin: Linear, spec: QuantizeSpec, scale: float = 1.0) -> str:
    lin = _scaled(lin, scale)
    return g.linear(x, prefix, lin.weight, lin.bias, spec.linear)


def _packed(g: GraphBuilder, x: str, prefix: str, parts: list[tuple[Linear, float]], spec: QuantizeSpec) -> list[str]:
    """Projections of one input (each with its scale) as one product, split after it.

    x is quantized once and multiplied in one parallel section instead of one each, and at batch 1
    every section wakes the worker threads. Each column is quantized on its own and each output sums
    the same terms, so the parts are the separate products bit for bit."""
    lins = [_scaled(lin, scale) for lin, scale in parts]
    packed = side_by_side(lins)
    y = g.linear(x, prefix, packed.weight, packed.bias, spec.linear)
    return g.op("Split", y, g.const([lin.weight.shape[1] for lin in lins]), axis=-1, outputs=len(lins))


def _attention(g: GraphBuilder, q: str, k: str, v: str, key_mask: str, w: Seq2SeqWeights) -> str:
    """ONNX Runtime's attention, the padded keys masked; scale 1 because the query projection is
    scaled already."""
    return g.op("MultiHeadAttention", q, k, v, "", key_mask, domain=MS_DOMAIN, num_heads=w.heads, scale=1.0)


def _norm(g: GraphBuilder, x: str, prefix: str, norm: Norm, w: Seq2SeqWeights) -> str:
    return g.layer_norm(x, prefix, norm.weight, norm.bias, w.layer_norm_eps)


def _sublayer_input(g: GraphBuilder, h: str, prefix: str, norm: Norm, w: Seq2SeqWeights) -> str:
    """What a sublayer reads: LayerNorm(h) in a pre-norm model, h itself in a post-norm one."""
    return _norm(g, h, prefix, norm, w) if w.pre_norm else h


def _residual(g: GraphBuilder, h: str, update: str, prefix: str, norm: Norm, w: Seq2SeqWeights) -> str:
    """Pre-norm: h + sublayer(LayerNorm(h)); post-norm (Marian): LayerNorm(h + sublayer(h))."""
    added = g.op("Add", h, update)
    return added if w.pre_norm else _norm(g, added, prefix, norm, w)


def _attention_out(
    g: GraphBuilder, h: str, merged: str, prefix: str, att: Attention, norm: Norm, w: Seq2SeqWeights, spec: QuantizeSpec
) -> str:
    """The output projection of an attention's context [B, T, D] and its residual."""
    return _residual(g, h, _projection(g, merged, f"{prefix}.o", att.out, spec), f"{prefix}.norm", norm, w)


def _ffn_block(g: GraphBuilder, h: str, prefix: str, layer: Layer, w: Seq2SeqWeights, spec: QuantizeSpec) -> str:
    x = _sublayer_input(g, h, f"{prefix}.final_norm", layer.final_norm, w)
    inner = g.activation(_projection(g, x, f"{prefix}.fc1", layer.fc1, spec), w.activation)
    out = _projection(g, inner, f"{prefix}.fc2", layer.fc2, spec)
    return _residual(g, h, out, f"{prefix}.final_norm", layer.final_norm, w)


def _embedded(g: GraphBuilder, tokens: str, positions: str, prefix: str, norm: Norm | None, w: Seq2SeqWeights) -> str:
    h = g.op("Add", tokens, positions)
    return h if norm is None else _norm(g, h, f"{prefix}.embedding_norm", norm, w)


def _stack_output(g: GraphBuilder, h: str, prefix: str, norm: Norm | None, w: Seq2SeqWeights) -> str:
    return h if norm is None else _norm(g, h, f"{prefix}.final_layer_norm", norm, w)


def _positions(g: GraphBuilder, name: str, table: np.ndarray) -> str:
    return name if name in g.initializers else g.initializer(name, table.astype(np.float32))


def _encoder_positions(g: GraphBuilder, ids: str, w: Seq2SeqWeights) -> str:
    """[B, T, D] (fairseq positions) or [T, D], broadcast over the batch."""
    table = _positions(g, "shared.encoder_positions", w.encoder_positions)
    if w.pad_position is not None:
        # fairseq make_positions: the i-th non-pad token takes row pad + i (counting from 1), pads row pad
        real = g.op("Cast", g.op("Not", g.op("Equal", ids, g.const(w.pad_position))), to=INT64)
        counted = g.op("Mul", g.op("CumSum", real, g.const(1)), real)
        return g.op("Gather", table, g.op("Add", counted, g.const(w.pad_position)), axis=0)
    length = g.op("Gather", g.op("Shape", ids), g.const([1]), axis=0)
    start = g.const([w.position_offset])
    end = g.op("Add", length, start) if w.position_offset else length
    return g.op("Slice", table, start, end, g.const([0]))


def _decoder_position(g: GraphBuilder, ids: str, position: str, w: Seq2SeqWeights) -> str:
    """The position row of this step: [1, D], or [B, 1, D] where a pad token takes the pad row."""
    table = _positions(g, "shared.decoder_positions", w.decoder_positions)
    row = g.op("Add", position, g.const([w.position_offset], np.int32)) if w.position_offset else position
    if w.pad_position is not None:
        row = g.op("Where", g.op("Equal", ids, g.const(w.pad_position)), g.const(w.pad_position, np.int32), row)
    return g.op("Gather", table, row, axis=0)


def build_encoder(w: Seq2SeqWeights, spec: QuantizeSpec, layer_done: LayerDone = nothing) -> GraphBuilder:
    g = GraphBuilder("encoder")
    emb = _Embeddings(w, spec)
    ids = g.add_input("input_ids", INT64, ["batch", "src"])
    mask = g.add_input("attention_mask", INT64, ["batch", "src"])
    scaling = w.head_dim**-0.5

    h = _embedded(
        g, emb.lookup(g, ids, "encoder"), _encoder_positions(g, ids, w), "encoder", w.encoder_embedding_norm, w
    )
    key_mask = g.op("Cast", mask, to=TensorProto.INT32)  # ONNX Runtime's attention masks the padding itself

    for i, layer in enumerate(w.encoder_layers):
        p = f"encoder.{i}"
        att = layer.self_attn
        x = _sublayer_input(g, h, f"{p}.self.norm", layer.self_norm, w)
        q, k, v = _packed(g, x, f"{p}.qkv", [(att.q, scaling), (att.k, 1.0), (att.v, 1.0)], spec)
        ctx = _attention(g, q, k, v, key_mask, w)
        h = _attention_out(g, h, ctx, f"{p}.self", att, layer.self_norm, w, spec)
        h = _ffn_block(g, h, p, layer, w, spec)
        layer_done()

    h = _stack_output(g, h, "encoder", w.encoder_final_norm, w)
    h = g.add_output(h, "last_hidden_state", FLOAT, ["batch", "src", w.d_model])
    kv_shape: Shape = ["batch", w.heads, "src", w.head_dim]
    # every decoder layer's cross-attention keys and values: one product of the encoder's output
    parts: list[tuple[Linear, float]] = []
    for layer in w.decoder_layers:
        assert layer.cross_attn is not None  # a decoder layer
        parts += [(layer.cross_attn.k, 1.0), (layer.cross_attn.v, 1.0)]
    keys_values = _packed(g, h, "decoder.cross_kv", parts, spec)
    for i, (key, value) in enumerate(zip(keys_values[::2], keys_values[1::2], strict=True)):
        k, v = (g.split_heads(part, w.heads, w.head_dim) for part in (key, value))
        g.add_output(k, f"cross_key_{i}", FLOAT, kv_shape)
        g.add_output(v, f"cross_value_{i}", FLOAT, kv_shape)
    return g


def build_decoder(w: Seq2SeqWeights, spec: QuantizeSpec, layer_done: LayerDone = nothing) -> GraphBuilder:
    g = GraphBuilder("decoder_step")
    emb = _Embeddings(w, spec)
    ids = g.add_input("input_ids", INT64, ["batch", 1])
    position = g.add_input("position", INT32, [1])
    enc_mask = g.add_input("encoder_attention_mask", INT64, ["sources", "src"])
    n = len(w.decoder_layers)
    cross_shape: Shape = ["sources", w.heads, "src", w.head_dim]
    cache_shape: Shape = ["batch", w.heads, "capacity", w.head_dim]
    cross = [
        (g.add_input(f"cross_key_{i}", FLOAT, cross_shape), g.add_input(f"cross_value_{i}", FLOAT, cross_shape))
        for i in range(n)
    ]
    past = [
        (g.add_input(f"past_key_{i}", FLOAT, cache_shape), g.add_input(f"past_value_{i}", FLOAT, cache_shape))
        for i in range(n)
    ]
    beam_width = g.add_input("beam_width", INT32, [1])
    indirection = g.add_input("cache_indirection", INT32, ["sources", "beams", "capacity"])
    top_k = g.add_input("top_k", INT64, [1])
    wanted = g.add_input("log_probs_wanted", BOOL, [1])
    scaling = w.head_dim**-0.5

    h = _embedded(
        g, emb.lookup(g, ids, "decoder"), _decoder_position(g, ids, position, w), "decoder", w.decoder_embedding_norm, w
    )
    # ONNX Runtime's attention masks the padding of the sources' keys itself
    key_mask = g.op("Cast", enc_mask, to=TensorProto.INT32)
    # The rows are the beams of each source, source by source: the cross-attention keys and values
    # are given once per source, and each source's beam queries are attended together, as its
    # sequence of queries.
    sources = g.op("Slice", g.op("Shape", enc_mask), g.const([0]), g.const([1]))
    by_source = g.op("Concat", sources, g.const([-1, w.d_model]), axis=0)

    presents = []
    for i, layer in enumerate(w.decoder_layers):
        p = f"decoder.{i}"
        att = layer.self_attn
        x = _sublayer_input(g, h, f"{p}.self.norm", layer.self_norm, w)
        q, k, v = _packed(g, x, f"{p}.qkv", [(att.q, scaling), (att.k, 1.0), (att.v, 1.0)], spec)  # q scaled
        # this step's key and value go into the cache at `position`; earlier positions are read
        # through the cache indirection, so a beam search never copies the cache
        ctx, key, value = g.op(
            "DecoderMaskedMultiHeadAttention",
            q,
            k,
            v,
            "",
            "",
            past[i][0],
            past[i][1],
            position,
            beam_width,
            indirection,
            outputs=3,
            domain=MS_DOMAIN,
            num_heads=w.heads,
            past_present_share_buffer=1,
            scale=1.0,
        )
        presents.append((key, value))
        g.annotate(ctx, FLOAT, ["batch", 1, w.d_model])
        h = _attention_out(g, h, ctx, f"{p}.self", att, layer.self_norm, w, spec)

        catt, cnorm = layer.cross_attn, layer.cross_norm
        assert catt is not None and cnorm is not None  # a decoder layer
        x = _sublayer_input(g, h, f"{p}.cross.norm", cnorm, w)
        # [sources, beams, D], scaled already
        cq = g.op("Reshape", _projection(g, x, f"{p}.cross_q", catt.q, spec, scaling), by_source)
        ctx = _attention(g, cq, cross[i][0], cross[i][1], key_mask, w)
        ctx = g.op("Reshape", ctx, g.const([-1, 1, w.d_model]))  # back to [rows, 1, D]
        h = _attention_out(g, h, ctx, f"{p}.cross", catt, cnorm, w, spec)
        h = _ffn_block(g, h, p, layer, w, spec)
        layer_done()

    h = _stack_output(g, h, "decoder", w.decoder_final_norm, w)
    last = g.op("Squeeze", h, g.const([1]))  # [B, D]
    vocab = padded_vocab(w.final_logits_bias.shape[-1])
    logits = g.add_output(emb.project(g, last), "logits", FLOAT, ["batch", vocab])
    g.add_output(_log_probs(g, logits, wanted), "log_probs", FLOAT, ["rows", "columns"])
    g.add_output(
        top_ids(g, logits, top_k, top_block(w.final_logits_bias.shape[-1])), "top_ids", INT64, ["batch", "top_k"]
    )
    for i, (k, v) in enumerate(presents):
        g.add_output(k, f"present_key_{i}", FLOAT, cache_shape)
        g.add_output(v, f"present_value_{i}", FLOAT, cache_shape)
    return g
