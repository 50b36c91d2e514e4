"""Decoder-only LLM packs (HY-MT1.5's HunYuan dense, Qwen3, Gemma 3) against transformers on the same weights.

Tiny random models of each real architecture (tests/conftest.py, tests/tiny_models/synthetic_llm.py) are
exported and compared with transformers 4.57: the prompt's ids with apply_chat_template, greedy ids
with generate(), teacher-forced logits with the model's forward pass.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from llm_reference import Reference  # noqa: E402

from fanyi.engine.options import DecodeOptions  # noqa: E402
from fanyi.engine.prompt import Request, StripRule  # noqa: E402
from fanyi.engine.results import Translation  # noqa: E402
from fanyi.engine.translator import Translator  # noqa: E402
from fanyi.export.errors import ExportError  # noqa: E402

KINDS = ("qwen3", "hunyuan", "gemma3", "translategemma", "gemma3-1b")
EN_ZH = DecodeOptions(source="en", target="zh", max_new_tokens=24)
ZH_EN = DecodeOptions(source="zh", target="en", max_new_tokens=24)
EN_ZH_DEFAULT = DecodeOptions(source="en", target="zh")  # the pack's own length limit


def corpus(lang: str, count: int) -> list[str]:
    path = Path(__file__).resolve().parents[1] / "assets" / "corpus" / f"{lang}.txt"
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()][:count]


@pytest.fixture(scope="module", params=KINDS)
def llm(request, tiny_hf_llm, tiny_llm_pack):
    kind = request.param
    translator = Translator.open(tiny_llm_pack(kind), threads=1)
    return kind, translator, Reference(tiny_hf_llm(kind), translator)


def test_prompt_is_the_chat_template_of_the_cards_instruction(llm):
    kind, translator, ref = llm
    for options, lang in ((EN_ZH, "en"), (ZH_EN, "zh")):
        for text in corpus(lang, 6):
            assert translator.encode(text, options) == ref.prompt(text, options)
    # the card's Chinese instruction for a pair with Chinese (HY-MT1.5), the English one otherwise
    prompt = translator.tokenizer.decode(translator.encode("Hello.", DecodeOptions(source="en", target="zh")))
    if kind == "hunyuan":
        assert "将以下文本翻译为中文" in translator.tokenizer.raw_decode(
            translator.encode("Hello.", DecodeOptions(source="en", target="zh"))
        )
        assert "Translate the following segment into French" in translator.tokenizer.raw_decode(
            translator.encode("Hello.", DecodeOptions(source="en", target="fr"))
        )
    assert "Hello." in prompt


def test_greedy_ids_are_generates(llm):
    _kind, translator, ref = llm
    sentences = corpus("en", 8) + ["Hi", "A long sentence, with commas, numbers like 3.14 and 2024, and “quotes”."]
    for text in sentences:
        ids = translator.encode(text, EN_ZH)
        assert translator.generate_ids([ids], EN_ZH)[0] == ref.generate(ids, 24), text


def test_greedy_ids_are_generates_at_300_and_1200_token_prompts(llm):
    """Long prompts: past Gemma 3's sliding window, through the cache's growth, at positions where HunYuan's and
    Gemma's scaled rotary tables differ most from the unscaled ones."""
    _kind, translator, ref = llm
    text = " ".join(corpus("en", 200))
    for tokens in (300, 1200):
        ids = translator.encode(text, EN_ZH)
        ids = ids[:8] + ids[len(ids) - (tokens - 8) :]  # the template's start and end, the text between cut
        assert len(ids) == tokens
        options = DecodeOptions(source="en", target="zh", max_new_tokens=12)
        assert translator.generate_ids([ids], options)[0] == ref.generate(ids, 12), tokens


def test_some_outputs_end_at_an_end_of_turn_token(llm):
    """The comparison above covers stopping: at least one tiny model's output ends on its own."""
    _kind, translator, _ref = llm
    ends = set(translator.pack.special_ids["eos_all"])
    outputs = translator.generate_ids(
        [translator.encode(t, EN_ZH) for t in corpus("en", 24)],
        DecodeOptions(source="en", target="zh", max_new_tokens=40),
    )
    assert all(not (set(o[:-1]) & ends) for o in outputs)  # nothing after an end token
    if _kind == "qwen3":
        assert any(o and o[-1] in ends for o in outputs)


def test_teacher_forced_logits_match(llm):
    """Logits, not just argmaxes: a wrong sliding window or rotary base shows here (Gemma 3's local layers)."""
    _kind, translator, ref = llm
    for text in corpus("en", 3) + corpus("zh", 2):
        ids = translator.encode(text, EN_ZH)
        continuation = ref.generate(ids, 12)
        mine = translator.forced_logits(ids, [0] + continuation[:-1])
        assert np.abs(mine - ref.logits(ids, continuation)).max() < 1e-3


def test_batch_decodes_like_one_at_a_time(llm):
    """Prompts of different lengths in one batch: right-padded chunks, each row at its own position."""
    _kind, translator, _ref = llm
    sources = [translator.encode(t, EN_ZH) for t in corpus("en", 5) + ["Yes."]]
    assert len({len(s) for s in sources}) > 1
    one_by_one = [translator.generate_ids([s], EN_ZH)[0] for s in sources]
    assert translator.generate_ids(sources, EN_ZH) == one_by_one


def test_the_prompt_prefix_is_computed_once_and_changes_nothing(llm):
    _kind, translator, ref = llm
    runner = translator._runner
    runner._prefixes.clear()
    texts = corpus("en", 3)
    outputs = [translator.generate_ids([translator.encode(t, EN_ZH)], EN_ZH)[0] for t in texts]
    assert len(runner._prefixes) == 1  # one language pair, one fixed prefix
    (prefix,) = runner._prefixes
    request = translator.family.request(translator.languages(EN_ZH))
    assert list(prefix) == translator.tokenizer.prefix_ids(request)[: len(prefix)]
    assert len(prefix) >= 3  # the template's start, at least
    assert outputs == [ref.generate(translator.encode(t, EN_ZH), 24) for t in texts]


def test_stream_equals_translate(llm):
    """Byte-level tokens split characters: the stream shows whole characters only, and adds up exactly."""
    _kind, translator, _ref = llm
    for text in ("Good morning, everyone.\n\nThe meeting starts at nine.", "我们明天见。"):
        options = EN_ZH if text.isascii() else ZH_EN
        translator.clear_cache()
        pieces = list(translator.translate_stream(text, options))
        translator.clear_cache()
        assert Translation.collect(pieces).text == translator.translate(text, options)


def test_stream_decoder_shows_whole_characters_only(llm):
    _kind, translator, _ref = llm
    tokenizer = translator.tokenizer
    text = "我们明天见，好吗？ Yes — ok."
    ids = tokenizer.encode_text(text)
    assert any("\ufffd" in tokenizer.raw_decode([i]) for i in ids)  # some token holds part of a character
    stream = translator.family.stream_decoder(tokenizer)
    deltas = [stream.push([i]) for i in ids] + [stream.finish()]
    assert all("\ufffd" not in d for d in deltas)
    assert "".join(deltas) == tokenizer.decode(ids) == text


def test_a_paragraph_is_one_unit(llm, monkeypatch):
    _kind, translator, _ref = llm
    seen: list[int] = []
    real = translator.decode_ids

    def spy(sources, options=None, cancel=None, stop=()):
        seen.append(len(sources))
        return (yield from real(sources, options, cancel, stop))

    monkeypatch.setattr(translator, "decode_ids", spy)
    translator.clear_cache()
    translator.translate_batch(["First sentence here. Second one follows. A third ends it.\n\nNext paragraph."], EN_ZH)
    assert seen and seen[0] == 2  # two paragraphs, not four sentences


def test_int4_pack_translates_and_reports_top1(tiny_llm_pack, tiny_hf_llm, capsys):
    from fanyi.export.validate import validate_pack

    for kind in KINDS:
        pack = tiny_llm_pack(kind, "int4")
        manifest = json.loads((pack / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["quantization"]["mode"] == "int4" and manifest["quantization"]["block_size"] == 32
        assert Translator.open(pack, threads=1).translate("Good morning.", EN_ZH)
        report = validate_pack(pack, tiny_hf_llm(kind), sentences=corpus("en", 2))
        assert report.tokenizer_mismatches == 0 and 0.0 <= report.top1_agreement <= 1.0
        assert report.steps > 0


def test_int4_pack_is_smaller_than_fp32(tiny_llm_pack):
    """The weights (shared.bin); the rotary tables in decoder.onnx stay fp32 (Qwen3's 8,192 positions)."""

    def size(p: Path) -> int:
        return (p / "shared.bin").stat().st_size

    assert size(tiny_llm_pack("qwen3", "int4")) < size(tiny_llm_pack("qwen3")) / 2


def test_block_quantization_matches_matmulnbits():
    """The packing MatMulNBits reads: its product equals x @ the dequantized weight."""
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    from fanyi.export.causal_graphs import dequantize_blocks, quantize_blocks

    rng = np.random.default_rng(0)
    weight = rng.normal(size=(96, 40)).astype(np.float32)
    x = rng.normal(size=(3, 96)).astype(np.float32)
    for bits in (4, 8):
        q = quantize_blocks(weight, bits, 32)
        node = helper.make_node(
            "MatMulNBits",
            ["x", "b", "s"],
            ["y"],
            domain="com.microsoft",
            K=96,
            N=40,
            bits=bits,
            block_size=32,
            accuracy_level=0,
        )
        graph = helper.make_graph(
            [node],
            "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 96])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 40])],
            [numpy_helper.from_array(q.packed, "b"), numpy_helper.from_array(q.scales.reshape(-1), "s")],
        )
        model = helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)]
        )
        session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        got = session.run(None, {"x": x})[0]
        np.testing.assert_allclose(got, x @ dequantize_blocks(q), rtol=1e-4, atol=1e-4)
        error = np.abs(dequantize_blocks(q) - weight).max()
        assert error <= np.abs(weight).max() / (2 ** (bits - 1)), bits


def test_unsupported_option_is_refused_in_one_line(tiny_hf_llm, tmp_path):
    from fanyi.export.convert import export_pack

    folder = tmp_path / "hf"
    shutil.copytree(tiny_hf_llm("qwen3"), folder)
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    config["rope_scaling"] = {"rope_type": "longrope", "factor": 4.0}
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    with pytest.raises(ExportError, match="rope_scaling type 'longrope' is not supported") as err:
        export_pack(folder, tmp_path / "out")
    assert "\n" not in str(err.value)
    config["architectures"] = ["Qwen2MoeForCausalLM"]
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    with pytest.raises(ExportError, match="Qwen2MoeForCausalLM is not supported"):
        export_pack(folder, tmp_path / "out")


def test_strip_rule_removes_a_think_block_and_holds_it_back_while_streaming():
    rule = StripRule(think=True, prefixes=("Translation:",))
    assert rule.apply("<think>\nhmm\n</think>\n\n你好") == "你好"
    assert rule.apply("Translation: 你好") == "你好"
    assert rule.apply("<think>never closed") == "<think>never closed"  # no guessing
    for partial in ("<thi", "<think>\nhm", "Transl"):
        assert rule.held(partial) == len(partial)
    assert rule.held("你好") == 0


def test_a_summary_is_asked_through_the_chat_template_and_decoded_as_generate(tiny_hf_llm, tiny_llm_pack):
    """Qwen3's summary request (fanyi.summaries): Fanyi's instruction in the model's own chat template, thinking
    off, as apply_chat_template renders it; its ids greedy generate()'s; summary_stream's text their decoding."""
    translator = Translator.open(tiny_llm_pack("qwen3"), threads=1)
    ref = Reference(tiny_hf_llm("qwen3"), translator)
    options = DecodeOptions(source="en", target="zh", max_new_tokens=24, summary=True)
    text = " ".join(corpus("en", 8))
    ids = translator.encode(text, options)
    assert ids == ref.prompt(text, options) and ids != translator.encode(text, EN_ZH)
    prompt = translator.tokenizer.raw_decode(ids)
    assert "Summarize the following text in Simplified Chinese" in prompt
    assert prompt.endswith("<think>\n\n</think>\n\n")  # Qwen3's template with enable_thinking=False
    new = translator.generate_ids([ids], options)[0]
    assert new == ref.generate(ids, 24)
    streamed = "".join(translator.summary_stream(text, options))
    ends = set(translator.pack.special_ids["eos_all"])
    assert streamed == translator.tokenizer.decode([t for t in new if t not in ends])


def test_requests_name_glossary_and_context_in_the_cards_prompts(tiny_llm_pack):
    translator = Translator.open(tiny_llm_pack("hunyuan"), threads=1)
    prompts = translator.tokenizer.prompts
    text = prompts.user_message("Apple pie.", Request("en", "zh", terms=(("Apple", "苹果"),)))
    assert text.startswith("参考下面的翻译：\nApple 翻译成 苹果\n\n将以下文本翻译为中文")
    text = prompts.user_message("It {text} is.", Request("en", "zh", context="Earlier words."))
    assert text.startswith("Earlier words.\n参考上面的信息，把下面的文本翻译成中文") and "It {text} is." in text


@pytest.mark.parametrize("kind", KINDS)
def test_fanyi_translate_runs_an_int4_llm_pack(tiny_llm_pack, kind):
    import subprocess
    import sys

    pack = tiny_llm_pack(kind, "int4")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "fanyi",
            "translate",
            "--model",
            str(pack),
            "--source",
            "en",
            "--target",
            "zh",
            "Hello there.\n\nSecond paragraph.",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    expected = Translator.open(pack, threads=1).translate("Hello there.\n\nSecond paragraph.", EN_ZH_DEFAULT)
    assert run.stdout == expected + "\n"
    refused = subprocess.run(
        [sys.executable, "-m", "fanyi", "translate", "--model", str(pack), "--source", "xx", "Hello."],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert refused.returncode != 0 and "source language 'xx' is not offered" in refused.stderr
