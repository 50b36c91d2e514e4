"""`fanyi --self-test` from source, as CI runs it on the bundle: a subprocess, offscreen."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path


def self_test(bundled: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        FANYI_MODELS_DIR=str(bundled),
        FANYI_DATA_DIR=str(tmp_path / "user-data"),
        FANYI_CONFIG_DIR=str(tmp_path / "user-config"),
    )
    return subprocess.run(
        [sys.executable, "-m", "fanyi", "--self-test"], capture_output=True, text=True, env=env, timeout=300
    )


def test_self_test_translates_with_the_bundled_pack_and_leaves_user_folders_alone(tiny_pack_int8, tmp_path):
    bundled = tmp_path / "bundled"
    bundled.mkdir()
    (bundled / tiny_pack_int8.name).symlink_to(tiny_pack_int8, target_is_directory=True)
    result = self_test(bundled, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip().endswith("self-test passed")
    checks = ("icon", "UI translation", "Qt translation", "window", "convert", "model", "translation", "onnxruntime")
    for check in checks:
        assert re.search(rf"^\s+{check}\s+ok\b", result.stdout, re.M), (check, result.stdout)
    # the tiny checkpoint of assets/selftest went through a Hub on this computer and the converter
    assert "fanyi/selftest-tiny-marian from a Hub on 127.0.0.1 → int8 pack" in result.stdout
    assert f"{tiny_pack_int8.name} (int8, from FANYI_MODELS_DIR)" in result.stdout  # not "bundled": it was not
    assert not (tmp_path / "user-data").exists() and not (tmp_path / "user-config").exists()


def _tree(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(folder.rglob("*"))}


def test_self_test_finds_a_users_installed_pack_says_so_and_leaves_it_alone(tiny_pack_int8, tmp_path):
    """It said "No translation model is installed" while one was: it looked at bundled packs only."""
    installed = tmp_path / "user-data" / "models"
    shutil.copytree(tiny_pack_int8, installed / tiny_pack_int8.name)
    before = _tree(tmp_path / "user-data")
    (tmp_path / "empty").mkdir()
    result = self_test(tmp_path / "empty", tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"{tiny_pack_int8.name} (int8, installed)" in result.stdout
    assert _tree(tmp_path / "user-data") == before and not (tmp_path / "user-config").exists()


def test_self_test_without_any_pack_says_where_it_looked(tmp_path):
    (tmp_path / "empty").mkdir()
    result = self_test(tmp_path / "empty", tmp_path)
    assert result.returncode == 1
    failure = result.stderr.strip().splitlines()[-1]
    assert failure.startswith("fanyi self-test FAILED: No translation model is installed")
    assert str(tmp_path / "user-data" / "models") in failure and str(tmp_path / "empty") in failure


def test_self_test_fails_clearly_on_a_damaged_pack(tiny_pack_int8, tmp_path):
    bundled = tmp_path / "bundled"
    damaged = shutil.copytree(tiny_pack_int8, bundled / "damaged-en-zh")
    with open(damaged / "decoder.onnx", "r+b") as f:
        f.truncate(100)
    result = self_test(bundled, tmp_path)
    assert result.returncode == 1
    assert "fanyi self-test FAILED" in result.stderr and "did not load" in result.stderr
    assert "decoder.onnx" in result.stderr
    assert "self-test passed" not in result.stdout


def _pack_with_reference(reference, tiny_hf_en_zh, tiny_pack_int8, bundled: Path, alter: bool = False):
    """A copy of the tiny int8 pack with the reference that packaging/publish.py records (optionally altered)."""
    pack = shutil.copytree(tiny_pack_int8, bundled / tiny_pack_int8.name)
    # a random model agrees with its int8 copy on no sentence: record what the int8 pack says
    ref = reference.choose(tiny_hf_en_zh, pack, allow_disagreement=True)
    if alter:
        ref = dataclasses.replace(ref, output=ref.output + "改")
    reference.record(pack, 1, ref)
    return pack


def test_self_test_repeats_the_reference_translation_of_a_release_pack(
    release_reference, tiny_hf_en_zh, tiny_pack_int8, tmp_path
):
    _pack_with_reference(release_reference, tiny_hf_en_zh, tiny_pack_int8, tmp_path / "bundled")
    result = self_test(tmp_path / "bundled", tmp_path)
    assert result.returncode == 0, result.stderr
    assert re.search(
        r"^\s+reference\s+ok, matches the translation recorded when the pack was built", result.stdout, re.M
    ), result.stdout
    assert re.search(r"(full|reduced) int8 weights$", result.stdout, re.M)


def test_self_test_fails_when_the_reference_translation_differs(
    release_reference, tiny_hf_en_zh, tiny_pack_int8, tmp_path
):
    bundled = tmp_path / "bundled"
    pack = _pack_with_reference(release_reference, tiny_hf_en_zh, tiny_pack_int8, bundled, alter=True)
    recorded = json.loads((pack / "manifest.json").read_text(encoding="utf-8"))["reference"]
    result = self_test(tmp_path / "bundled", tmp_path)
    assert result.returncode == 1
    assert "fanyi self-test FAILED: the reference translation differs" in result.stderr
    assert repr(recorded["output"]) in result.stderr  # the recorded string
    assert repr(recorded["output"][:-1]) in result.stderr  # and what this machine translated
    assert re.search(r"runs the (full|reduced) int8 weights", result.stderr) and "without VNNI" in result.stderr
    assert "self-test passed" not in result.stdout


def test_on_windows_the_report_is_written_as_utf8_even_to_a_pipe(monkeypatch):
    import io

    from fanyi import selftest

    pipe = io.TextIOWrapper(io.BytesIO(), encoding="cp1252")  # what Windows gives a redirected stdout
    monkeypatch.setattr(sys, "platform", "win32")
    selftest._utf8_on_windows(pipe)
    pipe.write("'Hello' → '你好'")
    pipe.flush()
    assert pipe.buffer.getvalue().decode("utf-8") == "'Hello' → '你好'"
