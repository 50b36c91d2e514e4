"""The user's glossary: CSV in and out, terms found in a text, given to an LLM's prompt or kept by placeholders."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from glossary_fakes import SPLIT, scripted

from fanyi.engine.options import DecodeOptions
from fanyi.engine.results import Translation
from fanyi.engine.terms import find_terms, lost_terms, protect, restore, terms_in
from fanyi.engine.translator import Translator
from fanyi.glossary import ANY, Glossary, GlossaryError, Term, parse_csv, read_csv, write_csv

ROOT = Path(__file__).resolve().parents[1]


def test_csv_round_trip_with_a_bom_for_excel(tmp_path):
    glossary = Glossary((Term("en", "zh", "machine learning", "机器学习"), Term("zh", "en", "翻译", "translation, n.")))
    path = tmp_path / "g.csv"
    write_csv(glossary, path)
    assert path.read_bytes().startswith(b"\xef\xbb\xbfsource,target,term,translation\r\n")
    assert read_csv(path) == glossary


def test_two_column_files_take_the_pair_they_are_given():
    glossary = parse_csv("term,translation\nGPU,显卡\n".encode(), "g.csv", pair=("en", "zh"))
    assert glossary.for_pair("eng_Latn", "zho_Hans") == (("GPU", "显卡"),)  # languages by their base code
    assert glossary.for_pair("zh", "en") == ()
    anywhere = parse_csv(b"GPU,\xe6\x98\xbe\xe5\x8d\xa1\n", "g.csv", pair=(ANY, ANY))
    assert anywhere.for_pair("de", "fr") == (("GPU", "显卡"),)


@pytest.mark.parametrize(
    "data, message",
    [
        (
            b"a,b,c\n",
            r"^g.csv, row 1: a glossary row has four columns \(source, target, term, translation\) or two "
            r"\(term, translation\), not 3$",
        ),
        (b"a\n", r"^g.csv, row 1: a glossary row has four columns .* or two \(term, translation\), not 1$"),
        (b"source,target,term,translation\nen,zh,,x\n", "^g.csv, row 2: the term is empty$"),
        (b"en,zh,\xff\xfe,x\n", "g.csv is not UTF-8 text"),
        (b"en,z h,GPU,x\n", "target language 'z h' is not a language code"),
        (b"en,zh,GPU,\x07\n", "must be printable text"),
    ],
)
def test_a_bad_file_is_refused_in_one_line(data, message):
    with pytest.raises(GlossaryError, match=message) as err:
        parse_csv(data, "g.csv")
    assert "\n" not in str(err.value)


def test_two_column_rows_apply_to_any_pair_unless_given_one():
    """What the command line and the API took, the app's import takes too (it refused "four columns")."""
    glossary = parse_csv("term,translation\nGPU,显卡\n".encode(), "g.csv")
    assert glossary.terms == (Term(ANY, ANY, "GPU", "显卡"),) and glossary.for_pair("en", "zh") == (("GPU", "显卡"),)


def test_a_file_too_large_is_refused_before_it_is_parsed(tmp_path, monkeypatch):
    monkeypatch.setattr("fanyi.limits.MAX_GLOSSARY_BYTES", 100)
    path = tmp_path / "big.csv"
    path.write_bytes(b"en,zh,a,b\n" * 50)
    with pytest.raises(GlossaryError, match="more than a glossary may be"):
        read_csv(path)


def test_adding_a_term_again_replaces_it_and_merging_imports():
    glossary = Glossary().with_term(Term("en", "zh", "model", "模型"))
    glossary = glossary.with_term(Term("en", "zh", "Model", "型号"))
    assert glossary.terms == (Term("en", "zh", "Model", "型号"),)
    merged = glossary.merged(Glossary((Term("en", "zh", "pack", "包"), Term("en", "zh", "model", "模型"))))
    assert merged.for_pair("en", "zh") == (("model", "模型"), ("pack", "包"))
    assert merged.without(Term("en", "zh", "pack", "包")).for_pair("en", "zh") == (("model", "模型"),)


def test_terms_are_found_as_words_longest_first():
    entries = [("apple", "苹果"), ("Apple pie", "苹果派"), ("cat", "猫")]
    text = "I like apple pie, an Apple and categories; cat."
    assert [t[2] for t in find_terms(text, entries)] == ["apple pie", "Apple", "cat"]
    assert terms_in(text, entries) == (("apple pie", "苹果派"), ("Apple", "苹果"), ("cat", "猫"))
    assert terms_in("我爱苹果派", [("苹果", "apple")]) == (("苹果", "apple"),)  # no word breaks in Chinese


def test_placeholders_come_back_as_the_terms_translation():
    protected, placed = protect("Buy a GPU and a CPU.", [("GPU", "显卡"), ("CPU", "处理器")])
    assert protected == "Buy a ZXQ1 and a ZXQ2." and placed == (("GPU", "显卡"), ("CPU", "处理器"))
    assert restore("买一块ZXQ1和一个ZXQ2。", placed) == "买一块显卡和一个处理器。"
    assert lost_terms("买一块ZXQ1和一个ZXQ2。", placed, "Buy a GPU and a CPU.") == ()
    assert lost_terms("买一块显卡和一个ZXQ2。", placed, "Buy a GPU and a CPU.") == ("GPU",)  # did not come back


@pytest.mark.parametrize(
    "output, restored",
    [
        ("重置 ZXQ1", "重置网路连线"),  # MarianMT writes a space around the name it copies
        ("输入您的 ZXQ1.", "输入您的网路连线."),
        ("ZXQ1 已断开。", "网路连线已断开。"),
        ("打开 ZXQ1 设置", "打开网路连线设置"),
        ("Open the ZXQ1 now", "Open the 网路连线 now"),  # between Latin words the spaces stay
    ],
)
def test_a_chinese_term_joins_its_chinese_neighbours_without_spaces(output, restored):
    assert restore(output, (("network connection", "网路连线"),)) == restored


def test_a_latin_term_keeps_its_spaces_in_chinese():
    assert restore("打开 ZXQ1 设置", (("wifi", "Wi-Fi"),)) == "打开 Wi-Fi 设置"


@pytest.mark.parametrize(
    "output",
    [
        "显示 ZX 的隐藏文件。",
        "显示 ZXQ 的隐藏文件。",
        "显示 XQ1 的隐藏文件。",
        "显示 ZXQ2 的隐藏文件。",
        "显示的隐藏文件。",
    ],
)
def test_a_placeholder_split_or_dropped_by_the_model_loses_its_term(output):
    assert lost_terms(output, (("hidden", "隐藏"),), "Show the hidden files.") == ("hidden",)


def test_a_fragment_that_was_in_the_source_is_no_broken_placeholder():
    assert lost_terms("ZX Spectrum 的 ZXQ1", (("emulator", "模拟器"),), "the ZX Spectrum emulator") == ()


def test_an_encoder_decoder_pack_keeps_a_term_through_a_placeholder(tiny_translator, monkeypatch):
    sources = scripted(monkeypatch)
    tiny_translator.clear_cache()
    options = DecodeOptions(glossary=(("machine learning", "机器学习"),))
    assert tiny_translator.translate("Machine learning is fun.", options) == "机器学习 IS FUN."
    assert sources == ["ZXQ1 is fun."]
    streamed = "".join(
        e for e in tiny_translator.translate_stream("I love machine learning.", options) if isinstance(e, str)
    )
    assert streamed == "I LOVE 机器学习."


def test_a_sentence_whose_placeholder_the_model_broke_is_translated_again_without_it_and_said(
    tiny_translator, monkeypatch
):
    """MarianMT split ZXQ1 into "ZX": the output kept the garbage, exit 0 and nothing said."""
    sources = scripted(monkeypatch, SPLIT.__getitem__)
    tiny_translator.clear_cache()
    options = DecodeOptions(glossary=(("hidden", "隐藏"), ("network connection", "网路连线")))
    [result] = tiny_translator.translate_results(["Show the hidden files. Reset the network connection."], options)
    assert result.text == "显示隐藏的文件。重置网路连线。" and "ZX" not in result.text
    assert result.lost_terms == ("hidden",) and result.failures == ()
    assert sources.count("Show the hidden files.") == 1  # translated again, once, without the placeholder
    tiny_translator.clear_cache()
    events = list(tiny_translator.translate_stream("Show the hidden files.", options))
    assert Translation.collect(events) == Translation("显示隐藏的文件。", lost_terms=("hidden",))


def test_cli_says_which_glossary_term_the_model_lost(tiny_pack, tmp_path):
    """Run as a user runs it, with a model that splits the placeholder (patched in the subprocess)."""
    glossary = tmp_path / "terms.csv"
    glossary.write_text("term,translation\nhidden,隐藏\n", encoding="utf-8")
    code = f"""
import sys
sys.path.insert(0, {str(ROOT / "tests")!r})
import pytest
from glossary_fakes import SPLIT, scripted
scripted(pytest.MonkeyPatch(), SPLIT.__getitem__)
from fanyi.cli import main
sys.exit(main(["translate", "--model", {str(tiny_pack)!r}, "--glossary", {str(glossary)!r}, "Show the hidden files."]))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout == "显示隐藏的文件。\n", done.stderr
    assert done.stderr.splitlines() == [
        "fanyi: warning: the glossary's “hidden” could not be kept (the model broke its placeholder): "
        "its sentence was translated without the glossary"
    ]


def test_an_llm_pack_is_told_the_terms_its_paragraph_holds(tiny_llm_pack):
    translator = Translator.open(tiny_llm_pack("hunyuan"), threads=1)
    options = DecodeOptions(source="en", target="zh", glossary=(("GPU", "显卡"), ("router", "路由器")))
    prompt = translator.tokenizer.raw_decode(translator.encode("My GPU is hot.", options))
    plain = translator.tokenizer.raw_decode(
        translator.encode("My GPU is hot.", DecodeOptions(source="en", target="zh"))
    )
    assert "参考下面的翻译" not in plain
    _pieces, parts = translator._plan("My GPU is hot.", options)
    prompt = translator.tokenizer.raw_decode(list(parts[0][0].ids))
    assert "参考下面的翻译：\nGPU 翻译成 显卡\n\n将以下文本翻译为中文" in prompt and "路由器" not in prompt
    assert "ZXQ" not in prompt


def test_an_llm_pack_is_given_the_previous_paragraph_as_context(tiny_llm_pack, tiny_translator):
    translator = Translator.open(tiny_llm_pack("hunyuan"), threads=1)
    assert translator.takes_context and not tiny_translator.takes_context
    options = DecodeOptions(source="en", target="zh", max_new_tokens=4)
    _pieces, parts = translator._plan("It was raining.", options, context="We went out.")
    prompt = translator.tokenizer.raw_decode(list(parts[0][0].ids))
    assert prompt.count("We went out.\n参考上面的信息，把下面的文本翻译成中文") == 1
    results = translator.translate_results(["It was raining."] * 2, options, contexts=["We went out.", "Sun."])
    assert len(results) == 2


def test_cli_takes_a_glossary_and_refuses_a_bad_one_before_loading(tiny_pack, tmp_path):
    good, bad = tmp_path / "good.csv", tmp_path / "bad.csv"
    good.write_text("term,translation\nworld,世界\n", encoding="utf-8")
    bad.write_text("one,two,three\n", encoding="utf-8")
    run = [sys.executable, "-m", "fanyi", "translate", "--model", str(tiny_pack)]
    ok = subprocess.run(run + ["--glossary", str(good), "Hello world."], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    refused = subprocess.run(run + ["--glossary", str(bad), "Hello."], capture_output=True, text=True, timeout=120)
    assert refused.returncode != 0 and "bad.csv, row 1: a glossary row has four columns" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    missing = subprocess.run(
        run + ["--glossary", str(tmp_path / "none.csv"), "Hi."], capture_output=True, text=True, timeout=120
    )
    assert missing.returncode != 0 and "cannot be read" in missing.stderr
