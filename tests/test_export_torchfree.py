"""The converter runs without torch and transformers, and gives the same bytes on any machine, thread count and
hash seed; what it reads by itself (tensors, computed tables, tokenizer facts, generation settings) is what
transformers reads from the same folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from fanyi.export.convert import export_pack

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
def folders(tiny_hf_en_zh, tiny_hf_many, tiny_hf_llm) -> dict[str, Path]:
    get = {"marian": lambda _f: tiny_hf_en_zh, "many": tiny_hf_many, "llm": tiny_hf_llm}
    return {family: get[kind](family) for family, (kind, _q) in FAMILIES.items()}


def _export_all(folders: dict[str, Path], out: Path, *, block: bool, threads: int, seed: int) -> None:
    jobs = [(str(folders[f]), str(out / f), q) for f, (_k, q) in FAMILIES.items()]
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
