"""Packs from the catalog (fanyi.library.install, fanyi.library.catalog_fetch) against a local server: install,
verify, mirrors, cancel and resume, update, statuses, and which copy of a pack wins."""

from __future__ import annotations

import json
import shutil

import pytest
from packserver import PACK_ID, CancelAfter, Route, catalog_doc, closed_port_url, copy_pack, make_archive

from fanyi import paths
from fanyi.cancel import Cancelled
from fanyi.engine.pack import file_digest
from fanyi.engine.translator import Translator
from fanyi.library import catalog, catalog_fetch, install, installed
from fanyi.library.errors import DownloadError, LibraryError
from fanyi.library.install import Status
from fanyi.library.sources.order import Preference


def packs_dir_contents() -> list[str]:
    folder = paths.user_packs_dir()
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def downloads_dir_contents() -> list[str]:
    folder = paths.downloads_dir()
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_install_downloads_verifies_and_the_pack_translates(user_dirs, publish):
    publish(1)
    cat = install.load_catalog()
    assert cat.serial == 1 and catalog.cached_path().is_file()  # fetched (no copy here yet) and saved
    assert [r.status for r in install.available(cat)] == [Status.NOT_INSTALLED]
    reports = []
    info = install.install(install.find_entry(cat, PACK_ID), progress=reports.append)
    assert info.name == PACK_ID and info.pack_version == 1 and not info.bundled
    assert Translator.open(info.path, threads=1).translate("Good morning.")
    assert {r.phase for r in reports} == {"downloading", "installing"}
    assert reports[-1].phase == "installing" and reports[-1].done == reports[-1].total
    assert downloads_dir_contents() == []  # the finished .zip is not kept
    assert packs_dir_contents() == [PACK_ID]
    assert [r.status for r in install.available(cat)] == [Status.INSTALLED]
    assert installed.find_pack().name == PACK_ID


def test_installing_what_is_installed_downloads_nothing(user_dirs, publish, server):
    publish(1)
    cat = install.load_catalog()
    install.install(cat.packs[0])
    server.requests.clear()
    assert install.install(cat.packs[0]).pack_version == 1 and server.requests == []


# where the model's own files would come from when the archive fails: a server that is not there
NO_SOURCE = Preference("url", closed_port_url(""))


@pytest.fixture
def online(monkeypatch):
    """huggingface_hub allowed to ask (the tests' environment sets HF_HUB_OFFLINE)."""
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)


def test_a_wrong_sha256_in_the_catalog_installs_nothing(user_dirs, publish, archives, online):
    doc = publish(1)
    publish(1, archive={**doc["archive"], "sha256": "0" * 64})
    cat = install.load_catalog()
    with pytest.raises(DownloadError, match="the prebuilt archive: .* sha256 does not match the catalog's") as failure:
        install.install(cat.packs[0], source=NO_SOURCE)
    assert str(failure.value).startswith("no download source can be reached")  # the model's files were asked for
    assert packs_dir_contents() == [] and downloads_dir_contents() == []


def test_an_archive_holding_another_pack_is_refused(user_dirs, server, publish, tiny_pack_int8, tmp_path):
    other = make_archive(tiny_pack_int8, tmp_path / "opus-mt-en-zh-int8-v1.zip", "something-else", 1)
    server.routes["/packs/opus-mt-en-zh-int8-v1.zip"] = Route(other.read_bytes())
    doc = publish(1)
    publish(1, archive={**doc["archive"], **file_digest(other)})
    with pytest.raises(LibraryError, match="it holds the pack 'something-else', not 'opus-mt-en-zh'"):
        install.install(install.load_catalog().packs[0])
    assert packs_dir_contents() == [] and downloads_dir_contents() == []


def test_the_users_mirror_is_tried_first_and_a_failing_one_falls_back(user_dirs, publish, server, archives):
    publish(1)
    entry = install.load_catalog().packs[0]
    server.routes["/mirror/" + entry.archive.file] = Route(b"", status=404)
    install.install(entry, mirror=server.url("/mirror/"))
    assert [p for p, _r in server.requests if p != "/catalog.json"] == [
        "/mirror/" + entry.archive.file,
        "/packs/" + entry.archive.file,
    ]
    with pytest.raises(LibraryError, match="is not an http"):
        install.archive_urls(entry, "ftp://example.org/packs")


def test_cancel_installs_nothing_and_the_next_install_resumes(user_dirs, publish, server):
    publish(1)
    entry = install.load_catalog().packs[0]
    with pytest.raises(Cancelled):
        install.install(entry, cancel=CancelAfter(3))
    part = paths.downloads_dir() / (entry.archive.file + ".part")
    have = part.stat().st_size
    assert 0 < have < entry.archive.size and packs_dir_contents() == []
    install.install(entry)
    assert server.ranges("/packs/" + entry.archive.file)[-1] == f"bytes={have}-"
    assert packs_dir_contents() == [PACK_ID] and downloads_dir_contents() == []


def test_update_swaps_versions_and_the_old_one_is_gone(user_dirs, publish):
    publish(1)
    install.install(install.load_catalog().packs[0])
    old_files = {p.name: p.stat().st_ino for p in (paths.user_packs_dir() / PACK_ID).iterdir()}
    publish(2)
    cat = install.load_catalog(refresh=True)
    assert cat.serial == 2 and [r.status for r in install.available(cat)] == [Status.UPDATE]
    [updated] = install.update(cat)
    assert updated.pack_version == 2 and packs_dir_contents() == [PACK_ID]  # no .old-*, no staging
    manifest = json.loads((paths.user_packs_dir() / PACK_ID / "manifest.json").read_text())
    assert manifest["pack_version"] == 2
    assert {p.name: p.stat().st_ino for p in (paths.user_packs_dir() / PACK_ID).iterdir()} != old_files
    assert install.update(cat) == [] and [r.status for r in install.available(cat)] == [Status.INSTALLED]


def test_update_of_a_pack_that_is_not_installed_says_so(user_dirs, publish):
    publish(1)
    cat = install.load_catalog()
    with pytest.raises(LibraryError, match=f"{PACK_ID} is not installed: fanyi models install {PACK_ID}"):
        install.update(cat, [PACK_ID])
    with pytest.raises(LibraryError, match="has no 'nope'"):
        install.update(cat, ["nope"])


@pytest.mark.parametrize("offset", [-1, 1])
def test_an_archive_of_another_pack_format_is_not_downloaded_the_pack_is_made_from_the_model(
    user_dirs, publish, server, offset, online
):
    from fanyi.engine.pack import FORMAT_VERSION

    publish(1, format_version=FORMAT_VERSION + offset)
    entry = install.load_catalog().packs[0]
    server.requests.clear()
    with pytest.raises(DownloadError, match="no download source can be reached"):
        install.install(entry, source=NO_SOURCE)
    assert server.requests == []


# --- which copy of a pack wins ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "bundled_version, user_version, winner",
    [(1, 2, "user"), (2, 1, "bundled"), (1, 1, "user"), (None, None, "user"), (1, None, "bundled")],
)
def test_the_higher_pack_version_wins_and_the_user_copy_on_a_tie(
    user_dirs, tiny_pack_int8, bundled_version, user_version, winner
):
    bundled_dir = user_dirs / "bundled"
    copy_pack(tiny_pack_int8, bundled_dir / PACK_ID, PACK_ID, bundled_version)
    copy_pack(tiny_pack_int8, paths.user_packs_dir() / PACK_ID, PACK_ID, user_version)
    [listed] = installed.list_packs()
    assert listed.bundled == (winner == "bundled") and listed.pack_version == (
        (bundled_version if winner == "bundled" else user_version) or 0
    )
    assert installed.find_pack(PACK_ID) == listed == installed.find_pack()


def test_an_update_over_a_bundled_pack_installs_a_user_copy_that_wins(user_dirs, publish, tiny_pack_int8):
    copy_pack(tiny_pack_int8, user_dirs / "bundled" / PACK_ID, PACK_ID, 1)
    publish(2)
    cat = install.load_catalog()
    assert [r.status for r in install.available(cat)] == [Status.UPDATE]
    install.update(cat)
    assert [(p.bundled, p.pack_version) for p in installed.list_packs()] == [(False, 2)]
    installed.remove_pack(PACK_ID)  # the bundled copy is what is left
    assert [(p.bundled, p.pack_version) for p in installed.list_packs()] == [(True, 1)]


# --- refreshing the catalog -------------------------------------------------------------------------
def test_refresh_keeps_a_catalog_only_when_it_is_not_older(user_dirs, publish, server):
    publish(2, serial=7)
    assert catalog_fetch.refresh().serial == 7
    current = catalog.load()
    server.routes["/catalog.json"] = Route(catalog_doc([], serial=6))
    assert catalog_fetch.refresh(current) is current and catalog.load().serial == 7
    server.routes["/catalog.json"] = Route(catalog_doc([], serial=7))
    assert catalog_fetch.refresh(current).packs == () and catalog.load().packs == ()


def test_refresh_tries_the_urls_in_order(user_dirs, server, monkeypatch):
    server.routes["/own.json"] = Route(catalog_doc([], serial=3))
    server.routes["/user.json"] = Route(b"", status=500)
    monkeypatch.setenv("FANYI_CATALOG_URL", server.url("/env.json"))  # 404
    current = catalog.parse(catalog_doc([], serial=1, catalog_urls=[server.url("/own.json")]), "test")
    assert catalog_fetch.refresh(current, user_url=server.url("/user.json")).serial == 3
    assert [p for p, _r in server.requests] == ["/env.json", "/user.json", "/own.json"]


def test_only_https_or_loopback_or_an_explicit_url_is_trusted_for_the_catalog(monkeypatch):
    monkeypatch.delenv("FANYI_CATALOG_URL", raising=False)
    current = catalog.parse(
        catalog_doc(
            [],
            catalog_urls=[
                "http://catalog.example.org/c.json",
                "https://catalog.example.org/c.json",
                "http://127.0.0.1:8/c.json",
                "http://localhost:8/c.json",
                "http://[::1]:8/c.json",
            ],
        ),
        "test",
    )
    urls = catalog_fetch.catalog_urls(current, user_url="http://my-mirror.lan/c.json")
    assert urls == [
        "http://my-mirror.lan/c.json",
        "https://catalog.example.org/c.json",
        "http://127.0.0.1:8/c.json",
        "http://localhost:8/c.json",
        "http://[::1]:8/c.json",
    ]  # and no address of this project's: the catalog the app ships needs none


def test_no_catalog_and_no_network_is_one_line(user_dirs, monkeypatch):
    monkeypatch.setenv("FANYI_CATALOG_URL", closed_port_url())
    with pytest.raises(DownloadError) as failure:
        install.load_catalog()
    assert failure.value.unreachable and "\n" not in str(failure.value)
    assert str(failure.value).startswith("the download servers cannot be reached (127.0.0.1:")


def test_a_failed_refresh_falls_back_to_the_copy_on_this_machine(user_dirs, publish, monkeypatch):
    publish(1)
    install.load_catalog()
    monkeypatch.setenv("FANYI_CATALOG_URL", closed_port_url())
    warnings = []
    assert install.load_catalog(refresh=True, warn=warnings.append).serial == 1
    assert len(warnings) == 1 and "cannot be reached" in warnings[0] and "using the list of packs from" in warnings[0]
    shutil.rmtree(paths.user_data_dir())
    with pytest.raises(DownloadError, match="cannot be reached"):
        install.load_catalog(refresh=True)
