"""Language codes of every style, their scripts and names, and the ways of writing Chinese (fanyi.languages)."""

from __future__ import annotations

import pytest

from fanyi import variants
from fanyi.languages import (
    BCP47,
    Language,
    base_language,
    english_name,
    is_cjk_language,
    language_of,
    requested,
    scripts_of,
    split_script,
)


@pytest.mark.parametrize(
    "code, expected",
    [
        ("zh", Language("zh", "cmn_Hans")),
        ("ZH-HANT", Language("zh", "cmn_Hant")),
        ("zh-TW", Language("zh", "cmn_Hant")),
        ("zho_Hant", Language("zh", "cmn_Hant")),
        ("zh_CN", Language("zh", "cmn_Hans")),
        ("cmn_Hant", Language("zh", "cmn_Hant")),
        ("yue", Language("zh", "yue")),
        ("yue_Hant", Language("zh", "yue")),
        ("en", Language("en")),
        ("EN-US", Language("en")),
        ("en_XX", Language("en")),
        ("eng_Latn", Language("en")),
        ("pt-BR", Language("pt")),
        ("zt", Language("zh", "cmn_Hant")),  # LibreTranslate's Traditional Chinese
    ],
)
def test_codes_of_every_style_name_one_language(code, expected):
    assert language_of(code) == expected


@pytest.mark.parametrize(
    "code, expected",
    [
        ("zh-TW", "zh-TW"),
        ("zh_TW", "zh-TW"),
        ("zh-Hant-TW", "zh-TW"),
        ("ZH-HK", "zh-HK"),
        ("zh-MO", "zh-HK"),
        ("zh-Hant", "zh-TW"),
        ("ZH-HANT", "zh-TW"),  # Traditional without a region: the default, Taiwan's (OpenCC)
        ("zt", "zh-TW"),  # LibreTranslate's code for it (Subtitle Edit's LibreTranslate.cs sends it)
        ("cmn_Hant", "cmn_Hant"),
        ("zho_Hant", "cmn_Hant"),  # a pack's own code: the model's own Traditional
        ("zh", "cmn_Hans"),
        ("zh-CN", "cmn_Hans"),
        ("yue", "yue"),
    ],
)
def test_what_a_client_asks_for_knows_taiwan_and_hong_kong(code, expected):
    assert requested(code) == Language("zh", expected)
    assert requested("en-US") == Language("en")


@pytest.mark.parametrize(
    "code, expected",
    [("zh_CN", "zh"), ("zho_Hans", "zh"), ("eng_Latn", "en"), ("EN-US", "en"), ("fil", "tl"), ("ast", "ast")],
)
def test_base_language_is_the_iso_639_1_code_where_there_is_one(code, expected):
    assert base_language(code) == expected


def test_opus_mt_s_collective_chinese_code_is_chinese():
    # opus-mt-tc-bible-big-zhx-en reads zhx (ISO 639-5: the Chinese languages); its pack says zh
    assert base_language("zhx") == "zh" and language_of("zhx") == Language("zh", "cmn_Hans")


def test_a_script_is_told_apart_from_a_region():
    assert split_script("zho_Hant") == ("zho", "Hant") and split_script("zh-Hans") == ("zh", "Hans")
    assert split_script("zh_CN") == ("zh", "") and split_script("en") == ("en", "")


@pytest.mark.parametrize(
    "code, scripts",
    [
        ("eng_Latn", ("LATIN",)),
        ("zh_CN", ("CJK",)),
        ("ru", ("CYRILLIC",)),
        ("ace_Arab", ("ARABIC",)),
        ("fr", ("LATIN",)),
    ],
)
def test_the_scripts_of_a_code_named_or_known(code, scripts):
    assert scripts_of(code) == scripts


def test_chinese_and_japanese_are_written_without_spaces():
    assert all(map(is_cjk_language, ("zh", "zh-CN", "cmn_Hans", "yue", "ja", "lzh")))
    assert not any(map(is_cjk_language, ("en", "ko", "eng_Latn", "vi")))


def test_names_are_read_from_codes_of_any_style():
    assert [english_name(c) for c in ("en_XX", "eng_Latn", "zho_Hant", "zh-TW", "ast", "xx")] == [
        "English",
        "English",
        "Chinese",
        "Chinese",
        "Asturian",
        None,
    ]


def test_chinese_written_anew_is_named_by_its_bcp_47_tag():
    tags = [variants.REWRITE[way][1] for way in ("cmn_Hans", "cmn_Hant", "zh-TW", "zh-HK")]
    assert (
        tags
        == ["zh-Hans", "zh-Hant", "zh-TW", "zh-HK"]
        == [BCP47[way] for way in ("cmn_Hans", "cmn_Hant", "zh-TW", "zh-HK")]
    )
