"""fanyi.langid: the script decides between scripts, py3langid within one, a preference breaks ties."""

from __future__ import annotations

import pytest

from fanyi import langid
from fanyi.langid import Detection, detect


def test_script_tells_chinese_from_english():
    assert detect("今天天气很好。", ["en", "zh"]) == ("zh", 1.0)
    assert detect("The weather is fine today.", ["zh", "en"]) == ("en", 1.0)
    assert detect("1234 !!!", ["en", "zh"]) == Detection("en", 0.0)  # no letters: the first candidate
    assert detect("1234 !!!", ["en", "zh"], prefer=["zh"]).language == "zh"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I love 北京 very much", "en"),
        ("We visited 北京大学 and 清华 with my friends yesterday", "en"),
        ("请把这个 pull request merge 一下", "zh"),  # by plain letter count this would be English
        ("我今天用 ChatGPT 写了一段代码", "zh"),
        ("OK", "en"),
        ("好", "zh"),
    ],
)
def test_mixed_text_goes_to_the_majority(text, expected):
    language, share = detect(text, ["en", "zh"])
    assert language == expected and 0.5 <= share <= 1.0


def test_codes_of_every_family_are_read_for_their_script():
    assert detect("Привет, как дела?", ["eng_Latn", "rus_Cyrl", "zho_Hans"]).language == "rus_Cyrl"
    assert detect("你好，世界", ["en_XX", "zh_CN", "ru_RU"]).language == "zh_CN"
    assert detect("こんにちは、世界の皆さん", ["zh", "ja", "en"]).language == "ja"  # kana besides Han
    assert detect("مرحبا بالعالم", ["en", "ar", "zh"]).language == "ar"


def test_languages_of_one_script_are_told_apart_by_ngrams():
    candidates = ["en_XX", "fr_XX", "de_DE", "es_XX", "zh_CN"]
    assert detect("Le chat dort sur le canapé depuis ce matin.", candidates).language == "fr_XX"
    assert detect("Der Hund schläft seit heute Morgen auf dem Sofa.", candidates).language == "de_DE"
    assert detect("El perro duerme en el sofá desde esta mañana.", candidates).language == "es_XX"
    assert detect("The dog has been sleeping on the sofa since this morning.", candidates).language == "en_XX"
    assert detect("今天的天气很好", ["jpn_Jpan", "zho_Hans", "kor_Hang"]).language == "zho_Hans"


def test_a_tie_keeps_the_preferred_language_on_short_text_and_same_language_codes():
    assert detect("Hallo", ["en", "de", "nl"], prefer=["de"]).language == "de"
    assert detect("Hallo", ["en", "de", "nl"], prefer=["nl"]).language == "nl"
    # one language in two scripts that the text does not tell apart: the preferred one
    assert detect("我们今天去公园散步吧", ["zho_Hans", "zho_Hant"], prefer=["zho_Hant"]).language == "zho_Hant"


def test_without_waiting_for_the_model_a_tie_goes_to_the_preferred(monkeypatch):
    monkeypatch.setattr(langid, "_model", None)
    langid._model_lock.acquire()  # another thread is loading it
    try:
        text = "Le chat dort sur le canapé depuis ce matin."
        assert detect(text, ["en", "fr"], prefer=["en"], block=False).language == "en"
    finally:
        langid._model_lock.release()
    assert detect(text, ["en", "fr"], prefer=["en"]).language == "fr"


def test_a_caller_that_must_not_wait_never_loads_the_model_in_its_own_thread(monkeypatch):
    monkeypatch.setattr(langid, "_model", None)
    started = []
    monkeypatch.setattr(langid, "preload", lambda: started.append(True))
    text = "Le chat dort sur le canapé depuis ce matin."
    assert detect(text, ["en", "fr"], prefer=["en"], block=False).language == "en"
    assert started == [True] and langid._model is None


def test_every_chinese_language_is_written_in_han():
    for code in ("zh", "yue", "lzh", "gan", "hak", "nan"):
        assert detect("今天天气很好", ["en", code]).language == code


def test_only_the_first_characters_are_read(monkeypatch):
    monkeypatch.setattr(langid.limits, "DETECT_SAMPLE_CHARS", 10)
    assert detect("English text " + "中文" * 100, ["en", "zh"]).language == "en"


def test_needs_ngrams_when_two_candidates_share_a_script():
    assert not langid.needs_ngrams(["en", "zh"])
    assert langid.needs_ngrams(["en_XX", "fr_XX", "zh_CN"])
