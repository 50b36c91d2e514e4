"""Installing a dictionary as a pack is installed: from its recipe, downloaded from a stand-in GitHub on
127.0.0.1 (a repository file from raw.githubusercontent.com's paths, a release asset through github.com's
302 to its storage, the release API's size and digest, a GitHub proxy), resumable, checked, converted."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from dictionary_data import csv_text, write_csv, write_stardict, write_zip
from fakegithub import ASSET, COMMIT, REPO, TAG, git_blob
from packserver import CancelAfter, Route, closed_port_url

from fanyi import paths
from fanyi.cancel import Cancelled
from fanyi.library import catalog, dictionaries
from fanyi.library.catalog import CatalogError, DictionaryEntry
from fanyi.library.errors import DownloadError, LibraryError

NO_DELAY = {"retry_delay": 0}  # the real timeouts: a busy machine must not make a sending server look stalled
CSV = csv_text().encode("utf-8")
LICENSE = {"name": "MIT", "url": "https://github.com/skywind3000/ECDICT/blob/master/LICENSE", "commercial_use": True}


def recipe(dictionary_id: str = "ecdict", **changes) -> DictionaryEntry:
    """A dictionary entry as the catalog has it, read by the app's catalog reader."""
    doc = {
        "id": dictionary_id,
        "version": 1,
        "display_name": {"en": "ECDICT", "zh_CN": "ECDICT 英汉词典"},
        "source": {"github": {"repo": REPO, "revision": COMMIT, "file": "ecdict.csv", "git_blob": git_blob(CSV)}},
        "download_size": len(CSV),
        "dictionary_size": 100_000,
        "entries": 16,
        "license": LICENSE,
        **changes,
    }
    text = json.dumps({"schema": 2, "serial": 1, "packs": [], "dictionaries": [doc]})
    return catalog.parse(text, "test").dictionaries[0]


def release_recipe(**changes) -> DictionaryEntry:
    return recipe("ecdict-full", source={"github": {"repo": REPO, "release": TAG, "file": ASSET}}, **changes)


@pytest.fixture()
def sqlite_zip(tmp_path) -> bytes:
    """ecdict-sqlite-28.zip as the release has it: stardict.db inside."""
    db = write_stardict(tmp_path / "stardict.db")
    return write_zip(tmp_path / ASSET, db, "stardict.db").read_bytes()


def phases(reports) -> list[str]:
    return list(dict.fromkeys(r.phase for r in reports))


def downloads() -> list[Path]:
    folder = paths.downloads_dir() / dictionaries.DOWNLOADS
    return sorted(folder.iterdir()) if folder.exists() else []


# --- the catalog -----------------------------------------------------------------------------------
def test_the_shipped_catalog_offers_ecdicts_csv_pinned_and_its_full_release():
    shipped = catalog.read(paths.assets_dir() / catalog.CATALOG_FILE)
    by_id = {d.id: d for d in shipped.dictionaries}
    csv_entry, full = by_id["ecdict"], by_id["ecdict-full"]
    assert csv_entry.default and not full.default
    assert (csv_entry.github.repo, csv_entry.github.file, csv_entry.github.revision) == (
        "skywind3000/ECDICT",
        "ecdict.csv",
        "bc015ed2e24a7abef49fc6dbbb7fe32c1dadaf8b",
    )
    assert csv_entry.github.git_blob == "c4ade63ea08cf39d9c3475e96929036d64d94c94"
    assert (full.github.release, full.github.file) == ("1.0.28", "ecdict-sqlite-28.zip")
    assert csv_entry.sha256 is None and full.sha256 is None  # not pinned: the comment says why
    assert "could not be read here" in csv_entry.comment and "could not be read here" in full.comment
    assert csv_entry.license.name == "MIT" and csv_entry.license.commercial_use


def test_a_dictionary_entry_survives_the_catalogs_json_and_bad_ones_are_refused():
    entry = recipe()
    again = catalog.parse(
        catalog.to_json(catalog.Catalog(1, "", (), dictionaries=(entry, release_recipe()))), "again"
    ).dictionaries
    assert again == (entry, release_recipe())
    for change, said in (
        ({"source": {"github": {"repo": REPO, "file": "x.csv"}}}, "either a 'revision'"),
        ({"source": {"github": {"repo": REPO, "revision": "a", "release": "b", "file": "x"}}}, "either a 'revision'"),
        ({"source": {"github": {"repo": REPO, "revision": COMMIT, "file": "../etc/passwd"}}}, "invalid github file"),
        ({"source": {"github": {"repo": REPO, "revision": COMMIT, "file": "x", "git_blob": "zz"}}}, "git_blob"),
        ({"sha256": "abc"}, "64 hex digits"),
        ({"entries": 0}, "entries is out of range"),
    ):
        with pytest.raises(CatalogError, match=said):
            recipe(**change)
    newer = json.dumps(
        {
            "schema": 2,
            "serial": 1,
            "packs": [],
            "dictionaries": [
                {
                    **json.loads(catalog.to_json(catalog.Catalog(1, "", (), dictionaries=(entry,))))["dictionaries"][0],
                    "format": "wordnet",
                }
            ],
        }
    )
    assert catalog.parse(newer, "x").dictionaries == ()  # a newer Fanyi's format: left out, the rest read


# --- installing ------------------------------------------------------------------------------------
def test_the_repository_csv_is_downloaded_checked_by_its_git_blob_and_converted(user_dirs, fake_github):
    route = fake_github.file("ecdict.csv", CSV)
    reports = []
    info = dictionaries.install(recipe(), progress=reports.append, **NO_DELAY)
    assert (info.name, info.entries, info.version, info.checked) == ("ecdict", 15, 1, "git-blob")
    assert info.source_sha256 == hashlib.sha256(CSV).hexdigest()
    assert info.path == paths.dictionaries_dir() / "ecdict.sqlite"
    assert info.open().lookup("went").entry.word == "go"
    assert phases(reports) == ["connecting", "downloading", "indexing"]
    # the size asked for as a resumed download asks (nobody pins it), then the file
    assert fake_github.server.ranges(route) == ["bytes=0-0", None]
    assert downloads() == []  # installed: the download is deleted


def test_a_release_asset_follows_githubs_redirect_resumes_and_is_checked_by_githubs_digest(
    user_dirs, fake_github, sqlite_zip
):
    fake_github.release({ASSET: sqlite_zip}, digests=True)
    storage = next(p for p in fake_github.server.routes if p.startswith("/storage/"))
    fake_github.server.routes[storage].drop_after = len(sqlite_zip) // 2
    info = dictionaries.install(release_recipe(), **NO_DELAY)
    assert (info.name, info.entries, info.checked) == ("ecdict-full", 15, "github-sha256")
    assert info.open().lookup("mice").entry.word == "mouse"
    # the API said the size: no probe; the storage host was asked again from the byte it reached
    assert fake_github.server.ranges(storage) == [None, f"bytes={len(sqlite_zip) // 2}-"]
    assert [p for p, _r in fake_github.server.requests][0] == f"/api/repos/{REPO}/releases/tags/{TAG}"


def test_an_asset_github_states_no_digest_for_is_checked_by_its_size_and_says_so(user_dirs, fake_github, sqlite_zip):
    fake_github.release({ASSET: sqlite_zip}, digests=False, api=False)  # an API that cannot be reached: 404
    info = dictionaries.install(release_recipe(), **NO_DELAY)
    assert info.checked == "size" and info.source_sha256 == hashlib.sha256(sqlite_zip).hexdigest()
    assert dictionaries.CHECKED_AGAINST[info.checked].startswith("size only")


def test_bytes_other_than_githubs_digest_are_deleted(user_dirs, fake_github, sqlite_zip):
    fake_github.release({ASSET: sqlite_zip}, digests=True)
    storage = next(p for p in fake_github.server.routes if p.startswith("/storage/"))
    fake_github.server.routes[storage] = Route(bytes(b ^ 1 for b in sqlite_zip))
    with pytest.raises(DownloadError, match="sha256 does not match GitHub's; it was deleted"):
        dictionaries.install(release_recipe(), **NO_DELAY)
    assert downloads() == [] and dictionaries.list_dictionaries() == []


def test_another_file_than_the_pinned_one_is_deleted_and_the_installed_dictionary_stays(user_dirs, fake_github):
    fake_github.file("ecdict.csv", CSV)
    installed = dictionaries.install(recipe(), **NO_DELAY).path.read_bytes()
    other = csv_text().replace("老鼠", "大老鼠").encode("utf-8")
    fake_github.file("ecdict.csv", other)
    with pytest.raises(DownloadError, match="not the file the recipe pins"):
        dictionaries.install(recipe(version=2), **NO_DELAY)
    assert downloads() == [] and (paths.dictionaries_dir() / "ecdict.sqlite").read_bytes() == installed


def test_too_few_entries_is_not_ecdicts_data(user_dirs, fake_github):
    fake_github.file("ecdict.csv", CSV)
    with pytest.raises(LibraryError, match="holds 16 entries, ECDICT's data has at least 500"):
        dictionaries.install(recipe(entries=1000), **NO_DELAY)
    assert dictionaries.list_dictionaries() == []


def test_the_github_mirror_is_tried_first_and_github_after_it(user_dirs, fake_github):
    direct = fake_github.server.url(fake_github.file("ecdict.csv", CSV))
    fake_github.proxy(direct, CSV)
    dictionaries.install(recipe(), mirror=fake_github.proxy_url, **NO_DELAY)
    asked = [p for p, _r in fake_github.server.requests]
    assert asked == [f"/proxy/{direct}"] * 2  # the probe and the download, both through the mirror
    fake_github.server.requests.clear()
    fake_github.server.routes[f"/proxy/{direct}"] = Route(b"", status=502)  # the mirror is down: GitHub itself
    assert dictionaries.install(recipe(version=2), mirror=fake_github.proxy_url, **NO_DELAY).version == 2
    assert [p for p, _r in fake_github.server.requests][-1].startswith("/raw/")
    with pytest.raises(DownloadError, match="not an http"):
        dictionaries.install(recipe(version=3), mirror="ftp://x", **NO_DELAY)


def test_a_users_address_and_a_users_file_are_checked_as_githubs_would_be(user_dirs, server, tmp_path):
    server.routes["/mine/ecdict.csv"] = Route(CSV)
    assert dictionaries.install(recipe(), url=server.url("/mine/ecdict.csv"), **NO_DELAY).checked == "git-blob"
    mine = write_csv(tmp_path / "ecdict.csv")
    info = dictionaries.install(recipe(version=2), file=mine)
    assert info.version == 2 and mine.exists()  # the user's file is left where it was
    edited = tmp_path / "edited.csv"
    edited.write_bytes(CSV + b"extra,,,n. x,,,,,0,0,,,\r\n")
    with pytest.raises(LibraryError, match="git blob id differs.*fanyi models import edited.csv"):
        dictionaries.install(recipe(version=3), file=edited)


def test_a_cancelled_download_is_resumed_by_the_next_install(user_dirs, fake_github):
    rows = csv_text() + "".join(f"word{i},,,n. 词{i},,,,,0,0,,,\r\n" for i in range(30_000))
    data = rows.encode("utf-8")
    route = fake_github.file("ecdict.csv", data)
    with pytest.raises(Cancelled):
        dictionaries.install(
            recipe(
                **{
                    "source": {
                        "github": {"repo": REPO, "revision": COMMIT, "file": "ecdict.csv", "git_blob": git_blob(data)}
                    }
                }
            ),
            cancel=CancelAfter(4),
            **NO_DELAY,
        )
    part = downloads()
    assert len(part) == 1 and part[0].name.endswith(".part") and 0 < part[0].stat().st_size < len(data)
    have = part[0].stat().st_size
    entry = recipe(
        source={"github": {"repo": REPO, "revision": COMMIT, "file": "ecdict.csv", "git_blob": git_blob(data)}}
    )
    assert dictionaries.install(entry, **NO_DELAY).entries == 30_015
    assert fake_github.server.ranges(route)[-1] == f"bytes={have}-"


def test_no_network_is_one_line(user_dirs, monkeypatch):
    from fanyi.library.sources import github

    dead = closed_port_url("")
    monkeypatch.setattr(github, "HOSTS", github.GitHubHosts(web=dead, api=dead, raw=dead))
    with pytest.raises(DownloadError) as failure:
        dictionaries.install(recipe(), **NO_DELAY)
    assert failure.value.unreachable and "\n" not in str(failure.value)


# --- on this computer ------------------------------------------------------------------------------
def test_a_users_own_file_is_imported_listed_and_removed(user_dirs, tmp_path):
    csv_path = write_csv(tmp_path / "ecdict.csv")
    zipped = write_zip(tmp_path / ASSET, write_stardict(tmp_path / "stardict.db"), "stardict.db")
    assert dictionaries.is_dictionary_file(csv_path) and dictionaries.is_dictionary_file(zipped)
    small = dictionaries.import_file(csv_path)
    full = dictionaries.import_file(zipped)
    assert (small.name, small.version, small.checked) == ("ecdict", 0, "imported") and full.name == "ecdict-full"
    broken = paths.dictionaries_dir() / "broken.sqlite"
    broken.write_bytes(b"not a dictionary")
    listed = {d.name: d for d in dictionaries.list_dictionaries()}
    assert listed.keys() == {"ecdict", "ecdict-full", "broken"}
    assert "not a Fanyi dictionary" in listed["broken"].problem and not listed["broken"].usable
    assert dictionaries.preferred() == listed["ecdict-full"]  # the most entries; a tie goes to the full one
    dictionaries.remove("broken")
    dictionaries.remove("ecdict")
    assert [d.name for d in dictionaries.list_dictionaries()] == ["ecdict-full"]
    with pytest.raises(LibraryError, match="no dictionary 'ecdict' is installed"):
        dictionaries.remove("ecdict")


def test_a_pack_zip_is_no_dictionary(archives, tmp_path):
    """A pack is a folder or a .zip (a damaged one too); any other file is imported as a dictionary, whose import
    then says it is not ECDICT's data (tests/library/test_cli_dictionary.py)."""
    assert not dictionaries.is_dictionary_file(archives[1])
    assert not dictionaries.is_dictionary_file(tmp_path)
    damaged = tmp_path / "pack.zip"
    damaged.write_bytes(b"not a zip archive")
    assert not dictionaries.is_dictionary_file(damaged)
    text = tmp_path / "notes.txt"
    text.write_text("hello", encoding="utf-8")
    assert dictionaries.is_dictionary_file(text)


def test_a_full_disk_is_said_before_anything_is_written(user_dirs, tmp_path, monkeypatch):
    from fanyi.library import diskspace
    from fanyi.library.errors import DiskSpaceError

    monkeypatch.setattr(diskspace, "free_bytes", lambda folder: 1000)
    with pytest.raises(DiskSpaceError, match="not enough disk space"):
        dictionaries.import_file(write_csv(tmp_path / "ecdict.csv"))
    assert dictionaries.list_dictionaries() == []
