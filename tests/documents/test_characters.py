"""What a model writes that no document may hold (NUL, other C0 controls, lone surrogates …) is left out
and counted, in every format, and the rest is translated; an LLM pack's random output included."""

from __future__ import annotations

import html
import zipfile
from pathlib import Path

import docx
import pytest
from docfixtures import FakeTranslator, docx_bytes, mark, zip_bytes
from lxml import etree
from pptx import Presentation
from pptx.util import Inches
from test_epub import ENTRIES, chapter
from test_fuzz import seed_documents

from fanyi.documents import translate_document
from fanyi.documents.characters import FORBIDDEN, scrub

NOISE = (
    "\x00\x1a\x0b\ud800\x85\ufffe"  # NUL, DOS's end of file, a vertical tab, a lone surrogate, C1 NEL, a non-character
)


def test_scrub_takes_out_exactly_what_xml_cannot_hold_and_the_c1_controls():
    assert scrub(f"a{NOISE}b\tc\nd\re 中文 😀") == ("ab\tc\nd\re 中文 😀", len(NOISE))
    kept = "".join(chr(c) for c in (0x09, 0x0A, 0x0D, 0x20, 0xA0, 0xD7FF, 0xE000, 0xFFFD, 0x10000, 0x10FFFF))
    assert scrub(kept) == (kept, 0)


def _noisy(text: str) -> str:
    return mark(text)[:1] + NOISE + mark(text)[1:]


def _readable(suffix: str, output: Path) -> str:
    """The output read back by a reader of its format (a parser that refuses what the format forbids)."""
    if suffix == ".docx":
        return "\n".join(p.text for p in docx.Document(output).paragraphs)
    if suffix == ".pdf":
        from pdfminer.high_level import extract_text

        return extract_text(output).replace("\f", "\n")  # pdfminer's own page breaks
    if suffix == ".pptx":
        deck = Presentation(output)
        return "\n".join(s.text_frame.text for slide in deck.slides for s in slide.shapes if s.has_text_frame)
    if suffix in (".epub", ".xhtml"):
        if suffix == ".xhtml":
            return "".join(etree.fromstring(output.read_bytes()).itertext())
        with zipfile.ZipFile(output) as book:
            parts = [etree.fromstring(book.read(n)) for n in book.namelist() if n.endswith(".xhtml")]
        return "".join(t for part in parts for t in part.itertext())
    return output.read_bytes().decode("utf-8")


@pytest.mark.parametrize(
    "suffix", [".txt", ".md", ".srt", ".vtt", ".html", ".xhtml", ".docx", ".pptx", ".epub", ".pdf"]
)
def test_no_format_gets_characters_it_forbids_and_the_report_counts_them(tmp_path, suffix):
    src = tmp_path / f"seed{suffix}"
    src.write_bytes(seed_documents(tmp_path)[suffix])
    result = translate_document(src, FakeTranslator(_noisy))
    text = _readable(suffix, result.output)
    assert FORBIDDEN.search(text) is None
    assert ("HELLO" if suffix == ".pdf" else "⟦") in text  # translated (a PDF's font has no glyph for ⟦)
    assert result.report.failed_count == 0
    assert result.report.removed_characters == len(NOISE) * result.report.translated
    assert f"{result.report.removed_characters} control characters" in result.report.summary()


def test_a_translation_of_nothing_but_forbidden_characters_fails_its_unit(tmp_path):
    src = tmp_path / "notes.txt"
    src.write_text("One line.\n\nAnother line.\n", encoding="utf-8")
    result = translate_document(src, FakeTranslator(lambda t: NOISE if t.startswith("One") else mark(t)))
    assert result.report.failed_count == 1 and result.report.translated == 1
    assert result.report.removed_characters == 0  # nothing of that unit was written
    assert result.output.read_text(encoding="utf-8") == "One line.\n\n⟦ANOTHER LINE.⟧\n"


def _long_paragraphs() -> list[str]:
    """Paragraphs of three sentences: a random model runs away on a few words, but not on all of these."""
    lines = (Path(__file__).parents[2] / "assets" / "corpus" / "en.txt").read_text(encoding="utf-8").splitlines()
    return [" ".join(lines[i : i + 3]) for i in range(0, 36, 3)]


def _document(suffix: str, path: Path, paragraphs: list[str]) -> None:
    if suffix == ".docx":
        path.write_bytes(docx_bytes(paragraphs))
    elif suffix == ".pptx":
        deck = Presentation()
        for text in paragraphs:
            slide = deck.slides.add_slide(deck.slide_layouts[6])
            slide.shapes.add_textbox(Inches(1), Inches(1), Inches(6), Inches(3)).text_frame.text = text
        deck.save(path)
    else:
        body = "".join(f"<p>{html.escape(text)}</p>" for text in paragraphs)
        if suffix == ".html":
            path.write_text(f"<!DOCTYPE html><html><body>{body}</body></html>", encoding="utf-8")
        else:
            book = [(name, chapter("One", body) if name.endswith("ch1.xhtml") else data) for name, data in ENTRIES]
            path.write_bytes(zip_bytes(book, stored=["mimetype"]))


@pytest.mark.parametrize("suffix", [".docx", ".pptx", ".epub", ".html"])
def test_an_llm_pack_with_random_weights_translates_documents_into_valid_files(tmp_path, tiny_llm_pack, suffix):
    """Before the scrub, the random Qwen3 pack's control characters failed a .docx whole."""
    from fanyi.engine.options import DecodeOptions
    from fanyi.engine.translator import Translator

    translator = Translator.open(tiny_llm_pack("qwen3"), threads=1)
    src = tmp_path / f"long{suffix}"
    _document(suffix, src, _long_paragraphs())
    # the released configuration lets a random model write 512 tokens a paragraph, which it fills with loops
    result = translate_document(src, translator, options=DecodeOptions(source="en", target="zh", max_new_tokens=24))
    assert result.report.translated > 0
    assert FORBIDDEN.search(_readable(suffix, result.output)) is None


def test_an_llm_pack_that_takes_formatted_text_translates_a_styled_docx_into_a_valid_file(tmp_path, tiny_llm_pack):
    """HY-MT1.5's formatted prompt on bold and italic runs: a random model's answer (marks lost, added or nested)
    is read without them, and the document stays a valid one with its runs' formatting."""
    from fanyi.engine.options import DecodeOptions
    from fanyi.engine.translator import Translator

    translator = Translator.open(tiny_llm_pack("hunyuan"), threads=1)
    assert translator.takes_formatted
    document = docx.Document()
    for text in _long_paragraphs()[:6]:
        head, _, tail = text.partition(" ")
        paragraph = document.add_paragraph(head + " ")
        paragraph.add_run("in bold").bold = True
        paragraph.add_run(" " + tail).italic = True
    src = tmp_path / "styled.docx"
    document.save(src)
    asked: list[bool] = []
    results = translator.translate_results

    def spied(texts, *args, formatted=None, **kwargs):
        asked.extend(formatted or [False] * len(texts))
        return results(texts, *args, formatted=formatted, **kwargs)

    translator.translate_results = spied  # type: ignore[method-assign]
    result = translate_document(src, translator, options=DecodeOptions(source="en", target="zh", max_new_tokens=24))
    assert result.report.translated > 0 and asked and all(asked)  # every paragraph through the formatted prompt
    written = docx.Document(result.output)
    assert FORBIDDEN.search("\n".join(p.text for p in written.paragraphs)) is None
    assert all(p.runs[1].bold and p.runs[2].italic for p in written.paragraphs)
