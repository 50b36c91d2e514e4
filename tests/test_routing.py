"""The router (fanyi.routing), without Qt and without models: packs are PackInfo rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from fanyi.engine.options import DecodeOptions
from fanyi.languages import AUTO
from fanyi.library.installed import PackInfo
from fanyi.routing import (
    Direction,
    NoRoute,
    Pair,
    choose,
    decode_options,
    default_pack,
    pairs,
    reverse,
    rewrite,
    route,
    saved_languages,
    variant,
    ways_of_writing,
    written,
)

ENGLISH = "The weather is fine today."
CHINESE = "今天天气很好。"
OPUS_TOKENS = {"cmn_Hans": ">>cmn_Hans<<", "cmn_Hant": ">>cmn_Hant<<", "yue": ">>yue<<"}


def one_way(name: str, source: str, target: str, tokens: dict | None = None) -> PackInfo:
    return PackInfo(
        name,
        Path("/packs") / name,
        source,
        target,
        1,
        "int8",
        False,
        tokens or {},
        default_target="cmn_Hans" if tokens else None,
    )


def many(name: str, codes: tuple[str, ...], default: str) -> PackInfo:
    return PackInfo(
        name,
        Path("/packs") / name,
        "mul",
        "mul",
        1,
        "int8",
        False,
        {},
        languages=codes,
        source_languages=codes,
        default_target=default,
    )


EN_ZH, ZH_EN, EN_ZH_2, ZH_JA = (
    one_way("en-zh", "en", "zh", OPUS_TOKENS),
    one_way("zh-en", "zh", "en"),
    one_way("en-zh-2", "en", "zh"),
    one_way("zh-ja", "zh", "ja"),
)
NLLB = many(
    "nllb", ("ace_Arab", "ace_Latn", "eng_Latn", "fra_Latn", "rus_Cyrl", "yue_Hant", "zho_Hans", "zho_Hant"), "zho_Hans"
)
MBART = many("mbart", ("en_XX", "fr_XX", "zh_CN"), "zh_CN")


# --- a language pair: the local API and the command line ------------------------------------------


def test_one_way_packs_by_language_pair_and_chinese_variant():
    packs = [EN_ZH, ZH_EN]
    assert route(packs, "en", "zh-Hant") == route(packs, "EN", "ZH-HANT") == route(packs, "en", "zh-TW")
    found = route(packs, "en", "cmn_Hant")  # the model's own Traditional
    assert found.direction == Direction(EN_ZH) and found.variant == "cmn_Hant" and found.confidence == 1.0
    assert route(packs, "en", "zh-HK").variant == "zh-HK"
    assert route(packs, "zh", "en").direction == Direction(ZH_EN) and route(packs, "zh", "en").variant is None
    assert route(packs, "en", "en").direction is None  # already in the target language: it stays as it is
    with pytest.raises(NoRoute, match="no installed model translates into fr"):
        route(packs, "en", "fr")
    with pytest.raises(NoRoute, match="no installed model translates ja into zh"):
        route(packs, "ja", "zh")
    with pytest.raises(NoRoute, match="no translation model is installed"):
        route([], "en", "zh")


def test_auto_detects_the_source_and_the_other_language():
    packs = [EN_ZH, ZH_EN]
    found = route(packs, AUTO, AUTO, CHINESE)
    assert (found.direction, found.source) == (Direction(ZH_EN), "zh") and 0 < found.confidence <= 1
    assert route(packs, AUTO, "zh", ENGLISH).direction == Direction(EN_ZH)
    assert route(packs, AUTO, "zh", CHINESE).direction is None  # no model: written in Simplified (below)
    with pytest.raises(NoRoute, match="translates from zh"):
        route([EN_ZH], AUTO, AUTO, CHINESE)


def test_many_to_many_packs_are_reached_in_their_own_codes():
    found = route([NLLB], "en", "zho_Hant")
    assert found.direction == Direction(NLLB, "eng_Latn", "zho_Hant") and found.variant is None
    # Taiwan's words: the pack's Simplified, converted
    found = route([NLLB], "en", "zh-Hant")
    assert found.direction == Direction(NLLB, "eng_Latn", "zho_Hans") and found.variant == "zh-TW"
    assert route([NLLB], "zh", "en").direction == Direction(NLLB, "zho_Hans", "eng_Latn")  # bare zh: Simplified
    assert route([NLLB], "en", "yue").direction.target == "yue_Hant"
    assert route([NLLB], AUTO, AUTO, CHINESE).direction == Direction(NLLB, "zho_Hans", "eng_Latn")
    assert route([NLLB], AUTO, AUTO, ENGLISH).direction == Direction(NLLB, "eng_Latn", "zho_Hans")  # the default
    assert route([NLLB], AUTO, "fr", "Доброе утро").direction == Direction(NLLB, "rus_Cyrl", "fra_Latn")
    # one language in two scripts: the text's
    assert route([NLLB], "ace", "en", "بڠ").direction.source == "ace_Arab"
    assert route([NLLB], "ace", "en", "Bang").direction.source == "ace_Latn"
    # the pack's own codes, as the command line may give them
    assert route([MBART], "fr_XX", "zh_CN").direction == Direction(MBART, "fr_XX", "zh_CN")
    # a pack with one way of writing Chinese writes that one, converted where Traditional is asked for
    assert route([MBART], "en", "zh-HK") == route([MBART], "en", "zh-MO")
    found = route([MBART], "en", "zh-HK")
    assert found.direction == Direction(MBART, "en_XX", "zh_CN") and found.variant == "zh-HK"
    with pytest.raises(NoRoute, match=r"mbart cannot write cmn_Hant \(it offers: cmn_Hans, zh-TW, zh-HK\)"):
        route([MBART], "en", "cmn_Hant")  # the model's own Traditional: it has none
    with pytest.raises(NoRoute, match="translates de into zh"):
        route([NLLB, MBART], "de", "zh")


def test_a_pack_listing_its_languages_in_bcp47_routes_the_same():
    """As a translation LLM pack may list them: a `languages` section with codes of another style."""
    llm = many("llm", ("en", "fr", "ja", "zh-Hans", "zh-Hant"), "zh-Hans")
    assert route([llm], "en", "zh-TW").direction == Direction(llm, "en", "zh-Hans")  # converted by OpenCC
    assert route([llm], "en", "zh-TW").variant == "zh-TW"
    assert route([llm], "en", "zho_Hant").direction == Direction(llm, "en", "zh-Hant")  # the model's own
    assert route([llm], AUTO, AUTO, CHINESE).direction == Direction(llm, "zh-Hans", "en")
    assert choose(CHINESE, Direction(llm, "en", "zh-Hans"), [llm]).direction == Direction(llm, "zh-Hans", "en")


def test_a_variant_the_pack_cannot_write_is_refused_or_another_pack_writes_it():
    no_hant = many("no-hant", ("eng_Latn", "zho_Hans", "yue_Hant"), "zho_Hans")
    with pytest.raises(NoRoute, match="the model no-hant cannot write cmn_Hant"):
        route([no_hant], "en", "cmn_Hant")
    assert route([no_hant, NLLB], "en", "cmn_Hant").direction.pack == NLLB
    assert route([no_hant], "en", "zh-Hant").variant == "zh-TW"  # its Simplified, converted


def test_packs_in_memory_then_one_way_packs_then_the_order_installed():
    assert route([EN_ZH, EN_ZH_2], "en", "zh").direction.pack == EN_ZH
    assert route([EN_ZH, EN_ZH_2], "en", "zh", prefer=[EN_ZH_2.path]).direction.pack == EN_ZH_2
    assert route([NLLB, EN_ZH_2], "en", "zh").direction.pack == EN_ZH_2
    assert route([NLLB, EN_ZH_2], "en", "zh", prefer=[NLLB.path]).direction.pack == NLLB


def test_pairs_list_every_direction_once_with_its_ways_of_writing_chinese():
    listed = pairs([EN_ZH, ZH_EN, MBART])
    every = ("cmn_Hans", "cmn_Hant", "zh-TW", "zh-HK", "yue")
    assert Pair("en", "zh", every) in listed and Pair("zh", "en", ()) in listed
    assert Pair("fr", "zh", ("cmn_Hans", "zh-TW", "zh-HK")) in listed and Pair("zh", "fr", ()) in listed
    assert len(listed) == len({(p.source, p.target) for p in listed}) == 6
    assert Pair("en", "zh", every) in pairs([NLLB])
    assert Pair("en", "zh", ("cmn_Hans", "zh-TW", "zh-HK")) in pairs([EN_ZH_2])  # one-way, no target tokens


# --- the user's settings -----------------------------------------------------------------------------


def test_the_default_pack_is_the_users_else_english_to_chinese_else_the_first():
    assert default_pack([ZH_EN, EN_ZH, EN_ZH_2], "en-zh-2") == EN_ZH_2
    assert default_pack([ZH_EN, EN_ZH, EN_ZH_2]) == EN_ZH
    assert default_pack([ZH_JA, ZH_EN], "gone") == ZH_JA
    assert default_pack([]) is None


def test_saved_languages_variant_and_options():
    assert saved_languages(NLLB, {}) == ("eng_Latn", "zho_Hans")
    assert saved_languages(NLLB, {"nllb": ["fra_Latn", "yue_Hant"]}) == ("fra_Latn", "yue_Hant")
    assert saved_languages(NLLB, {"nllb": ["xx", "yy"]}) == ("eng_Latn", "zho_Hans")  # no longer offered
    assert saved_languages(EN_ZH, {}) == (None, None)
    assert variant(EN_ZH, "cmn_Hant") == "cmn_Hant" and variant(EN_ZH, "nope") == "cmn_Hans"
    assert variant(ZH_EN, "cmn_Hant") is None
    base = DecodeOptions(beams=2)
    assert decode_options(Direction(EN_ZH), "yue", base) == DecodeOptions(beams=2, target="yue")
    assert decode_options(Direction(NLLB, "eng_Latn", "zho_Hant"), "yue") == DecodeOptions(
        source="eng_Latn", target="zho_Hant"
    )


# --- automatic direction: the window and the popup ---------------------------------------------------


def test_the_reverse_pack_is_preferred_then_the_same_target_then_the_default():
    packs = [EN_ZH, ZH_JA, ZH_EN, EN_ZH_2]
    choice = choose(CHINESE, Direction(EN_ZH), packs)
    assert choice.direction.pack == ZH_EN and choice.detected == "zh" and choice.supported
    assert choose(ENGLISH, Direction(ZH_EN), packs).direction.pack == EN_ZH  # the first
    assert choose(ENGLISH, Direction(ZH_EN), packs, default="en-zh-2").direction.pack == EN_ZH_2
    assert choose(ENGLISH, Direction(EN_ZH_2), packs).direction.pack == EN_ZH_2  # stays
    assert choose("12345", Direction(ZH_EN), packs).detected is None  # nothing to detect
    unsupported = choose(ENGLISH, Direction(ZH_JA), [ZH_JA, ZH_EN])
    assert unsupported.direction.pack == ZH_JA and unsupported.detected == "en" and not unsupported.supported
    # only languages some pack knows are told: English is not one of zh→ja's
    assert choose(ENGLISH, Direction(ZH_JA), [ZH_JA]).detected is None


def test_a_many_to_many_pack_turns_round_or_keeps_its_target():
    start = Direction(NLLB, "eng_Latn", "zho_Hans")
    assert choose(ENGLISH, start, [NLLB]).direction == start
    assert choose(CHINESE, start, [NLLB]).direction == Direction(NLLB, "zho_Hans", "eng_Latn")
    assert choose("Доброе утро", start, [NLLB]).direction == Direction(NLLB, "rus_Cyrl", "zho_Hans")
    assert reverse(start, [NLLB]) == Direction(NLLB, "zho_Hans", "eng_Latn")
    assert reverse(Direction(EN_ZH), [EN_ZH, ZH_EN]) == Direction(ZH_EN)
    assert reverse(Direction(ZH_JA), [EN_ZH, ZH_JA]) is None


# --- Taiwan's and Hong Kong's Traditional (OpenCC) --------------------------------------------------


def test_the_ways_of_writing_offered_follow_the_direction():
    assert ways_of_writing(Direction(EN_ZH)) == ["cmn_Hans", "zh-TW", "zh-HK", "cmn_Hant", "yue"]
    assert ways_of_writing(Direction(EN_ZH_2)) == ["cmn_Hans", "zh-TW", "zh-HK"]  # no tokens: Simplified
    assert ways_of_writing(Direction(ZH_EN)) == []
    assert ways_of_writing(Direction(NLLB, "eng_Latn", "zho_Hans")) == ["cmn_Hans", "zh-TW", "zh-HK"]
    assert ways_of_writing(Direction(NLLB, "eng_Latn", "zho_Hant")) == []  # the model's own, chosen in the picker
    assert ways_of_writing(Direction(NLLB, "zho_Hans", "eng_Latn")) == []
    hant_only = one_way("en-zht", "en", "zh", {"cmn_Hant": ">>cmn_Hant<<", "yue": ">>yue<<"})
    assert ways_of_writing(Direction(hant_only)) == ["cmn_Hant", "yue"]  # nothing Simplified to convert


def test_a_converted_variant_asks_for_simplified_and_converts_it():
    assert decode_options(Direction(EN_ZH), "zh-TW") == DecodeOptions(target="cmn_Hans", convert="zh-TW")
    assert decode_options(Direction(EN_ZH), "cmn_Hant") == DecodeOptions(target="cmn_Hant")
    assert decode_options(Direction(EN_ZH_2), "zh-HK") == DecodeOptions(convert="zh-HK")
    assert decode_options(Direction(NLLB, "eng_Latn", "zho_Hans"), "zh-HK") == DecodeOptions(
        source="eng_Latn", target="zho_Hans", convert="zh-HK"
    )
    # not Chinese, or Chinese written another way: nothing to convert
    assert decode_options(Direction(NLLB, "eng_Latn", "fra_Latn"), "zh-TW").convert is None
    assert decode_options(Direction(NLLB, "eng_Latn", "zho_Hant"), "zh-TW").convert is None
    assert decode_options(Direction(ZH_EN), "zh-TW") == DecodeOptions()
    assert written(Direction(EN_ZH), "yue") == "yue" and written(Direction(EN_ZH_2), "yue") == "cmn_Hans"
    assert written(Direction(ZH_EN), "zh-TW") is None


# --- Chinese asked for in Chinese: OpenCC alone, no model ------------------------------------------


@pytest.mark.parametrize(
    "target, way",
    [
        ("zh-TW", "zh-TW"),
        ("ZH-HANT", "zh-TW"),  # DeepL's: the default Traditional
        ("zh-HK", "zh-HK"),
        ("zh", "cmn_Hans"),
        ("zh-Hans", "cmn_Hans"),
        ("cmn_Hant", "cmn_Hant"),  # a pack's own code: the characters alone
        ("yue", None),  # Cantonese is a language, not a script: the text stays as it is
    ],
)
def test_a_chinese_text_asked_for_in_chinese_is_written_anew_without_a_model(target, way):
    for source in (AUTO, "zh", "zh-Hant"):
        found = route([EN_ZH, ZH_EN], source, target, CHINESE)
        assert (found.direction, found.source, found.rewrite) == (None, "zh", way)
    assert route([NLLB], AUTO, target, CHINESE).rewrite == way  # a many-to-many pack asks no model either
    assert route([EN_ZH], AUTO, target, ENGLISH).rewrite is None  # English is translated


@pytest.mark.parametrize("packs", [[], [ZH_EN]], ids=["no model installed", "no pack writes Chinese"])
def test_chinese_asked_for_in_chinese_needs_no_model_at_all(packs):
    """OpenCC alone: with no model installed, or none that writes Chinese, 简→繁 and 繁→简 still work."""
    for source, target, way in ((AUTO, "zh-TW", "zh-TW"), ("zh", "zh-HK", "zh-HK"), (AUTO, "zh-Hans", "cmn_Hans")):
        found = route(packs, source, target, CHINESE)
        assert (found.direction, found.source, found.rewrite) == (None, "zh", way)
    assert route(packs, AUTO, "zh-TW", f"{CHINESE} OK").rewrite == "zh-TW"  # mostly Han: Chinese
    for source, text in ((AUTO, ENGLISH), (AUTO, "12345"), ("en", CHINESE), (AUTO, "こんにちは")):
        with pytest.raises(NoRoute):  # English (or anything not told Chinese) needs a model that writes Chinese
            route(packs, source, "zh-TW", text)


def test_the_window_writes_chinese_anew_where_its_direction_writes_chinese():
    """Chinese typed while the direction is English → Chinese: written the way the user chose, by OpenCC."""
    assert rewrite(Direction(EN_ZH), "zh", "zh-TW") == "zh-TW"
    assert rewrite(Direction(EN_ZH), "zh", "cmn_Hans") == "cmn_Hans"
    assert rewrite(Direction(EN_ZH), "zh", "cmn_Hant") == "cmn_Hant"
    assert rewrite(Direction(EN_ZH), "zh", "yue") is None  # Cantonese: the model's own
    assert rewrite(Direction(EN_ZH_2), "zh", "zh-HK") == "zh-HK"
    assert rewrite(Direction(EN_ZH), "en", "zh-TW") is None and rewrite(Direction(EN_ZH), None, "zh-TW") is None
    assert rewrite(Direction(ZH_EN), "zh", "zh-TW") is None  # into English: a translation
    assert rewrite(Direction(NLLB, "eng_Latn", "zho_Hant"), "zho_Hans", "zh-TW") == "cmn_Hant"
    assert rewrite(Direction(NLLB, "eng_Latn", "zho_Hans"), "zho_Hant", "zh-HK") == "zh-HK"
    assert rewrite(Direction(NLLB, "eng_Latn", "yue_Hant"), "zho_Hans", "zh-TW") is None
