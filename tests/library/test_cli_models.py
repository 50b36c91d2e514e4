"""`fanyi models available | install | update` as a user runs them (subprocesses), against a local server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from packserver import PACK_ID, closed_port_url

from fanyi import paths

ASSETS_CATALOG = Path(__file__).resolve().parents[2] / "assets" / "catalog.json"


def env_for(user_dirs) -> dict[str, str]:
    # user_dirs set FANYI_DATA_DIR/CONFIG_DIR/MODELS_DIR and publish set FANYI_CATALOG_URL in os.environ
    return dict(os.environ, NO_PROXY="127.0.0.1,localhost")


def run(*args, env):
    return subprocess.run([sys.executable, "-m", "fanyi", *args], capture_output=True, text=True, env=env, timeout=300)


def test_available_install_translate_update(user_dirs, publish, server):
    publish(1)
    env = env_for(user_dirs)
    listed = run("models", "available", env=env)
    assert listed.returncode == 0, listed.stderr
    header, row = listed.stdout.splitlines()
    assert header.split() == ["id", "direction", "size", "quant", "license", "quality", "status"]
    assert row.split()[:2] == [PACK_ID, "en→zh"] and row.endswith("not installed")
    assert "int8" in row and "CC-BY-4.0" in row and "BLEU 30.9" in row

    installed = run("models", "install", PACK_ID, env=env)
    assert installed.returncode == 0, installed.stderr
    assert installed.stdout.startswith(f"installed {PACK_ID} (version 1) in ")
    # not a terminal: plain lines, the last of each phase at 100 %
    assert any(line.startswith("downloading ") for line in installed.stderr.splitlines())
    assert "\r" not in installed.stderr
    assert run("models", "available", env=env).stdout.splitlines()[1].endswith(" installed")
    translated = run("translate", "Good morning.", env=env)
    assert translated.returncode == 0 and translated.stdout.strip()

    assert run("models", "update", env=env).stdout == "every installed pack is up to date\n"
    publish(2)
    updated = run("models", "update", env=dict(env, FANYI_CATALOG_URL=server.url("/catalog.json")))
    assert updated.returncode == 0, updated.stderr
    assert updated.stdout == f"updated {PACK_ID} to version 2\n"
    assert sorted(p.name for p in paths.user_packs_dir().iterdir()) == [PACK_ID]


def test_a_pack_whose_licence_restricts_its_use_installs_only_once_its_terms_are_accepted(user_dirs, publish):
    terms = "The licence does not apply in the European Union, the United Kingdom or South Korea."
    publish(
        1,
        license={
            "name": "Tencent HY Community License",
            "url": "https://example.org/License.txt",
            "commercial_use": True,
            "excluded_territories": ["EU", "GB", "KR"],
            "restrictions": {"en": [terms], "zh_CN": ["不适用于欧盟、英国和韩国。"]},
        },
    )
    env = env_for(user_dirs)
    asked = run("models", "install", PACK_ID, env=env)
    assert asked.returncode == 2 and asked.stdout == ""
    assert f"{PACK_ID}: Tencent HY Community License, https://example.org/License.txt\n  - {terms}\n" in asked.stderr
    assert "--accept-license" in asked.stderr.splitlines()[-1]
    assert not paths.downloads_dir().exists() or not any(paths.downloads_dir().iterdir())  # nothing downloaded
    accepted = run("models", "install", PACK_ID, "--accept-license", env=env)
    assert accepted.returncode == 0, accepted.stderr
    assert accepted.stdout.startswith(f"installed {PACK_ID} (version 1) in ")


def test_no_catalog_and_no_network_is_one_line(user_dirs, monkeypatch):
    monkeypatch.setenv("FANYI_CATALOG_URL", closed_port_url())
    # the built-in catalog URLs go through a proxy that is not there: no network, and no internet in a test
    dead_proxy = closed_port_url("")
    env = dict(env_for(user_dirs), https_proxy=dead_proxy, http_proxy=dead_proxy)
    for args in (("models", "available"), ("models", "install", PACK_ID)):
        result = run(*args, env=env)
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert result.returncode == 2 and len(lines) == 1, result.stderr
        assert "the download servers cannot be reached" in lines[0] and "import a pack" in lines[0]


def test_an_unknown_pack_names_what_the_catalog_has(user_dirs, publish):
    publish(1)
    result = run("models", "install", "opus-mt-xx-yy", env=env_for(user_dirs))
    assert result.returncode == 2 and f"has no 'opus-mt-xx-yy' (it has: {PACK_ID})" in result.stderr


def test_ctrl_c_keeps_the_partial_download_and_the_next_install_resumes(user_dirs, publish, server):
    doc = publish(1)
    path = "/packs/" + doc["archive"]["file"]
    stall_at = doc["archive"]["size"] // 2
    server.routes[path].stall_after = stall_at
    env = env_for(user_dirs)
    process = subprocess.Popen(
        [sys.executable, "-m", "fanyi", "models", "install", PACK_ID],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    part = paths.downloads_dir() / (doc["archive"]["file"] + ".part")
    deadline = time.monotonic() + 120
    while not (part.exists() and part.stat().st_size == stall_at) and time.monotonic() < deadline:
        time.sleep(0.05)  # until everything before the stall has arrived
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "cancelled: what was downloaded is kept, and the same command resumes it" in err
    assert part.stat().st_size == stall_at and not paths.user_packs_dir().exists()
    resumed = run("models", "install", PACK_ID, env=env)
    assert resumed.returncode == 0, resumed.stderr
    assert server.ranges(path)[-1] == f"bytes={stall_at}-"
    assert not part.exists()


def test_refreshing_a_list_with_no_address_says_it_is_the_one_shipped_and_when_it_was_made(user_dirs, monkeypatch):
    """`models available --refresh` did nothing, silently: the shipped list names no address."""
    import shutil

    from fanyi import __version__

    shipped = user_dirs / "no-bundle" / "catalog.json"
    shipped.parent.mkdir(exist_ok=True)
    shutil.copy(ASSETS_CATALOG, shipped)
    env = env_for(user_dirs)
    env.pop("FANYI_CATALOG_URL", None)
    listed = run("models", "available", "--refresh", env=env)
    assert listed.returncode == 0, listed.stderr
    assert "opus-mt-en-zh" in listed.stdout
    made = json.loads(ASSETS_CATALOG.read_text(encoding="utf-8"))["generated"][:10]
    assert listed.stderr == (
        f"fanyi: this is the list of packs shipped with Fanyi {__version__}, made {made}: it names no address "
        "to fetch a newer one from (set one with FANYI_CATALOG_URL or the app's Settings → Downloads → Model list "
        "address)\n"
    )
    assert run("models", "available", env=env).stderr == ""  # said when a refresh is asked for


def test_available_keeps_its_columns_with_long_licence_names(user_dirs, publish):
    """The columns broke on long ids and licence names (fixed widths of 24 and 14)."""
    long_licence = "Tencent HY Community License Agreement"
    publish(1, license={"name": long_licence, "url": "https://example.org/License.txt", "commercial_use": True})
    listed = run("models", "available", env=env_for(user_dirs))
    assert listed.returncode == 0, listed.stderr
    header, row = listed.stdout.splitlines()
    # each column starts where its heading does, however long the values before it
    assert row.index(long_licence) == header.index("license")
    assert row.index("not installed") == header.index("status")
    assert row.index("int8") == header.index("quant")
