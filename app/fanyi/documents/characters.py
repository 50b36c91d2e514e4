"""Characters no document may hold, taken out of what a model writes before any writer sees it.

XML 1.0 (.docx, .pptx, .epub, .xhtml) cannot hold the C0 control characters but tab, line feed and
carriage return, nor lone surrogates or U+FFFE/U+FFFF: lxml refuses to write them, and one of them in a
translation would fail the whole document. HTML makes them and the C1 controls parse errors, and in a
.txt or .srt a NUL or 0x1A (DOS's end of file) cuts the file short for some readers. A model can emit
any of them (an LLM's byte-level tokens above all), so one rule serves every format.
"""

from __future__ import annotations

import re

FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def scrub(text: str) -> tuple[str, int]:
    """``text`` without the FORBIDDEN characters, and how many were taken out."""
    return FORBIDDEN.subn("", text)
