"""Our ONNX search must choose exactly the token ids transformers' generate() chooses (fp32 packs)."""

from __future__ import annotations

import pytest
import torch

from fanyi.engine.options import DecodeOptions
from fanyi.engine.translator import Translator
from fanyi.paths import assets_dir

SETTINGS = [
    DecodeOptions(beams=1),
    DecodeOptions(),  # the pack's defaults: num_beams 4 from generation_config.json
    DecodeOptions(beams=2),
    DecodeOptions(beams=3, length_penalty=0.6, early_stopping=True),
    DecodeOptions(beams=4, length_penalty=1.5, early_stopping="never"),
    DecodeOptions(beams=5, early_stopping=False, max_new_tokens=12),
    DecodeOptions(beams=1, max_length=9),
    DecodeOptions(beams=4, no_repeat_ngram_size=2),
    DecodeOptions(beams=1, no_repeat_ngram_size=3, repetition_penalty=1.4),
    DecodeOptions(beams=3, repetition_penalty=1.3),
    DecodeOptions(beams=2, min_length=6),
]
GENERATE_KWARGS = {
    "beams": "num_beams",
    "length_penalty": "length_penalty",
    "early_stopping": "early_stopping",
    "max_new_tokens": "max_new_tokens",
    "max_length": "max_length",
    "min_length": "min_length",
    "no_repeat_ngram_size": "no_repeat_ngram_size",
    "repetition_penalty": "repetition_penalty",
}


def _sentences(lang: str, count: int) -> list[str]:
    lines = [
        line
        for line in (assets_dir() / "corpus" / f"{lang}.txt").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    return lines[:count]


@pytest.fixture(scope="module")
def hf_model(tiny_hf_en_zh):
    from transformers import MarianMTModel, MarianTokenizer

    return MarianMTModel.from_pretrained(tiny_hf_en_zh).eval(), MarianTokenizer.from_pretrained(tiny_hf_en_zh)


def _generate(model, tokenizer, texts: list[str], options: DecodeOptions) -> list[list[int]]:
    kwargs = {hf: getattr(options, ours) for ours, hf in GENERATE_KWARGS.items() if getattr(options, ours) is not None}
    batch = tokenizer(texts, return_tensors="pt", padding=True)
    with torch.no_grad():
        out = model.generate(**batch, **kwargs)
    pad, eos = model.config.pad_token_id, model.config.eos_token_id
    result = []
    for row in out.tolist():
        row = row[1:]  # the decoder start token
        row = row[: row.index(eos) + 1] if eos in row else [t for t in row if t != pad]
        result.append(row)
    return result


@pytest.mark.parametrize("options", SETTINGS, ids=lambda o: repr(o).replace("DecodeOptions", ""))
def test_same_ids_as_generate_single_and_batched(tiny_translator: Translator, hf_model, options):
    model, tokenizer = hf_model
    texts = [f">>cmn_Hans<< {s}" for s in _sentences("en", 6)]
    sources = [tokenizer(t)["input_ids"] for t in texts]
    expected = _generate(model, tokenizer, texts, options)
    assert tiny_translator.generate_ids(sources, options) == expected
    assert [tiny_translator.generate_ids([s], options)[0] for s in sources] == [
        _generate(model, tokenizer, [t], options)[0] for t in texts
    ]


def test_outputs_are_not_degenerate(tiny_translator: Translator, hf_model):
    """Parity means little if every input gave the same output: the tiny model must depend on its input."""
    _, tokenizer = hf_model
    sources = [tokenizer(f">>cmn_Hans<< {s}")["input_ids"] for s in _sentences("en", 12)]
    outputs = tiny_translator.generate_ids(sources, DecodeOptions(beams=1))
    assert len({tuple(o[:5]) for o in outputs}) >= 6
    lengths = {len(o) for o in outputs}
    assert len(lengths) >= 3, "some outputs should end with eos before max_length"


def test_zh_en_pack_matches_generate(tiny_pack_zh_en, tiny_hf_zh_en):
    from transformers import MarianMTModel, MarianTokenizer

    model, tokenizer = (
        MarianMTModel.from_pretrained(tiny_hf_zh_en).eval(),
        MarianTokenizer.from_pretrained(tiny_hf_zh_en),
    )
    translator = Translator.open(tiny_pack_zh_en, threads=1)
    texts = _sentences("zh", 5)
    sources = [tokenizer(t)["input_ids"] for t in texts]
    for options in (DecodeOptions(beams=1), DecodeOptions()):
        assert translator.generate_ids(sources, options) == _generate(model, tokenizer, texts, options)


def test_text_translation_equals_decoded_generate(tiny_translator: Translator, hf_model):
    """translate() is generate() decoded, for a sentence the model does not loop on: a degenerate
    translation is decoded again with a guard (test_degenerate.py), and the tiny model loops on most."""
    model, tokenizer = hf_model
    sentence = _sentences("en", 21)[20]
    ids = _generate(model, tokenizer, [f">>cmn_Hans<< {sentence}"], DecodeOptions())[0]
    text = tokenizer.decode(ids, skip_special_tokens=True)
    assert tiny_translator.sentence_check(tiny_translator.encode(sentence)).verdict(ids, text) is None
    assert tiny_translator.translate(sentence) == text
