"""Fuzzing the manifest: whatever a manifest says, opening or listing the pack raises PackError or works.

Mutations of the tiny pack's real manifest (keys dropped, types changed, huge and negative
numbers, wrong nesting, unicode, path tricks, truncated JSON), from a fixed seed so a failure
can be replayed: `ModelPack.open` and `installed.list_packs` may only succeed or raise PackError
with a message, and what opens must be safe to read and to translate with.
"""

from __future__ import annotations

import copy
import json
import os
import random
import shutil
from pathlib import Path

import pytest

from fanyi import paths
from fanyi.engine.pack import ModelPack, PackError
from fanyi.engine.search_settings import resolve
from fanyi.library import installed

SEED = 20261211
CASES = 300
TRANSLATED = 8  # accepted cases that also load and translate (each costs a session build)

WEIRD = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2,
    7,
    2**31,
    2**63,
    -(2**63),
    10**30,
    1e308,
    -1e308,
    0.5,
    -0.0,
    1e-300,
    "",
    "x" * 5000,
    "\ud800",
    "\u202e",
    "中文",
    "\x00",
    "../../etc/shadow",
    "/etc/passwd",
    "C:\\evil",
    "a/b",
    ".",
    "..",
    "encoder.onnx",
    [],
    {},
    [[]],
    [0, 1],
    {"a": {"b": {}}},
    [[[[[[[[[[]]]]]]]]]],
]
FILE_NAMES = [
    "../../etc/shadow",
    "/etc/passwd",
    "..\\..\\boot.ini",
    "C:evil",
    "sub/x",
    ".",
    "",
    "ok.bin",
    "manifest.json",
    "vocab.json\u0000",
    "CON",
    "a" * 300,
]


def _nodes(value, path=()):
    """Every (path, value) of a JSON tree, the root included."""
    yield path, value
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _nodes(child, (*path, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _nodes(child, (*path, i))


def _put(tree, path, value):
    for key in path[:-1]:
        tree = tree[key]
    tree[path[-1]] = value


def _mutate(rng: random.Random, manifest: dict) -> tuple[object, str]:
    """One to three random edits; returns the new manifest and what was done (for the failure message)."""
    tree = copy.deepcopy(manifest)
    done = []
    for _ in range(rng.randint(1, 3)):
        nodes = [n for n in _nodes(tree) if n[0]]
        path, value = rng.choice(nodes)
        kind = rng.choice(["drop", "weird", "wrap", "stringify", "scale", "move", "add_file", "rename_file"])
        parent = tree
        for key in path[:-1]:
            parent = parent[key]
        if kind == "drop":
            del parent[path[-1]]
        elif kind == "weird":
            _put(tree, path, copy.deepcopy(rng.choice(WEIRD)))
        elif kind == "wrap":
            _put(tree, path, rng.choice([[value], {"value": value}]))
        elif kind == "stringify":
            _put(tree, path, json.dumps(value))
        elif kind == "scale" and isinstance(value, (int, float)) and not isinstance(value, bool):
            _put(tree, path, value * rng.choice([-1, 0, 1000, 10**9, 10**18]) + rng.choice([0, -1, 1]))
        elif kind == "move":
            _, other = rng.choice(nodes)
            _put(tree, path, copy.deepcopy(other))
        elif kind == "add_file" and isinstance(tree.get("files"), dict):
            tree["files"][rng.choice(FILE_NAMES)] = {"sha256": "0" * 64, "size": rng.choice([0, 1, 10**12])}
        elif kind == "rename_file" and isinstance(tree.get("files"), dict) and tree["files"]:
            old = rng.choice(sorted(tree["files"]))
            tree["files"][rng.choice(FILE_NAMES)] = tree["files"].pop(old)
        else:
            continue
        done.append(f"{kind} {'.'.join(map(str, path))}")
    return tree, "; ".join(done) or "unchanged"


def _manifest_text(rng: random.Random, manifest: dict) -> tuple[str, str]:
    """A mutated manifest as text; now and then the JSON itself is cut or garbled."""
    tree, what = _mutate(rng, manifest)
    text = json.dumps(tree, ensure_ascii=rng.random() < 0.5)
    if rng.random() < 0.05:
        text, what = text[: rng.randrange(len(text))], what + "; truncated"
    elif rng.random() < 0.03:
        i = rng.randrange(len(text))
        text, what = (
            text[:i] + rng.choice(["\x00", "}", '"', "\\u", "NaN", "1e999"]) + text[i + 1 :],
            what + "; garbled",
        )
    return text, what


def _read_everything(pack: ModelPack) -> None:
    """What the runtime and the callers read from an opened pack."""
    assert isinstance(pack.name, str) and pack.size_bytes >= 0
    for value in (
        pack.source_lang,
        pack.target_lang,
        pack.quantization,
        pack.target_tokens,
        pack.default_target,
        pack.special_ids,
        pack.architecture,
    ):
        assert value is not None or value == pack.default_target
    resolve(pack, None)


@pytest.fixture(scope="module")
def cases(tiny_pack) -> list[tuple[int, str, str]]:
    rng = random.Random(SEED)
    manifest = json.loads((tiny_pack / "manifest.json").read_text(encoding="utf-8"))
    return [(i, *_manifest_text(rng, manifest)) for i in range(CASES)]


def _pack_with(tiny_pack: Path, folder: Path, manifest_text: str) -> Path:
    if not folder.exists():  # hard links: plain files, like a real pack's, without copying the weights
        shutil.copytree(tiny_pack, folder, copy_function=os.link)
    (folder / "manifest.json").unlink()
    (folder / "manifest.json").write_text(manifest_text, encoding="utf-8", errors="surrogatepass")
    return folder


def test_mutated_manifests_open_or_raise_pack_error(tiny_pack, user_dirs, cases):
    from fanyi.engine.translator import Translator

    folder = paths.user_packs_dir() / "fuzzed"
    outcomes = {"refused": 0, "opened": 0}
    translated = 0
    for i, text, what in cases:
        _pack_with(tiny_pack, folder, text)
        context = f"case {i} ({what})"
        listed = installed.list_packs()
        assert len(listed) == 1, context
        try:
            pack = ModelPack.open(folder)
        except PackError as exc:
            assert str(exc).strip() and "\n" not in str(exc), context
            assert listed[0].problem, context
            outcomes["refused"] += 1
            continue
        assert listed[0].usable, context
        _read_everything(pack)
        outcomes["opened"] += 1
        if translated < TRANSLATED:
            translated += 1
            try:
                Translator.open(folder, threads=1).translate("Good morning.")
            except PackError as exc:
                assert str(exc).strip(), context
    # the mutations reach both sides of the checks
    assert outcomes["refused"] > CASES // 2 and outcomes["opened"] >= TRANSLATED, outcomes


def test_models_list_on_a_folder_of_broken_packs_prints_no_traceback(tiny_pack, tmp_path, cases):
    import subprocess
    import sys

    user = tmp_path / "data" / "models"
    broken = []
    for i, text, _what in cases[:60]:
        folder = _pack_with(tiny_pack, user / f"case-{i:03d}", text)
        try:
            ModelPack.open(folder, verify=False)
        except PackError:
            broken.append(folder.name)
        else:
            shutil.rmtree(folder)
    (tmp_path / "bundled").mkdir()
    env = dict(
        os.environ,
        FANYI_DATA_DIR=str(tmp_path / "data"),
        FANYI_CONFIG_DIR=str(tmp_path / "config"),
        FANYI_MODELS_DIR=str(tmp_path / "bundled"),
    )
    result = subprocess.run(
        [sys.executable, "-m", "fanyi", "models", "list"], capture_output=True, text=True, env=env, timeout=300
    )
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    rows = {line.split()[0]: line for line in result.stdout.splitlines()[1:]}
    assert len(broken) > 20 and set(rows) == set(broken)
    assert all("broken (" in row for row in rows.values())
