"""Traditional Chinese with the words Taiwan and Hong Kong use, made from Simplified by OpenCC.

A model that writes Simplified Chinese is asked for Simplified, and its output is converted phrase by
phrase with OpenCC's region profiles: ``s2twp`` for Taiwan (软件 → 軟體, 信息 → 資訊, 视频 → 影片) and
``s2hk`` for Hong Kong (视频 → 視頻, 软件 → 軟件). A request asks for this with
``DecodeOptions.convert`` ("zh-TW" or "zh-HK"); the engine converts what it returns, streamed
(fanyi.engine.converted) or not. No Qt; OpenCC (C++, its dictionaries ~1.3 MB) is imported and its
dictionaries loaded at the first conversion, in the thread that translates.

A Chinese text asked for in Chinese needs no model at all: ``rewrite`` writes Chinese of either script
the way asked for (``REWRITE``: 简体 by ``t2s``, the characters alone by ``s2t``, Taiwan's and Hong Kong's
as above). The router (fanyi.routing) decides when; ``fanyi.rewriter`` stands where a translator would.

The codes of the ways of writing Chinese, and which one a request for Traditional without a region gets
(``DEFAULT_TRADITIONAL``), are fanyi.languages'.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from fanyi.languages import BCP47, HONG_KONG, SIMPLIFIED, TAIWAN, TRADITIONAL

if TYPE_CHECKING:
    from opencc import OpenCC

PROFILES = {TAIWAN: "s2twp", HONG_KONG: "s2hk"}  # OpenCC configurations, by region
REGIONS = tuple(PROFILES)
# Chinese of either script written one way, with no model: the OpenCC configuration, and the BCP 47 tag
# that names the result (in an output's file name, a document's lang attributes)
REWRITE = {way: (profile, BCP47[way]) for way, profile in {SIMPLIFIED: "t2s", TRADITIONAL: "s2t", **PROFILES}.items()}
_converters: dict[str, OpenCC] = {}
_lock = threading.Lock()  # two threads' first conversions would both load the dictionaries


def _converter(profile: str) -> OpenCC:
    with _lock:
        if profile not in _converters:
            import opencc  # ~20 ms to load a profile's dictionaries; only when a conversion is asked for

            _converters[profile] = opencc.OpenCC(profile)
        return _converters[profile]


def check(region: str | None) -> None:
    """ValueError (one line) for a region OpenCC is not asked to write."""
    if region is not None and region not in PROFILES:
        raise ValueError(f"convert must be one of {', '.join(REGIONS)}, got {region!r}")


def convert(text: str, region: str) -> str:
    """Simplified ``text`` in Traditional characters with ``region``'s words."""
    return _converter(PROFILES[region]).convert(text) if text else text


def rewrite(text: str, way: str) -> str:
    """Chinese ``text``, Simplified or Traditional, written the way ``way`` (a key of REWRITE) says."""
    return _converter(REWRITE[way][0]).convert(text) if text else text
