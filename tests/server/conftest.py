"""Local API servers on free localhost ports, over the tiny packs, stopped after each test.

The server opens its own Translator for each pack (cached for the session); tests compare its
answers with ``tiny_translator`` / ``tiny_translator_zh_en``, separate instances with their own
sentence caches, so an answer cannot be a cached copy of the reference.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from api_helpers import KEY, pack_info

from fanyi.engine.options import DecodeOptions


@pytest.fixture(scope="session")
def tiny_translator_zh_en(tiny_pack_zh_en):
    from fanyi.engine.translator import Translator

    return Translator.open(tiny_pack_zh_en, threads=1)


@pytest.fixture(scope="session")
def served_translators():
    """pack folder → the Translator the test servers use (one per pack for the whole session)."""
    return {}


@pytest.fixture
def serve(served_translators):
    """serve(packs, api_key=None, opener=None, options=…, browsers=None, glossary=None, dictionary=None) → a
    started BackgroundServer; ``.address`` is its URL. ``dictionary``: what /dictionary looks words up in."""
    from fanyi.engine.translator import Translator
    from fanyi.server.core import Core
    from fanyi.server.models import Models
    from fanyi.server.run import BackgroundServer, bind

    def cached(path: Path):
        key = Path(path).resolve()
        if key not in served_translators:
            served_translators[key] = Translator.open(path, threads=1)
        return served_translators[key]

    servers = []

    def start(
        packs, *, api_key=None, opener=None, options=DecodeOptions, browsers=None, glossary=None, dictionary=None
    ) -> BackgroundServer:
        infos = [pack_info(p) for p in packs]
        core = Core(
            Models(lambda: infos, opener or cached),
            api_key=api_key,
            options=options,
            glossary=glossary,
            dictionary=dictionary,
        )
        server = BackgroundServer(core, bind("127.0.0.1", 0), browsers=browsers)
        server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
        assert not server.running


@pytest.fixture
def both(serve, tiny_pack, tiny_pack_zh_en):
    """A server over both tiny packs (en→zh, zh→en), without a key."""
    return serve([tiny_pack, tiny_pack_zh_en])


@pytest.fixture
def keyed(serve, tiny_pack, tiny_pack_zh_en):
    """The same with the key api_helpers.KEY."""
    return serve([tiny_pack, tiny_pack_zh_en], api_key=KEY)
