"""Unicode for the glyph names of TeX's fonts that the Adobe Glyph List does not know.

A Type 1 font with no ToUnicode map is read by its glyph names (its encoding's Differences, or the encoding built
into the font program). pdfminer knows the Adobe Glyph List's names; Computer Modern's symbol and maths fonts
(cmsy, cmmi, cmex, msam, and the Latin Modern and cm-super fonts made from them) name some of their glyphs
otherwise, and pdfminer gives up on those: "where ⟨wd⟩ is a TeX dimension" came out as "where (cid:104)wd(cid:105)
is…", and the whole paragraph was left as unreadable. The values are the characters the glyphs show (as
lcdf-typetools' texglyphlist.txt lists them, first choice).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from pdfminer.encodingdb import name2unicode
from pdfminer.psparser import PSLiteral

TEX_GLYPHS = {
    "angbracketleft": "\u27e8",
    "angbracketright": "\u27e9",
    "arrowbothv": "\u2195",
    "arrowdblbothv": "\u21d5",
    "arrowhookleft": "\u21a9",
    "arrowhookright": "\u21aa",
    "arrownortheast": "\u2197",
    "arrownorthwest": "\u2196",
    "arrowsoutheast": "\u2198",
    "arrowsouthwest": "\u2199",
    "bardbl": "\u2225",
    "ceilingleft": "\u2308",
    "ceilingright": "\u2309",
    "circlecopyrt": "\u25cb",
    "circledivide": "\u2298",
    "circledot": "\u2299",
    "circleminus": "\u2296",
    "coproduct": "\u2a3f",
    "diamondmath": "\u22c4",
    "dotlessj": "\u0237",
    "epsilon1": "\u03f5",
    "equivasymptotic": "\u224d",
    "floorleft": "\u230a",
    "floorright": "\u230b",
    "follows": "\u227b",
    "followsequal": "\u2ab0",
    "greatermuch": "\u226b",
    "greaterorsimilar": "\u2273",
    "Ifractur": "\u2111",
    "intersectionsq": "\u2293",
    "latticetop": "\u22a4",
    "lessmuch": "\u226a",
    "lessorsimilar": "\u2272",
    "mapsto": "\u21a6",
    "minusplus": "\u2213",
    "negationslash": "\u0338",
    "owner": "\u220b",
    "planckover2pi1": "\u210f",
    "precedes": "\u227a",
    "precedesequal": "\u2aaf",
    "prime": "\u2032",
    "reflexsubset": "\u2286",
    "reflexsuperset": "\u2287",
    "Rfractur": "\u211c",
    "similarequal": "\u2243",
    "simequal": "\u2243",
    "slurabove": "\u2322",
    "slurbelow": "\u2323",
    "square": "\u25a1",
    "star": "\u22c6",
    "subsetsqequal": "\u2291",
    "supersetsqequal": "\u2292",
    "tie": "\u2040",
    "triangleinv": "\u25bd",
    "triangleleft": "\u25c1",
    "triangleleftsld": "\u25c0",
    "triangleright": "\u25b7",
    "trianglerightsld": "\u25b6",
    "turnstileleft": "\u22a2",
    "turnstileright": "\u22a3",
    "unionmulti": "\u228e",
    "unionsq": "\u2294",
    "vec": "\u20d7",
    "visiblespace": "\u2423",
    "wreathproduct": "\u2240",
}

# cmex's sizes of one delimiter or operator: "parenleftBigg", "summationdisplay", "radicalbig"
_SIZED = re.compile(r"(.+?)(?:big|Big|bigg|Bigg|display|text)$")


def unicode_of(name: str) -> str | None:
    """The text a glyph named ``name`` shows, or None. A suffix after a full stop names a variant of the same
    glyph (the Adobe Glyph List's rule: "summationdisplay.1")."""
    name = name.split(".", 1)[0]
    if not name:
        return None
    for candidate in (name, *(match.group(1) for match in [_SIZED.fullmatch(name)] if match)):
        if candidate in TEX_GLYPHS:
            return TEX_GLYPHS[candidate]
        try:
            return name2unicode(candidate)
        except (KeyError, ValueError):
            continue
    return None


def differences(entries: Iterable[object]) -> Iterator[tuple[int, str]]:
    """(code, glyph name) pairs of an encoding's Differences array: a number, then the names from that code on."""
    code = 0
    for entry in entries:
        if isinstance(entry, int):
            code = entry
        elif isinstance(entry, PSLiteral):
            yield code, str(entry.name)
            code += 1


_BUILT_IN = re.compile(rb"dup\s+(\d{1,3})\s*/([^\s/\[\]{}()<>]+)\s+put")


def built_in(header: bytes) -> Iterator[tuple[int, str]]:
    """(code, glyph name) pairs of the encoding in a Type 1 font program's clear-text part ("dup 104
    /angbracketleft put")."""
    for match in _BUILT_IN.finditer(header):
        yield int(match.group(1)), match.group(2).decode("latin-1")
