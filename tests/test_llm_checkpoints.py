"""Translation LLMs as their released checkpoints are (issue 27): the tiny models carry the released
configs' options (tests/tiny_models/synthetic_llm.py), and each pack prompts, stops and offers languages as the
model's card and template say. transformers is the reference, called as each card's example calls it."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from fanyi.engine.options import DecodeOptions  # noqa: E402
from fanyi.engine.prompt import Request  # noqa: E402
from fanyi.engine.translator import Translator  # noqa: E402
from fanyi.export.errors import ExportError  # noqa: E402
from fanyi.export.generation import generation_defaults  # noqa: E402
from fanyi.export.loaders import HfFolder  # noqa: E402
from fanyi.export.loaders.gemma3 import Gemma3Loader  # noqa: E402

HOUSE = "It’s on the house."  # the cards' example sentence


def tokenizer(hf: Path):
    return transformers.AutoTokenizer.from_pretrained(hf)


def manifest(pack: Path) -> dict:
    return json.loads((pack / "manifest.json").read_text(encoding="utf-8"))


# --- 1. generation settings that change no token --------------------------------------------------
def test_gemma3s_released_generation_config_exports_and_one_that_changes_tokens_is_refused(tiny_hf_llm, tmp_path):
    folder = tiny_hf_llm("gemma3")
    released = json.loads((folder / "generation_config.json").read_text(encoding="utf-8"))
    assert released["cache_implementation"] == "hybrid"  # as gemma-3-4b-it's generation_config.json
    assert (
        generation_defaults(folder, Gemma3Loader(), HfFolder.read(folder))["eos_token_ids"] == released["eos_token_id"]
    )
    changed = tmp_path / "hf"
    shutil.copytree(folder, changed)
    (changed / "generation_config.json").write_text(json.dumps({**released, "penalty_alpha": 0.6}), encoding="utf-8")
    with pytest.raises(ExportError, match="generation setting penalty_alpha=0.6 is not supported") as err:
        generation_defaults(changed, Gemma3Loader(), HfFolder.read(changed))
    assert "\n" not in str(err.value)


# --- 2. the prompt each card's example code renders --------------------------------------------------
def test_hy_mt_prompt_is_the_cards_without_the_generation_prompt(tiny_hf_llm, tiny_llm_pack):
    """The card: apply_chat_template(messages, tokenize=True, add_generation_prompt=False)."""
    hf, pack = tiny_hf_llm("hunyuan"), tiny_llm_pack("hunyuan")
    translator = Translator.open(pack, threads=1)
    tok = tokenizer(hf)
    messages = [
        {
            "role": "user",
            "content": f"Translate the following segment into French, without additional explanation.\n\n{HOUSE}",
        }
    ]
    card = list(tok.apply_chat_template(messages, tokenize=True, add_generation_prompt=False))
    ours = translator.encode(HOUSE, DecodeOptions(source="en", target="fr"))
    assert ours == card
    assert tok.convert_ids_to_tokens(ours[-1]) == "<｜hy_place▁holder▁no▁8｜>"
    assert ours != list(tok.apply_chat_template(messages, tokenize=True, add_generation_prompt=True))
    assert manifest(pack)["prompt"]["generation_prompt"] is False


def test_qwen3_prompt_is_the_cards_with_thinking_off(tiny_hf_llm, tiny_llm_pack):
    """The card: apply_chat_template(messages, tokenize=False, add_generation_prompt=True, enable_thinking=False),
    then the tokenizer on that text."""
    hf = tiny_hf_llm("qwen3")
    translator = Translator.open(tiny_llm_pack("qwen3"), threads=1)
    tok = tokenizer(hf)
    options = DecodeOptions(source="en", target="zh")
    instruction = translator.tokenizer.prompts.user_message(
        HOUSE, translator.family.request(translator.languages(options))
    )
    text = tok.apply_chat_template(
        [{"role": "user", "content": instruction}], tokenize=False, add_generation_prompt=True, enable_thinking=False
    )
    assert text.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")
    assert translator.encode(HOUSE, options) == tok([text])["input_ids"][0]


def test_translategemma_prompt_is_the_cards_structured_message(tiny_hf_llm, tiny_llm_pack):
    """The card: one user entry {type, source_lang_code, target_lang_code, text}, add_generation_prompt=True;
    its own pair is Czech to German."""
    hf = tiny_hf_llm("translategemma")
    translator = Translator.open(tiny_llm_pack("translategemma"), threads=1)
    entry = {"type": "text", "source_lang_code": "cs", "target_lang_code": "de", "text": "V nejhorším případě."}
    card = tokenizer(hf).apply_chat_template(
        [{"role": "user", "content": [entry]}], tokenize=True, add_generation_prompt=True
    )
    assert translator.encode(entry["text"], DecodeOptions(source="cs", target="de")) == list(card)


def test_gemma3_prompt_is_the_cards_text_entry(tiny_hf_llm, tiny_llm_pack):
    hf = tiny_hf_llm("gemma3")
    translator = Translator.open(tiny_llm_pack("gemma3"), threads=1)
    options = DecodeOptions(source="en", target="de")
    instruction = translator.tokenizer.prompts.user_message(
        HOUSE, translator.family.request(translator.languages(options))
    )
    messages = [{"role": "user", "content": [{"type": "text", "text": instruction}]}]
    card = tokenizer(hf).apply_chat_template(messages, tokenize=True, add_generation_prompt=True)
    assert translator.encode(HOUSE, options) == list(card)


# --- 3. stopping at the template's end of turn -------------------------------------------------------
@pytest.mark.parametrize(("kind", "end"), [("translategemma", "<end_of_turn>"), ("qwen3", "<|im_end|>")])
def test_the_pack_stops_at_the_templates_end_of_turn(tiny_hf_llm, tiny_llm_pack, kind, end):
    """TranslateGemma's (third-party) generation_config lists only <eos>: the pack records the template's
    <end_of_turn> and stops there."""
    pack = tiny_llm_pack(kind)
    prompt = manifest(pack)["prompt"]
    end_id = tokenizer(tiny_hf_llm(kind)).convert_tokens_to_ids(end)
    assert prompt["end_of_turn"] == end and end_id in manifest(pack)["special_ids"]["eos_all"]
    translator = Translator.open(pack, threads=1)
    assert end_id in translator.tokenizer.eos_ids


@pytest.fixture(scope="module")
def translategemma_that_ends_turns(tiny_hf_llm, tmp_path_factory):
    """The tiny TranslateGemma with <end_of_turn>'s embedding (tied to its output row) moved toward the states
    the model decodes from, so that some translations reach it; its pack, and the model."""
    from fanyi.export.convert import export_pack

    root = tmp_path_factory.mktemp("translategemma-eot")
    hf = root / "hf"
    shutil.copytree(tiny_hf_llm("translategemma"), hf)
    model = transformers.Gemma3ForConditionalGeneration.from_pretrained(hf, dtype=torch.float32).eval()
    end = tokenizer(hf).convert_tokens_to_ids("<end_of_turn>")
    prompts = [tokenizer(hf).apply_chat_template(_entry(s), add_generation_prompt=True) for s in corpus(8)]
    with torch.no_grad():
        states = []
        for prompt in prompts:
            out = model.generate(
                torch.tensor([prompt]),
                do_sample=False,
                max_new_tokens=12,
                top_k=None,
                top_p=None,
                output_hidden_states=True,
                return_dict_in_generate=True,
            )
            states += [step[-1][0, -1] for step in out.hidden_states[1:]]
        h = torch.stack(states)
        table = model.get_input_embeddings().weight
        logits = h @ table.T
        direction = h.mean(0)
        gap = torch.quantile(logits.max(-1).values - logits[:, end], 0.15)
        table[end] += direction * (gap / (h @ direction).mean())
    model.save_pretrained(hf)
    return export_pack(hf, root / "pack"), model, end


def _entry(text: str) -> list[dict]:
    return [
        {
            "role": "user",
            "content": [{"type": "text", "source_lang_code": "en", "target_lang_code": "de", "text": text}],
        }
    ]


def corpus(count: int) -> list[str]:
    path = Path(__file__).resolve().parents[1] / "assets" / "corpus" / "en.txt"
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()][:count]


def test_ids_equal_generates_up_to_the_end_of_turn(translategemma_that_ends_turns):
    """generate(), stopping on <eos> only, writes <end_of_turn> and goes on; the pack's ids are its ids up to
    and with the <end_of_turn>, and no more."""
    pack, model, end = translategemma_that_ends_turns
    translator = Translator.open(pack, threads=1)
    options = DecodeOptions(source="en", target="de", max_new_tokens=30)
    went_on = 0
    for text in corpus(16):
        ids = translator.encode(text, options)
        with torch.no_grad():
            out = model.generate(torch.tensor([ids]), do_sample=False, max_new_tokens=30, top_k=None, top_p=None)
        theirs = out[0, len(ids) :].tolist()
        ours = translator.generate_ids([ids], options)[0]
        if end in theirs:
            went_on += len(theirs) > theirs.index(end) + 1
            assert ours == theirs[: theirs.index(end) + 1], text
        else:
            assert ours == theirs, text
    assert went_on  # the case the end of turn is for


# --- 4. languages from each card and template -------------------------------------------------------
def test_gemma3_packs_offer_translategemmas_languages_not_qwen3s(tiny_llm_pack):
    for kind in ("gemma3", "translategemma"):
        languages = manifest(tiny_llm_pack(kind))["languages"]
        assert "cs" in languages["source"] and "yue" not in languages["source"]
        assert languages["source"] == languages["target"] == list(Gemma3Loader.languages)


def _without(tiny_hf_llm, tmp_path, *entries: str):
    """A TranslateGemma folder whose template's map of names lacks these entries ('"cs": "Czech", ')."""
    folder = tmp_path / "hf"
    shutil.copytree(tiny_hf_llm("translategemma"), folder)
    template = folder / "chat_template.jinja"
    text = template.read_text(encoding="utf-8")
    for entry in entries:
        assert entry in text
        text = text.replace(entry, "")
    template.write_text(text, encoding="utf-8")
    return folder


def test_a_language_the_template_cannot_render_is_left_out_and_said(tiny_hf_llm, tmp_path, caplog):
    """A real checkpoint whose template lacks a code Fanyi offers still makes a pack: the pack offers exactly the
    languages its template renders (each probed at export), and the log names the rest."""
    from fanyi.export.convert import export_pack

    folder = _without(tiny_hf_llm, tmp_path, '"cs": "Czech", ', '"bg": "Bulgarian", ')
    with caplog.at_level("WARNING", logger="fanyi.export.chat_checks"):
        export_pack(folder, tmp_path / "out")
    languages = manifest(tmp_path / "out")["languages"]
    expected = [code for code in Gemma3Loader.languages if code not in ("cs", "bg")]
    assert languages["source"] == languages["target"] == expected
    assert "cs" not in languages["names"] and "de" in languages["names"]
    [said] = [r.getMessage() for r in caplog.records if "cannot render" in r.getMessage()]
    assert said.startswith("the chat template cannot render 2 of the languages Fanyi offers (bg, cs): left out")
    translator = Translator.open(tmp_path / "out", threads=1)
    assert translator.encode("Hello.", DecodeOptions(source="en", target="de"))  # the others still render
    with pytest.raises(ValueError, match="cs"):
        translator.encode("Hello.", DecodeOptions(source="en", target="cs"))


@pytest.mark.parametrize("entry, language", [('"en": "English", ', "English"), ('"zh": "Chinese", ', "Chinese")])
def test_a_template_that_cannot_render_english_or_chinese_fails_the_export_in_one_line(
    tiny_hf_llm, tmp_path, entry, language
):
    from fanyi.export.convert import export_pack

    folder = _without(tiny_hf_llm, tmp_path, entry)
    with pytest.raises(ExportError, match=f"the chat template cannot render {language}") as err:
        export_pack(folder, tmp_path / "out")
    assert "\n" not in str(err.value) and not (tmp_path / "out").exists()


# --- 5. the embedding scale in fp32 -------------------------------------------------------------------
def test_gemma_embedding_scale_is_fp32_sqrt_hidden_not_the_bfloat16_buffer(tiny_hf_llm):
    hf = tiny_hf_llm("gemma3-1b")
    model = transformers.Gemma3ForCausalLM.from_pretrained(hf, dtype="auto")  # the checkpoint's bfloat16
    hidden = model.config.hidden_size
    buffer = float(model.get_decoder().embed_tokens.embed_scale)
    assert buffer != float(np.float32(math.sqrt(hidden)))  # √96 rounded to bfloat16: 9.8125
    config = Gemma3Loader().model_config(HfFolder.read(hf))
    assert np.float32(Gemma3Loader().extras(config)["embed_scale"]) == np.float32(math.sqrt(hidden))


# --- 6. the context prompt as the card writes it ------------------------------------------------------
def test_hy_mt_context_prompt_ends_with_the_cards_blank_line(tiny_llm_pack):
    prompts = Translator.open(tiny_llm_pack("hunyuan"), threads=1).tokenizer.prompts
    text = prompts.user_message(HOUSE, Request("en", "zh", context="We went out."))
    assert (
        text == f"We went out.\n参考上面的信息，把下面的文本翻译成中文，注意不需要翻译上文，也不要额外解释：\n{HOUSE}\n"
    )


def test_hy_mt_formatted_prompt_is_the_cards_and_takes_a_paragraphs_marks(tiny_llm_pack):
    """The card's formatted translation: the text between <source></source>, its formatted spans <sn></sn>."""
    translator = Translator.open(tiny_llm_pack("hunyuan"), threads=1)
    assert translator.takes_formatted
    marked = "Some <sn>bold words</sn> here."
    card = (
        "将以下<source></source>之间的文本翻译为中文，注意只需要输出翻译后的结果，不要额外解释，"
        "原文中的<sn></sn>标签表示标签内文本包含格式信息，需要在译文中相应的位置尽量保留该标签。"
        f"输出格式为：<target>str</target>\n\n<source>{marked}</source>"
    )
    assert translator.tokenizer.prompts.user_message(marked, Request("en", "zh", formatted=True)) == card
    options = DecodeOptions(source="en", target="zh", max_new_tokens=4)
    _pieces, parts = translator._plan(marked, options, formatted=True)
    assert card in translator.tokenizer.raw_decode(list(parts[0][0].ids))
    results = translator.translate_results([marked, "Plain."], options, formatted=[True, False])
    assert len(results) == 2
    # a pack whose card has no such prompt takes no marks: the text goes as it is
    qwen3 = Translator.open(tiny_llm_pack("qwen3"), threads=1)
    assert not qwen3.takes_formatted
    _pieces, parts = qwen3._plan(marked, options, formatted=True)
    assert list(parts[0][0].ids) == qwen3.encode(marked, options)
