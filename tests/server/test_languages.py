"""Language codes as clients send them (``auto`` is told by fanyi.langid: tests/test_langid.py)."""

from __future__ import annotations

import pytest

from fanyi.server.languages import AUTO, Language, UnknownLanguage, parse


@pytest.mark.parametrize(
    "code, expected",
    [
        ("zh", Language("zh", "cmn_Hans")),
        ("ZH", Language("zh", "cmn_Hans")),
        ("zh-Hans", Language("zh", "cmn_Hans")),
        ("ZH-HANS", Language("zh", "cmn_Hans")),
        ("zh-CN", Language("zh", "cmn_Hans")),
        ("zh_cn", Language("zh", "cmn_Hans")),
        # Traditional: Taiwan's or Hong Kong's (the pack's Simplified, converted by OpenCC); a bare zh-Hant is
        # Taiwan's; a pack's own code the model's own
        ("zh-Hant", Language("zh", "zh-TW")),
        ("ZH-HANT", Language("zh", "zh-TW")),
        ("zh-TW", Language("zh", "zh-TW")),
        ("zh-HK", Language("zh", "zh-HK")),
        ("zh-Hant-TW", Language("zh", "zh-TW")),
        ("yue", Language("zh", "yue")),
        ("zh-yue", Language("zh", "yue")),
        ("cmn_Hant", Language("zh", "cmn_Hant")),
        ("en", Language("en")),
        ("EN-US", Language("en")),
        ("en-GB", Language("en")),
        ("pt-BR", Language("pt")),
        ("auto", Language(AUTO)),
        ("AUTO", Language(AUTO)),
    ],
)
def test_parse(code, expected):
    assert parse(code) == expected


@pytest.mark.parametrize("code", ["", "z", "zh/../x", "en us", "<script>"])
def test_parse_refuses_what_is_no_code(code):
    with pytest.raises(UnknownLanguage):
        parse(code)
