"""Traditional Chinese with the words Taiwan and Hong Kong use, made from Simplified by OpenCC.

A model that writes Simplified Chinese is asked for Simplified, and its output is converted phrase by
phrase with OpenCC's region profiles: ``s2twp`` for Taiwan (软件 → 軟體, 信息 → 資訊, 视频 → 影片) and
``s2hk`` for Hong Kong (视频 → 視頻, 软件 → 軟件). A request asks for this with
``DecodeOptions.convert`` ("zh-TW" or "zh-HK"); the engine converts what it returns, streamed
(fanyi.engine.converted) or not. No Qt; OpenCC (C++, its dictionaries ~1.3 MB) is imported and its
dictionaries loaded at the first conversion, in the thread that translates.

``DEFAULT_TRADITIONAL`` is what a request for Traditional Chinese without a region (zh-Hant, DeepL's
ZH-HANT) gets: Taiwan's, converted, rather than the model's own ``>>cmn_Hant<<`` output — see the
README ("Traditional Chinese") for why, and what was and was not measured.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from opencc import OpenCC

TAIWAN, HONG_KONG = "zh-TW", "zh-HK"
PROFILES = {TAIWAN: "s2twp", HONG_KONG: "s2hk"}  # OpenCC configurations, by region
REGIONS = tuple(PROFILES)
DEFAULT_TRADITIONAL = TAIWAN
_converters: dict[str, OpenCC] = {}
_lock = threading.Lock()  # two threads' first conversions would both load the dictionaries


def _converter(region: str) -> OpenCC:
    with _lock:
        if region not in _converters:
            import opencc  # ~20 ms to load a profile's dictionaries; only when a conversion is asked for

            _converters[region] = opencc.OpenCC(PROFILES[region])
        return _converters[region]


def check(region: str | None) -> None:
    """ValueError (one line) for a region OpenCC is not asked to write."""
    if region is not None and region not in PROFILES:
        raise ValueError(f"convert must be one of {', '.join(REGIONS)}, got {region!r}")


def convert(text: str, region: str) -> str:
    """Simplified ``text`` in Traditional characters with ``region``'s words."""
    return _converter(region).convert(text) if text else text
