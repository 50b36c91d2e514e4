"""The CJK face a translated PDF is drawn with: found, measured, and embedded as a subset of the glyphs used.

A document's translations are drawn with one face, embedded once as a Type0 font (Identity-H encoding, a
CIDFontType2 descendant whose CIDs are the face's glyph ids) holding only the glyphs drawn, with a ToUnicode map
so the text can be selected, searched and extracted. Faces with CFF outlines (.otf, Noto Sans CJK's .ttc) are
embedded with TrueType outlines made from them (fontTools' cu2qu), since readers mis-draw CFF labelled TrueType.

API (everything else is private):

    find_face(script, text="") -> FaceChoice
        The face for ``script`` ("Hans": Simplified, "Hant": Traditional, "Latn": Latin only, either will do)
        that can draw ``text``: FANYI_PDF_FONT (a font file, "path#N" for the N-th face of a collection), then
        the bundled Noto Sans SC/TC (assets/fonts, packaging/cjk_fonts.py), then the system's CJK fonts. Only
        faces whose licence (OS/2 fsType) allows embedding a subset are taken, and at most FACES_TRIED are read
        looking for one that draws every character (the best of them wins). FaceChoice.face is None when no
        face is usable at all; FaceChoice.missing holds the characters of ``text`` the face has no glyph for
        (the caller reports them: they are never drawn, as a .notdef box or otherwise). Never raises.
    load_face(path, index=0) -> Face
        One face of a .ttf/.otf/.ttc/.otc file, read once (cached); FontError says why one cannot be used.
    Face
        .advance(text, size) -> float  the width in points of ``text`` at ``size`` points (what the PDF advances)
        .ascent, .descent, .cap_height  in ems (multiply by the size): the em box above and below the baseline
        .has(char) -> bool, .missing(text) -> str   what it can draw; .name, .path, .index
    EmbeddedFont(face, pdf)
        .ref        the Type0 font (an indirect object of ``pdf``) to name in a page's /Resources /Font
        .encode(text) -> bytes   the 2-byte codes of ``text`` for a Tj, recording the glyphs used; characters the
                                 face lacks are left out and collected in .missing
        .finish()   writes the subset, widths, descriptor and ToUnicode map into .ref, once every page is encoded
    show_text(font, size, runs, *, bold=False, rgb=(0, 0, 0)) -> bytes
        Content-stream operators drawing ``runs`` ((x, y, encoded) baselines in user space) with the resource
        ``font``; bold is drawn by filling and stroking the outlines (render mode 2), for headings.

Same input, same bytes: the subset's tag comes from its glyphs, the font keeps its own timestamps, and the
streams are compressed here (zlib level 9), whatever the caller's save options.
"""

from __future__ import annotations

import functools
import hashlib
import io
import logging
import os
import re
import sys
import unicodedata
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path
from typing import Any

import pikepdf
from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTCollection, TTFont, TTLibError, newTable
from fontTools.ttLib.tables._g_l_y_f import Glyph

from fanyi import paths

log = logging.getLogger(__name__)

ENV = "FANYI_PDF_FONT"
SCRIPTS = ("Hans", "Hant", "Latn")
# packaging/cjk_fonts.py puts them here (and packaging/pyinstaller/contents.py into the bundle)
BUNDLED = {"Hans": "NotoSansSC-Regular.ttf", "Hant": "NotoSansTC-Regular.ttf"}
# Regular faces drawing Chinese that systems install, best first, by lower-cased file name: Linux distributions'
# Noto/Source Han/WenQuanYi/Droid/AR PL packages, Windows' and macOS's own.
SYSTEM_FONTS = (
    "notosanscjk-regular.ttc",
    "notosanscjksc-regular.otf",
    "notosanscjktc-regular.otf",
    "notosanscjkhk-regular.otf",
    "notosanssc-regular.otf",
    "notosanstc-regular.otf",
    "notosanssc-regular.ttf",
    "notosanstc-regular.ttf",
    "sourcehansans-regular.ttc",
    "sourcehansans-regular.otc",
    "sourcehanssanssc-regular.otf",
    "sourcehanssanstc-regular.otf",
    "sourcehanssanscn-regular.otf",
    "sourcehanssanstw-regular.otf",
    "sourcehanssanshk-regular.otf",
    "pingfang.ttc",
    "msyh.ttc",
    "msjh.ttc",
    "deng.ttf",
    "hiragino sans gb.ttc",
    "stheiti light.ttc",
    "simhei.ttf",
    "simsun.ttc",
    "mingliu.ttc",
    "wqy-microhei.ttc",
    "wqy-zenhei.ttc",
    "droidsansfallbackfull.ttf",
    "droidsansfallback.ttf",
    "uming.ttc",
    "ukai.ttc",
    "arial unicode.ttf",
)
_MAX_SCANNED = 50_000  # directory entries looked at while searching the font folders
_MAX_DEPTH = 5

# a face's region, read from its names: "Noto Sans CJK SC", "Microsoft JhengHei", "AR PL UMing TW"
_REGION_WORDS = {
    "Hans": re.compile(r"\b(sc|cn|gb|hans|chs|yahei|simsun|nsimsun|simhei|dengxian|wenquanyi|stheiti)\b"),
    "Hant": re.compile(r"\b(tc|tw|hk|hant|cht|jhenghei|mingliu|pmingliu)\b"),
    "other": re.compile(r"\b(jp|kr|japanese|korean|meiryo|gothic|malgun)\b"),
}
_FS_TYPE_RESTRICTED, _FS_TYPE_NO_SUBSETTING, _FS_TYPE_BITMAP_ONLY = 0x0002, 0x0100, 0x0200
_PDF_UNITS = 1000  # glyph space: widths and metrics in a PDF font are in thousandths of the size
_TABLES_KEPT = ("head", "hhea", "hmtx", "loca", "glyf", "maxp", "cvt ", "fpgm", "prep", "OS/2", "name", "post", "cmap")
_RESOURCE_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")
BOLD_STROKE = 0.03  # fake bold: the outline is stroked with this fraction of the size


class FontError(Exception):
    """A font file that cannot be used for a translated PDF; ``str()`` says why."""


def _invisible(char: str) -> bool:
    """Characters that draw nothing: controls, format characters (zero-width space, soft hyphen, joiners),
    line and paragraph separators and variation selectors. They are neither drawn nor counted as missing."""
    code = ord(char)
    return unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") or 0xFE00 <= code <= 0xFE0F or code >= 0xE0000


class Face:
    """One face of a font file, read once: its character map and advance widths as plain dicts (for fast
    measuring of whole documents), and the figures its embedded descriptor states."""

    def __init__(self, path: Path, index: int, font: TTFont) -> None:
        self.path, self.index = path, index
        _check_usable(font)
        self.name = _postscript_name(font)
        self.cff = "CFF " in font
        head, hhea = font["head"], font["hhea"]
        upem = head.unitsPerEm
        order = font.getGlyphOrder()
        ids = {name: gid for gid, name in enumerate(order)}
        metrics = font["hmtx"].metrics
        # advance widths in thousandths of an em, rounded as the PDF's W array states them: what is measured
        # here is exactly what a reader advances
        self.widths = [round(metrics[name][0] * _PDF_UNITS / upem) if name in metrics else 0 for name in order]
        self._glyphs: dict[str, int] = {}
        for code, name in (font.getBestCmap() or {}).items():
            gid = ids.get(name, 0)
            if gid and not 0xD800 <= code <= 0xDFFF:
                self._glyphs[chr(code)] = gid
        if space := self._glyphs.get(" "):  # other spaces the face lacks are drawn as its space
            for code in range(0x2000, 0x200B):
                self._glyphs.setdefault(chr(code), space)
            for char in "\u00a0\u202f\u205f":
                self._glyphs.setdefault(char, space)
        self._advance = {char: self.widths[gid] for char, gid in self._glyphs.items()}
        os2 = font.get("OS/2")
        ascent, descent = (os2.sTypoAscender, os2.sTypoDescender) if os2 is not None else (hhea.ascent, hhea.descent)
        if ascent - descent <= 0:
            ascent, descent = hhea.ascent, hhea.descent
        self.ascent, self.descent = ascent / upem, -descent / upem
        cap = getattr(os2, "sCapHeight", 0) if os2 is not None and os2.version >= 2 else 0
        self.cap_height = (cap or ascent * 0.8) / upem
        # the descriptor's figures, in thousandths of an em
        self.bbox = [round(v * _PDF_UNITS / upem) for v in (head.xMin, head.yMin, head.xMax, head.yMax)]
        self.line_ascent = round(hhea.ascent * _PDF_UNITS / upem)
        self.line_descent = round(hhea.descent * _PDF_UNITS / upem)
        post = font.get("post")
        self.italic_angle = float(post.italicAngle) if post is not None else 0.0
        self.fixed_pitch = bool(post.isFixedPitch) if post is not None else False
        self.weight = os2.usWeightClass if os2 is not None else 400

    def __repr__(self) -> str:
        return f"Face({self.name!r}, {str(self.path)!r}, {self.index})"

    def glyph(self, char: str) -> int:
        """The glyph id drawing ``char``, 0 (.notdef) when the face has none."""
        return self._glyphs.get(char, 0)

    def has(self, char: str) -> bool:
        return char in self._glyphs

    def missing(self, text: str) -> str:
        """The visible characters of ``text`` the face cannot draw, each once, in code point order."""
        return "".join(sorted(c for c in set(text) if c not in self._glyphs and not _invisible(c)))

    def advance(self, text: str, size: float) -> float:
        """How far ``text`` advances at ``size`` points (characters the face lacks are not drawn: 0)."""
        return sum(map(self._advance.get, text, repeat(0))) * size / _PDF_UNITS


def _check_usable(font: TTFont) -> None:
    for tag in ("head", "hhea", "hmtx", "cmap", "maxp"):
        if tag not in font:
            raise FontError(f"it has no {tag.strip()} table")
    if "fvar" in font or "CFF2" in font:
        raise FontError("it is a variable font")
    if "glyf" not in font and "CFF " not in font:
        raise FontError("it has no outlines (glyf or CFF)")
    fs_type = font["OS/2"].fsType if "OS/2" in font else 0
    if fs_type & 0x000F == _FS_TYPE_RESTRICTED:
        raise FontError("its licence forbids embedding it (OS/2 fsType: restricted)")
    if fs_type & _FS_TYPE_NO_SUBSETTING:
        raise FontError("its licence forbids embedding a subset of it (OS/2 fsType)")
    if fs_type & _FS_TYPE_BITMAP_ONLY:
        raise FontError("its licence allows embedding its bitmaps only (OS/2 fsType)")


def _names(font: TTFont) -> list[str]:
    table = font.get("name")
    if table is None:
        return []
    return [str(name) for name_id in (16, 1, 4, 6) if (name := table.getDebugName(name_id))]


def _postscript_name(font: TTFont) -> str:
    table = font.get("name")
    name = (table.getDebugName(6) or table.getDebugName(4) or "") if table is not None else ""
    return re.sub(r"[^!-~]|[()<>\[\]{}/%#]", "", name)[:100] or "Font"


def _open(path: Path, index: int) -> TTFont:
    return TTFont(path, fontNumber=index, lazy=True, recalcTimestamp=False)


@functools.lru_cache(maxsize=16)
def load_face(path: Path, index: int = 0) -> Face:
    """Face ``index`` of the font file at ``path``; FontError when it cannot be read or used."""
    try:
        return Face(path, index, _open(path, index))
    except FontError:
        raise
    except (OSError, TTLibError) as exc:
        raise FontError(f"it cannot be read ({exc})") from exc
    except Exception as exc:  # fontTools' table parsers fail on a damaged file with anything
        raise FontError(f"it is damaged ({type(exc).__name__}: {exc})") from exc


# --- finding a face ---------------------------------------------------------------------------------------
FACES_TRIED = 6  # usable faces read, best first, looking for one that draws every character of a translation


@dataclass(frozen=True)
class FaceChoice:
    face: Face | None  # None: no usable face at all
    missing: str = ""  # characters of the text the face cannot draw (never drawn; the caller reports them)
    rejected: tuple[str, ...] = ()  # faces looked at and not taken, each with why


@dataclass(frozen=True, order=True)
class _Candidate:
    rank: tuple[int, int]
    path: Path = field(compare=False)
    index: int = field(compare=False)


def _region(names: Iterable[str]) -> str:
    text = " ".join(names).lower()
    for region, words in _REGION_WORDS.items():
        if words.search(text):
            return region
    return ""


def _rank(region: str, names: Sequence[str], script: str) -> int:
    """Lower is better: the script's own region, then faces that say none, then the other Chinese region,
    then Japanese and Korean faces (other glyph shapes); monospaced variants after their proportional ones."""
    wanted = "Hant" if script == "Hant" else "Hans"
    order = 0 if region == wanted else 2 if not region else 6 if region == "other" else 4
    return order + any("mono" in name.lower() for name in names)


def _font_dirs() -> list[Path]:
    home = Path.home()
    if sys.platform == "win32":
        windows = Path(os.environ.get("WINDIR", r"C:\Windows"))
        local = os.environ.get("LOCALAPPDATA")
        return [windows / "Fonts", *([Path(local) / "Microsoft" / "Windows" / "Fonts"] if local else [])]
    if sys.platform == "darwin":
        return [
            Path("/System/Library/Fonts"),
            Path("/Library/Fonts"),
            home / "Library" / "Fonts",
            Path("/System/Library/AssetsV2"),  # PingFang and other downloadable system fonts
        ]
    data_dirs = os.environ.get("XDG_DATA_DIRS") or "/usr/local/share:/usr/share"
    data_home = os.environ.get("XDG_DATA_HOME") or str(home / ".local" / "share")
    return [Path(data_home) / "fonts", home / ".fonts", *(Path(d) / "fonts" for d in data_dirs.split(os.pathsep) if d)]


@functools.lru_cache(maxsize=4)
def system_fonts(dirs: tuple[Path, ...]) -> tuple[Path, ...]:
    """The SYSTEM_FONTS files under the font folders ``dirs``, best first; the search is bounded (folder depth
    and entries looked at) and its answer kept for the process."""
    wanted = {name: rank for rank, name in enumerate(SYSTEM_FONTS)}
    found: dict[Path, int] = {}
    budget = [_MAX_SCANNED]

    def walk(folder: Path, depth: int) -> None:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return
        for entry in sorted(entries, key=lambda e: e.name):
            budget[0] -= 1
            if budget[0] < 0:
                return
            try:
                if entry.is_dir() and depth < _MAX_DEPTH:
                    walk(Path(entry.path), depth + 1)
                elif entry.name.lower() in wanted and entry.is_file():
                    found.setdefault(Path(entry.path), wanted[entry.name.lower()])
            except OSError:
                continue

    for folder in dict.fromkeys(dirs):
        walk(folder, 0)
    return tuple(sorted(found, key=lambda path: (found[path], str(path))))


@functools.lru_cache(maxsize=64)
def _faces_in(path: Path) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """(index, names) of every face in a font file or collection."""
    with path.open("rb") as handle:
        collection = handle.read(4) == b"ttcf"
    if collection:
        fonts = TTCollection(path, lazy=True).fonts
        return tuple((i, tuple(_names(font))) for i, font in enumerate(fonts))
    return ((0, tuple(_names(_open(path, 0)))),)


def _override() -> tuple[Path, int] | None:
    value = os.environ.get(ENV, "").strip()
    if not value:
        return None
    path, _, index = value.rpartition("#") if re.search(r"#\d+$", value) else (value, "", "0")
    return Path(path).expanduser(), int(index)


def _candidates(script: str, rejected: list[str]) -> Iterator[tuple[Path, int]]:
    if override := _override():
        yield override
    candidates = []
    folder = paths.assets_dir() / "fonts"
    for position, (region, name) in enumerate(BUNDLED.items()):
        if (folder / name).is_file():
            candidates.append(_Candidate((_rank(region, (), script), position), folder / name, 0))
    for position, path in enumerate(system_fonts(tuple(_font_dirs())), start=len(BUNDLED)):
        try:
            faces = _faces_in(path)
        except Exception as exc:  # noqa: BLE001 - a damaged system font may fail fontTools anyhow: skip it
            rejected.append(f"{path}: it cannot be read ({type(exc).__name__})")
            continue
        for index, names in faces:
            candidates.append(_Candidate((_rank(_region(names), names, script), position), path, index))
    for candidate in sorted(candidates):
        yield candidate.path, candidate.index


def find_face(script: str, text: str = "") -> FaceChoice:
    """The face to draw ``text`` in ``script`` with (see the module's docstring). Whatever the text and the
    fonts found, it answers; only a ``script`` not in SCRIPTS is refused (ValueError)."""
    if script not in SCRIPTS:
        raise ValueError(f"script must be one of {', '.join(SCRIPTS)}, not {script!r}")
    needed = "".join(sorted(set(text)))
    rejected: list[str] = []
    best: tuple[Face, str] | None = None
    tried = 0
    for path, index in _candidates(script, rejected):
        if tried >= FACES_TRIED:
            break  # a character no likely face draws (a rare symbol) is not worth reading every font for
        try:
            face = load_face(path, index)
        except FontError as exc:
            rejected.append(f"{path}#{index}: {exc}")
            continue
        tried += 1
        missing = face.missing(needed)
        if not missing:
            return FaceChoice(face, "", tuple(rejected))
        if best is None or len(missing) < len(best[1]):
            best = face, missing
    for reason in rejected:
        log.info("PDF font not used: %s", reason)
    if best is None:
        return FaceChoice(None, "".join(c for c in needed if not _invisible(c)), tuple(rejected))
    return FaceChoice(best[0], best[1], tuple(rejected))


# --- embedding -------------------------------------------------------------------------------------------
class EmbeddedFont:
    """The Type0 font of one face in one PDF: text is encoded while pages are laid out, the glyphs it used are
    recorded, and finish() writes the subset once they are all known (glyph ids are the CIDs, so encoding
    needs no subset yet)."""

    def __init__(self, face: Face, pdf: pikepdf.Pdf) -> None:
        self.face = face
        self.pdf = pdf
        self.ref = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type0))
        self.missing: set[str] = set()  # characters asked for that the face cannot draw: left out
        self._used: dict[int, set[str]] = {}  # glyph id → the characters drawn with it

    def encode(self, text: str) -> bytes:
        """``text`` as 2-byte codes for a Tj (Identity-H); what the face lacks is left out and kept in .missing."""
        out = bytearray()
        for char in text:
            gid = self.face.glyph(char)
            if not gid:
                if not _invisible(char):
                    self.missing.add(char)
                continue
            self._used.setdefault(gid, set()).add(char)
            out += gid.to_bytes(2, "big")
        return bytes(out)

    def finish(self) -> None:
        """Write the font into .ref: the subset of the glyphs encoded so far, their widths and the ToUnicode map."""
        face = self.face
        gids = sorted(self._used)
        tag = "".join(chr(65 + b % 26) for b in hashlib.sha256(repr((face.name, gids)).encode()).digest()[:6])
        base_font = pikepdf.Name(f"/{tag}+{face.name}")
        program = _subset(face, gids, {char for chars in self._used.values() for char in chars})
        font_file = _stream(self.pdf, program, Length1=len(program))
        flags = 4 | (1 if face.fixed_pitch else 0) | (64 if face.italic_angle else 0)  # symbolic: not Latin-only
        descriptor = pikepdf.Dictionary(
            Type=pikepdf.Name.FontDescriptor,
            FontName=base_font,
            Flags=flags,
            FontBBox=pikepdf.Array(face.bbox),
            ItalicAngle=int(face.italic_angle) if face.italic_angle.is_integer() else round(face.italic_angle, 2),
            Ascent=face.line_ascent,
            Descent=face.line_descent,
            CapHeight=round(face.cap_height * _PDF_UNITS),
            StemV=_stem_v(face.weight),
            FontFile2=font_file,
        )
        default_width, widths = _widths(face, gids)
        cid_font = pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.CIDFontType2,
            BaseFont=base_font,
            CIDSystemInfo=pikepdf.Dictionary(
                Registry=pikepdf.String("Adobe"), Ordering=pikepdf.String("Identity"), Supplement=0
            ),
            FontDescriptor=self.pdf.make_indirect(descriptor),
            DW=default_width,
            W=pikepdf.Array(widths),
            CIDToGIDMap=pikepdf.Name.Identity,
        )
        self.ref.BaseFont = base_font
        self.ref.Encoding = pikepdf.Name("/Identity-H")
        self.ref.DescendantFonts = pikepdf.Array([self.pdf.make_indirect(cid_font)])
        self.ref.ToUnicode = _stream(self.pdf, _to_unicode({gid: _text_of(chars) for gid, chars in self._used.items()}))


def _stream(pdf: pikepdf.Pdf, data: bytes, **entries: Any) -> pikepdf.Object:
    stream = pikepdf.Stream(pdf, b"", **entries)
    stream.write(zlib.compress(data, 9), filter=pikepdf.Name.FlateDecode)
    return pdf.make_indirect(stream)


def _stem_v(weight: int) -> int:
    """No font states its stem width; this estimate from the weight class is the one PDF writers commonly use."""
    return 50 + round((weight / 65) ** 2)


def _text_of(chars: set[str]) -> str:
    """The character a glyph stands for in ToUnicode when several reached it: the canonical one (U+4E00 over the
    Kangxi radical U+2F00, a space over a no-break space), then the lowest."""
    return min(chars, key=lambda c: (unicodedata.normalize("NFKC", c) != c, c))


def _widths(face: Face, gids: Sequence[int]) -> tuple[int, list[Any]]:
    """DW and a compact W array: runs of consecutive CIDs, a range where their widths are all one."""
    counts = Counter(face.widths[gid] for gid in gids)
    default = min(counts, key=lambda w: (-counts[w], w)) if counts else _PDF_UNITS
    runs: list[list[int]] = []
    for gid in gids:
        if face.widths[gid] == default:
            continue
        if runs and runs[-1][-1] == gid - 1:
            runs[-1].append(gid)
        else:
            runs.append([gid])
    array: list[Any] = []
    for run in runs:
        widths = [face.widths[gid] for gid in run]
        if len(run) > 1 and len(set(widths)) == 1:
            array += [run[0], run[-1], widths[0]]
        else:
            array += [run[0], pikepdf.Array(widths)]
    return default, array


def _to_unicode(mapping: dict[int, str]) -> bytes:
    lines = [
        "/CIDInit /ProcSet findresource begin",
        "12 dict begin",
        "begincmap",
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
        "/CMapName /Adobe-Identity-UCS def",
        "/CMapType 2 def",
        "1 begincodespacerange",
        "<0000> <FFFF>",
        "endcodespacerange",
    ]
    items = sorted(mapping.items())
    for start in range(0, len(items), 100):  # at most 100 entries a block
        block = items[start : start + 100]
        lines.append(f"{len(block)} beginbfchar")
        lines += [f"<{gid:04X}> <{text.encode('utf-16-be').hex().upper()}>" for gid, text in block]
        lines.append("endbfchar")
    lines += ["endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return ("\n".join(lines) + "\n").encode("ascii")


def _subset(face: Face, gids: Sequence[int], chars: set[str]) -> bytes:
    """The face's glyphs ``gids`` (and .notdef) at their own ids, as a TrueType program for FontFile2."""
    options = subset.Options()
    options.retain_gids = True  # the CIDs in the content streams are the face's glyph ids
    options.notdef_outline = True
    options.layout_features = []  # no shaping in a PDF: the glyphs are chosen already
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # copyright, names, licence
    options.name_languages = [0x0409]
    options.glyph_names = False
    options.recalc_timestamp = False
    font = _open(face.path, face.index)
    subsetter = subset.Subsetter(options)
    subsetter.populate(gids=[0, *gids], unicodes=sorted(ord(c) for c in chars))
    subsetter.subset(font)
    if "CFF " in font:
        _cff_to_glyf(font, {font.getGlyphName(gid) for gid in (0, *gids)})
    for tag in list(font.keys()):
        if tag not in _TABLES_KEPT and tag != "GlyphOrder":
            del font[tag]
    font["post"].formatType = 3.0  # no glyph names: a PDF reader never needs them
    out = io.BytesIO()
    font.save(out, reorderTables=True)
    return out.getvalue()


def _cff_to_glyf(font: TTFont, drawn: set[str]) -> None:
    """Replace the CFF outlines by quadratic TrueType ones (cubic curves approximated within 1 unit by cu2qu,
    the otf2ttf recipe); the glyphs outside ``drawn`` are empty after subsetting and are written as such."""
    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyphs = {}
    for name in order:
        if name in drawn:
            pen = TTGlyphPen(glyph_set)
            glyph_set[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
            glyphs[name] = pen.glyph()
        else:
            glyphs[name] = Glyph()
    glyf = font["glyf"] = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = glyphs
    font["loca"] = newTable("loca")
    del font["CFF "]
    glyf.compile(font)  # sets each glyph's bounds
    metrics = font["hmtx"].metrics
    for name, glyph in glyphs.items():
        metrics[name] = (metrics[name][0], getattr(glyph, "xMin", 0))
    maxp = font["maxp"] = newTable("maxp")  # version 1.0, as TrueType outlines need; counted on save
    maxp.tableVersion, maxp.numGlyphs, maxp.maxZones = 0x00010000, len(order), 1
    maxp.maxTwilightPoints = maxp.maxStorage = maxp.maxFunctionDefs = maxp.maxInstructionDefs = 0
    maxp.maxStackElements = maxp.maxSizeOfInstructions = maxp.maxComponentElements = 0
    font.sfntVersion = "\x00\x01\x00\x00"


# --- drawing ---------------------------------------------------------------------------------------------
def _number(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def show_text(
    font: str,
    size: float,
    runs: Iterable[tuple[float, float, bytes]],
    *,
    bold: bool = False,
    rgb: tuple[float, float, float] = (0.0, 0.0, 0.0),
) -> bytes:
    """Operators drawing each run's encoded text (EmbeddedFont.encode) from its baseline origin (x, y) in user
    space, with the resource ``font`` (a /Resources /Font name, without the slash) at ``size`` points, in one
    text object inside q … Q, so nothing of it leaks into what the page draws next."""
    if not _RESOURCE_NAME.fullmatch(font):
        raise ValueError(f"not a resource name: {font!r}")
    color = " ".join(_number(c) for c in rgb)
    ops = ["q", f"{color} rg"]
    if bold:
        ops += [f"{color} RG", f"{_number(size * BOLD_STROKE)} w"]
    ops += ["BT", f"/{font} {_number(size)} Tf", "2 Tr" if bold else "0 Tr"]
    ops += [f"1 0 0 1 {_number(x)} {_number(y)} Tm <{code.hex().upper()}> Tj" for x, y, code in runs]
    ops += ["ET", "Q"]
    return ("\n".join(ops) + "\n").encode("ascii")
