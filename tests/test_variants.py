"""Taiwan's and Hong Kong's Traditional Chinese: OpenCC over the Simplified output (fanyi.variants),
streamed (fanyi.engine.converted) and not, through the engine (DecodeOptions.convert)."""

from __future__ import annotations

import random

import pytest

from fanyi import variants
from fanyi.engine.converted import convert_stream
from fanyi.engine.options import DecodeOptions
from fanyi.engine.results import Failure, Rewind, Translation

SIMPLIFIED = "我们的软件需要更新信息。头发很干净，请观看视频！鼠标和打印机都在网络上。"


@pytest.mark.parametrize(
    "region, expected",
    [
        ("zh-TW", "我們的軟體需要更新資訊。頭髮很乾淨，請觀看影片！滑鼠和印表機都在網路上。"),
        ("zh-HK", "我們的軟件需要更新信息。頭髮很乾淨，請觀看視頻！鼠標和打印機都在網絡上。"),
    ],
)
def test_each_region_writes_its_own_words(region, expected):
    assert variants.convert(SIMPLIFIED, region) == expected
    assert variants.convert("Fanyi 1.0, 2024-05-01", region) == "Fanyi 1.0, 2024-05-01"  # no Chinese: as it was


def test_an_unknown_region_is_refused_in_one_line():
    with pytest.raises(ValueError, match="convert must be one of zh-TW, zh-HK, got 'zh-CN'"):
        DecodeOptions(convert="zh-CN")


@pytest.mark.parametrize("region", variants.REGIONS)
def test_a_stream_cut_anywhere_adds_up_to_the_whole_text_converted(region):
    """软 then 件 is 軟 then 體; 干 then 净 turns 幹 back into 乾: earlier pieces are taken back and rewritten."""
    rng = random.Random(7)
    for _ in range(300):
        cuts = sorted(rng.sample(range(1, len(SIMPLIFIED)), rng.randint(1, 20)))
        pieces = [SIMPLIFIED[a:b] for a, b in zip([0, *cuts], [*cuts, len(SIMPLIFIED)])]
        assert Translation.collect(convert_stream(pieces, region)).text == variants.convert(SIMPLIFIED, region)
    events = list(convert_stream(["干", "净的面", "条"], "zh-TW"))
    assert events == ["幹", Rewind(1), "乾淨的面", Rewind(1), "麵條"]


def test_the_engines_rewinds_and_failures_pass_through():
    events = ["软件。", "坏掉的句", Rewind(4), "Broken sentence.", Failure("Broken sentence.", "loop"), "视频"]
    converted = list(convert_stream(events, "zh-TW"))
    assert Failure("Broken sentence.", "loop") in converted
    assert Translation.collect(converted) == Translation(
        "軟體。Broken sentence.影片", (Failure("Broken sentence.", "loop"),)
    )


def test_the_engine_converts_its_simplified_output_streamed_and_not(tiny_translator):
    text = "Hello world. This is a test of the software. Please watch the video."
    simplified = tiny_translator.translate(text, DecodeOptions(target="cmn_Hans"))
    for region in variants.REGIONS:
        options = DecodeOptions(target="cmn_Hans", convert=region)
        expected = variants.convert(simplified, region)
        assert tiny_translator.translate(text, options) == expected
        assert Translation.collect(tiny_translator.translate_stream(text, options)).text == expected
        assert tiny_translator.translate_results([text, ""], options)[1].text == ""


def test_chinese_of_either_script_is_written_the_way_asked_for():
    assert variants.rewrite("软件和视频，干净的头发", "zh-TW") == "軟體和影片，乾淨的頭髮"
    assert (
        variants.rewrite("軟件和視頻，乾淨的頭髮", "zh-TW") == "軟體和影片，乾淨的頭髮"
    )  # Traditional in, Taiwan's out
    assert variants.rewrite("软件和视频", "zh-HK") == "軟件和視頻"
    assert variants.rewrite("軟體和影片，乾淨的頭髮", "cmn_Hans") == "软体和影片，干净的头发"
    assert variants.rewrite("软件和视频，干净", "cmn_Hant") == "軟件和視頻，乾淨"
    assert variants.rewrite("Hello, world.", "zh-TW") == "Hello, world." and variants.rewrite("", "zh-TW") == ""
