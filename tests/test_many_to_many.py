"""mBART-50, M2M100 and NLLB-200 packs: export, and exactly generate()'s tokens (fp32) with each
family's own generation defaults and the target language forced as the first token."""

from __future__ import annotations

import json

import pytest
import torch

from fanyi.engine.options import DecodeOptions
from fanyi.engine.translator import Translator
from fanyi.export.convert import export_pack
from fanyi.export.errors import ExportError
from fanyi.paths import assets_dir

FAMILIES = ("mbart50", "m2m100", "nllb")
LANGS = {"mbart50": ("en_XX", "zh_CN"), "m2m100": ("en", "zh"), "nllb": ("eng_Latn", "zho_Hans")}
MODEL_CLASS = {
    "mbart50": "MBartForConditionalGeneration",
    "m2m100": "M2M100ForConditionalGeneration",
    "nllb": "M2M100ForConditionalGeneration",
}
SETTINGS = [
    DecodeOptions(beams=1),
    DecodeOptions(),  # the family's defaults from generation_config.json
    DecodeOptions(beams=2),
    DecodeOptions(beams=3, length_penalty=0.6, early_stopping=True),
    DecodeOptions(beams=4, length_penalty=1.5, early_stopping="never"),
    DecodeOptions(beams=5, early_stopping=False, max_new_tokens=12),
    DecodeOptions(beams=1, max_length=9),
    DecodeOptions(beams=4, no_repeat_ngram_size=2),
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


def sentences(lang: str, count: int) -> list[str]:
    lines = (assets_dir() / "corpus" / f"{lang}.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip()][:count]


class Reference:
    """transformers' model and tokenizer of a family, set to translate source → target (`slow`: its slow
    tokenizer, the reference of a pack made from a folder without tokenizer.json)."""

    def __init__(self, folder, family: str, source: str, target: str, *, slow: bool = False):
        import transformers

        self.model = getattr(transformers, MODEL_CLASS[family]).from_pretrained(folder).eval()
        self.tokenizer = transformers.AutoTokenizer.from_pretrained(folder, use_fast=not slow)
        self.tokenizer.src_lang = source
        code_token = self.tokenizer.lang_code_to_token[target] if family == "m2m100" else target
        self.target_id = self.tokenizer.convert_tokens_to_ids(code_token)

    def ids(self, text: str) -> list[int]:
        return self.tokenizer(text)["input_ids"]

    def generate(self, texts: list[str], options: DecodeOptions) -> list[list[int]]:
        kwargs = {
            hf: getattr(options, ours) for ours, hf in GENERATE_KWARGS.items() if getattr(options, ours) is not None
        }
        batch = self.tokenizer(texts, return_tensors="pt", padding=True)
        with torch.no_grad():
            out = self.model.generate(**batch, forced_bos_token_id=self.target_id, **kwargs)
        pad, eos = self.model.config.pad_token_id, self.model.config.eos_token_id
        result = []
        for row in out.tolist():
            row = row[1:]  # the decoder start token
            result.append(row[: row.index(eos) + 1] if eos in row else [t for t in row if t != pad])
        return result


@pytest.fixture(scope="module", params=FAMILIES)
def family_setup(request, tiny_hf_many, tiny_many_pack):
    family = request.param
    source, target = LANGS[family]
    reference = Reference(tiny_hf_many(family), family, source, target)
    translator = Translator.open(tiny_many_pack(family), threads=1)
    return family, reference, translator, DecodeOptions(source=source, target=target)


def with_languages(options: DecodeOptions, languages: DecodeOptions) -> DecodeOptions:
    from dataclasses import replace

    return replace(options, source=languages.source, target=languages.target)


@pytest.mark.parametrize("options", SETTINGS, ids=lambda o: repr(o).replace("DecodeOptions", ""))
def test_same_ids_as_generate_single_and_batched(family_setup, options):
    family, reference, translator, languages = family_setup
    ours = with_languages(options, languages)
    texts = sentences("en", 6)
    sources = [reference.ids(t) for t in texts]
    assert [translator.encode(t, ours) for t in texts] == sources
    assert translator.generate_ids(sources, ours) == reference.generate(texts, options)
    assert [translator.generate_ids([s], ours)[0] for s in sources] == [
        reference.generate([t], options)[0] for t in texts
    ]


def test_outputs_start_with_the_target_language_and_depend_on_the_input(family_setup):
    """Parity means little if every input gave the same output."""
    _, reference, translator, languages = family_setup
    sources = [reference.ids(s) for s in sentences("en", 12)]
    outputs = translator.generate_ids(sources, with_languages(DecodeOptions(beams=1), languages))
    assert {o[0] for o in outputs} == {reference.target_id}
    assert len({tuple(o[:6]) for o in outputs}) >= 6
    assert len({len(o) for o in outputs}) >= 3, "some outputs should end with eos before max_length"


def test_other_directions_and_a_literal_pad_in_the_source(family_setup, tiny_hf_many):
    """Another language pair; and "<pad>" written in a text, which M2M100/NLLB positions skip."""
    family, _, translator, _ = family_setup
    target, source = LANGS[family]  # zh → en
    reference = Reference(tiny_hf_many(family), family, source, target)
    texts = [*sentences("zh", 3), "我们 <pad> 在这里 <pad><pad> 吗？"]
    options = DecodeOptions(source=source, target=target)
    for decode in (DecodeOptions(beams=1), DecodeOptions(beams=3)):
        ours = with_languages(decode, options)
        assert translator.generate_ids([reference.ids(t) for t in texts], ours) == reference.generate(texts, decode)


def single_sentences(count: int) -> list[str]:
    from fanyi.engine.segment import split_text

    return [s for s in sentences("en", 40) if sum(p.translate for p in split_text(s)) == 1][:count]


def test_text_translation_equals_decoded_generate(family_setup):
    """For sentences the model does not loop on: a degenerate one is decoded again with a guard
    (test_degenerate.py), and random models loop on many."""
    _, reference, translator, languages = family_setup
    normal = []
    for sentence in single_sentences(24):
        source = translator.encode(sentence, languages)
        ids = translator.generate_ids([source], languages)[0]
        if translator.sentence_check(source, languages).verdict(ids, translator.tokenizer.decode(ids)) is None:
            normal.append(sentence)
    assert normal  # the tiny M2M100 model loops on all but one of these
    for sentence in normal[:4]:
        ids = reference.generate([sentence], DecodeOptions())[0]
        expected = reference.tokenizer.decode(ids, skip_special_tokens=True)
        assert translator.translate(sentence, languages) == expected
        translator.clear_cache()
        assert "".join(translator.translate_stream(sentence, languages)) == expected


def test_languages_are_checked(family_setup):
    family, _, translator, languages = family_setup
    with pytest.raises(ValueError, match="name the source language"):
        translator.translate("Hello.", DecodeOptions(target=languages.target))
    with pytest.raises(ValueError, match="'xx_YY' is not offered"):
        translator.translate("Hello.", DecodeOptions(source=languages.source, target="xx_YY"))
    # without a target the pack's default (Chinese) is used
    assert translator.translate("Hello.", DecodeOptions(source=languages.source)) == translator.translate(
        "Hello.", languages
    )


def test_manifest_names_the_family_and_its_languages(tiny_many_pack):
    expected_counts = {"mbart50": 52, "m2m100": 100, "nllb": 202}
    for family in FAMILIES:
        manifest = json.loads((tiny_many_pack(family) / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["architecture"]["type"] == family
        assert manifest["architecture"]["pre_norm"] is True
        languages = manifest["languages"]
        assert len(languages["source"]) == len(languages["target"]) == expected_counts[family]
        assert manifest["default_target"] == LANGS[family][1]
        assert {manifest["source_lang"], manifest["target_lang"]} == {"mul"}


def test_int8_packs_translate(tiny_many_pack, tiny_hf_many):
    for family in FAMILIES:
        translator = Translator.open(tiny_many_pack(family, "int8"), threads=1)
        assert translator.quantization == "int8"
        source, target = LANGS[family]
        assert translator.translate("Good morning, how are you?", DecodeOptions(source=source, target=target))


def test_export_refuses_other_architectures(tmp_path, tiny_hf_many):
    t5 = tmp_path / "t5"
    t5.mkdir()
    (t5 / "config.json").write_text(json.dumps({"model_type": "t5", "architectures": ["T5ForConditionalGeneration"]}))
    with pytest.raises(ExportError, match="T5ForConditionalGeneration is not supported"):
        export_pack(t5, tmp_path / "out")
    # an mBART folder with mBART-25's tokenizer is not a many-to-many mBART-50 one
    cc25 = tmp_path / "cc25"
    cc25.mkdir()
    (cc25 / "config.json").write_text(
        json.dumps({"model_type": "mbart", "architectures": ["MBartForConditionalGeneration"]})
    )
    (cc25 / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "MBartTokenizer"}))
    with pytest.raises(ExportError, match="MBartTokenizer tokenizer is not supported"):
        export_pack(cc25, tmp_path / "out")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("family", ["mbart50", "nllb"])
def test_a_folder_with_neither_tokenizer_json_nor_sentencepiece_model_is_refused_in_one_line(
    tmp_path, tiny_hf_many, family
):
    """Without tokenizer.json the slow tokenizer's files are read (tests/test_slow_tokenizer_packs.py); without
    those either there is no tokenizer."""
    import shutil

    folder = shutil.copytree(tiny_hf_many(family), tmp_path / f"{family}-no-tokenizer")
    (folder / "tokenizer.json").unlink()
    (folder / "sentencepiece.bpe.model").unlink()
    with pytest.raises(ExportError, match="has neither tokenizer.json nor sentencepiece.bpe.model") as err:
        export_pack(folder, tmp_path / "pack")
    assert "\n" not in str(err.value)
    assert not (tmp_path / "pack").exists()


@pytest.mark.parametrize("family", FAMILIES)
def test_validate_passes_for_fp32_packs(family, tiny_many_pack, tiny_hf_many):
    from fanyi.export.validate import validate_pack

    report = validate_pack(tiny_many_pack(family), tiny_hf_many(family), sentences("en", 4))
    assert report.passed, report.text()
    assert report.identical_outputs == report.sentences == 4


def test_export_refuses_a_tokenizer_json_the_runtime_cannot_stream(tmp_path, tiny_hf_many):
    import shutil

    folder = shutil.copytree(tiny_hf_many("mbart50"), tmp_path / "odd-decoder")
    config = json.loads((folder / "tokenizer.json").read_text(encoding="utf-8"))
    config["decoder"] = {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}
    (folder / "tokenizer.json").write_text(json.dumps(config), encoding="utf-8")
    with pytest.raises(ExportError, match="decoder 'ByteLevel' is not supported"):
        export_pack(folder, tmp_path / "out")
    assert not (tmp_path / "out").exists()
