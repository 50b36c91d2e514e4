import contextlib
import errno
import os
import tracemalloc

import docx
import pytest
from docfixtures import FormattedTranslator, leftovers, mark

from fanyi import limits
from fanyi.cancel import Cancelled, CancelToken
from fanyi.documents import (
    NotReadable,
    NotWritable,
    TranslationFailed,
    UnsupportedFormat,
    output_path_for,
    translate_document,
)
from fanyi.documents import job as job_module
from fanyi.engine.options import DecodeOptions

MANY = "".join(f"Paragraph number {n} says something.\n\n" for n in range(80))


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_output_names_are_numbered_when_taken(tmp_path):
    src = write(tmp_path, "a.txt", "Hi.")
    assert output_path_for(src, "zh") == tmp_path / "a.zh.txt"
    (tmp_path / "a.zh.txt").write_text("x")
    (tmp_path / "a.zh.1.txt").write_text("x")
    assert output_path_for(src, "zh") == tmp_path / "a.zh.2.txt"
    assert output_path_for(tmp_path / "b.pdf", "zh") == tmp_path / "b.zh.pdf"
    assert output_path_for(tmp_path / "b.pdf", "zh", to="docx") == tmp_path / "b.zh.docx"
    assert output_path_for(src, "cmn_Hans", tmp_path / "out") == tmp_path / "out" / "a.cmn_Hans.txt"


def test_a_bilingual_output_says_so_in_its_name(tmp_path, translator):
    """A bilingual run after a plain one does not write name.zh.1.pdf, which passes for a second translation."""
    src = tmp_path / "a.txt"
    src.write_text("Hello there.\n")
    plain = translate_document(src, translator).output
    both = translate_document(src, translator, bilingual=True).output
    again = translate_document(src, translator, bilingual=True).output
    assert (plain.name, both.name, again.name) == ("a.zh.txt", "a.zh.bilingual.txt", "a.zh.bilingual.1.txt")


def test_the_source_is_never_opened_for_writing(tmp_path, translator, monkeypatch):
    src = write(tmp_path, "a.txt", "Hello.")
    before = src.stat().st_mtime_ns
    opened = []
    real_open = os.open

    def spy(path, flags, *args, **kwargs):
        if os.fspath(path) == os.fspath(src) and flags & (os.O_WRONLY | os.O_RDWR):
            opened.append(path)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy)
    translate_document(src, translator)
    assert opened == [] and src.stat().st_mtime_ns == before and src.read_text() == "Hello."
    with pytest.raises(NotWritable, match="Will not write over the source"):
        translate_document(src, translator, dst=src)


def test_batches_are_bounded_and_length_sorted_and_progress_reaches_the_end(tmp_path, translator):
    src = write(tmp_path, "many.txt", MANY + "Short.\n")
    seen = []
    result = translate_document(src, translator, progress=lambda done, total: seen.append((done, total)))
    assert result.report.translated == 81
    assert all(len(call) <= job_module.BATCH_UNITS for call in translator.calls)
    assert translator.calls[0][0] == "Short."  # the shortest text comes first
    assert seen[0] == (0, 81) and seen[-1] == (81, 81)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_options_reach_the_translator_and_target_names_the_output(tmp_path, translator):
    src = write(tmp_path, "a.txt", "Hello.")
    options = DecodeOptions(target="cmn_Hant", beams=2)
    result = translate_document(src, translator, options=options)
    assert result.output.name == "a.cmn_Hant.txt"
    assert translator.options == [options]


def test_a_cancel_before_the_start_translates_nothing(tmp_path, translator):
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        translate_document(write(tmp_path, "a.txt", "Hello."), translator, cancel=token)
    assert translator.calls == [] and leftovers(tmp_path) == []


def test_a_failing_unit_is_reported_and_the_rest_translated(tmp_path, translator):
    src = write(tmp_path, "a.txt", "Good one.\n\nBad apple here.\n\nGood two.\n")
    translator.fail_on = {"Bad"}
    result = translate_document(src, translator)
    assert (
        result.output.read_text(encoding="utf-8") == f"{mark('Good one.')}\n\nBad apple here.\n\n{mark('Good two.')}\n"
    )
    assert [(e.where, e.text) for e in result.report.failed] == [("paragraph 2", "Bad apple here.")]
    assert "RuntimeError: model exploded" in result.report.failed[0].reason
    summary = result.report.summary()
    assert "translated: 2 of 3 units" in summary and "failed: 1" in summary and "Bad apple here." in summary


def test_when_nothing_could_be_translated_nothing_is_written(tmp_path, translator):
    src = write(tmp_path, "a.txt", "Bad one.\n\nBad two.\n")
    translator.fail_on = {"Bad"}
    with pytest.raises(TranslationFailed, match="a.txt: none of its text could be translated"):
        translate_document(src, translator)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]


def test_an_empty_translation_counts_as_a_failure(tmp_path):
    from docfixtures import FakeTranslator

    silent = FakeTranslator(lambda t: "" if "quiet" in t else mark(t))
    result = translate_document(write(tmp_path, "a.txt", "Loud.\n\nquiet please\n"), silent)
    assert [e.reason for e in result.report.failed] == ["the translator returned an empty translation"]


def test_a_sentence_the_model_loops_on_fails_its_unit_which_is_kept_not_blanked(tmp_path, translator):
    """Degenerate translations are reported as failed units and written as they were, never as a blank line."""
    source = "Fine here.\n\nThe model loops on this. But not on this.\n\nAlso fine.\n\nMan\n"
    translator.degenerate_on = {"loops", "Man"}
    result = translate_document(write(tmp_path, "a.txt", source), translator)
    report = result.report
    assert (report.translated, len(report.failed), report.total) == (2, 2, 4)
    assert [e.where for e in report.failed] == ["paragraph 2", "paragraph 4"]
    assert report.failed[0].reason == "sentence “The model loops on this.”: the model kept repeating itself"
    assert report.failed[1].reason == (
        "the model kept repeating itself, also when translated again with a repetition guard"
    )
    assert "translated: 2 of 4 units" in report.summary() and "failed: 2" in report.summary()
    assert result.output.read_text(encoding="utf-8") == (
        f"{mark('Fine here.')}\n\nThe model loops on this. But not on this.\n\n{mark('Also fine.')}\n\nMan\n"
    )


class _FullDisk:
    """A file that takes 200 bytes, then fails like a full disk."""

    def __init__(self, handle):
        self._handle = handle
        self._written = 0

    def write(self, data):
        self._written += len(data)
        if self._written > 200:
            raise OSError(errno.ENOSPC, "No space left on device")
        return self._handle.write(data)

    def __getattr__(self, name):
        return getattr(self._handle, name)


@pytest.mark.parametrize("kind", ["txt", "docx"])
def test_a_full_disk_leaves_nothing_behind(tmp_path, translator, monkeypatch, kind):
    src = _many_units(tmp_path, kind)
    real = job_module.staged

    @contextlib.contextmanager
    def full_disk(path):
        with real(path) as stage:
            stage.file = _FullDisk(stage.file)
            yield stage

    monkeypatch.setattr(job_module, "staged", full_disk)
    with pytest.raises(NotWritable, match="No space left on device"):
        translate_document(src, translator)
    assert sorted(p.name for p in tmp_path.iterdir()) == [src.name]


@pytest.mark.parametrize("kind", ["txt", "docx", "html"])
def test_cancel_mid_job_leaves_no_file_and_no_temp_file(tmp_path, translator, kind):
    src = _many_units(tmp_path, kind)
    translator.cancel_on_call = 2
    with pytest.raises(Cancelled):
        translate_document(src, translator, cancel=CancelToken())
    assert sorted(p.name for p in tmp_path.iterdir()) == [src.name]
    assert len(translator.calls) == 2


def _many_units(tmp_path, kind):
    texts = [f"Paragraph number {n} says something." for n in range(80)]
    src = tmp_path / f"many.{kind}"
    if kind == "docx":
        document = docx.Document()
        for text in texts:
            document.add_paragraph(text)
        document.save(src)
    elif kind == "html":
        src.write_text("<html><body>" + "".join(f"<p>{t}</p>" for t in texts) + "</body></html>", encoding="utf-8")
    else:
        src.write_text("\n\n".join(texts), encoding="utf-8")
    return src


def test_an_unwritable_destination_is_named_before_any_translation(tmp_path, translator):
    src = write(tmp_path, "a.txt", "Hello.")
    with pytest.raises(NotWritable, match="does not exist"):
        translate_document(src, translator, dst=tmp_path / "missing" / "out.txt")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(NotWritable, match="a.txt|out.txt"):
        translate_document(src, translator, dst=blocker / "out.txt")
    assert translator.calls == []


def test_unsupported_and_missing_files_are_named(tmp_path, translator):
    with pytest.raises(UnsupportedFormat, match=r"sheet.xlsx is not a supported document.*\.docx"):
        translate_document(write(tmp_path, "sheet.xlsx", "x"), translator)
    with pytest.raises(NotReadable, match="nope.txt does not exist"):
        translate_document(tmp_path / "nope.txt", translator)
    folder = tmp_path / "folder.txt"
    folder.mkdir()
    with pytest.raises(NotReadable, match="folder.txt is not a file"):
        translate_document(folder, translator)


def test_a_large_file_is_streamed_in_bounded_memory(tmp_path):
    from docfixtures import FakeTranslator

    paragraph = "This line is part of a long paragraph that goes on and on.\n" * 3 + "\n"
    src = tmp_path / "big.txt"
    with src.open("w", encoding="utf-8") as handle:
        for n in range(8_000):
            handle.write(f"{n}. " + paragraph)
    size = src.stat().st_size
    tracemalloc.start()
    try:
        result = translate_document(src, FakeTranslator(record=False))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.report.translated == 8_000
    assert result.output.stat().st_size > size * 0.9
    assert peak < size / 3, (peak, size)


def test_a_text_without_blank_lines_is_translated_in_bounded_memory(tmp_path):
    """A book saved without blank lines was one unit, held (and translated) whole."""
    from docfixtures import FakeTranslator

    longest = 0

    def measured(text):
        nonlocal longest
        longest = max(longest, len(text))
        return mark(text)

    translator = FakeTranslator(measured, record=False)
    src = tmp_path / "book.txt"
    with src.open("w", encoding="utf-8") as handle:
        handle.writelines(f"Line {n} of a book that was saved without any blank lines.\n" for n in range(60_000))
    size = src.stat().st_size
    translate_document(write(tmp_path, "warm-up.txt", "Modules are imported once."), translator)
    tracemalloc.start()
    try:
        result = translate_document(src, translator)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < size / 4, (peak, size)
    assert 0 < longest <= limits.MAX_UNIT_CHARS
    assert result.output.read_text(encoding="utf-8").count("\n") > 1  # cut where lines ended


def test_the_report_of_a_large_file_names_a_bounded_number_of_units(tmp_path, translator):
    text = "".join(f"Paragraph {n} {'breaks' if n % 2 else 'works'} in this file.\n\n" for n in range(3_000))
    translator.fail_on = {"breaks"}
    report = translate_document(write(tmp_path, "big.txt", text), translator).report
    assert report.failed_count == 1_500 and report.translated == 1_500 and report.total == 3_000
    assert len(report.failed) <= limits.REPORT_REASONS * limits.REPORT_ENTRIES_PER_REASON
    summary = report.summary()
    assert "failed: 1500" in summary and len(summary.splitlines()) < 250
    assert summary.count("“Paragraph 1 breaks in this file.”") == 1
    # every reason names its text here, so past REPORT_REASONS reasons they are counted together
    assert f"… and {1_500 - limits.REPORT_REASONS - limits.REPORT_ENTRIES_PER_REASON} more: other reasons" in summary


def test_a_report_counts_each_reason_and_names_its_first_units(tmp_path):
    from docfixtures import FakeTranslator

    silent = FakeTranslator(lambda t: "" if "quiet" in t else mark(t))
    text = "".join(f"Loud {n}.\n\nquiet {n}\n\n" for n in range(50))
    report = translate_document(write(tmp_path, "a.txt", text), silent).report
    assert report.failed_reasons == {"the translator returned an empty translation": 50}
    assert len(report.failed) == limits.REPORT_ENTRIES_PER_REASON
    assert "    … and 40 more: the translator returned an empty translation" in report.summary().splitlines()


def test_output_names_carry_a_variant_only_when_it_is_not_the_packs_default(tmp_path, tiny_translator, tiny_many_pack):
    """The app always passes the chosen variant, so its outputs were `name.cmn_Hans.txt` where `fanyi file`
    wrote `name.zh.txt` for the same pack."""
    from fanyi.documents.job import output_language
    from fanyi.engine.translator import Translator

    assert tiny_translator.default_target == "cmn_Hans"
    assert output_language(tiny_translator, None) == "zh"
    assert output_language(tiny_translator, "cmn_Hans") == "zh"
    assert output_language(tiny_translator, "cmn_Hant") == "cmn_Hant"
    assert output_language(tiny_translator, "yue") == "yue"
    mbart = Translator.open(tiny_many_pack("mbart50"))
    assert output_language(mbart, None) == mbart.default_target == "zh_CN"  # a language, never "mul"
    assert output_language(mbart, "fr_XX") == "fr_XX"
    src = write(tmp_path, "a.txt", "Hello.")
    first = translate_document(src, tiny_translator, options=DecodeOptions(target="cmn_Hans"))
    second = translate_document(src, tiny_translator, options=DecodeOptions(target="cmn_Hant"))
    assert (first.output.name, second.output.name) == ("a.zh.txt", "a.cmn_Hant.txt")


class ContextTranslator:
    """A translator that takes each paragraph's predecessor (an LLM pack with a context prompt)."""

    source_lang, target_lang, takes_context = "en", "zh", True

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    def languages(self, options):
        from fanyi.engine.language_choice import LanguageChoice

        return LanguageChoice(None, None, "en", "zh")

    def translate_results(self, texts, options=None, progress=None, cancel=None, contexts=None):
        from fanyi.engine.results import Translation

        assert contexts is not None and len(contexts) == len(texts)
        self.seen += list(zip(texts, contexts))
        return [Translation(f"[{t}|{c}]") for t, c in zip(texts, contexts)]


def test_a_context_taking_pack_gets_each_paragraphs_predecessor(tmp_path):
    src = write(tmp_path, "a.txt", "First.\n\nSame.\n\nSecond.\n\nSame.\n")
    translator = ContextTranslator()
    out = translate_document(src, translator).output.read_text(encoding="utf-8")
    # the same text after different paragraphs is translated twice, each with what came before it
    assert out == "[First.|]\n\n[Same.|First.]\n\n[Second.|Same.]\n\n[Same.|Second.]\n"
    assert sorted(translator.seen) == sorted(
        [("First.", ""), ("Same.", "First."), ("Second.", "Same."), ("Same.", "Second.")]
    )


def test_a_paragraph_with_markup_goes_through_the_formatted_prompt_and_its_marks_place_the_markup(tmp_path):
    src = write(tmp_path, "a.html", "<p>Plain text.</p><p>Some <b>bold words</b> and <a href='x'>a link</a>.</p>")
    translator = FormattedTranslator()
    out = translate_document(src, translator).output.read_text(encoding="utf-8")
    assert sorted(translator.seen) == [
        ("Plain text.", False),
        ("Some <sn>bold words</sn> and <sn>a link</sn>.", True),
    ]
    assert "<p>PLAIN TEXT.</p>" in out
    assert "<p>SOME <b>BOLD WORDS</b> AND <a href='x'>A LINK</a>.</p>" in out


def test_a_glossary_term_the_model_lost_is_in_the_report(tmp_path, translator, monkeypatch):
    """An encoder-decoder model that broke a glossary placeholder: the sentence is translated without the glossary
    (engine), and the document's report names the term."""
    from fanyi.engine.results import Translation

    real = translator._result
    monkeypatch.setattr(
        translator,
        "_result",
        lambda text: Translation(real(text).text, lost_terms=("hidden files",) if "hidden" in text else ()),
    )
    src = write(tmp_path, "a.txt", "Show the hidden files.\n\nAll is well.\n\nThe hidden files again.\n")
    result = translate_document(src, translator)
    assert result.report.lost_terms == ["hidden files"]
    assert (
        "note: the glossary's “hidden files” could not be kept (the model broke its placeholder): its sentence was "
        "translated without the glossary" in result.report.summary()
    )
