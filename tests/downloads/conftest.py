"""Fixtures of the download tests: a local pack server, pack archives of two versions, a catalog."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from packserver import PACK_ID, PackServer, Route, catalog_doc, entry, make_archive, unpacked_size


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch):
    """The local server is reached directly whatever proxy the machine running the tests has."""
    for key in list(os.environ):
        if key.lower() in ("http_proxy", "https_proxy", "all_proxy", "no_proxy"):
            monkeypatch.delenv(key)


@pytest.fixture(scope="session")
def archives(tiny_pack_int8, tmp_path_factory) -> dict[int, Path]:
    """The tiny int8 pack published as opus-mt-en-zh versions 1 and 2."""
    out = tmp_path_factory.mktemp("archives")
    return {v: make_archive(tiny_pack_int8, out / f"{PACK_ID}-int8-v{v}.zip", PACK_ID, v) for v in (1, 2)}


@pytest.fixture()
def server():
    with PackServer() as running:
        yield running


@pytest.fixture()
def publish(server, archives, tiny_pack_int8, monkeypatch):
    """publish(version, **entry_changes): serve that archive and a catalog listing it; FANYI_CATALOG_URL
    points at the catalog. Returns the entry as published (a dict)."""

    def go(version: int = 1, serial: int | None = None, **changes) -> dict:
        archive = archives[version]
        server.routes.setdefault(f"/packs/{archive.name}", Route(archive.read_bytes()))
        doc = entry(PACK_ID, version, archive, [server.url(f"/packs/{archive.name}")],
                    unpacked=unpacked_size(tiny_pack_int8), **changes)
        server.routes["/catalog.json"] = Route(catalog_doc([doc], serial=serial or version))
        monkeypatch.setenv("FANYI_CATALOG_URL", server.url("/catalog.json"))
        return doc

    return go

