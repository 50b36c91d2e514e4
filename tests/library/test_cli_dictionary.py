"""`fanyi models available | install | get | import | list | remove` with a dictionary, as a user runs them
(subprocesses), against a catalog and a copy of ECDICT's file on a local server."""

from __future__ import annotations

import json
import os

import pytest
from dictionary_data import csv_text, write_stardict, write_zip
from fakegithub import COMMIT, REPO, git_blob
from packserver import Route, closed_port_url
from test_cli_models import env_for, run

from fanyi import paths
from fanyi.library import dictionaries

CSV = csv_text().encode("utf-8")


def publish_dictionary(server, monkeypatch) -> None:
    doc = {
        "schema": 2,
        "serial": 1,
        "packs": [],
        "dictionaries": [
            {
                "id": "ecdict",
                "version": 1,
                "default": True,
                "display_name": {"en": "ECDICT"},
                "source": {
                    "github": {"repo": REPO, "revision": COMMIT, "file": "ecdict.csv", "git_blob": git_blob(CSV)}
                },
                "download_size": len(CSV),
                "dictionary_size": 100_000,
                "entries": 16,
                "license": {"name": "MIT", "url": "https://example.org/LICENSE", "commercial_use": True},
            }
        ],
    }
    server.routes["/catalog.json"] = Route(json.dumps(doc).encode())
    server.routes["/mine/ecdict.csv"] = Route(CSV)
    monkeypatch.setenv("FANYI_CATALOG_URL", server.url("/catalog.json"))


def test_a_dictionary_is_listed_installed_from_a_users_address_and_removed(user_dirs, server, monkeypatch):
    publish_dictionary(server, monkeypatch)
    env = env_for(user_dirs)
    listed = run("models", "available", "--refresh", env=env)
    assert listed.returncode == 0, listed.stderr
    row = listed.stdout.splitlines()[-1]
    assert row.split()[:2] == ["ecdict", "en↔zh"] and "MIT" in row and row.endswith("not installed")

    got = run("models", "install", "ecdict", "--url", server.url("/mine/ecdict.csv"), env=env)
    assert got.returncode == 0, got.stderr
    assert got.stdout.startswith("installed ecdict (15 entries) in ") and got.stdout.rstrip().endswith("ecdict.sqlite")
    stages = got.stderr.splitlines()
    assert any(s.startswith("downloading ") for s in stages) and stages[-1] == "converting the dictionary ecdict: 100%"
    assert run("models", "available", env=env).stdout.splitlines()[-1].endswith(" installed")

    shown = run("models", "list", env=env).stdout
    assert "No translation model" in shown or "name" in shown
    line = next(x for x in shown.splitlines() if x.startswith("ecdict "))
    assert "15" in line and "git blob id pinned by the recipe" in line

    removed = run("models", "remove", "ecdict", env=env)
    assert removed.returncode == 0 and removed.stdout == "removed ecdict\n"
    assert not any(paths.dictionaries_dir().iterdir())


def test_a_file_other_than_the_pinned_one_is_refused_and_importing_takes_it_as_it_is(
    user_dirs, server, monkeypatch, tmp_path
):
    publish_dictionary(server, monkeypatch)
    env = env_for(user_dirs)
    edited = tmp_path / "mine.csv"
    edited.write_bytes(CSV.replace("老鼠".encode(), "大老鼠".encode()))
    refused = run("models", "install", "ecdict", "--file", str(edited), env=env)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.strip().splitlines() == [
        f"fanyi: mine.csv is not ecdict.csv of {REPO} at {COMMIT[:12]} (its git blob id differs); "
        "to use it as it is: fanyi models import mine.csv"
    ]
    imported = run("models", "import", str(edited), env=env)
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.startswith("imported ecdict (15 entries) into ")
    full = write_zip(tmp_path / "ecdict-sqlite-28.zip", write_stardict(tmp_path / "stardict.db"), "stardict.db")
    assert run("models", "import", str(full), env=env).stdout.startswith("imported ecdict-full (15 entries)")
    shown = run("models", "list", env=env).stdout
    assert "imported as it is" in shown and "ecdict-full" in shown


def test_getting_ecdict_without_network_is_one_line(user_dirs):
    """The list shipped with Fanyi names no address to refresh it from: only GitHub is asked."""
    dead_proxy = closed_port_url("")
    env = dict(env_for(user_dirs), https_proxy=dead_proxy, http_proxy=dead_proxy, FANYI_CATALOG_FILE="")
    for command in (("get", "skywind3000/ECDICT"), ("install", "ecdict")):
        got = run("models", *command, env=env)
        assert got.returncode == 2, got.stderr
        errors = [x for x in got.stderr.splitlines() if x.startswith("fanyi:")]
        assert len(errors) == 1 and "GitHub cannot be reached" in errors[0], got.stderr
        # what to do instead is the dictionary's, not a model pack's (it said "import a pack file instead")
        assert "--mirror" in errors[0] and "fanyi models import ecdict.csv" in errors[0] and "pack" not in errors[0]
        assert not paths.dictionaries_dir().exists() or not any(paths.dictionaries_dir().iterdir())


def test_models_update_installs_a_newer_dictionary(user_dirs, server, fake_github, monkeypatch, capsys):
    from fanyi.cli import main

    fake_github.file("ecdict.csv", CSV)
    publish_dictionary(server, monkeypatch)
    assert main(["models", "update", "ecdict"]) == 2
    assert capsys.readouterr().err == "fanyi: ecdict is not installed: fanyi models install ecdict\n"
    assert main(["models", "install", "ecdict"]) == 0
    assert capsys.readouterr().out.startswith("installed ecdict (15 entries) in ")
    assert main(["models", "update"]) == 0
    assert capsys.readouterr().out == "every installed pack is up to date\n"
    doc = json.loads(server.routes["/catalog.json"].body)
    doc["serial"], doc["dictionaries"][0]["version"] = 2, 2
    server.routes["/catalog.json"] = Route(json.dumps(doc).encode())
    assert main(["models", "update", "ecdict"]) == 0
    assert capsys.readouterr().out == "updated ecdict to version 2\n"
    assert {d.name: d.version for d in dictionaries.list_dictionaries()} == {"ecdict": 2}


@pytest.mark.parametrize(
    "name, content",
    [
        ("stardict.db", os.urandom(4096)),
        ("ecdict.csv", b"word,meaning\napple,a fruit\n"),
        ("words.txt", b"apple\tpingguo\n"),
        ("empty.csv", b""),
    ],
)
def test_importing_a_file_that_is_not_ecdicts_data_says_so(user_dirs, tmp_path, name, content):
    """A file that is neither a pack (a folder or a .zip) nor ECDICT's data is called what it is not, in one line;
    a damaged .zip is still a pack that cannot be read."""
    given = tmp_path / name
    given.write_bytes(content)
    done = run("models", "import", str(given), env=env_for(user_dirs))
    assert done.returncode == 2 and done.stderr.splitlines() == [
        f"fanyi: {name} is not ECDICT data: neither its CSV (whose first line names the columns "
        "word,phonetic,definition,translation,pos,collins,oxford,tag,bnc,frq,exchange) nor its SQLite file "
        "(stardict.db), nor a .zip holding one"
    ], done.stderr
    assert not paths.dictionaries_dir().exists() and not paths.user_packs_dir().exists()


def test_a_damaged_zip_is_still_called_a_damaged_zip(user_dirs, tmp_path):
    given = tmp_path / "pack.zip"
    given.write_bytes(b"PK\x03\x04" + os.urandom(100))
    done = run("models", "import", str(given), env=env_for(user_dirs))
    assert done.returncode == 2 and "is not a readable .zip archive" in done.stderr, done.stderr
