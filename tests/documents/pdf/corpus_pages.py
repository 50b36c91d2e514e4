"""The corpus's single-column documents: pages of mixed sizes and orientations, a Chinese page, scanned pages."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
from corpus_layout import (
    CJK_FONT,
    SANS_BOLD,
    Block,
    Style,
    Styles,
    draw_blocks,
    draw_vertical,
    new_canvas,
    place,
    set_page_boxes,
    set_paragraph,
    string_unit,
)
from corpus_paper import resolve_image_names
from corpus_truth import Box, Document, Image, Page, Role, Span, Unit
from PIL import Image as PILImage
from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4, landscape, letter
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics


class Column:
    """Paragraphs set one under another from ``top`` down; each becomes a unit of the document."""

    def __init__(self, canvas, doc: Document, page: int, left: float, width: float, top: float) -> None:
        self.c, self.doc, self.page = canvas, doc, page
        self.left, self.width, self.cursor = left, width, top
        self.blocks: list[Block] = []

    def para(
        self,
        runs,
        *,
        leading: float,
        role: Role = Role.BODY,
        indent: float = 0.0,
        align: str = "justify",
        lang: str = "en",
        after: float = 0.0,
        translate: bool = True,
    ) -> Unit:
        laid = set_paragraph(runs, self.width, leading, indent=indent, align=align, lang=lang)
        block = place(laid, self.left, self.cursor, role, translate=translate, frame_width=self.width)
        draw_blocks(self.c, [block])
        self.blocks.append(block)
        unit = block.unit(self.page)
        self.doc.units.append(unit)
        self.cursor -= leading * len(laid.lines) + after
        return unit


# ---------------------------------------------------------------------------------------------- mixed


def build_mixed_pages(folder: Path) -> Document:
    path = folder / "mixed_pages.pdf"
    c = new_canvas(path, A4, "Mixed pages")
    doc = Document(
        "mixed_pages",
        path,
        pages=[],
        about="Pages of different sizes and orientations: A4, "
        "Letter landscape with a CropBox, a /Rotate 90 page, a 45° stamp, vertical Chinese.",
    )
    _a4_page(c, doc)
    _landscape_page(c, doc)
    _rotated_page(c, doc)
    _stamp_page(c, doc)
    _vertical_page(c, doc)
    c.save()
    set_page_boxes(path, doc.pages)
    return doc


HEADING = Style(SANS_BOLD, 15)  # an embedded, subset TrueType font (its codes are not ASCII)
BODY = Styles(11)


def _a4_page(c, doc: Document) -> None:
    width, height = A4
    page = len(doc.pages)
    doc.pages.append(
        Page(page, Box(0, 0, width, height), trap="A4 portrait; headings in an embedded subset TrueType font")
    )
    c.setPageSize(A4)
    doc.units.append(
        string_unit(c, page, "Setting Up the Reader", 72, height - 90, HEADING, Role.HEADING, translate=True)
    )
    column = Column(c, doc, page, 72, width - 144, height - 122)
    column.para(
        BODY(
            "Unpack the reader and place it on a flat surface away from direct sunlight. Connect the power adapter "
            "to the socket on the back panel and wait until the status light turns green; this takes about thirty "
            "seconds after the first start, while the device checks its memory."
        ),
        leading=14,
        after=8,
    )
    column.para(
        BODY(
            "The reader accepts documents of up to two hundred pages. Longer documents are split into parts, and "
            "each part is stored under the name of the original file followed by its number. Pages that contain "
            "only images are recognised and converted before they are stored."
        ),
        leading=14,
        indent=18,
        after=14,
    )
    doc.units.append(
        string_unit(
            c, page, "Before the First Use", 72, column.cursor - 6, Style(SANS_BOLD, 12), Role.HEADING, translate=True
        )
    )
    column.cursor -= 28
    column.para(
        BODY(
            "Remove the protective film from the glass and clean the surface with the cloth provided. Do not use "
            "solvents or abrasive cleaners, which leave a film that the sensor reads as a grey shadow on every page."
        ),
        leading=14,
        after=8,
    )
    column.para(
        Styles(10)(
            Styles(10).it(
                "Note: keep the original packaging. The reader must be returned in it if it ever needs to be repaired."
            )
        ),
        leading=13,
        align="left",
    )
    _page_number(c, doc, page, width)
    c.showPage()


def _landscape_page(c, doc: Document) -> None:
    size = landscape(letter)
    width, height = size
    page = len(doc.pages)
    crop = Box(18, 18, width - 18, height - 18)
    doc.pages.append(
        Page(
            page,
            Box(0, 0, width, height),
            cropbox=crop,
            trap="Letter landscape (a wide MediaBox, not a /Rotate) with a CropBox inside it; a ruled table",
        )
    )
    c.setPageSize(size)
    c.setCropBox(tuple(crop))
    doc.units.append(
        string_unit(c, page, "Supported Paper Sizes", 72, height - 80, HEADING, Role.HEADING, translate=True)
    )
    column = Column(c, doc, page, 72, width - 144, height - 108)
    column.para(
        BODY(
            "The table lists the paper sizes the reader accepts, with the resolution it scans them at and the time a "
            "page takes. Sizes not in the table are scanned as the next larger size and cropped afterwards."
        ),
        leading=14,
        after=16,
    )
    rows = [
        ["Paper size", "Width (mm)", "Height (mm)", "Resolution (dpi)", "Seconds per page"],
        ["A4", "210", "297", "300", "2.1"],
        ["Letter", "216", "279", "300", "2.0"],
        ["Legal", "216", "356", "200", "2.6"],
        ["Business card", "85", "55", "600", "0.9"],
    ]
    ruled_table(c, doc, page, 72, column.cursor, [170.0, 110.0, 110.0, 120.0, 138.0], rows)
    _page_number(c, doc, page, width)
    c.showPage()


def ruled_table(
    c,
    doc: Document,
    page: int,
    left: float,
    top: float,
    widths: list[float],
    rows: list[list[str]],
    row_height: float = 20.0,
    size: float = 10.0,
) -> float:
    """A table ruled on every side in Helvetica (bold header row), numbers right-aligned; returns its bottom."""
    c.setLineWidth(0.6)
    right = left + sum(widths)
    for r in range(len(rows) + 1):
        c.line(left, top - r * row_height, right, top - r * row_height)
    x = left
    for w in [*widths, 0.0]:
        c.line(x, top, x, top - row_height * len(rows))
        x += w
    for r, row in enumerate(rows):
        x = left
        for cell, w in zip(row, widths):
            cell_box = Box(x, top - (r + 1) * row_height, x + w, top - r * row_height)
            font = "Helvetica-Bold" if r == 0 else "Helvetica"
            numeric = cell.replace(".", "").isdigit()
            anchor, align = (x + w - 8, "right") if numeric else (x + 8, "left")
            unit = string_unit(
                c,
                page,
                cell,
                anchor,
                cell_box.y0 + (row_height - size * 0.7) / 2,
                Style(font, size),
                Role.TABLE_CELL,
                translate=not numeric,
                align=align,
            )
            doc.units.append(replace(unit, frame=cell_box.rounded()))
            x += w
    return top - row_height * len(rows)


def _rotated_page(c, doc: Document) -> None:
    """A4 portrait MediaBox shown as landscape by /Rotate 90: the content is drawn turned, reading upright."""
    width, height = A4
    page = len(doc.pages)
    doc.pages.append(
        Page(
            page,
            Box(0, 0, width, height),
            rotate=90,
            trap="/Rotate 90: the text runs bottom to top in user space (angle 90) and reads upright on screen",
        )
    )
    c.setPageSize(A4)
    c.saveState()
    c.transform(0, 1, -1, 0, width, 0)  # (u, v) on the displayed landscape page -> (width - v, u)
    first = len(doc.units)
    shown_width, shown_height = height, width
    doc.units.append(
        string_unit(c, page, "Cleaning Schedule", 72, shown_height - 80, HEADING, Role.HEADING, translate=True)
    )
    column = Column(c, doc, page, 72, shown_width - 144, shown_height - 110)
    column.para(
        BODY(
            "Clean the glass once a week and the rollers once a month. If pages come out crooked or with dark "
            "stripes, clean the rollers before you change any setting: most feeding problems are caused by dust."
        ),
        leading=14,
        after=10,
    )
    column.para(
        BODY(
            "The rollers can be removed without tools. Lift the green lever, pull the roller towards you and wipe it "
            "with a damp cloth; let it dry for ten minutes before you put it back."
        ),
        leading=14,
        after=18,
    )
    rows = [
        ["Part", "Every (days)", "Minutes", "What you need"],
        ["Glass", "7", "2", "Soft cloth"],
        ["Rollers", "30", "10", "Damp cloth"],
        ["Paper guide", "90", "5", "Small brush"],
    ]
    ruled_table(c, doc, page, 72, column.cursor, [200.0, 120.0, 120.0, 257.89], rows)
    c.setLineWidth(1)
    c.line(72, 100, shown_width - 72, 100)
    number = string_unit(
        c, page, str(page + 1), shown_width / 2, 60, Style("Helvetica", 9), Role.FOOTER, translate=False, align="center"
    )
    doc.units.append(number)
    c.restoreState()

    def to_user(x: float, y: float) -> tuple[float, float]:
        return width - y, x

    doc.units[first:] = [_turned(unit, to_user, 90.0) for unit in doc.units[first:]]
    c.showPage()


def _turned(unit: Unit, to_user: Callable[[float, float], tuple[float, float]], angle: float) -> Unit:
    def box(b: Box | None) -> Box | None:
        if b is None:
            return None
        return Box.around([to_user(b.x0, b.y0), to_user(b.x1, b.y1)]).rounded()

    return replace(unit, bbox=box(unit.bbox), frame=box(unit.frame), angle=(unit.angle + angle) % 360)


def _stamp_page(c, doc: Document) -> None:
    width, height = letter
    page = len(doc.pages)
    doc.pages.append(Page(page, Box(0, 0, width, height), trap="a stamp at 45° in a clear corner"))
    c.setPageSize(letter)
    doc.units.append(string_unit(c, page, "Warranty", 72, height - 90, HEADING, Role.HEADING, translate=True))
    column = Column(c, doc, page, 72, width - 144, height - 122)
    column.para(
        BODY(
            "The reader is covered by a warranty of two years from the date of purchase. The warranty covers faults "
            "in materials and workmanship; it does not cover damage caused by accidents, misuse or repairs carried "
            "out by anyone other than an authorised service centre."
        ),
        leading=14,
        after=8,
    )
    column.para(
        BODY(
            "To make a claim, send the reader with a copy of the receipt to the address printed on the back of this "
            "leaflet. We will repair or replace it within fifteen working days and return it at our expense."
        ),
        leading=14,
        indent=18,
    )
    c.saveState()
    c.setFillColor(HexColor("#B03A2E"))
    c.setStrokeColor(HexColor("#B03A2E"))
    stamp = string_unit(
        c, page, "APPROVED", 380, 250, Style("Helvetica-Bold", 30), Role.ROTATED, translate=False, angle=45
    )
    c.translate(380, 250)
    c.rotate(45)
    c.setLineWidth(2)
    c.roundRect(-10, -14, pdfmetrics.stringWidth("APPROVED", "Helvetica-Bold", 30) + 20, 44, 6, stroke=1, fill=0)
    c.restoreState()
    doc.units.append(stamp)
    _page_number(c, doc, page, width)
    c.showPage()


def _vertical_page(c, doc: Document) -> None:
    width, height = letter
    page = len(doc.pages)
    doc.pages.append(
        Page(
            page,
            Box(0, 0, width, height),
            trap="vertical Chinese (UniGB-UCS2-V, STSong-Light not embedded) beside horizontal English",
        )
    )
    c.setPageSize(letter)
    doc.units.append(
        string_unit(c, page, "Labels in Other Languages", 72, height - 90, HEADING, Role.HEADING, translate=True)
    )
    column = Column(c, doc, page, 72, 340, height - 122)
    column.para(
        BODY(
            "Labels on the packaging are printed in several languages. The Chinese label on the right is set "
            "vertically, in columns read from right to left, as it appears on the side of the box."
        ),
        leading=14,
        after=8,
    )
    column.para(
        BODY(
            "Vertical text is left as it is by the translator and counted in its report, since a translation could "
            "not be set in the same narrow columns without becoming unreadable."
        ),
        leading=14,
        indent=18,
    )
    columns = ["阅读器使用说明", "请勿在潮湿环境中使用", "保修期为两年"]
    size, x = 16.0, 530.0
    c.setLineWidth(0.5)
    c.rect(x - 60, height - 96 - size * 10.5, 80, size * 10.5 + 16, stroke=1, fill=0)
    units = []
    for index, text in enumerate(columns):
        units.append(draw_vertical(c, page, text, x - index * 24, height - 90, size, Role.VERTICAL))
    box = units[0].bbox
    for unit in units[1:]:
        box = box.union(unit.bbox)
    doc.units.append(replace(units[0], text="".join(columns), lines=tuple(columns), bbox=box))
    _page_number(c, doc, page, width)
    c.showPage()


def _page_number(c, doc: Document, page: int, width: float) -> None:
    doc.units.append(
        string_unit(
            c, page, str(page + 1), width / 2, 40, Style("Helvetica", 9), Role.FOOTER, translate=False, align="center"
        )
    )


# -------------------------------------------------------------------------------------------- Chinese

CHINESE = Styles(10.5, roman=CJK_FONT, italic=CJK_FONT, bold=CJK_FONT)
CHINESE_HEADING = Style(CJK_FONT, 18, mode=2)  # fill and stroke: how Word simulates bold for a font without one
CHINESE_SUBHEADING = Style(CJK_FONT, 13, mode=2)


def build_chinese(folder: Path) -> Document:
    path = folder / "chinese.pdf"
    c = new_canvas(path, A4, "文档翻译概述")
    width, height = A4
    doc = Document(
        "chinese",
        path,
        pages=[
            Page(
                0,
                Box(0, 0, width, height),
                trap="Chinese for zh→en: "
                "lines broken between Han characters, full-width punctuation, "
                "headings in simulated bold (render mode 2)",
            )
        ],
        about="A page of Chinese: a heading, subheadings, body paragraphs justified with character "
        "spacing and indented two characters.",
    )
    c.setLineWidth(0.4)
    left, measure = 79.0, 21 * 21.0  # a measure of whole characters, as Chinese layouts use
    doc.units.append(
        replace(
            string_unit(
                c,
                0,
                "第一章　文档翻译概述",
                width / 2,
                height - 100,
                CHINESE_HEADING,
                Role.HEADING,
                translate=True,
                align="center",
                lang="zh",
            ),
        )
    )
    column = Column(c, doc, 0, left, measure, height - 150)
    for kind, text in CHINESE_TEXT:
        if kind == "h":
            doc.units.append(
                string_unit(
                    c, 0, text, left, column.cursor - 8, CHINESE_SUBHEADING, Role.HEADING, translate=True, lang="zh"
                )
            )
            column.cursor -= 34
        elif kind == "li":
            unit = column.para(CHINESE(text), leading=19, lang="zh", after=4, role=Role.LIST_ITEM)
            doc.units[-1] = replace(unit, spans=(Span(0, text.index("）") + 1, "label"),))
        else:
            column.para(CHINESE(text), leading=19, indent=21.0, lang="zh", after=6)
    doc.units.append(
        string_unit(
            c, 0, "— 1 —", width / 2, 50, Style(CJK_FONT, 9), Role.FOOTER, translate=False, align="center", lang="zh"
        )
    )
    c.showPage()
    c.save()
    return doc


CHINESE_TEXT = [
    (
        "p",
        "在日常工作中，人们经常需要阅读外文资料，其中以 PDF 格式发布的论文、手册和合同最为常见。与纯文本不同，"
        "PDF 文件记录的是每个字形在页面上的位置，而不是段落和句子。因此，直接提取文字往往会打乱原有的阅读顺序，"
        "使译文难以理解。",
    ),
    (
        "p",
        "一个好的翻译工具应当保留原文的版面：标题仍然是标题，表格仍然是表格，图片和公式留在原来的位置。只有这样，"
        "读者才能在译文中迅速找到自己关心的内容，并与原文逐页对照。",
    ),
    ("h", "一、离线翻译的优势"),
    (
        "p",
        "离线翻译不需要把文件上传到任何服务器，适合处理尚未公开的研究成果和包含个人信息的文件。模型在本地运行，"
        "翻译速度取决于计算机的处理器；在一台普通的笔记本电脑上，每页的处理时间通常不超过几秒钟。",
    ),
    (
        "p",
        "当然，离线模型的体积受到限制，译文质量可能略逊于大型在线服务。为此，本软件允许用户为不同的语言选择不同的"
        "模型，并在报告中列出每一页翻译、保留和缩小的段落，方便用户检查。",
    ),
    ("h", "二、使用方法"),
    (
        "p",
        "将 PDF 文件拖入窗口，或者在命令行中输入“fanyi file 文件名”，即可得到同名的中文版本。如果需要对照阅读，"
        "可以选择“双语”选项，原文和译文将并排显示在同一页上（左侧为原文，右侧为译文）。",
    ),
    ("h", "三、注意事项"),
    ("li", "（1）扫描版 PDF 需要先进行文字识别，识别结果可能包含少量错误，请对照原文检查重要的数字和名称。"),
    ("li", "（2）公式、代码和表格中的数字保持原样，不会被翻译。"),
    ("li", "（3）竖排文字和旋转的文字保留原样，并在报告中注明所在的页码。"),
]


# -------------------------------------------------------------------------------------------- scanned

SCAN_DPI = 200


def build_scanned(folder: Path) -> Document:
    """Two scanned pages: one only an image (a scanner's JPEG), one with an invisible OCR layer over its image
    and a line of real text added after scanning."""
    path = folder / "scanned.pdf"
    width, height = letter
    doc = Document(
        "scanned",
        path,
        pages=[
            Page(0, Box(0, 0, width, height), text_layer="none", trap="no text layer: a 200 dpi greyscale JPEG"),
            Page(
                1,
                Box(0, 0, width, height),
                text_layer="ocr",
                trap="a scan with an invisible OCR layer (render mode "
                "3, Helvetica scaled with Tz to each line) and a visible line of text added after scanning",
            ),
        ],
        about="Scanned pages: OCR finds the text of the first; the second has an OCR layer already.",
    )
    c = new_canvas(path, letter, "Scanned pages")
    for page, draw in enumerate((_memo, _letter)):
        pixels, units, blocks = _scan_source(draw, page)
        buffer = io.BytesIO()
        pixels.save(buffer, format="JPEG", quality=80)
        buffer.seek(0)
        c.drawImage(ImageReader(buffer), 0, 0, width, height)
        doc.images.append(Image(page, "", Box(0, 0, width, height), pixels.size, "/DCTDecode"))
        if page == 0:
            doc.units += [replace(unit, in_image=True) for unit in units]
        else:
            doc.units.append(
                string_unit(
                    c,
                    1,
                    "Received 14 March 2024 - Records Office",
                    36,
                    height - 24,
                    Style("Helvetica", 8),
                    Role.HEADER,
                    translate=True,
                )
            )
            doc.units += [_ocr_layer(c, unit, block) for unit, block in zip(units, blocks)]
        c.showPage()
    c.save()
    resolve_image_names(doc)
    return doc


def _ocr_layer(c, unit: Unit, block: Block) -> Unit:
    """The unit's lines as an OCR program writes them: invisible Helvetica, stretched (Tz) over each line."""
    box = unit.bbox
    for line, baseline, line_box in zip(block.lines, block.baselines, block.line_boxes()):
        natural = pdfmetrics.stringWidth(line.text, "Helvetica", unit.size)
        scale = 100 * line_box.width / natural
        text = c.beginText()
        text.setTextRenderMode(3)
        text.setFont("Helvetica", unit.size)
        text.setHorizScale(scale)
        text.setTextOrigin(line_box.x0, baseline)
        text.textOut(line.text)
        c.drawText(text)
        box = box.union(Box(line_box.x0, baseline - 0.207 * unit.size, line_box.x1, baseline + 0.793 * unit.size))
    return replace(unit, visible=False, in_image=True, font="Helvetica", bbox=box.rounded())


def _scan_source(draw: Callable[[object, Document, int], list[Block]], page: int):
    """A page drawn with reportlab, rendered by PDFium at 200 dpi in grey, with a scanner's faint noise;
    returns the pixels, the units drawn and the blocks of the paragraphs among them."""
    import pypdfium2

    buffer = io.BytesIO()
    c = new_canvas(buffer, letter, "scan")
    scratch = Document("scan", Path("scan.pdf"), pages=[])
    blocks = draw(c, scratch, page)
    c.showPage()
    c.save()
    pdf = pypdfium2.PdfDocument(buffer.getvalue())
    grey = pdf[0].render(scale=SCAN_DPI / 72, grayscale=True).to_numpy().astype(np.float32)
    pdf.close()
    grey = grey.reshape(grey.shape[0], grey.shape[1])
    rng = np.random.default_rng(3 + page)
    paper = 238 + rng.normal(0, 2, grey.shape)  # not quite white, not quite even
    pixels = np.clip(grey * (paper / 255) + rng.normal(0, 1.5, grey.shape), 0, 255).astype(np.uint8)
    return PILImage.fromarray(pixels, "L"), scratch.units, blocks


def _memo(c, doc: Document, page: int) -> list[Block]:
    width, height = letter
    doc.units.append(
        string_unit(
            c,
            page,
            "Minutes of the Library Committee",
            72,
            height - 96,
            Style("Times-Bold", 16),
            Role.HEADING,
            translate=True,
        )
    )
    doc.units.append(
        string_unit(
            c, page, "Meeting of 12 March 2024", 72, height - 116, Style("Times-Italic", 11), Role.BODY, translate=True
        )
    )
    column = Column(c, doc, page, 72, width - 144, height - 150)
    text = Styles(11.5)
    column.para(
        text(
            "The committee discussed the move of the periodicals to the ground floor. The shelves will be delivered "
            "in April, and the reading room will be closed for one week while they are installed."
        ),
        leading=15,
        after=9,
    )
    column.para(
        text(
            "Members agreed that scanned copies of the older volumes should be made available on the reading room "
            "computers. The cost of the scanning will be shared between the library and the history department."
        ),
        leading=15,
        after=9,
    )
    column.para(text("The next meeting will take place on 9 April at ten o'clock."), leading=15, align="left")
    return column.blocks


def _letter(c, doc: Document, page: int) -> list[Block]:
    width, height = letter
    column = Column(c, doc, page, 90, width - 180, height - 120)
    text = Styles(12, roman="Courier", italic="Courier-Oblique", bold="Courier-Bold")
    column.para(text("Dear Ms Moreau,"), leading=16, align="left", after=10)
    column.para(
        text(
            "Thank you for your letter of 2 March. The documents you asked for are enclosed. Please note that the "
            "plans of the east wing are copies, since the originals were lost in the flood of 1998."
        ),
        leading=16,
        align="left",
        after=10,
    )
    column.para(
        text("If you need certified copies, please let us know and we will arrange them with the city archive."),
        leading=16,
        align="left",
        after=10,
    )
    column.para(text("Yours sincerely,"), leading=16, align="left", after=4)
    column.para(text("J. Hartmann, Records Office"), leading=16, align="left")
    return column.blocks
