"""Model pack format: manifest contents, one copy of the tied matrix, and clear errors for broken packs."""

from __future__ import annotations

import json
import shutil

import numpy as np
import onnx
import pytest

from fanyi.engine.pack import FORMAT_VERSION, ModelPack, PackError


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
    pack = ModelPack.open(tiny_pack)
    vocab, d_model = pack.architecture["vocab_size"], pack.architecture["d_model"]
    matrix = vocab * d_model
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


def test_unknown_format_version(pack_copy):
    manifest = json.loads((pack_copy / "manifest.json").read_text(encoding="utf-8"))
    manifest["format_version"] = FORMAT_VERSION + 1
    (pack_copy / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(PackError, match="format version"):
        ModelPack.open(pack_copy)


def test_corrupt_manifest(pack_copy):
    (pack_copy / "manifest.json").write_bytes(b"\x00\xffnot json")
    with pytest.raises(PackError, match="manifest.json is damaged"):
        ModelPack.open(pack_copy)


def test_not_a_pack(tmp_path):
    with pytest.raises(PackError, match="not a model pack"):
        ModelPack.open(tmp_path)


def test_int8_matmul_is_accurate():
    """The int8 path must compute x @ W to within quantization error (no int16 saturation on any CPU)."""
    import onnxruntime as ort
    from onnx import TensorProto

    from fanyi.export.graph import GraphBuilder

    rng = np.random.default_rng(0)
    weight = rng.normal(0, 1, (64, 96)).astype(np.float32)
    x = rng.normal(0, 1, (4, 5, 64)).astype(np.float32)
    g = GraphBuilder("t")
    inp = g.add_input("x", TensorProto.FLOAT, ["b", "t", 64])
    g.add_output(g.linear(inp, "l", weight, None, quantize=True), "y", TensorProto.FLOAT, ["b", "t", 96])
    session = ort.InferenceSession(g.build().SerializeToString(), providers=["CPUExecutionProvider"])
    out, ref = session.run(None, {"x": x})[0], x @ weight
    assert np.abs(out - ref).mean() / np.abs(ref).mean() < 0.02


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


def test_reduced_range_weights_translate_alike(tiny_pack, tiny_pack_int8, monkeypatch):
    """The load-time fallback for CPUs whose int8 products may saturate stays near the fp32 logits."""
    from fanyi.engine.translator import Translator

    fp32, full = Translator.open(tiny_pack, threads=1), Translator.open(tiny_pack_int8, threads=1)
    monkeypatch.setenv("FANYI_INT8_WEIGHTS", "reduced")
    reduced = Translator.open(tiny_pack_int8, threads=1)
    assert reduced._runner.reduced_range and not full._runner.reduced_range
    source = fp32.encode("The weather is nice today.")
    prefix = [fp32.pack.special_ids["decoder_start"]] + fp32.generate_ids([source])[0][:-1]
    ref, a, b = (t.forced_logits(source, prefix) for t in (fp32, full, reduced))
    assert not np.array_equal(a, b)
    # one bit less of weight precision: about twice int8's error, far from unrelated logits
    assert np.abs(b - ref).mean() < 4 * np.abs(a - ref).mean() < 0.5 * np.abs(ref).mean()


def test_translator_open_reports_a_damaged_graph_as_such(pack_copy):
    """Checksums are verified while the sessions load; a damaged graph is named, not an ONNX Runtime error."""
    from fanyi.engine.translator import Translator

    target = pack_copy / "encoder.onnx"
    data = bytearray(target.read_bytes())
    data[len(data) // 3: len(data) // 3 + 64] = b"\xff" * 64
    target.write_bytes(bytes(data))
    with pytest.raises(PackError, match="encoder.onnx is damaged"):
        Translator.open(pack_copy, threads=1)
