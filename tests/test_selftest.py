"""`fanyi --self-test` from source, as CI runs it on the bundle: a subprocess, offscreen."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path


def self_test(bundled: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", FANYI_MODELS_DIR=str(bundled),
               FANYI_DATA_DIR=str(tmp_path / "user-data"), FANYI_CONFIG_DIR=str(tmp_path / "user-config"))
    return subprocess.run([sys.executable, "-m", "fanyi", "--self-test"], capture_output=True, text=True,
                          env=env, timeout=300)


def test_self_test_translates_with_the_bundled_pack_and_leaves_user_folders_alone(tiny_pack_int8, tmp_path):
    bundled = tmp_path / "bundled"
    bundled.mkdir()
    (bundled / tiny_pack_int8.name).symlink_to(tiny_pack_int8, target_is_directory=True)
    result = self_test(bundled, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip().endswith("self-test passed")
    for check in ("icon", "UI translation", "window", "model", "translation", "onnxruntime"):
        assert re.search(rf"^\s+{check}\s+ok\b", result.stdout, re.M), (check, result.stdout)
    assert f"{tiny_pack_int8.name} (int8, bundled)" in result.stdout
    assert not (tmp_path / "user-data").exists() and not (tmp_path / "user-config").exists()


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
