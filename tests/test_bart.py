"""BART summarization packs (facebook/bart-large-cnn, sshleifer/distilbart-cnn-12-6): made without torch from
tiny random models that keep every option of the released config.json, they give exactly transformers'
summaries — generate() with the summarization pipeline's settings (beam 4, length penalty 2.0, 56 to 142
tokens, no repeated 3-grams, early stopping, <s> forced first and </s> last), and the pipeline's text."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from fanyi.engine.options import DecodeOptions
from fanyi.engine.translator import Translator
from fanyi.export.convert import export_pack
from fanyi.paths import assets_dir

KINDS = ("bart-large-cnn", "distilbart-cnn-12-6")
SUMMARY = DecodeOptions(summary=True)

EXPORT_WITHOUT_TORCH = textwrap.dedent(
    """
    import importlib.abc, sys
    class Refuse(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("torch", "transformers"):
                raise ImportError(f"{name} is not importable in this test")
            return None
    sys.meta_path.insert(0, Refuse())
    from fanyi.cli import main
    assert main(["export", sys.argv[1], sys.argv[2], "--quantize", sys.argv[3]]) == 0
    assert not {"torch", "transformers"} & set(sys.modules), sorted(sys.modules)
    """
)


def articles(count: int, lines: int = 4, start: int = 0) -> list[str]:
    """Short 'articles' of a few corpus lines each (90-120 tokens of the tiny tokenizer)."""
    corpus = [line for line in (assets_dir() / "corpus" / "en.txt").read_text(encoding="utf-8").splitlines() if line]
    return [" ".join(corpus[i : i + lines]) for i in range(start, start + count * lines, lines)]


class Reference:
    """transformers' summarization pipeline over the tiny folder: its tokenizer, prefix and generation config."""

    def __init__(self, folder: Path, *, use_fast: bool = True):
        from transformers import AutoTokenizer, BartForConditionalGeneration, pipeline

        self.tokenizer = AutoTokenizer.from_pretrained(folder, use_fast=use_fast)
        self.model = BartForConditionalGeneration.from_pretrained(folder).eval()
        self.pipeline = pipeline("summarization", model=self.model, tokenizer=self.tokenizer)
        self.prefix = self.pipeline.prefix or ""

    def ids(self, text: str) -> list[int]:
        return self.tokenizer(self.prefix + text)["input_ids"]

    def generate(self, texts: list[str], **kwargs: object) -> list[list[int]]:
        import torch

        batch = self.tokenizer([self.prefix + t for t in texts], return_tensors="pt", padding=True)
        with torch.no_grad():
            out = self.model.generate(**batch, generation_config=self.pipeline.generation_config, **kwargs)
        eos, pad = self.model.config.eos_token_id, self.model.config.pad_token_id
        rows = []
        for row in out.tolist():
            row = row[1:]  # the decoder start
            rows.append(row[: row.index(eos) + 1] if eos in row else [t for t in row if t != pad])
        return rows

    def summary(self, text: str) -> str:
        return str(self.pipeline(text)[0]["summary_text"])


@pytest.fixture(scope="module", params=KINDS)
def torchless(request, tiny_hf_bart, tmp_path_factory):
    """(kind, the tiny folder, its fp32 pack exported where torch and transformers cannot be imported)."""
    kind = request.param
    out = tmp_path_factory.mktemp("bart-torchless") / kind
    done = subprocess.run(
        [sys.executable, "-c", EXPORT_WITHOUT_TORCH, str(tiny_hf_bart(kind)), str(out), "none"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return kind, tiny_hf_bart(kind), out


@pytest.fixture(scope="module")
def setup(torchless):
    kind, folder, pack = torchless
    return kind, Reference(folder), Translator.open(pack, threads=1)


def test_the_released_options_are_kept(tiny_hf_bart):
    from tiny_models.synthetic_bart import CONFIGS

    for kind in KINDS:
        config = json.loads((tiny_hf_bart(kind) / "config.json").read_text(encoding="utf-8"))
        assert set(config) == set(CONFIGS[kind])
        sizes = {"d_model", "encoder_attention_heads", "decoder_attention_heads", "encoder_ffn_dim", "decoder_ffn_dim"}
        sizes |= {"max_position_embeddings", "encoder_layers", "decoder_layers", "num_hidden_layers", "vocab_size"}
        assert {k: v for k, v in config.items() if k not in sizes} == {
            k: v for k, v in CONFIGS[kind].items() if k not in sizes
        }
    assert (
        json.loads((tiny_hf_bart("distilbart-cnn-12-6") / "config.json").read_text())["decoder_layers"] * 2
        == (json.loads((tiny_hf_bart("distilbart-cnn-12-6") / "config.json").read_text())["encoder_layers"])
    )


def test_sources_are_the_pipelines_tokens(setup):
    _, reference, translator = setup
    texts = [
        *articles(3),
        "  leading spaces, a tab\tand\na line break",
        "中文和 English 混在一起，还有 emoji 🙂 和数字 3.14",
        "a <mask> and an <s> written in the text </s>",
        "",
    ]
    for text in texts:
        expected = [i if i < translator.pack.architecture["vocab_size"] else 3 for i in reference.ids(text)]
        assert translator.encode(text, SUMMARY) == expected, text


def test_summaries_are_generates_with_the_pipelines_settings(setup):
    """Batched and one by one: exactly generate()'s ids with the pipeline's generation config."""
    _, reference, translator = setup
    texts = articles(4)
    sources = [translator.encode(t, SUMMARY) for t in texts]
    expected = reference.generate(texts)
    assert translator.generate_ids(sources, SUMMARY) == expected
    assert [translator.generate_ids([s], SUMMARY)[0] for s in sources[:2]] == expected[:2]
    # the model's forced first token and varied lengths: the settings are exercised, not trivially met
    assert {ids[0] for ids in expected} == {0}
    assert len({len(ids) for ids in expected}) > 1
    assert all(56 - 1 <= len(ids) <= 142 - 1 for ids in expected)


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (DecodeOptions(summary=True, beams=1, min_length=8), {"num_beams": 1, "min_length": 8}),
        (
            DecodeOptions(
                summary=True, beams=2, length_penalty=1.0, no_repeat_ngram_size=2, min_length=5, max_length=40
            ),
            {"num_beams": 2, "length_penalty": 1.0, "no_repeat_ngram_size": 2, "min_length": 5, "max_length": 40},
        ),
    ],
    ids=["greedy", "beam2"],
)
def test_other_settings_too(setup, ours, theirs):
    _, reference, translator = setup
    texts = articles(2, start=20)
    sources = [translator.encode(t, ours) for t in texts]
    assert translator.generate_ids(sources, ours) == reference.generate(texts, **theirs)


def test_the_text_is_the_pipelines_summary_and_streams(setup):
    _, reference, translator = setup
    for text in articles(2, start=8):
        streamed = list(translator.summary_stream(text))
        assert len(streamed) > 1
        assert "".join(streamed) == reference.summary(text).strip()


def test_the_manifest_records_what_the_pipeline_uses(setup):
    _, reference, translator = setup
    config = reference.pipeline.generation_config
    gen = translator.pack.generation
    for key in ("num_beams", "length_penalty", "min_length", "max_length", "no_repeat_ngram_size", "early_stopping"):
        assert gen[key] == getattr(config, key), key
    assert (gen["forced_bos_token_id"], gen["forced_eos_token_id"]) == (config.forced_bos_token_id, 2) == (0, 2)
    assert translator.pack.manifest["source_prefix"] == " "
    assert translator.pack.summarizes and not translator.pack.translates


def test_a_summarizer_does_not_translate_nor_write_another_language(setup):
    _, _, translator = setup
    with pytest.raises(ValueError, match="does not translate"):
        translator.translate("Hello.")
    with pytest.raises(ValueError, match="English only"):
        list(translator.summary_stream("Hello.", DecodeOptions(target="zh")))
    with pytest.raises(ValueError, match="more than"):
        list(translator.summary_stream(" ".join(articles(6))))


def test_a_folder_with_only_vocab_and_merges_gives_the_same_tokens(tiny_hf_bart, tmp_path):
    """bart-large-cnn's repository had no tokenizer.json at first: the pack's is made from vocab.json and merges.txt
    as transformers makes its fast tokenizer from them, and reads texts as the slow BartTokenizer does."""
    from transformers import BartTokenizer, BartTokenizerFast

    folder = tmp_path / "slow"
    shutil.copytree(tiny_hf_bart("bart-large-cnn"), folder)
    for name in ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        (folder / name).unlink()
    translator = Translator.open(export_pack(folder, tmp_path / "pack"), threads=1)
    slow = BartTokenizer.from_pretrained(folder)
    fast = BartTokenizerFast.from_pretrained(folder)  # converted from the two files by transformers
    original = Translator.open(export_pack(tiny_hf_bart("bart-large-cnn"), tmp_path / "original"), threads=1)
    for text in [*articles(3), "中文和 English 🙂", "x <mask> y", "  two  spaces  "]:
        expected = [i if i < translator.pack.architecture["vocab_size"] else 3 for i in slow(" " + text)["input_ids"]]
        assert translator.encode(text, SUMMARY) == expected == original.encode(text, SUMMARY), text
        assert fast(" " + text)["input_ids"] == slow(" " + text)["input_ids"]
    ids = translator.generate_ids([translator.encode(articles(1)[0], SUMMARY)], SUMMARY)[0]
    assert translator.tokenizer.decode(ids) == slow.decode(ids, skip_special_tokens=True).strip()


def test_a_generation_config_file_gives_the_same_settings(tiny_hf_bart, tmp_path):
    """The Hub's later generation_config.json (from_model_config of the same config.json) changes nothing."""
    from transformers import BartConfig, GenerationConfig

    folder = tmp_path / "with-generation-config"
    shutil.copytree(tiny_hf_bart("distilbart-cnn-12-6"), folder)
    GenerationConfig.from_model_config(BartConfig.from_pretrained(folder)).save_pretrained(folder)
    with_file = json.loads((export_pack(folder, tmp_path / "a") / "manifest.json").read_text())
    without = json.loads(
        (export_pack(tiny_hf_bart("distilbart-cnn-12-6"), tmp_path / "b") / "manifest.json").read_text()
    )
    assert with_file["generation"] == without["generation"]
    assert (
        with_file["generation"]["forced_bos_token_id"] == 0
    )  # force_bos_token_to_be_generated, as BartConfig reads it


def test_int8_packs_summarize(tiny_bart_pack):
    translator = Translator.open(tiny_bart_pack("bart-large-cnn", "int8"), threads=1)
    summary = "".join(translator.summary_stream(articles(1)[0]))
    assert summary and translator.pack.quantization == "int8"


def test_fanyi_summarize_gives_the_pipelines_summary(torchless, tmp_path):
    """The command line, on the pack made without torch: a file, and stdin."""
    import os

    kind, folder, pack = torchless
    reference = Reference(folder)
    text = articles(1, start=12)[0]
    (tmp_path / "article.txt").write_text(text + "\n", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    env = {**os.environ, "FANYI_DATA_DIR": str(tmp_path / "data"), "FANYI_CONFIG_DIR": str(tmp_path / "config")}
    env["FANYI_MODELS_DIR"] = str(tmp_path / "empty")
    expected = reference.summary(text).strip() + "\n"
    for source, given in ((str(tmp_path / "article.txt"), None), ("-", text)):
        done = subprocess.run(
            [sys.executable, "-m", "fanyi", "summarize", "--model", str(pack), source],
            input=given,
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout == expected, kind
