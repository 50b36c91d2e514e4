"""fanyi.documents.pdf.fonts: which face is found, what it measures, and the subset font it writes into a PDF,
read back by pdfminer, pypdf, PDFium and Ghostscript."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from fontfixtures import SPACE_WIDTH, build_collection, build_font, width_of
from fontTools.pens.boundsPen import BoundsPen
from fontTools.ttLib import TTFont

from fanyi.documents.pdf import fonts

HAN = "机器翻译离线即时私密文档"
LATIN = "Fanyi translates PDF files offline."


def _page_with(
    face: fonts.Face, runs: list[tuple[str, float, bool]], size=(400, 300)
) -> tuple[bytes, fonts.EmbeddedFont]:
    """A one-page PDF drawing each (text, size, bold) on its own line with ``face``."""
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=size)
    font = fonts.EmbeddedFont(face, pdf)
    page = pdf.pages[0]
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(FanyiF0=font.ref))
    ops, y = b"", size[1] - 40
    for text, points, bold in runs:
        ops += fonts.show_text("FanyiF0", points, [(20, y, font.encode(text))], bold=bold)
        y -= points * 1.6
    page.Contents = pdf.make_stream(ops)
    font.finish()
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True)
    return out.getvalue(), font


def _font_objects(data: bytes) -> tuple[pikepdf.Pdf, pikepdf.Dictionary]:
    pdf = pikepdf.open(io.BytesIO(data))
    return pdf, pdf.pages[0].Resources.Font.FanyiF0


def _program(data: bytes) -> bytes:
    """The FontFile2 of the page's font, decoded."""
    _pdf, type0 = _font_objects(data)
    return type0.DescendantFonts[0].FontDescriptor.FontFile2.read_bytes()


def _widths(array: pikepdf.Array) -> dict[int, int]:
    """The W array read back: CID → width."""
    items, found, i = list(array), {}, 0
    while i < len(items):
        first = int(items[i])
        if isinstance(items[i + 1], pikepdf.Array):
            found.update({first + k: int(w) for k, w in enumerate(items[i + 1])})
            i += 2
        else:
            found.update(dict.fromkeys(range(first, int(items[i + 1]) + 1), int(items[i + 2])))
            i += 3
    return found


def _to_unicode(stream: pikepdf.Stream) -> dict[int, str]:
    text = stream.read_bytes().decode("ascii")
    pairs = re.findall(r"<([0-9A-F]{4})> <([0-9A-F]+)>", text.split("endcodespacerange")[1])
    return {int(cid, 16): bytes.fromhex(utf16).decode("utf-16-be") for cid, utf16 in pairs}


def _extracted(data: bytes, tmp_path: Path) -> dict[str, str]:
    """The page's text as pdfminer, pypdf and PDFium read it, whitespace taken out."""
    import pypdf
    import pypdfium2
    from pdfminer.high_level import extract_text

    path = tmp_path / "page.pdf"
    path.write_bytes(data)
    document = pypdfium2.PdfDocument(str(path))
    try:
        pdfium = document[0].get_textpage().get_text_range()
    finally:
        document.close()
    texts = {
        "pdfminer": extract_text(str(path)),
        "pypdf": pypdf.PdfReader(path).pages[0].extract_text(),
        "pdfium": pdfium,
    }
    return {reader: re.sub(r"\s+", "", text) for reader, text in texts.items()}


def _ghostscript_reads(data: bytes, tmp_path: Path) -> None:
    gs = shutil.which("gs")
    if gs is None:
        return
    path = tmp_path / "gs.pdf"
    path.write_bytes(data)
    run = subprocess.run(
        [gs, "-q", "-dBATCH", "-dNOPAUSE", "-o", "/dev/null", "-sDEVICE=nullpage", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0 and "rror" not in run.stdout + run.stderr, run.stdout + run.stderr


def _render(data: bytes, scale: float = 2.0):
    import pypdfium2

    document = pypdfium2.PdfDocument(data)
    try:
        return document[0].render(scale=scale).to_pil().convert("L")
    finally:
        document.close()


def _ink(image, box: tuple[int, int, int, int]) -> int:
    """Dark pixels in a (left, top, right, bottom) region of a rendered page."""
    return sum(image.crop(box).histogram()[:128])


# --- finding a face ------------------------------------------------------------------------------------------
def test_simplified_takes_the_bundled_sc_face_traditional_the_tc_face_latin_either(font_world):
    sc = build_font(font_world.bundled / fonts.BUNDLED["Hans"], HAN + LATIN, family="Noto Sans SC")
    tc = build_font(font_world.bundled / fonts.BUNDLED["Hant"], "機器翻譯" + LATIN, family="Noto Sans TC")
    assert fonts.find_face("Hans", HAN).face.path == sc
    assert fonts.find_face("Hant", "機器翻譯").face.path == tc
    assert fonts.find_face("Latn", LATIN).face.path == sc
    # a Traditional text the TC face lacks but the SC face has is drawn, not lost
    assert fonts.find_face("Hant", "离线").face.path == sc


def test_the_override_comes_first_and_can_name_a_face_of_a_collection(font_world, tmp_path, monkeypatch):
    build_font(font_world.bundled / fonts.BUNDLED["Hans"], HAN)
    first = build_font(tmp_path / "a.ttf", HAN, family="First Sans")
    second = build_font(tmp_path / "b.ttf", HAN, family="Second Sans")
    collection = build_collection(tmp_path / "mine.ttc", [first, second])
    monkeypatch.setenv(fonts.ENV, f"{collection}#1")
    face = fonts.find_face("Hans", HAN).face
    assert (face.path, face.index, face.name) == (collection, 1, "SecondSans-Regular")
    monkeypatch.setenv(fonts.ENV, str(first))
    assert fonts.find_face("Hant", HAN).face.path == first


def test_an_override_that_cannot_be_used_is_passed_over_with_its_reason(font_world, tmp_path, monkeypatch):
    bundled = build_font(font_world.bundled / fonts.BUNDLED["Hans"], HAN)
    restricted = build_font(tmp_path / "restricted.ttf", HAN, fs_type=0x0002)
    monkeypatch.setenv(fonts.ENV, str(restricted))
    choice = fonts.find_face("Hans", HAN)
    assert choice.face.path == bundled
    assert any(str(restricted) in reason and "forbids embedding" in reason for reason in choice.rejected)
    monkeypatch.setenv(fonts.ENV, str(tmp_path / "no such font.ttf"))
    assert fonts.find_face("Hans", HAN).face.path == bundled


def test_a_character_the_bundled_face_lacks_is_found_in_a_system_font(font_world):
    build_font(font_world.bundled / fonts.BUNDLED["Hans"], HAN)
    system = build_font(font_world.system / "wqy-microhei.ttc", HAN + "龘", family="WenQuanYi Micro Hei")
    choice = fonts.find_face("Hans", HAN + "龘")
    assert (choice.face.path, choice.missing) == (system, "")


def test_characters_no_face_has_are_named_and_the_face_drawing_most_is_given(font_world):
    bundled = build_font(font_world.bundled / fonts.BUNDLED["Hans"], HAN)
    build_font(font_world.system / "droidsansfallbackfull.ttf", "机器", family="Droid Sans Fallback")
    choice = fonts.find_face("Hans", HAN + "龘𠀀\n\t\u200b")  # controls and format characters draw nothing
    assert (choice.face.path, choice.missing) == (bundled, "龘𠀀")


def test_without_any_font_there_is_no_face_and_every_visible_character_is_named(font_world):
    choice = fonts.find_face("Hans", "中文 a\n")
    assert choice.face is None and choice.missing == " a中文"


@pytest.mark.parametrize(
    "fs_type, usable",
    [(0x0000, True), (0x0004, True), (0x0008, True), (0x0002, False), (0x0108, False), (0x0208, False)],
    ids=["installable", "preview-and-print", "editable", "restricted", "no-subsetting", "bitmap-only"],
)
def test_only_faces_whose_licence_allows_embedding_a_subset_are_taken(font_world, fs_type, usable):
    font = build_font(font_world.system / "simhei.ttf", HAN, fs_type=fs_type, family="SimHei")
    choice = fonts.find_face("Hans", HAN)
    assert (choice.face is not None and choice.face.path == font) is usable
    assert bool(choice.rejected) is not usable
    if not usable:
        with pytest.raises(fonts.FontError, match="licence"):
            fonts.load_face(font)


def test_damaged_and_variable_fonts_are_passed_over(font_world):
    (font_world.system / "msyh.ttc").write_bytes(b"ttcf" + bytes(range(256)) * 4)
    (font_world.system / "simsun.ttc").write_bytes(b"\x00\x01\x00\x00" + b"\xff" * 500)
    build_font(font_world.system / "deng.ttf", HAN, variable=True, family="DengXian")
    good = build_font(font_world.system / "uming.ttc", HAN, family="AR PL UMing CN")
    choice = fonts.find_face("Hans", HAN)
    assert choice.face.path == good
    assert len(choice.rejected) == 3 and any("variable font" in reason for reason in choice.rejected)
    with pytest.raises(fonts.FontError):
        fonts.load_face(font_world.system / "simsun.ttc")


def test_the_face_of_a_system_collection_written_for_the_script_is_taken(font_world, tmp_path):
    faces = [
        build_font(tmp_path / f"{region}.ttf", HAN + "機譯", family=f"Noto Sans CJK {region}")
        for region in ("JP", "KR", "SC", "TC", "HK")
    ]
    mono = build_font(tmp_path / "mono.ttf", HAN + "機譯", family="Noto Sans Mono CJK SC")
    collection = build_collection(font_world.system / "NotoSansCJK-Regular.ttc", [mono, *faces])
    assert (fonts.find_face("Hans", HAN).face.path, fonts.find_face("Hans", HAN).face.index) == (collection, 3)
    assert fonts.find_face("Hant", "機譯").face.index == 4
    assert fonts.find_face("Latn", "abc").face.index == 3


def test_the_system_font_search_finds_known_files_in_subfolders_and_nothing_else(tmp_path):
    deep = tmp_path / "truetype" / "droid"
    build_font(deep / "DroidSansFallbackFull.ttf", HAN)
    build_font(tmp_path / "opentype" / "noto" / "NotoSansCJK-Regular.ttc", HAN)
    build_font(tmp_path / "other" / "SomeLatinFont.ttf", "abc")
    too_deep = tmp_path.joinpath(*"abcdefg") / "wqy-zenhei.ttc"
    build_font(too_deep, HAN)
    found = fonts.system_fonts((tmp_path, tmp_path / "missing"))
    assert [p.name for p in found] == ["NotoSansCJK-Regular.ttc", "DroidSansFallbackFull.ttf"]  # SYSTEM_FONTS order


def test_a_script_must_be_one_of_the_three():
    with pytest.raises(ValueError, match="Hans, Hant, Latn"):
        fonts.find_face("zh")


# --- measuring ---------------------------------------------------------------------------------------------
def test_a_face_measures_what_the_pdf_advances(font_world):
    face = fonts.load_face(build_font(font_world.system / "a.ttf", HAN + "ab"))
    assert face.advance("机a b", 10) == pytest.approx((1000 + width_of("a") + SPACE_WIDTH + width_of("b")) / 100)
    assert face.advance("机器", 12.5) == 25.0
    assert face.advance("龘\n", 10) == 0  # not drawn: takes no room
    assert (face.ascent, face.descent, face.cap_height) == (0.88, 0.12, 0.733)
    assert face.has("机") and not face.has("龘") and face.missing("机龘\u200b") == "龘"
    # spaces the face lacks are drawn with its own space (a no-break space, a thin space)
    assert face.has("\u00a0") and face.advance("\u2009", 10) == face.advance(" ", 10)


# --- embedding ---------------------------------------------------------------------------------------------
def test_the_font_is_one_type0_font_with_an_identity_cid_font_and_a_truetype_subset(font_world):
    face = fonts.load_face(build_font(font_world.system / "a.ttf", HAN + LATIN))
    data, font = _page_with(face, [("机器翻译 Fanyi", 12, False)])
    pdf, type0 = _font_objects(data)
    assert pdf.check_pdf_syntax() == []
    assert (type0.Subtype, type0.Encoding) == ("/Type0", "/Identity-H")
    assert len(type0.DescendantFonts) == 1
    cid = type0.DescendantFonts[0]
    assert (cid.Subtype, cid.CIDToGIDMap) == ("/CIDFontType2", "/Identity")
    assert (str(cid.CIDSystemInfo.Registry), str(cid.CIDSystemInfo.Ordering), cid.CIDSystemInfo.Supplement) == (
        "Adobe",
        "Identity",
        0,
    )
    used = {face.glyph(c) for c in "机器翻译 Fanyi"}
    stated = _widths(cid.W)
    for gid in used:  # every CID's width is the face's, from W or DW
        assert stated.get(gid, int(cid.DW)) == face.widths[gid]
    assert int(cid.DW) == 1000  # the Han width, the most common
    descriptor = cid.FontDescriptor
    assert type0.BaseFont == cid.BaseFont == descriptor.FontName
    assert re.fullmatch(r"/[A-Z]{6}\+TestSansSC-Regular", str(type0.BaseFont))
    assert (int(descriptor.Flags), int(descriptor.Ascent), int(descriptor.Descent)) == (4, 1160, -288)
    assert (int(descriptor.CapHeight), int(descriptor.ItalicAngle), int(descriptor.StemV)) == (733, 0, 88)
    assert [int(v) for v in descriptor.FontBBox] == face.bbox
    program_stream = descriptor.FontFile2
    assert program_stream.Filter == "/FlateDecode"
    program = program_stream.read_bytes()
    assert int(program_stream.Length1) == len(program)
    assert len(program_stream.read_raw_bytes()) < len(program)
    subset = TTFont(io.BytesIO(program))
    assert "glyf" in subset and "CFF " not in subset
    drawn = {gid for gid, name in enumerate(subset.getGlyphOrder()) if subset["glyf"][name].numberOfContours}
    assert drawn == used - {face.glyph(" ")} | {0}  # the glyphs used, at their own ids, and .notdef
    assert font.missing == set()


def test_the_width_array_states_only_what_differs_from_the_default_in_ranges_where_it_can(font_world):
    face = fonts.load_face(build_font(font_world.system / "a.ttf", "ABCD机器翻译", widths=dict.fromkeys("ABC", 600)))
    data, _font = _page_with(face, [("机器翻译", 10, False)])
    _pdf, type0 = _font_objects(data)
    assert int(type0.DescendantFonts[0].DW) == 1000 and list(type0.DescendantFonts[0].W) == []
    a = face.glyph("A")

    def stated(text: str) -> list:
        data, _font = _page_with(face, [(text, 10, False)])
        _pdf, type0 = _font_objects(data)
        return [[int(w) for w in v] if isinstance(v, pikepdf.Array) else int(v) for v in type0.DescendantFonts[0].W]

    assert stated("ABC机器翻译") == [a, a + 2, 600]  # one width for consecutive CIDs: a range
    assert stated("ABCD机器翻译") == [a, [600, 600, 600, width_of("D")]]


def test_the_subset_tag_is_the_same_for_the_same_glyphs_and_differs_for_others(font_world):
    face = fonts.load_face(build_font(font_world.system / "a.ttf", HAN))

    def base_font(text: str) -> str:
        _pdf, type0 = _font_objects(_page_with(face, [(text, 10, False)])[0])
        return str(type0.BaseFont)

    assert base_font("机器") == base_font("器机机") != base_font("机器翻")


def test_the_text_drawn_is_what_every_reader_extracts_even_through_a_shared_glyph(font_world, tmp_path):
    # U+2F00 (the Kangxi radical one) is drawn with the glyph of U+4E00 in CJK fonts: it reads back as 一
    face = fonts.load_face(build_font(font_world.system / "a.ttf", HAN + "一" + LATIN, same_glyph={"\u2f00": "一"}))
    lines = [("机器翻译 一\u2f00", 16, True), (LATIN, 10, False), ("离线\u00a0PDF 文档", 10, False)]
    data, _font = _page_with(face, lines)
    _pdf, type0 = _font_objects(data)
    mapping = _to_unicode(type0.ToUnicode)
    assert {face.glyph(c) for text, _s, _b in lines for c in text} == set(mapping)  # every glyph used has text
    assert mapping[face.glyph("\u2f00")] == "一" and mapping[face.glyph("\u00a0")] == " "  # the canonical characters
    expected = re.sub(r"\s+", "", "".join(text for text, _s, _b in lines).replace("\u2f00", "一"))
    for reader, text in _extracted(data, tmp_path).items():
        assert text == expected, reader
    _ghostscript_reads(data, tmp_path)


def test_characters_the_face_lacks_are_left_out_never_drawn_as_notdef(font_world):
    face = fonts.load_face(build_font(font_world.system / "a.ttf", HAN))
    pdf = pikepdf.new()
    font = fonts.EmbeddedFont(face, pdf)
    code = font.encode("机龘器\n𠀀")
    assert code == face.glyph("机").to_bytes(2, "big") + face.glyph("器").to_bytes(2, "big")
    assert font.missing == {"龘", "𠀀"}
    assert b"\x00\x00" not in [code[i : i + 2] for i in range(0, len(code), 2)]


def test_the_same_text_gives_the_same_bytes(font_world):
    face = fonts.load_face(build_font(font_world.system / "a.ttf", HAN + LATIN))
    lines = [("机器翻译", 14, True), (LATIN, 10, False)]
    assert _page_with(face, lines)[0] == _page_with(face, lines)[0]


def test_cff_outlines_are_embedded_as_truetype_outlines_of_the_same_shape(font_world):
    source = build_font(font_world.system / "NotoSansCJKsc-Regular.otf", HAN, cff=True)
    face = fonts.load_face(source)
    data, _font = _page_with(face, [("机器翻译", 40, False)])
    program = TTFont(io.BytesIO(_program(data)))
    assert "glyf" in program and "CFF " not in program and program.sfntVersion == "\x00\x01\x00\x00"
    original = TTFont(source)

    def bounds(font: TTFont, name: str) -> tuple[float, ...]:
        pen = BoundsPen(font.getGlyphSet())  # the outline's own bounds, whatever its control points
        font.getGlyphSet()[name].draw(pen)
        return pen.bounds

    for char in "机器翻译":
        gid = face.glyph(char)
        converted = program.getGlyphName(gid)
        assert program["glyf"][converted].numberOfContours > 0
        assert bounds(program, converted) == pytest.approx(bounds(original, original.getGlyphName(gid)), abs=1.5)
        assert program["hmtx"][converted][0] == 1000
    image = _render(data)
    assert _ink(image, (0, 0, image.width, image.height)) > 300  # PDFium draws the converted outlines


def test_500_han_characters_add_well_under_a_megabyte(font_world):
    """Glyphs of about a real CJK glyph's size (~1 KB each); the subset keeps only those drawn."""
    han = "".join(chr(0x4E00 + i) for i in range(3000))
    source = build_font(font_world.system / "big.ttf", han, detail=60)
    face = fonts.load_face(source)
    empty, _font = _page_with(face, [])
    text = han[::6][:500]
    lines = [(text[i : i + 20], 10, False) for i in range(0, 500, 20)]
    data, _font = _page_with(face, lines, size=(400, 1000))
    growth = len(data) - len(empty)
    assert source.stat().st_size > 2_500_000
    assert growth < 500_000, growth  # the 500 glyphs, not the font's 3000
    assert growth < 1_000_000


def test_500_han_characters_of_noto_sans_sc_add_well_under_a_megabyte(noto_sc, tmp_path):
    face = fonts.load_face(noto_sc)
    common = [chr(c) for c in range(0x4E00, 0x9FA6) if face.has(chr(c))]
    text = "".join(common[::30][:500])
    assert len(set(text)) == 500
    empty, _font = _page_with(face, [])
    data, font = _page_with(face, [(text[i : i + 25], 10, False) for i in range(0, 500, 25)], size=(400, 1000))
    growth = len(data) - len(empty)
    assert growth < 400_000, growth  # measured: ~140 KB
    assert font.missing == set()
    assert _extracted(data, tmp_path)["pdfminer"] == text


def test_a_page_of_chinese_latin_and_a_bold_heading_renders_and_reads_back(noto_sc, tmp_path):
    face = fonts.load_face(noto_sc)
    lines = [
        ("离线翻译 PDF 文档", 20, True),
        ("离线翻译 PDF 文档", 20, False),
        ("机器翻译在你的电脑上完成，不联网。", 12, False),
        ("Fanyi keeps the layout: figures, formulas and tables stay.", 10, False),
    ]
    data, font = _page_with(face, lines, size=(420, 240))
    image = _render(data)
    image.save(tmp_path / "page.png")
    assert image.size == (840, 480)
    heading = _ink(image, (40, 30, 400, 100))
    regular = _ink(image, (40, 100, 400, 160))
    assert regular > 2000 and heading > regular * 1.15  # the same words, drawn bolder
    expected = re.sub(r"\s+", "", "".join(text for text, _s, _b in lines))
    assert _extracted(data, tmp_path) == dict.fromkeys(("pdfminer", "pypdf", "pdfium"), expected)
    _ghostscript_reads(data, tmp_path)
    assert font.missing == set()


def test_a_system_cff_collection_is_embedded_with_truetype_outlines_when_the_system_has_one(tmp_path):
    """Noto Sans CJK's .ttc (CFF outlines, 65,535 glyphs), as Linux distributions install it; skips elsewhere."""
    found = [p for p in fonts.system_fonts(tuple(fonts._font_dirs())) if p.name.lower() == "notosanscjk-regular.ttc"]
    if not found:
        pytest.skip("no Noto Sans CJK collection on this system (fonts-noto-cjk)")
    face = next(
        fonts.load_face(found[0], index)
        for index, names in fonts._faces_in(found[0])
        if any(name.endswith("CJK SC") for name in names)
    )
    data, font = _page_with(face, [("机器翻译在你的电脑上完成。", 14, False), (LATIN, 10, False)])
    program = TTFont(io.BytesIO(_program(data)))
    assert face.cff and "glyf" in program and "CFF " not in program
    assert len(data) < 300_000 and font.missing == set()
    assert _extracted(data, tmp_path)["pdfium"] == "机器翻译在你的电脑上完成。" + LATIN.replace(" ", "")
    image = _render(data)
    assert _ink(image, (0, 0, image.width, image.height)) > 1000


# --- drawing -----------------------------------------------------------------------------------------------
def test_text_operators_draw_each_run_at_its_baseline_in_one_saved_state():
    ops = fonts.show_text("FanyiF0", 10.5, [(72, 700.25, b"\x00\x01"), (72.0, 687, b"\x12\xab")]).decode()
    assert ops.splitlines() == [
        "q",
        "0 0 0 rg",
        "BT",
        "/FanyiF0 10.5 Tf",
        "0 Tr",
        "1 0 0 1 72 700.25 Tm <0001> Tj",
        "1 0 0 1 72 687 Tm <12AB> Tj",
        "ET",
        "Q",
    ]
    bold = fonts.show_text("F1", 20, [(1e-9, -0.0001, b"")], bold=True, rgb=(1, 0.5, 0)).decode()
    assert "1 0.5 0 rg\n1 0.5 0 RG\n0.6 w\nBT\n/F1 20 Tf\n2 Tr\n1 0 0 1 0 0 Tm <> Tj" in bold
    with pytest.raises(ValueError, match="resource name"):
        fonts.show_text("F 1", 10, [])


def test_a_paragraph_fitted_into_its_box_is_drawn_inside_it(font_world):
    """linebreak.fit with a face's own measure and metrics, drawn with show_text: no ink leaves the box."""
    from fanyi.documents.pdf.linebreak import Box, fit

    face = fonts.load_face(build_font(font_world.system / "a.ttf", HAN + "abcdefghijklmnopqrstuvwxyz"))
    text = "机器翻译离线 abc defghij 即时私密文档" * 4
    box = Box(50, 150, 250, 200)  # 200 × 50 points on a 300 × 300 page
    result = fit(text, box, box, 12, face.advance, ascent=face.ascent, descent=face.descent)
    assert result.scale < 1 and not result.cut
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(300, 300))
    font = fonts.EmbeddedFont(face, pdf)
    page = pdf.pages[0]
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F0=font.ref))
    runs = [(line.x, line.y, font.encode(line.text)) for line in result.lines]
    page.Contents = pdf.make_stream(fonts.show_text("F0", result.size, runs))
    font.finish()
    out = io.BytesIO()
    pdf.save(out)
    image = _render(out.getvalue(), scale=2)  # 600 × 600 pixels, y downwards
    inside = (100, 600 - 400, 500, 600 - 300)
    assert _ink(image, inside) > 500
    assert _ink(image, (0, 0, 600, 600)) == _ink(image, inside)
