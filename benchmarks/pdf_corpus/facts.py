"""What a PDF says about itself: its pages, its /Producer and /Creator, the engine they name, and a few
features its resources show (fonts of formulas, fixed-pitch fonts, CJK fonts, links, images, an outline).

The features are read from the file's objects, not from how its pages look: "math-fonts" means a font whose
name is one of TeX's or OpenType's formula fonts is used somewhere, not that a page has a display formula.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pikepdf

# The engine or program each family of producers names, first match wins. A document typeset by TeX keeps
# the TeX engine as its producer whatever wrote the source (Doxygen, Sphinx, texinfo, dblatex): the tool
# that wrote the source is told by the manifest's family, from the document's own text.
_ENGINES = (
    (re.compile(r"LibreOffice|OpenOffice", re.I), "LibreOffice"),
    (re.compile(r"\bWord\b|PDFMaker .* for Word", re.I), "Word"),
    (re.compile(r"PowerPoint", re.I), "PowerPoint"),
    (re.compile(r"InDesign", re.I), "InDesign"),
    (re.compile(r"Apache FOP", re.I), "Apache FOP"),
    (re.compile(r"ReportLab", re.I), "reportlab"),
    (re.compile(r"^Prawn", re.I), "Prawn"),
    (re.compile(r"FontForge", re.I), "FontForge"),
    (re.compile(r"\bcairo\b", re.I), "cairo"),
    (re.compile(r"gropdf", re.I), "gropdf"),
    (re.compile(r"Ghostscript", re.I), "Ghostscript"),
    (re.compile(r"Acrobat Distiller", re.I), "Acrobat Distiller"),
    (re.compile(r"htmldoc", re.I), "htmldoc"),
    (re.compile(r"xdvipdfmx|XeTeX|XeLaTeX", re.I), "XeTeX"),
    (re.compile(r"dvipdfmx", re.I), "dvipdfmx"),
    (re.compile(r"dvipdfm\b", re.I), "dvipdfm"),
    (re.compile(r"LuaTeX|LuaHBTeX|LuaLaTeX", re.I), "LuaTeX"),
    (re.compile(r"pdfTeX|pdfeTeX|pdflatex", re.I), "pdfTeX"),
    (re.compile(r"Quartz", re.I), "Quartz"),
)
# pdfTeX and LuaTeX also write a banner naming themselves, which survives a custom /Producer ("Your Name Here").
_BANNER = re.compile(r"This is (pdfTeX|LuaTeX|LuaHBTeX)", re.I)

_MATH_FONT = re.compile(r"cmmi|cmsy|cmex|msam|msbm|lmmi|lmsy|lmex|eufm|eusm|rsfs|txsy|txex|pxsy|pxex|math", re.I)
_MONO_FONT = re.compile(r"cmtt|sftt|lmmono|lmtt|txtt|courier|mono|inconsolata|consol|menlo|typewriter|sourcecode", re.I)
_CJK_FONT = re.compile(
    r"simsun|simhei|simkai|simfang|fangsong|stsong|stheiti|songti|heiti|kaiti|fandol|sourcehan|notos\w*cjk|uming|ukai|"
    r"wenquanyi|mincho|ipaex|cjk",
    re.I,
)
_CJK_ORDERINGS = {"GB1", "CNS1", "Japan1", "Korea1"}
_FIXED_PITCH = 1  # the FontDescriptor /Flags bit for fixed-pitch fonts


@dataclass(frozen=True)
class Facts:
    sha256: str
    pages: int
    producer: str
    creator: str
    engine: str
    features: tuple[str, ...]


def engine_of(producer: str, creator: str, banner: str = "") -> str:
    """The family of program that wrote the PDF, from its /Producer, /Creator and pdfTeX's banner; "other"
    when none is named."""
    for text in (creator, producer):
        for pattern, engine in _ENGINES[:4]:  # an office program names itself in /Creator, its PDF library in /Producer
            if pattern.search(text):
                return engine
    for text in (producer, creator):
        for pattern, engine in _ENGINES[4:]:
            if pattern.search(text):
                return engine
    found = _BANNER.search(banner)
    if found:
        return "LuaTeX" if found.group(1).lower().startswith("lua") else "pdfTeX"
    return "other"


def read_facts(data: bytes) -> Facts:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        info = pdf.docinfo
        producer, creator, banner = (str(info.get(key, "")) for key in ("/Producer", "/Creator", "/PTEX.Fullbanner"))
        return Facts(
            sha256=hashlib.sha256(data).hexdigest(),
            pages=len(pdf.pages),
            producer=producer,
            creator=creator,
            engine=engine_of(producer, creator, banner),
            features=_features(pdf),
        )


def _features(pdf: pikepdf.Pdf) -> tuple[str, ...]:
    found: set[str] = set()
    outlines = pdf.Root.get("/Outlines")
    if isinstance(outlines, pikepdf.Dictionary) and "/First" in outlines:
        found.add("outline")
    seen: set[tuple[int, int]] = set()
    for page in pdf.pages:
        for annot in page.obj.get("/Annots", pikepdf.Array()):
            if isinstance(annot, pikepdf.Dictionary) and annot.get("/Subtype") == pikepdf.Name.Link:
                found.add("links")
        for kind, obj in _resources(page.obj.get("/Resources"), seen):
            if kind == "image":
                found.add("images")
            else:
                found.update(_font_features(obj))
    return tuple(sorted(found))


def _resources(resources: object, seen: set[tuple[int, int]]) -> Iterator[tuple[str, pikepdf.Dictionary]]:
    """The fonts and images of a resource dictionary and of the forms (and Type 3 glyphs) it draws, each once."""
    if not isinstance(resources, pikepdf.Dictionary):
        return
    for font in resources.get("/Font", pikepdf.Dictionary()).values():
        if isinstance(font, pikepdf.Dictionary) and _first_visit(font, seen):
            yield "font", font
            yield from _resources(font.get("/Resources"), seen)
    for xobject in resources.get("/XObject", pikepdf.Dictionary()).values():
        if not isinstance(xobject, pikepdf.Stream) or not _first_visit(xobject, seen):
            continue
        if xobject.get("/Subtype") == pikepdf.Name.Image:
            yield "image", xobject.stream_dict
        else:
            yield from _resources(xobject.get("/Resources"), seen)


def _first_visit(obj: pikepdf.Object, seen: set[tuple[int, int]]) -> bool:
    if not obj.is_indirect:
        return True
    key = obj.objgen
    if key in seen:
        return False
    seen.add(key)
    return True


def _font_features(font: pikepdf.Dictionary) -> set[str]:
    names = [str(font.get("/BaseFont", ""))]
    descriptors = [font.get("/FontDescriptor")]
    for descendant in font.get("/DescendantFonts", pikepdf.Array()):
        names.append(str(descendant.get("/BaseFont", "")))
        descriptors.append(descendant.get("/FontDescriptor"))
        ordering = descendant.get("/CIDSystemInfo", pikepdf.Dictionary()).get("/Ordering")
        if ordering is not None and str(ordering) in _CJK_ORDERINGS:
            names.append("cjk")
    name = " ".join(n.lstrip("/").split("+", 1)[-1] for n in names)  # without the subset tag ("ABCDEF+")
    found = set()
    if _MATH_FONT.search(name):
        found.add("math-fonts")
    fixed = any(isinstance(d, pikepdf.Dictionary) and int(d.get("/Flags", 0)) & _FIXED_PITCH for d in descriptors)
    if fixed or _MONO_FONT.search(name):
        found.add("monospace-fonts")
    if _CJK_FONT.search(name):
        found.add("cjk-fonts")
    return found
