"""Font files for the PDF font tests, built with fontTools: TrueType or CFF outlines, any characters, any licence
bits, collections. Each glyph's outline is made of straight and curved contours seeded by its character, so
glyphs differ and take about as many bytes as a real CJK glyph when ``detail`` is high."""

from __future__ import annotations

import random
from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTCollection, TTFont

UPEM = 1000
HAN_WIDTH, SPACE_WIDTH = 1000, 224


def width_of(char: str) -> int:
    """The advance the built fonts give ``char``, in font units (1000 an em)."""
    if char == " ":
        return SPACE_WIDTH
    if ord(char) >= 0x2E80:
        return HAN_WIDTH
    return 300 + (ord(char) * 37) % 400


def _draw(pen, char: str, detail: int, curves: bool) -> None:
    rng = random.Random(ord(char))
    for _ in range(detail):
        x, y = rng.randrange(50, 800), rng.randrange(-100, 700)
        w, h = rng.randrange(40, 150), rng.randrange(40, 150)
        pen.moveTo((x, y))
        if curves:
            pen.curveTo((x + w // 3, y - 20), (x + 2 * w // 3, y - 20), (x + w, y))
        else:
            pen.lineTo((x + w, y))
        pen.lineTo((x + w, y + h))
        pen.lineTo((x + w // 2, y + h + 30))
        pen.lineTo((x, y + h))
        pen.closePath()


def build_font(
    path: Path,
    chars: str,
    *,
    cff: bool = False,
    fs_type: int = 0,
    family: str = "Test Sans SC",
    detail: int = 3,
    variable: bool = False,
    same_glyph: dict[str, str] | None = None,
    widths: dict[str, int] | None = None,
) -> Path:
    """A Regular face mapping space and ``chars`` (and each key of ``same_glyph`` to its value's glyph), its glyphs
    in that order; ``widths`` overrides width_of's advances."""
    chars = "".join(dict.fromkeys(c for c in chars if c != " "))
    names = {char: f"u{ord(char):05X}" for char in chars}
    order = [".notdef", "space", *names.values()]
    builder = FontBuilder(UPEM, isTTF=not cff)
    builder.setupGlyphOrder(order)
    cmap = {32: "space", **{ord(c): name for c, name in names.items()}}
    for alias, char in (same_glyph or {}).items():
        cmap[ord(alias)] = names[char]
    builder.setupCharacterMap(cmap)
    drawn = {".notdef": "\u25a1", "space": None, **{name: char for char, name in names.items()}}
    if cff:
        charstrings = {}
        for name, char in drawn.items():
            advance = (widths or {}).get(char, width_of(char)) if char else SPACE_WIDTH
            pen = T2CharStringPen(advance, None)
            if char:
                _draw(pen, char, detail, curves=True)
            charstrings[name] = pen.getCharString()
        builder.setupCFF(family.replace(" ", "") + "-Regular", {"FullName": f"{family} Regular"}, charstrings, {})
    else:
        glyphs = {}
        for name, char in drawn.items():
            pen = TTGlyphPen(None)
            if char:
                _draw(pen, char, detail, curves=False)
            glyphs[name] = pen.glyph()
        builder.setupGlyf(glyphs)
    widths = widths or {}
    metrics = {name: (widths.get(char, width_of(char)) if char else SPACE_WIDTH, 0) for name, char in drawn.items()}
    metrics[".notdef"] = (UPEM, 0)
    builder.setupHorizontalMetrics(metrics)
    builder.setupHorizontalHeader(ascent=1160, descent=-288)
    builder.setupNameTable(
        {"familyName": family, "styleName": "Regular", "psName": family.replace(" ", "") + "-Regular"}
    )
    builder.setupOS2(
        sTypoAscender=880,
        sTypoDescender=-120,
        sTypoLineGap=0,
        usWinAscent=1160,
        usWinDescent=288,
        fsType=fs_type,
        sCapHeight=733,
        sxHeight=543,
        version=4,
    )
    builder.setupPost()
    if variable:
        builder.setupFvar([("wght", 100, 400, 900, "Weight")], [])
    path.parent.mkdir(parents=True, exist_ok=True)
    builder.save(str(path))
    return path


def build_collection(path: Path, members: list[Path]) -> Path:
    """A .ttc of the given font files, in that order."""
    collection = TTCollection()
    collection.fonts = [TTFont(str(member)) for member in members]
    path.parent.mkdir(parents=True, exist_ok=True)
    collection.save(str(path))
    return path
