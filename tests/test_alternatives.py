"""The beam's n-best list (LibreTranslate's "alternatives"): the same hypotheses, in the same order, as
transformers' generate(num_return_sequences=k) on the same weights."""

from __future__ import annotations

import pytest
import torch

from fanyi.engine.options import DecodeOptions
from fanyi.engine.translator import Translator, _drain
from fanyi.paths import assets_dir

BEAMS = 4


def _sentences(count: int) -> list[str]:
    lines = (assets_dir() / "corpus" / "en.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip()][:count]


@pytest.fixture(scope="module")
def hf_model(tiny_hf_en_zh):
    from transformers import MarianMTModel, MarianTokenizer

    return MarianMTModel.from_pretrained(tiny_hf_en_zh).eval(), MarianTokenizer.from_pretrained(tiny_hf_en_zh)


def test_the_ranked_hypotheses_are_generates_n_best(tiny_translator: Translator, hf_model):
    model, tokenizer = hf_model
    texts = [f">>cmn_Hans<< {s}" for s in _sentences(5)]
    sources = [tokenizer(t)["input_ids"] for t in texts]
    ranked: dict[int, list[list[int]]] = {}
    best = _drain(tiny_translator.decode_ids(sources, DecodeOptions(beams=BEAMS), ranked=ranked))
    batch = tokenizer(texts, return_tensors="pt", padding=True)
    with torch.no_grad():
        out = model.generate(**batch, num_beams=BEAMS, num_return_sequences=BEAMS)
    eos, pad = model.config.eos_token_id, model.config.pad_token_id
    expected = [
        [
            row[1 : row.index(eos) + 1] if eos in row else [t for t in row[1:] if t != pad]
            for row in out.tolist()[i * BEAMS : (i + 1) * BEAMS]
        ]
        for i in range(len(texts))
    ]
    for row, hypotheses in sorted(ranked.items()):
        assert hypotheses[0] == best[row]
        assert hypotheses == expected[row][: len(hypotheses)] and len(hypotheses) >= 2


def test_alternatives_are_the_next_best_translations_without_repeats(tiny_translator: Translator):
    options = DecodeOptions(target="cmn_Hans")
    text = "The weather is fine today."  # one sentence: one part
    alternatives = tiny_translator.alternatives(text, 3, options)
    assert 1 <= len(alternatives) <= 3 and len(set(alternatives)) == len(alternatives)
    ranked: dict[int, list[list[int]]] = {}
    _drain(
        tiny_translator.decode_ids(
            [tiny_translator.encode(text, options)], DecodeOptions(target="cmn_Hans", beams=4), ranked=ranked
        )
    )
    assert alternatives[0] == tiny_translator.tokenizer.decode(ranked[0][1])
