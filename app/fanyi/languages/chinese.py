"""The ways of writing Chinese, by one code each, and the codes and names each protocol and reader uses.

A pack writes Chinese one of a few ways, named as OPUS-MT's target tokens name them (``>>cmn_Hans<<``):
``SIMPLIFIED`` (简体), ``TRADITIONAL`` (the model's own 繁體), ``CANTONESE`` (粤语). Taiwan's and Hong
Kong's Traditional (``CONVERTED``) are a pack's Simplified converted by OpenCC with that region's words
(fanyi.variants). A request for Traditional without a region (zh-Hant, DeepL's ZH-HANT) gets
``DEFAULT_TRADITIONAL``: Taiwan's, converted, rather than the model's own ``>>cmn_Hant<<`` output
(docs/traditional-chinese.md says why, and what was and was not measured).
"""

from __future__ import annotations

SIMPLIFIED, TRADITIONAL, CANTONESE = "cmn_Hans", "cmn_Hant", "yue"
TAIWAN, HONG_KONG = "zh-TW", "zh-HK"  # Simplified output converted by OpenCC
CONVERTED = (TAIWAN, HONG_KONG)
# how Chinese is written: as packs' target tokens name it, and the two a pack's Simplified is converted into
VARIANTS = (SIMPLIFIED, TRADITIONAL, TAIWAN, HONG_KONG, CANTONESE)
DEFAULT_TRADITIONAL = TAIWAN

# The BCP 47 tag of each way: what LibreTranslate's clients send and get, and what names a result (an
# output's file name, a document's lang attributes)
BCP47 = {SIMPLIFIED: "zh-Hans", TRADITIONAL: "zh-Hant", TAIWAN: "zh-TW", HONG_KONG: "zh-HK", CANTONESE: "yue"}
# DeepL has one Traditional (and no Cantonese): what its ZH-HANT asks for
DEEPL = {SIMPLIFIED: "ZH-HANS", DEFAULT_TRADITIONAL: "ZH-HANT"}
ENGLISH_VARIANT_NAMES = {
    SIMPLIFIED: "Chinese (Simplified)",
    TRADITIONAL: "Chinese (Traditional)",
    CANTONESE: "Cantonese",
    TAIWAN: "Chinese (Traditional, Taiwan)",
    HONG_KONG: "Chinese (Traditional, Hong Kong)",
}
# As Chinese readers name them (never translated), in the order the app offers them: 台灣正體 is how Taiwan
# names its standard script; the model's own Traditional is told apart as 模型繁體.
VARIANT_NAMES = {
    SIMPLIFIED: "简体",
    TAIWAN: "台灣正體",
    HONG_KONG: "香港繁體",
    TRADITIONAL: "模型繁體",
    CANTONESE: "粤语",
}
SHORT_VARIANT_NAMES = {
    SIMPLIFIED: "简",
    TAIWAN: "台",
    HONG_KONG: "港",
    TRADITIONAL: "繁",
    CANTONESE: "粤",
}  # the popup's

# BCP 47 subtags (lower case) that say how Chinese is written: a script, or a region that writes one
VARIANT_OF_SUBTAG = {
    "hans": SIMPLIFIED,
    "cn": SIMPLIFIED,
    "sg": SIMPLIFIED,
    "my": SIMPLIFIED,
    "hant": TRADITIONAL,
    "tw": TRADITIONAL,
    "hk": TRADITIONAL,
    "mo": TRADITIONAL,
    "yue": CANTONESE,
}
# regions whose Traditional a client's zh-TW, zh-HK (zh-Hant-TW …, zh-MO) asks for
REGION_OF_SUBTAG = {"tw": TAIWAN, "hk": HONG_KONG, "mo": HONG_KONG}
