"""A name that becomes a file or folder name is one harmless path component, or it is refused in one line and
nothing is written (fanyi.names): on every path that takes one — `fanyi models get --name`, `fanyi models
import --name`, `fanyi export --name`, a pack's own name when it is imported (the command line and the app
alike), a catalog's ids. The local API's document names: tests/server/test_documents_api.py; the app's
import: tests/ui/test_models.py."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from dictionary_data import csv_text

from fanyi import limits, names

HOSTILE = [
    "../../evil",
    "..",
    ".",
    ".hidden",
    "a/b",
    "a\\b",
    "CON",
    "nul.txt",
    "Com1",
    "LPT9.tar.gz",
    "line\nbreak",
    "tab\there",
    "right\u202eleft",
    "zero\u200bwidth",
    "what?",
    "a:b",
    "trailing.",
    "trailing ",
    " leading",
    "",
    "翻" * 67,  # 201 bytes as UTF-8
]
FINE = ["opus-mt-en-zh", "ecdict-full", "qwen3-1.7b", "my pack", "翻译", "翻" * 66, "console", "nullify", "com10"]


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_is_refused_in_one_line(name):
    with pytest.raises(names.BadName) as refused:
        names.check(name, "--name")
    message = str(refused.value)
    assert message.startswith("--name ") and "cannot be a file or folder name: " in message
    assert "\n" not in message and len(message) < 200


@pytest.mark.parametrize("name", FINE)
def test_a_plain_name_is_taken_as_it_is(name):
    assert names.check(name, "--name") == name


def test_the_length_is_the_limits_in_bytes():
    assert names.problem("a" * limits.MAX_NAME_BYTES) is None
    assert names.problem("a" * (limits.MAX_NAME_BYTES + 1)) == (
        f"it is too long for a file name ({limits.MAX_NAME_BYTES + 1} bytes as UTF-8; at most {limits.MAX_NAME_BYTES})"
    )


# --- the command line ------------------------------------------------------------------------------------------
def everything_under(*folders: Path) -> set[Path]:
    return {p for folder in folders if folder.exists() for p in folder.rglob("*")}


@pytest.fixture()
def user(tmp_path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("http_proxy", "https_proxy", "all_proxy")}
    # the data folder deep enough that "../.." stays inside tmp_path, where the test sees what was written
    return {
        **env,
        "FANYI_DATA_DIR": str(tmp_path / "home" / "share" / "fanyi"),
        "FANYI_CONFIG_DIR": str(tmp_path / "home" / "config"),
        "FANYI_MODELS_DIR": str(tmp_path / "bundled"),
        "FANYI_CATALOG_FILE": str(tmp_path / "no-catalog.json"),
        "HF_HUB_OFFLINE": "",
        "NO_PROXY": "127.0.0.1",
    }


def fanyi(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fanyi", *args], env=env, capture_output=True, text=True, timeout=600)


def refused_in_one_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert lines[0].startswith("fanyi: ") and all(w in lines[0] for w in words), lines[0]


@pytest.mark.parametrize("name", ["../../evil", "CON", "a\x1bb"])
def test_models_get_refuses_a_name_before_any_download(name, user, tmp_path, tiny_hf_en_zh):
    from fanyi.library.sources.localhub import LocalHub

    with LocalHub() as hub:
        hub.add("Helsinki-NLP/opus-mt-en-zh", tiny_hf_en_zh)
        env = {**user, "HF_ENDPOINT": hub.endpoint}
        before = everything_under(tmp_path)
        done = fanyi("models", "get", "Helsinki-NLP/opus-mt-en-zh", "--quantize", "none", "--name", name, env=env)
        asked = list(hub.requests)
    refused_in_one_line(done, "--name", "cannot be a file or folder name")
    assert everything_under(tmp_path) == before  # no pack, no download folder, nothing
    assert asked == []  # refused before the network


def test_models_get_refuses_a_repository_whose_name_would_be_the_packs(user, tmp_path):
    before = everything_under(tmp_path)
    done = fanyi("models", "get", "someone/CON", env=user)
    refused_in_one_line(done, "the pack's name 'con'", "Windows device")
    assert everything_under(tmp_path) == before


@pytest.mark.parametrize("name", ["../../../evil", "nul", ".ecdict"])
def test_models_import_refuses_a_dictionary_name(name, user, tmp_path):
    source = tmp_path / "ecdict.csv"
    source.write_text(csv_text(), encoding="utf-8")
    before = everything_under(tmp_path)
    done = fanyi("models", "import", str(source), "--name", name, env=user)
    refused_in_one_line(done, "--name", "cannot be a file or folder name")
    assert everything_under(tmp_path) == before


def test_export_refuses_a_name_before_reading_the_model(user, tmp_path, tiny_hf_en_zh):
    before = everything_under(tmp_path)
    done = fanyi("export", str(tiny_hf_en_zh), str(tmp_path / "pack"), "--name", "../x", env=user)
    refused_in_one_line(done, "--name '../x' cannot be a file or folder name: it holds a folder separator")
    assert everything_under(tmp_path) == before


@pytest.mark.parametrize("name", ["../../evil", "AUX", "a\u202eb"])
def test_importing_a_pack_whose_manifest_names_it_badly_is_refused(name, user, tmp_path, tiny_pack):
    pack = tmp_path / "given"
    shutil.copytree(tiny_pack, pack)
    manifest = json.loads((pack / "manifest.json").read_text(encoding="utf-8"))
    manifest["name"] = name
    (pack / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    before = everything_under(tmp_path)
    done = fanyi("models", "import", str(pack), env=user)
    refused_in_one_line(done, "the pack's name", "cannot be a file or folder name")
    assert everything_under(tmp_path) == before


def test_a_catalog_id_that_is_a_device_name_is_refused():
    from fanyi.library.catalog import CatalogError, parse

    dictionary = {
        "id": "nul",
        "version": 1,
        "display_name": {"en": "ECDICT"},
        "source": {"github": {"repo": "skywind3000/ECDICT", "revision": "a" * 40, "file": "ecdict.csv"}},
        "download_size": 100,
        "dictionary_size": 1000,
        "entries": 16,
        "license": {"name": "MIT", "url": "https://example.org/LICENSE", "commercial_use": True},
    }
    doc = {"schema": 2, "serial": 1, "packs": [], "dictionaries": [dictionary]}
    with pytest.raises(CatalogError, match="'nul' cannot be a file or folder name: it is the name of a Windows"):
        parse(json.dumps(doc).encode(), "test")
