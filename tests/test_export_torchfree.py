"""The converter runs without torch and transformers, and gives the same bytes on any machine, thread count and
hash seed; what it reads by itself (tensors, computed tables, tokenizer facts, generation settings) is what
transformers reads from the same folder."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from fanyi.export.convert import export_pack

ROOT = Path(__file__).resolve().parents[1]

# family → (the fixture's kind, quantization exported): every family the converter knows, in the quantization a
# catalog would use
FAMILIES = {
    "marian": ("marian", "int8"),
    "mbart50": ("many", "int8"),
    "m2m100": ("many", "none"),
    "nllb": ("many", "int8"),
    "qwen3": ("llm", "int4"),
    "hunyuan": ("llm", "int4"),
    "gemma3": ("llm", "none"),
    "translategemma": ("llm", "int8"),
    "gemma3-1b": ("llm", "int4"),
    "bart-large-cnn": ("bart", "int8"),
    "distilbart-cnn-12-6": ("bart", "none"),
}

EXPORT_ALL = textwrap.dedent(
    """
    import importlib.abc, json, sys
    if {block}:
        class Refuse(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in ("torch", "transformers"):
                    raise ImportError(f"{{name}} is not importable in this test")
                return None
        sys.meta_path.insert(0, Refuse())
    from fanyi.cli import main
    for hf, out, quantize in json.loads(sys.argv[1]):
        code = main(["export", hf, out, "--quantize", quantize])
        assert code == 0, code
    assert not {{"torch", "transformers"}} & set(sys.modules), sorted(sys.modules)
    """
)


@pytest.fixture(scope="module")
def folders(tiny_hf_en_zh, tiny_hf_many, tiny_hf_llm, tiny_hf_bart) -> dict[str, Path]:
    get = {"marian": lambda _f: tiny_hf_en_zh, "many": tiny_hf_many, "llm": tiny_hf_llm, "bart": tiny_hf_bart}
    return {family: get[kind](family) for family, (kind, _q) in FAMILIES.items()}


def _export_all(
    folders: dict[str, Path], out: Path, *, block: bool, threads: int, seed: int, quantize: str | None = None
) -> None:
    """Every family (or the LLMs, each as `quantize`) exported in a process of its own."""
    jobs = [
        (str(folders[f]), str(out / f), quantize or q)
        for f, (k, q) in FAMILIES.items()
        if quantize is None or k == "llm"
    ]
    env = {
        **os.environ,
        "OMP_NUM_THREADS": str(threads),
        "OPENBLAS_NUM_THREADS": str(threads),
        "MKL_NUM_THREADS": str(threads),
        "PYTHONHASHSEED": str(seed),
    }
    done = subprocess.run(
        [sys.executable, "-c", EXPORT_ALL.format(block=block), json.dumps(jobs)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]


def _files(pack: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(pack.iterdir())}


@pytest.fixture(scope="module")
def torchless(folders, tmp_path_factory) -> Path:
    """Every family exported in a process where torch and transformers cannot be imported, on one thread."""
    out = tmp_path_factory.mktemp("torchless")
    _export_all(folders, out, block=True, threads=1, seed=1)
    return out


def test_without_torch_the_packs_are_byte_identical_to_those_made_with_it_at_any_thread_count(
    folders, torchless, tmp_path
):
    _export_all(folders, tmp_path, block=False, threads=2, seed=2)
    for family in FAMILIES:
        a, b = _files(torchless / family), _files(tmp_path / family)
        assert a.keys() == b.keys(), family
        different = [name for name in a if a[name] != b[name]]
        assert not different, f"{family}: {different}"


@pytest.mark.parametrize("family", ["marian", "qwen3"])
def test_an_export_beside_a_loaded_transformers_has_the_same_bytes(folders, torchless, tmp_path, family):
    import transformers  # noqa: F401 - loaded on purpose: nothing of it may leak into the pack

    here = export_pack(folders[family], tmp_path / family, quantize=FAMILIES[family][1])
    assert _files(here) == _files(torchless / family)


# gemma-3-4b-it's and TranslateGemma's config.json: a Gemma3ForConditionalGeneration whose text_config sets only these
# (and the tiny vocabulary's size); the heads, their size, the rotary bases, the layer pattern… are
# Gemma3TextConfig's defaults
GEMMA3_4B_TEXT_CONFIG = {
    "hidden_size",
    "intermediate_size",
    "model_type",
    "num_hidden_layers",
    "rope_scaling",
    "sliding_window",
    "vocab_size",
}


@pytest.fixture(scope="module")
def torchless_fp32(folders, tmp_path_factory) -> Path:
    """The LLMs exported unquantized where torch and transformers cannot be imported."""
    out = tmp_path_factory.mktemp("torchless-fp32")
    _export_all(folders, out, block=True, threads=1, seed=1, quantize="none")
    return out


@pytest.mark.parametrize("family", ["translategemma", "gemma3", "gemma3-1b", "qwen3", "hunyuan"])
def test_packs_made_without_torch_from_the_released_configs_decode_generates_greedy_ids(
    folders, torchless_fp32, family
):
    """Each LLM family from a tiny model whose config.json has exactly the released file's keys, converted where
    torch and transformers cannot be imported: its greedy ids are transformers' generate()'s."""
    pytest.importorskip("torch")
    from llm_reference import Reference

    from fanyi.engine.options import DecodeOptions
    from fanyi.engine.translator import Translator

    config = json.loads((folders[family] / "config.json").read_text(encoding="utf-8"))
    if family in ("translategemma", "gemma3"):
        assert config["architectures"] == ["Gemma3ForConditionalGeneration"]
        assert set(config["text_config"]) == GEMMA3_4B_TEXT_CONFIG
    translator = Translator.open(torchless_fp32 / family, threads=1)
    reference = Reference(folders[family], translator)
    options = DecodeOptions(source="en", target="zh", max_new_tokens=16)
    corpus = ROOT / "assets" / "corpus" / "en.txt"
    for text in [line for line in corpus.read_text(encoding="utf-8").splitlines() if line.strip()][:6]:
        ids = translator.encode(text, options)
        assert ids == reference.prompt(text, options)
        assert translator.generate_ids([ids], options)[0] == reference.generate(ids, 16), text


def test_an_llm_is_read_a_layer_at_a_time_and_its_vocabulary_a_block_of_rows_at_a_time(folders, tmp_path, monkeypatch):
    """What keeps a 1.8B-parameter conversion in a bounded memory: every tensor of layer i is read before any of
    layer i + 1, and the embedding matrix is never read whole in an int4 pack."""
    from fanyi.export import causal_graphs
    from fanyi.export.checkpoint import Checkpoint

    monkeypatch.setattr(causal_graphs, "QUANTIZE_ROWS", 100)  # the tiny vocabulary in several blocks
    reads: list[tuple[str, str]] = []
    array, rows = Checkpoint.array, Checkpoint.rows
    monkeypatch.setattr(Checkpoint, "array", lambda self, name: reads.append(("whole", name)) or array(self, name))
    monkeypatch.setattr(
        Checkpoint, "rows", lambda self, name, a, b: reads.append((f"rows {a}:{b}", name)) or rows(self, name, a, b)
    )
    export_pack(folders["qwen3"], tmp_path / "pack", quantize="int4")
    layers = [int(name.split(".")[2]) for _how, name in reads if ".layers." in name]
    assert layers == sorted(layers) and len(set(layers)) == 2
    embedding = [how for how, name in reads if "embed_tokens" in name]
    assert embedding and all(how.startswith("rows") for how in embedding)
    assert all(int(how.split()[1].split(":")[1]) - int(how.split()[1].split(":")[0]) <= 100 for how in embedding)


def test_quantizing_in_blocks_of_rows_gives_the_bytes_of_quantizing_at_once(folders, torchless, tmp_path, monkeypatch):
    from fanyi.export import causal_graphs

    monkeypatch.setattr(causal_graphs, "QUANTIZE_ROWS", 7)
    small = export_pack(folders["qwen3"], tmp_path / "qwen3", quantize=FAMILIES["qwen3"][1])
    assert _files(small) == _files(torchless / "qwen3")


# The sha256 of what the converter writes for two committed checkpoints (the self-test's MarianMT model and a bfloat16
# Qwen3, tests/tiny_models/committed.py). They were taken on Linux (Intel Xeon, AVX-512 VNNI); every machine CI runs
# on — CPUs with and without AVX-512, Windows and macOS in .github/workflows/test.yml — must write the same bytes, which
# is what lets a catalog pin the sha256 of a pack converted on a user's computer. A deliberate change of the pack's
# contents changes them: the failure prints the new values.
PINNED = {
    ("assets/selftest/tiny-marian", "int8"): {
        "decoder.onnx": "4c26ce04e4fee49686583f80372e27351ce873bba2210440847c7e074e9b7565",
        "encoder.onnx": "0736c3454ad50341bf52190658ca11bea84c4e4a3c4b7306eebf8fc9a5f21e40",
        "manifest.json": "a1ac65f5ea3fc8d8c91cb6278751c8751d807625831dc9c0c77dd82b2c610464",
        "shared.bin": "58ca746481739441314a5bdf00326063ff38ec6936de8fcdd6bd137d2760a842",
    },
    ("assets/selftest/tiny-marian", "none"): {
        "decoder.onnx": "f91102dfcc31371d29d50a6c06eeff95380e9cc7de7668cf7a272da1e8ea9828",
        "encoder.onnx": "e6570c152595211ce08596d749b7d027d16e0fe9c189332e3cd80374d352192f",
        "manifest.json": "94737771380021e500cc185cda2f57e67e60904250b7a33436410dd9bd2fe912",
        "shared.bin": "af2768d2e289689d3f81db2906b9a41fc896e525df2833b13c8bdd32d4ea4e2a",
    },
    ("tests/data/tiny-qwen3", "int4"): {
        "decoder.onnx": "ea87500b32423b8642ec97f24d198ee5918e353292a6566e000706ee58b20f51",
        "manifest.json": "7a4190cebaa6cbe1b240af968f5f0d8230cba7f5e429bd55adc9d739629c9da7",
        "shared.bin": "f2febfa4a287fb4a0f14ec14eb10fb770057e75073842618a978be9823ec6980",
    },
    ("tests/data/tiny-qwen3", "int8"): {
        "decoder.onnx": "51f1e4e7dc91bc21b4dca183dae12314a51d2e5c267ca3a1c6d61b2349d6d6b8",
        "manifest.json": "d9619f7f190544c8b64d11182c9084b6dc434f5928149ef6bb0d27b48adfc669",
        "shared.bin": "4d06bc8308a77c44c11ff0074765fa567c50b7815a097b617c012263644b4504",
    },
}


@pytest.mark.parametrize(("checkpoint", "quantize"), list(PINNED), ids=[f"{c.split('/')[-1]}-{q}" for c, q in PINNED])
def test_a_committed_checkpoint_converts_to_the_pinned_bytes_on_every_machine(checkpoint, quantize, tmp_path):
    pack = export_pack(ROOT / checkpoint, tmp_path / "pack", quantize=quantize)
    written = {name: hashlib.sha256((pack / name).read_bytes()).hexdigest() for name in PINNED[checkpoint, quantize]}
    assert written == PINNED[checkpoint, quantize]
