"""fanyi.summaries: sections and chunks, which packs summarize what, long texts in rounds and by section, English
summaries translated, Chinese texts translated first, an LLM summarizing into Chinese itself, and bad input."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fanyi import summaries
from fanyi.engine.translator import Translator
from fanyi.library.installed import PackInfo
from fanyi.paths import assets_dir
from fanyi.summaries.chunks import chunk_sections
from fanyi.summaries.sections import Section, heading, paragraphs_of, sections_of

ENGLISH = [line for line in (assets_dir() / "corpus" / "en.txt").read_text(encoding="utf-8").splitlines() if line]
CHINESE = [line for line in (assets_dir() / "corpus" / "zh.txt").read_text(encoding="utf-8").splitlines() if line]


# --- sections and chunks ------------------------------------------------------------------------------
def test_headings_and_paragraphs():
    text = (
        "# A Report\n\nIt begins here. It goes on.\n\nAbstract\n\nWe summarize things,\nwrapped over\n"
        "two lines.\n\n1 Introduction\nThe first section starts on the line after its heading.\n\n"
        "A caption that is long enough to be a sentence, not a heading, since it ends with a full stop.\n\n"
        "2 Results\n\nThey are good.\n\n3 Empty\n\n4 Last\n\nThe end."
    )
    sections = sections_of(paragraphs_of(text))
    assert [s.title for s in sections] == ["A Report", "Abstract", "1 Introduction", "2 Results", "4 Last"]
    assert sections[1].paragraphs == ("We summarize things, wrapped over two lines.",)
    assert len(sections[2].paragraphs) == 2  # the caption is a paragraph
    assert heading("Results.") is None and heading("3.14") is None and heading("## Methods") == "Methods"
    assert sections_of(["no heading here."]) == [Section("", ("no heading here.",))]
    assert sections_of(["Title only", "Another title"]) == [Section("", ("Title only", "Another title"))]


def words(text: str) -> int:
    return len(text.split()) + 2  # two "special tokens"


def test_chunks_fit_keep_the_text_in_order_and_stay_in_their_section():
    long_paragraph = " ".join(ENGLISH[:30])
    sections = [Section("one", tuple(ENGLISH[:12])), Section("two", (long_paragraph, *ENGLISH[40:44]))]
    for across in (True, False):
        chunks = chunk_sections(sections, 60, words, across=across)
        assert all(words(c.text) <= 60 for c in chunks)
        # every character in order (a paragraph cut at a comma before a closing quote parts the two by a blank line)
        assert "".join("".join(c.text for c in chunks).split()) == "".join(
            "".join(p for s in sections for p in s.paragraphs).split()
        )
        if not across:
            assert [c.section for c in chunks] == sorted(c.section for c in chunks)
            assert all(c.text.split()[0] in " ".join(sections[c.section].paragraphs) for c in chunks)
    assert len(chunk_sections(sections, 60, words, across=True)) <= len(
        chunk_sections(sections, 60, words, across=False)
    )
    with pytest.raises(ValueError, match="prompt alone"):
        chunk_sections(sections, 2, words, across=True)


# --- which packs -------------------------------------------------------------------------------------
def info(name: str, source: str = "en", target: str = "zh", **kw: object) -> PackInfo:
    return PackInfo(name, Path(f"/packs/{name}"), source, target, 1, "int8", False, {}, **kw)  # type: ignore[arg-type]


BART = info("bart", "en", "en", translates=False, summarizes=True, family="BART")
EN_ZH, ZH_EN = info("en-zh"), info("zh-en", "zh", "en")
QWEN = info(
    "qwen3",
    "mul",
    "mul",
    languages=("en", "zh", "zh-Hant", "ja"),
    source_languages=("en", "zh", "zh-Hant", "ja"),
    summarizes=True,
    family="Qwen3",
)
HYMT = dataclasses.replace(QWEN, name="hy-mt", summarizes=False, family="HY-MT")


def test_bart_summarizes_english_and_the_translation_packs_do_the_rest():
    p = summaries.plan([BART, EN_ZH, ZH_EN], "An English text about trains.")
    assert (p.summarizer, p.before, p.after, p.source) == (BART, None, None, "en")
    p = summaries.plan([BART, EN_ZH, ZH_EN], "An English text about trains.", "zh-TW")
    assert p.after is not None and p.after.direction is not None and p.after.direction.pack == EN_ZH
    assert p.rewrite == "zh-TW"
    p = summaries.plan([BART, EN_ZH, ZH_EN], "关于火车的中文文本。")
    assert p.before is not None and p.before.direction.pack == ZH_EN  # type: ignore[union-attr]
    assert p.after is not None and p.after.direction.pack == EN_ZH  # type: ignore[union-attr]


def test_an_llm_that_summarizes_writes_the_target_itself_and_translators_are_not_asked():
    p = summaries.plan([BART, HYMT, QWEN, EN_ZH], "An English text about trains.", "zh")
    assert (p.summarizer, p.reads, p.writes, p.before, p.after) == (QWEN, "en", "zh", None, None)
    assert summaries.plan([BART, QWEN], "An English text.").summarizer == BART  # English into English: BART's job
    assert summaries.plan([QWEN], "日本語の文章です。", "zh").reads == "ja"
    with pytest.raises(summaries.NoSummarizer, match="translates; it does not summarize"):
        summaries.plan([HYMT, QWEN], "text", model="hy-mt")
    with pytest.raises(summaries.NoSummarizer, match="no installed model can summarize: install"):
        summaries.plan([HYMT, EN_ZH], "text")
    with pytest.raises(summaries.NoSummarizer, match="English only, and no installed model translates ja into English"):
        summaries.plan([BART, EN_ZH], "日本語の文章です。")


# --- summaries with tiny packs ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def packs(tiny_bart_pack, tiny_pack, tiny_pack_zh_en):
    from fanyi.engine.pack import ModelPack

    opened = {
        p: PackInfo.of(ModelPack.open(p), bundled=True)
        for p in (tiny_bart_pack("bart-large-cnn"), tiny_pack, tiny_pack_zh_en)
    }
    return list(opened.values())


@pytest.fixture(scope="module")
def opener():
    opened: dict[Path, Translator] = {}

    def open_translator(path: Path) -> Translator:
        if path not in opened:
            opened[path] = Translator.open(path, threads=1)
        return opened[path]

    return open_translator


def run(job):
    events = []
    while True:
        try:
            events.append(next(job))
        except StopIteration as done:
            return events, done.value


def test_a_text_longer_than_the_positions_is_summarized_in_rounds_with_progress(packs, opener):
    """The corpus (~4,000 tokens) through a tiny BART of 160 positions: ~30 chunks, then rounds of summaries."""
    paragraphs = ["\n".join(ENGLISH[i : i + 6]) for i in range(0, len(ENGLISH), 6)]
    plan = summaries.plan(packs, ENGLISH[0])
    events, summary = run(summaries.summarize(paragraphs, plan, opener))
    progress = [e for e in events if isinstance(e, summaries.Progress)]
    assert summary.chunks > 10 and summary.text
    assert {p.stage for p in progress} >= {"summarizing", "combining"}
    first = [p for p in progress if p.stage == "summarizing"]
    assert first[-1].done == first[-1].total == summary.chunks
    assert "".join(e for e in events if isinstance(e, str)) == summary.text
    bart = opener(plan.summarizer.path)
    assert bart.summary_tokens(summary.text) <= bart.max_summary_tokens or "\n\n" in summary.text


def test_by_section_each_heading_gets_its_summary(packs, opener):
    doc = ["Introduction", *ENGLISH[:6], "Methods", *ENGLISH[6:14], "Tiny", "Too short to summarize.", "Results"]
    doc += ENGLISH[20:40]
    events, summary = run(summaries.summarize(doc, summaries.plan(packs, doc[1]), opener, length="sections"))
    assert [s.title for s in summary.sections] == ["Introduction", "Methods", "Tiny", "Results"]
    assert [s.given_back for s in summary.sections] == [False, False, True, False]
    assert summary.sections[2].text == "Too short to summarize."
    assert summary.text.startswith("## Introduction\n\n") and "\n## Tiny\n\nToo short to summarize.\n" in summary.text
    assert "".join(e for e in events if isinstance(e, str)) == summary.text


def test_an_english_summary_in_chinese_is_its_translation_beside_it(packs, opener):
    text = " ".join(ENGLISH[:5])
    plan = summaries.plan(packs, text, "zh")
    _, summary = run(summaries.summarize([text], plan, opener))
    english = "".join(opener(plan.summarizer.path).summary_stream(text))
    assert summary.english == english
    assert plan.after is not None and plan.after.direction is not None
    translator = opener(plan.after.direction.pack.path)
    assert summary.text == translator.translate(english, summaries_options(plan))
    assert summary.translated_with == plan.after.direction.pack.name and summary.target_lang == "zh"
    shown = summaries.markdown(summary)
    assert shown.index(summary.text) < shown.index(english) and "translated by" in shown


def test_a_traditional_target_is_the_simplified_summary_converted_by_opencc(packs, opener):
    from fanyi import variants

    text = " ".join(ENGLISH[:5])
    _, simplified = run(summaries.summarize([text], summaries.plan(packs, text, "zh"), opener))
    events, taiwan = run(summaries.summarize([text], summaries.plan(packs, text, "zh-TW"), opener))
    assert taiwan.target_lang == "zh-TW" and taiwan.english == simplified.english
    assert taiwan.text == variants.rewrite(simplified.text, "zh-TW") != simplified.text
    assert "".join(e for e in events if isinstance(e, str)) == taiwan.text


def summaries_options(plan):
    from fanyi import routing

    return routing.decode_options(plan.after.direction, plan.after.variant)


def test_a_chinese_text_with_only_bart_is_translated_into_english_first_and_says_so(packs, opener):
    text = "".join(CHINESE[:30])
    plan = summaries.plan(packs, text)
    _, summary = run(summaries.summarize([text], plan, opener))
    assert summary.source_lang == "zh" and summary.target_lang == "zh"
    assert summary.pretranslated_with == plan.before.direction.pack.name  # type: ignore[union-attr]
    assert "translated into English by" in summaries.markdown(summary) and summary.english
    assert not summary.given_back
    _, short = run(summaries.summarize(["短文。"], plan, opener))
    assert short.given_back and short.text == "短文。"  # as written, not its English


def test_an_llm_summarizes_into_chinese_through_its_own_prompt(tiny_llm_pack, opener):
    from fanyi.engine.options import DecodeOptions
    from fanyi.engine.pack import ModelPack

    pack = PackInfo.of(ModelPack.open(tiny_llm_pack("qwen3")), bundled=True)
    hymt = PackInfo.of(ModelPack.open(tiny_llm_pack("hunyuan")), bundled=True)
    assert pack.summarizes and pack.translates and not hymt.summarizes
    text = " ".join(ENGLISH[:8])
    plan = summaries.plan([hymt, pack], text, "zh")
    assert plan.summarizer == pack and plan.direct
    translator = opener(pack.path)
    prompt = translator.tokenizer.prompts.render(
        text, translator.family.request(translator.languages(DecodeOptions(summary=True, source="en", target="zh")))
    )
    assert "Summarize the following text in Simplified Chinese" in prompt and "enable_thinking" not in prompt
    _, summary = run(summaries.summarize([text], plan, opener))
    assert summary.english is None and summary.model == pack.name
    assert summary.text == "".join(translator.summary_stream(text, DecodeOptions(source="en", target="zh"))).strip()


# --- bad input ---------------------------------------------------------------------------------------
def test_empty_short_and_too_long_texts(packs, opener, monkeypatch):
    plan = summaries.plan(packs, "English.")
    with pytest.raises(summaries.SummaryError, match="no text to summarize"):
        run(summaries.summarize(["", "  \n"], plan, opener))
    _, summary = run(summaries.summarize(["A short note."], plan, opener))
    assert summary.given_back and summary.text == "A short note."
    monkeypatch.setattr("fanyi.limits.MAX_SUMMARY_CHARS", 100)
    with pytest.raises(summaries.SummaryError, match="at most 100"):
        run(summaries.summarize(["x" * 101], plan, opener))


def cli(*args: str, env: dict[str, str], stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "fanyi", *args], input=stdin, capture_output=True, env=env, timeout=300
    )


@pytest.fixture()
def env(tmp_path):
    bundled = tmp_path / "bundled"
    bundled.mkdir()
    return {
        **os.environ,
        "FANYI_DATA_DIR": str(tmp_path / "d"),
        "FANYI_CONFIG_DIR": str(tmp_path / "c"),
        "FANYI_MODELS_DIR": str(bundled),
    }


def test_the_command_line_says_what_is_wrong_in_one_line_and_leaves_nothing(tiny_bart_pack, tiny_pack, env, tmp_path):
    folder = Path(env["FANYI_MODELS_DIR"])
    done = cli("summarize", str(tmp_path / "missing.txt"), env=env)
    assert done.returncode == 2 and done.stderr.decode().count("\n") == 1
    (tmp_path / "a.txt").write_text("Some English text to summarize, not short at all, in fact rather long.\n")
    done = cli("summarize", str(tmp_path / "a.txt"), env=env)
    assert done.returncode == 2 and b"no installed model can summarize" in done.stderr
    os.symlink(tiny_pack, folder / "en-zh")
    os.symlink(tiny_bart_pack("bart-large-cnn"), folder / "bart")
    (tmp_path / "empty.md").write_text("\n\n   \n")
    (tmp_path / "ja.txt").write_text("これは日本語の文章です。要約できません。\n")
    for args, stdin, said in [
        (["summarize", str(tmp_path / "empty.md")], None, b"has no text to summarize"),
        (["summarize", "-"], b"", b"there is no text to summarize"),
        (["summarize", str(tmp_path / "ja.txt")], None, b"summarizes English only"),
        (["summarize", "--to", "fr", str(tmp_path / "a.txt")], None, b"translates English into fr"),
        (["summarize", "--model", "en-zh", str(tmp_path / "a.txt")], None, b"does not summarize"),
        (["summarize", "--length", "long", str(tmp_path / "a.txt")], None, b"invalid choice"),
    ]:
        done = cli(*args, env=env, stdin=stdin)
        assert done.returncode == 2, (args, done.stderr)
        assert said in done.stderr and done.stderr.decode().strip().count("\n") <= 1 + (b"usage" in done.stderr) * 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "bundled", "empty.md", "ja.txt"]


def test_a_hundred_megabytes_on_stdin_is_refused_after_reading_a_few(tiny_bart_pack, env):
    """Read no further than a summary takes: the command stops reading and says so in one line."""
    os.symlink(tiny_bart_pack("bart-large-cnn"), Path(env["FANYI_MODELS_DIR"]) / "bart")
    proc = subprocess.Popen(
        [sys.executable, "-m", "fanyi", "summarize", "-"], stdin=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    assert proc.stdin is not None and proc.stderr is not None
    sent = 0
    block = b"All work and no play makes a dull summary. " * 24_000  # ~1 MB
    try:
        while sent < 100 * 2**20:
            proc.stdin.write(block)
            sent += len(block)
    except BrokenPipeError:
        pass
    finally:
        try:
            proc.stdin.close()
        except BrokenPipeError:
            pass
    assert proc.wait(timeout=300) == 2
    assert b"Fanyi summarizes at most" in proc.stderr.read()
    assert sent < 100 * 2**20  # it stopped reading long before the end


def test_a_bart_repository_without_tokenizer_json_gets_its_merges_downloaded():
    from fanyi.export.checkpoint_files import needed_files

    present = {"config.json", "vocab.json", "merges.txt", "model.safetensors", "README.md"}
    assert needed_files(present, lambda name: b"") == ["config.json", "vocab.json", "merges.txt", "model.safetensors"]
    assert "merges.txt" not in needed_files(present | {"tokenizer.json"}, lambda name: b"")
