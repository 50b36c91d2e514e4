"""Model pack format: manifest contents, one copy of the tied matrix, and clear errors for broken packs."""

from __future__ import annotations

import json
import re
import shutil

import numpy as np
import onnx
import pytest
from pack_damage import replace_file, rewrite_manifest

from fanyi.engine.pack import FORMAT_VERSION, ModelPack, PackError, file_digest


@pytest.fixture()
def pack_copy(tiny_pack, tmp_path):
    return shutil.copytree(tiny_pack, tmp_path / "pack")


def test_manifest_records_what_the_runtime_needs(tiny_pack, tiny_hf_en_zh):
    manifest = json.loads((tiny_pack / "manifest.json").read_text(encoding="utf-8"))
    gen_cfg = json.loads((tiny_hf_en_zh / "generation_config.json").read_text(encoding="utf-8"))
    vocab = json.loads((tiny_hf_en_zh / "vocab.json").read_text(encoding="utf-8"))
    assert manifest["format_version"] == FORMAT_VERSION
    assert manifest["generation"]["num_beams"] == gen_cfg["num_beams"]
    assert manifest["generation"]["max_length"] == gen_cfg["max_length"]
    assert manifest["special_ids"]["decoder_start"] == gen_cfg["decoder_start_token_id"] == vocab["<pad>"]
    assert manifest["special_ids"]["eos"] == 0 and manifest["special_ids"]["unk"] == vocab["<unk>"]
    assert manifest["bad_words_ids"] == [[vocab["<pad>"]]]
    assert manifest["target_tokens"] == {"cmn_Hans": ">>cmn_Hans<<", "cmn_Hant": ">>cmn_Hant<<", "yue": ">>yue<<"}
    assert manifest["default_target"] == "cmn_Hans"
    assert (manifest["source_lang"], manifest["target_lang"]) == ("en", "zh")
    listed = set(manifest["files"])
    assert {"encoder.onnx", "decoder.onnx", "source.spm", "target.spm", "vocab.json"} <= listed
    on_disk = {p.name for p in tiny_pack.iterdir()} - {"manifest.json"}
    assert listed == on_disk
    for entry in manifest["files"].values():
        assert len(entry["sha256"]) == 64 and entry["size"] > 0


def _initializer_sizes(path) -> dict[str, int]:
    model = onnx.load(path, load_external_data=False)
    return {t.name: int(np.prod(t.dims)) for t in model.graph.initializer}


def test_tied_embedding_is_stored_once(tiny_pack):
    from fanyi.export.transformer_graphs import padded_vocab

    pack = ModelPack.open(tiny_pack)
    vocab, d_model = pack.architecture["vocab_size"], pack.architecture["d_model"]
    matrix = padded_vocab(vocab) * d_model  # the output projection's columns fill whole top-id blocks
    for graph in ("encoder.onnx", "decoder.onnx"):
        model = onnx.load(tiny_pack / graph, load_external_data=False)
        big = [t for t in model.graph.initializer if int(np.prod(t.dims)) == matrix]
        assert [t.name for t in big] == ["shared.embedding_t"]
        assert big[0].data_location == onnx.TensorProto.EXTERNAL
    assert (tiny_pack / "shared.bin").stat().st_size < 2 * matrix * 4


def test_int8_pack_is_smaller_and_records_quantization(tiny_pack, tiny_pack_int8):
    fp32, int8 = ModelPack.open(tiny_pack), ModelPack.open(tiny_pack_int8)
    assert int8.quantization == "int8" and fp32.quantization == "none"
    assert int8.manifest["quantization"]["linear"] and int8.manifest["quantization"]["output_projection"]

    def weights(pack):
        return sum(pack.manifest["files"][f]["size"] for f in ("encoder.onnx", "decoder.onnx", "shared.bin"))

    assert weights(int8) < weights(fp32) * 0.45
    decoder_ops = {n.op_type for n in onnx.load(tiny_pack_int8 / "decoder.onnx", load_external_data=False).graph.node}
    assert "MatMulInteger" in decoder_ops


def test_damaged_file_is_named(pack_copy):
    target = pack_copy / "decoder.onnx"
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0xFF
    target.write_bytes(bytes(data))
    with pytest.raises(PackError, match="decoder.onnx is damaged"):
        ModelPack.open(pack_copy)


def test_missing_file_is_named(pack_copy):
    (pack_copy / "target.spm").unlink()
    with pytest.raises(PackError, match="target.spm is missing"):
        ModelPack.open(pack_copy)


@pytest.mark.parametrize("version", [2, FORMAT_VERSION + 1])
def test_unknown_format_version(pack_copy, version):
    manifest = json.loads((pack_copy / "manifest.json").read_text(encoding="utf-8"))
    manifest["format_version"] = version
    (pack_copy / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(PackError, match="format version"):
        ModelPack.open(pack_copy)


def test_a_version_3_pack_still_opens(pack_copy):
    """Format 4 changed only how an int8 output projection applies its scales; packs users exported
    before it keep working (their graphs hold the per-column form, which this engine still runs)."""
    manifest = json.loads((pack_copy / "manifest.json").read_text(encoding="utf-8"))
    manifest["format_version"] = 3
    (pack_copy / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    assert ModelPack.open(pack_copy).manifest["format_version"] == 3


def test_corrupt_manifest(pack_copy):
    (pack_copy / "manifest.json").write_bytes(b"\x00\xffnot json")
    with pytest.raises(PackError, match="manifest.json is damaged"):
        ModelPack.open(pack_copy)


def test_not_a_pack(tmp_path):
    with pytest.raises(PackError, match="not a model pack"):
        ModelPack.open(tmp_path)


@pytest.mark.parametrize("levels", ["full", "reduced"])
def test_int8_matmul_is_accurate(levels, tmp_path):
    """Each int8 weight path computes x @ W to within its quantization error on this CPU: full levels
    (VNNI, ARM) to about 1 %, the reduced levels x86 CPUs without VNNI load to about 2 %. Saturated
    int16 pair sums (full levels without VNNI) show as outliers the size of the output itself."""
    from onnx import TensorProto, numpy_helper

    from fanyi.engine.int8_weights import halved, needs_reduced_range
    from fanyi.engine.pack import INT8_SCALE_SUFFIX, INT8_WEIGHT_SUFFIX
    from fanyi.engine.sessions import open_session
    from fanyi.export.graph import GraphBuilder

    if levels == "full" and needs_reduced_range():
        pytest.skip(
            "full int8 levels may saturate on this CPU (or FANYI_INT8_WEIGHTS=reduced); "
            "the engine loads reduced levels here"
        )
    rng = np.random.default_rng(0)
    weight = rng.normal(0, 1, (64, 96)).astype(np.float32)
    x = rng.normal(0, 1, (4, 5, 64)).astype(np.float32)
    g = GraphBuilder("t")
    inp = g.add_input("x", TensorProto.FLOAT, ["b", "t", 64])
    g.add_output(g.linear(inp, "l", weight, None, quantize=True), "y", TensorProto.FLOAT, ["b", "t", 96])
    model = g.build()
    path = tmp_path / "matmul.onnx"
    path.write_bytes(model.SerializeToString())
    replaced = None
    if levels == "reduced":  # as the engine loads them (runner.py, int8_weights.py)
        stored = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
        name, scale = "l" + INT8_WEIGHT_SUFFIX, "l" + INT8_WEIGHT_SUFFIX + INT8_SCALE_SUFFIX
        replaced = dict(zip((name, scale), halved(stored[name], stored[scale])))
    out, ref = open_session(path, 1, replaced).run(None, {"x": x})[0], x @ weight
    error, size = np.abs(out - ref), np.abs(ref).mean()
    assert error.mean() / size < {"full": 0.015, "reduced": 0.025}[levels]  # measured 0.9 % and 1.7 %
    assert error.max() / size < 0.25  # 0.04 and 0.09; saturated sums (full levels on AVX2) 0.76


@pytest.mark.parametrize("levels", ["full", "reduced"])
def test_wide_int8_matmul_gives_the_per_column_product_with_one_kernel_scale(levels, tmp_path):
    """The output projection's form (one scale for ONNX Runtime's kernel, each column's share of it
    after) computes what the per-column form computes, bias included, with the levels as stored and
    as the engine loads them on CPUs without VNNI; and its kernel is fused and given one scale, so it
    builds no per-column vector on each call (what made it slower)."""
    import onnxruntime as ort
    from onnx import TensorProto, numpy_helper

    from fanyi.engine.int8_weights import halved
    from fanyi.engine.pack import INT8_SCALE_SUFFIX, INT8_WEIGHT_SUFFIX
    from fanyi.engine.pack_format import INT8_COMMON_SUFFIX
    from fanyi.engine.sessions import open_session
    from fanyi.export.graph import GraphBuilder, quantize_columns

    rng = np.random.default_rng(1)
    q = quantize_columns(rng.normal(0, 1, (64, 300)).astype(np.float32) * rng.uniform(0.1, 3, 300).astype(np.float32))
    bias = rng.normal(0, 1, 300).astype(np.float32)
    bias[-20:] = -1e30  # padding columns, as the decoder's
    x = rng.normal(0, 1, (5, 1, 64)).astype(np.float32)

    def run(form: str) -> tuple[np.ndarray, int]:
        """The form's output, and the size of the scale its fused kernel is given."""
        g = GraphBuilder(form)
        inp = g.add_input("x", TensorProto.FLOAT, ["b", 1, 64])
        weight = g.initializer("w" + INT8_WEIGHT_SUFFIX, q.values)
        scale = g.initializer(weight + INT8_SCALE_SUFFIX, q.scale)
        if form == "per column":
            out = g.op("Add", g.int8_matmul(inp, weight, scale), g.initializer("bias", bias))
        else:
            out = g.wide_int8_matmul(inp, weight, q.scale, bias)
        g.add_output(out, "y", TensorProto.FLOAT, ["b", 1, 300])
        model = g.build()
        path = tmp_path / f"{form}.onnx"
        path.write_bytes(model.SerializeToString())
        replaced = None
        if levels == "reduced":  # as fanyi.engine.int8_weights gives them
            stored = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
            replaced = dict(zip((weight, scale), halved(stored[weight], stored[scale])))
            if weight + INT8_COMMON_SUFFIX in stored:
                replaced[weight + INT8_COMMON_SUFFIX] = stored[weight + INT8_COMMON_SUFFIX] * 2
        y = open_session(path, 1, replaced).run(None, {"x": x})[0]
        opts = ort.SessionOptions()
        opts.optimized_model_filepath = str(tmp_path / f"{form} optimized.onnx")
        opts.log_severity_level = 3  # not the warning that an optimized graph suits this CPU only
        ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        optimized = onnx.load(tmp_path / f"{form} optimized.onnx")
        (kernel,) = [n for n in optimized.graph.node if n.op_type == "DynamicQuantizeMatMul"]
        assert len(kernel.input) == 5 and kernel.input[4]  # the bias is added inside it
        (b_scale,) = [t for t in optimized.graph.initializer if t.name == kernel.input[2]]
        return y, int(np.prod(b_scale.dims))

    (per_column, columns), (wide, one) = run("per column"), run("wide")
    assert (columns, one) == (300, 1)
    real = slice(0, 280)
    np.testing.assert_allclose(wide[..., real], per_column[..., real], rtol=1e-5, atol=1e-4 * np.abs(per_column).max())
    assert np.all(wide[..., 280:] < -1e29)


@pytest.mark.parametrize("quantize", [True, False])
def test_packed_projections_give_the_separate_products_bit_for_bit(quantize, tmp_path):
    """Attention's projections of one input are one product split after it (fewer quantizations of the
    input and fewer parallel sections a step); each column is quantized on its own and each output
    element sums the same terms, so the parts equal the separate products exactly, a scaled query and a
    projection without bias included."""
    from onnx import TensorProto

    from fanyi.engine.sessions import open_session
    from fanyi.export.graph import GraphBuilder
    from fanyi.export.transformer_graphs import QuantizeSpec, _packed, _projection
    from fanyi.export.weights import Linear

    rng = np.random.default_rng(2)
    parts = [
        (Linear(rng.normal(0, 1, (64, 64)).astype(np.float32), rng.normal(0, 1, 64).astype(np.float32)), 0.125),
        (Linear(rng.normal(0, 1, (64, 64)).astype(np.float32), None), 1.0),
        (Linear(rng.normal(0, 2, (64, 32)).astype(np.float32), rng.normal(0, 1, 32).astype(np.float32)), 1.0),
    ]
    spec = QuantizeSpec(linear=quantize)
    x = rng.normal(0, 1, (3, 7, 64)).astype(np.float32)

    def run(form: str) -> list[np.ndarray]:
        g = GraphBuilder(form)
        inp = g.add_input("x", TensorProto.FLOAT, ["b", "t", 64])
        if form == "packed":
            outs = _packed(g, inp, "qkv", parts, spec)
        else:
            outs = [_projection(g, inp, f"p{i}", lin, spec, scale) for i, (lin, scale) in enumerate(parts)]
        for i, out in enumerate(outs):
            g.add_output(out, f"y{i}", TensorProto.FLOAT, ["b", "t", parts[i][0].weight.shape[1]])
        path = tmp_path / f"{form}.onnx"
        path.write_bytes(g.build().SerializeToString())
        return open_session(path, 1).run(None, {"x": x})

    for packed, separate in zip(run("packed"), run("separate"), strict=True):
        np.testing.assert_array_equal(packed, separate)


def test_int8_weights_are_indexed_in_the_manifest(tiny_pack_int8):
    """The runtime reads int8 weights through the manifest's index; it must match what the graphs hold."""
    from onnx import numpy_helper

    from fanyi.engine.int8_weights import INT8_WEIGHT_SUFFIX, reduced_range_weights

    pack = ModelPack.open(tiny_pack_int8)
    for graph in ("encoder.onnx", "decoder.onnx"):
        model = onnx.load(tiny_pack_int8 / graph)
        stored = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
        reduced = reduced_range_weights(pack, graph)
        weights = [n for n in reduced if n.endswith(INT8_WEIGHT_SUFFIX)]
        assert weights and all(n in stored for n in reduced)
        for name in weights:
            full = stored[name].astype(np.int16)
            assert stored[name].dtype == np.int8 and np.abs(full).max() == 127
            assert np.abs(reduced[name]).max() <= 64  # 255 x 64 x 2 fits int16
            assert np.abs(reduced[name].astype(np.int16) * 2 - full).max() <= 1
            np.testing.assert_array_equal(reduced[name + "_scale"], stored[name + "_scale"] * 2)
            if name + "_common" in stored:  # the output projection's one kernel scale (the decoder's)
                np.testing.assert_array_equal(reduced[name + "_common"], stored[name + "_common"] * 2)
        assert any(n.endswith("_common") for n in reduced) == (graph == "decoder.onnx")


def test_halved_levels_round_as_rint_for_every_level():
    """The integer halving gives exactly what np.rint(levels / 2) gives (halves to even) for all 256 levels."""
    from fanyi.engine.int8_weights import halved

    levels = np.arange(-128, 128, dtype=np.int8).reshape(16, 16)
    values, scale = halved(levels, np.ones(16, np.float32))
    assert values.dtype == np.int8 and scale.dtype == np.float32
    np.testing.assert_array_equal(values, np.rint(levels / 2).astype(np.int8))
    np.testing.assert_array_equal(scale, 2)


def test_reduced_range_weights_are_halved_once_for_both_graphs(tiny_pack_int8):
    """The embedding both graphs read is halved once and the same array is given to both sessions."""
    from fanyi.engine.int8_weights import INT8_WEIGHT_SUFFIX, reduced_range_weights

    pack = ModelPack.open(tiny_pack_int8)
    done: dict[str, np.ndarray] = {}
    encoder, decoder = (reduced_range_weights(pack, graph, done) for graph in ("encoder.onnx", "decoder.onnx"))
    shared = [n for n in encoder if n in decoder and n.endswith(INT8_WEIGHT_SUFFIX)]
    assert shared and all(encoder[n] is decoder[n] for n in shared)
    assert set(done) == set(encoder) | set(decoder)


def test_reduced_range_weights_translate_alike(tiny_pack, tiny_pack_int8, monkeypatch):
    """An int8 pack loads the levels this CPU sums correctly by itself; the reduced levels (the load-time
    fallback for x86 CPUs without VNNI) stay near the fp32 logits, and where full levels are safe they
    cost about one bit of weight precision against them."""
    from fanyi.engine.int8_weights import needs_reduced_range
    from fanyi.engine.translator import Translator

    full_is_safe = not needs_reduced_range()
    fp32, plain = Translator.open(tiny_pack, threads=1), Translator.open(tiny_pack_int8, threads=1)
    assert plain._runner.reduced_range is not full_is_safe and not fp32._runner.reduced_range
    monkeypatch.setenv("FANYI_INT8_WEIGHTS", "reduced")
    reduced = Translator.open(tiny_pack_int8, threads=1)
    assert reduced._runner.reduced_range
    source = fp32.encode("The weather is nice today.")
    prefix = [fp32.pack.special_ids["decoder_start"]] + fp32.generate_ids([source])[0][:-1]
    ref, a, b = (t.forced_logits(source, prefix) for t in (fp32, plain, reduced))
    # far from unrelated logits (measured 0.16 of their size on this random model)
    assert np.abs(b - ref).mean() < 0.3 * np.abs(ref).mean()
    if full_is_safe:
        assert not np.array_equal(a, b)
        # one bit less of weight precision: about twice int8's error (measured 2.4 times)
        assert np.abs(b - ref).mean() < 4 * np.abs(a - ref).mean()


def test_translator_open_reports_a_damaged_graph_as_such(pack_copy):
    """Checksums are verified while the sessions load; a damaged graph is named, not an ONNX Runtime error."""
    from fanyi.engine.translator import Translator

    target = pack_copy / "encoder.onnx"
    data = bytearray(target.read_bytes())
    data[len(data) // 3 : len(data) // 3 + 64] = b"\xff" * 64
    target.write_bytes(bytes(data))
    with pytest.raises(PackError, match="encoder.onnx is damaged"):
        Translator.open(pack_copy, threads=1)


# --- manifests that lie: every value the runtime reads is checked when the pack is opened ----------


def _set(keys: tuple, value):
    """A change that sets manifest[k0][k1]... = value; None removes the key."""
    *parents, last = keys

    def change(manifest):
        for key in parents:
            manifest = manifest[key]
        if value is None:
            del manifest[last]
        else:
            manifest[last] = value

    return change


@pytest.mark.parametrize(
    "keys, value, message",
    [
        (("source_lang",), None, "source_lang is missing"),
        (("architecture",), None, "architecture is missing"),
        (("files",), ["encoder.onnx", "decoder.onnx"], "files must be an object"),
        (("files", "vocab.json", "size"), "29551", "files.vocab.json.size must be a whole number"),
        (("special_ids",), [0, 1], "special_ids must be an object"),
        (("generation", "early_stopping"), 1, "generation.early_stopping must be one of true, false"),
        (("target_tokens", "yue"), 7, "target_tokens.yue must be printable text"),
        (("name",), "tiny\u202e", "name must be printable text"),
    ],
)
def test_a_manifest_missing_a_field_or_of_the_wrong_type_is_refused(pack_copy, keys, value, message):
    rewrite_manifest(pack_copy, _set(keys, value))
    with pytest.raises(PackError, match=re.escape(f"{pack_copy / 'manifest.json'}: {message}")):
        ModelPack.open(pack_copy, verify=False)


def test_a_null_size_is_refused(pack_copy):
    rewrite_manifest(pack_copy, lambda m: m["files"]["vocab.json"].update(size=None))
    with pytest.raises(PackError, match="files.vocab.json.size must be a whole number"):
        ModelPack.open(pack_copy)


@pytest.mark.parametrize(
    "keys, value, message",
    [
        (("generation", "num_beams"), 1_000_000, "generation.num_beams must be a whole number from 1 to 16"),
        (("generation", "max_length"), 10**12, "generation.max_length must be a whole number"),
        (("generation", "no_repeat_ngram_size"), -1, "generation.no_repeat_ngram_size must be a whole number"),
        (("generation", "length_penalty"), 1e308, "generation.length_penalty must be a number"),
        (("generation", "repetition_penalty"), 0, "generation.repetition_penalty must be a number"),
        (("generation", "forced_eos_token_id"), 10**6, "forced_eos_token_id is token 1000000, outside the vocabulary"),
        (("special_ids", "pad"), 70000, "special_ids.pad is token 70000, outside the vocabulary of 1940"),
        (("special_ids", "eos_all"), [0, -1], "special_ids.eos_all[1] must be a whole number"),
        (("bad_words_ids",), [[1939], [5000]], "bad_words_ids[1][0] is token 5000, outside"),
        (("architecture", "vocab_size"), 10**9, "architecture.vocab_size must be a whole number"),
        (("architecture", "decoder_layers"), 0, "architecture.decoder_layers must be a whole number"),
        (("architecture", "heads"), 2, "says 2 heads of 8 values, which is not d_model 32"),
        (("architecture", "max_positions"), 4096, "shared.encoder_positions has the shape [128, 32]"),
        (("external_tensors", "shared.embedding_t", "offset"), 10**9, "reaches byte 1000"),
        (("external_tensors", "shared.embedding_t", "length"), 4, "is 4 bytes, not the size of a float32 tensor"),
        (("external_tensors", "shared.embedding_t", "dtype"), "object", "dtype must be one of"),
        (("target_tokens", "yue"), ">>cmn_Hans<<", "target_tokens.yue must be '>>yue<<'"),
        (("default_target",), "xx", "default_target 'xx' is not one of target_tokens"),
    ],
)
def test_manifest_values_are_bounded(pack_copy, keys, value, message):
    """The manifest has no checksum: a value past its bound (num_beams 1000000 got a process killed at 24 GB)
    makes the pack unusable with a message, before anything is allocated for it."""
    rewrite_manifest(pack_copy, _set(keys, value))
    with pytest.raises(PackError, match=re.escape(message)):
        ModelPack.open(pack_copy, verify=False)


def test_json_constants_and_absurd_numbers_are_a_damaged_manifest(pack_copy):
    manifest = pack_copy / "manifest.json"
    text = manifest.read_text(encoding="utf-8")
    for bad in (
        text.replace('"length_penalty": 1.0', '"length_penalty": NaN'),
        text.replace('"num_beams": 4', '"num_beams": ' + "9" * 5000),
        "[" * 100_000,
    ):
        manifest.write_text(bad, encoding="utf-8")
        with pytest.raises(PackError, match="manifest.json is damaged"):
            ModelPack.open(pack_copy, verify=False)


# --- file names stay inside the pack -------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "../secret",
        "/tmp/secret",
        "..",
        "sub/vocab.json",
        "sub\\vocab.json",
        "C:secret",
        "vocab.json:stream",
        ".hidden",
        "",
    ],
)
def test_file_names_must_stay_inside_the_pack(pack_copy, tmp_path, name):
    secret = tmp_path / "secret"
    secret.write_bytes(b"not yours")
    rewrite_manifest(pack_copy, lambda m: m["files"].update({name: file_digest(secret)}))
    with pytest.raises(PackError, match="a name in files must be a plain file name"):
        ModelPack.open(pack_copy)


def test_files_that_are_symbolic_links_are_refused(pack_copy, tmp_path):
    outside = tmp_path / "vocab.json"
    (pack_copy / "vocab.json").rename(outside)
    (pack_copy / "vocab.json").symlink_to(outside)  # same bytes, same checksum: only the link is wrong
    with pytest.raises(PackError, match="vocab.json is a symbolic link"):
        ModelPack.open(pack_copy)
    (pack_copy / "vocab.json").unlink()
    outside.rename(pack_copy / "vocab.json")
    (pack_copy / "manifest.json").rename(tmp_path / "manifest.json")
    (pack_copy / "manifest.json").symlink_to(tmp_path / "manifest.json")
    with pytest.raises(PackError, match="manifest.json is a symbolic link"):
        ModelPack.open(pack_copy)


# --- files that pass their checksum and still cannot be loaded -----------------------------------


@pytest.mark.parametrize(
    "name, damage, message",
    [
        ("encoder.onnx", lambda data: data[: len(data) // 2], "encoder.onnx cannot be loaded: [ONNXRuntimeError]"),
        ("decoder.onnx", lambda data: data[:100], "decoder.onnx cannot be loaded: [ONNXRuntimeError]"),
        ("source.spm", lambda data: data[:1000], "source.spm cannot be loaded"),
        ("target.spm", lambda data: b"garbage", "target.spm cannot be loaded"),
        ("vocab.json", lambda data: b"[1, 2]", "vocab.json cannot be loaded: not a vocabulary"),
        ("vocab.json", lambda data: b'{"</s>": 0, "<unk>": 1, "<pad>": 99999}', "vocab.json cannot be loaded"),
        ("tokenizer_config.json", lambda data: b"[]", "tokenizer_config.json cannot be loaded: not a JSON object"),
    ],
)
def test_a_file_that_passes_its_checksum_but_cannot_be_loaded_is_named(pack_copy, name, damage, message):
    from fanyi.engine.translator import Translator

    replace_file(pack_copy, name, damage((pack_copy / name).read_bytes()))
    ModelPack.open(pack_copy)  # every checksum matches
    with pytest.raises(PackError, match=re.escape(f"{pack_copy / message}")):
        Translator.open(pack_copy, threads=1)


@pytest.mark.parametrize(
    "change, message",
    [
        (
            _set(("architecture", "decoder_layers"), 3),
            "encoder.onnx does not fit the pack's manifest: it has no cross_key_2",
        ),
        (
            lambda m: m["architecture"].update(heads=2, head_dim=16),
            "encoder.onnx does not fit the pack's manifest: cross_key_0 has the shape",
        ),
    ],
)
def test_a_graph_that_disagrees_with_its_manifest_is_named(pack_copy, change, message):
    from fanyi.engine.translator import Translator

    rewrite_manifest(pack_copy, change)
    with pytest.raises(PackError, match=re.escape(message)):
        Translator.open(pack_copy, threads=1)


def test_a_swapped_graph_is_named(pack_copy):
    from fanyi.engine.translator import Translator

    replace_file(pack_copy, "encoder.onnx", (pack_copy / "decoder.onnx").read_bytes())
    with pytest.raises(PackError, match=r"encoder.onnx does not fit the pack's manifest: it takes .*past_key_0"):
        Translator.open(pack_copy, threads=1)
