"""Translate a test set with PyTorch and with packs, score with sacrebleu, and gate the pack against PyTorch."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from fanyi.engine.options import DecodeOptions
from fanyi.engine.pack import ModelPack
from fanyi.languages import base_language
from fanyi.library.catalog import Scores

from .testsets import TestSet

PYTORCH_BATCH = 16
Say = Callable[[str], None]


@dataclass(frozen=True)
class Metric:
    name: str  # "BLEU" or "chrF"
    scores: Scores
    quantization: str  # the published pack's: "int8", "int4"

    def text(self) -> str:
        systems = (
            ("PyTorch", self.scores.pytorch),
            ("fp32", self.scores.fp32),
            (self.quantization, self.scores.of(self.quantization)),
        )
        return f"{self.name} " + ", ".join(f"{name} {value:.2f}" for name, value in systems if value is not None)

    def loss(self) -> float:
        """How much the published pack loses against PyTorch (negative: it is better)."""
        return self.scores.pytorch - self.scores.of(self.quantization)


@dataclass(frozen=True)
class Scored:
    """One pack's translations of one direction's test set, by system ("pytorch", "fp32", its quantization)."""

    pack: str
    quantization: str
    source: str
    target: str
    test_set: TestSet
    outputs: dict[str, list[str]]
    top1_agreement: float
    bleu: Metric
    chrf: Metric


def pytorch_translations(
    hf_dir: Path,
    sentences: list[str],
    target_token: str | None,
    batch_size: int = PYTORCH_BATCH,
    say: Say | None = None,
) -> list[str]:
    """MarianMT's generate() with the model's own generation defaults, as the model card's example runs it."""
    import torch
    from transformers import MarianMTModel, MarianTokenizer

    tokenizer = MarianTokenizer.from_pretrained(hf_dir)
    model = MarianMTModel.from_pretrained(hf_dir).eval()
    prefix = f"{target_token} " if target_token else ""
    # batches of similar length waste little on padding
    order = sorted(range(len(sentences)), key=lambda i: len(sentences[i]))
    out: list[str] = [""] * len(sentences)
    for start in range(0, len(order), batch_size):
        rows = order[start : start + batch_size]
        batch = tokenizer([prefix + sentences[i] for i in rows], return_tensors="pt", padding=True, truncation=True)
        with torch.inference_mode():
            generated = model.generate(**batch)
        for i, text in zip(rows, tokenizer.batch_decode(generated, skip_special_tokens=True)):
            out[i] = text
        if say:
            say(f"PyTorch generate(): {min(start + batch_size, len(order))}/{len(order)}")
    return out


def chat_translations(
    hf_dir: Path, pack: ModelPack, sentences: list[str], options: DecodeOptions, say: Say | None = None
) -> list[str]:
    """A decoder-only model's generate(), greedy, one sentence at a time, on the prompt the pack writes
    (the model's chat template around the card's instruction); what it adds is removed by the pack's
    own rule, as the pack's translations are."""
    import torch
    import transformers

    from fanyi.engine.prompt import strip_rule
    from fanyi.engine.search_settings import resolve
    from fanyi.export.loaders import LOADERS

    family = pack.family
    prompts = family.open_tokenizer(pack).prompts
    request = family.request(family.choose(pack, options))
    strip = strip_rule(pack.manifest["prompt"]["strip"])
    max_new_tokens = resolve(pack, options).max_length - 1
    tokenizer = transformers.AutoTokenizer.from_pretrained(hf_dir)
    model_class = getattr(transformers, LOADERS[family.name].model_class)
    model = model_class.from_pretrained(hf_dir, dtype=torch.float32).eval()
    out = []
    for i, sentence in enumerate(sentences, 1):
        ids = list(
            tokenizer.apply_chat_template(
                prompts.messages(sentence, request),
                add_generation_prompt=True,
                tokenize=True,
                **prompts.template_kwargs,
            )
        )
        with torch.inference_mode():
            generated = model.generate(
                torch.tensor([ids]),
                attention_mask=torch.ones(1, len(ids), dtype=torch.long),
                do_sample=False,
                num_beams=1,
                max_new_tokens=max_new_tokens,
                top_k=None,
                top_p=None,
                temperature=None,
                repetition_penalty=None,
            )
        text = tokenizer.decode(generated[0, len(ids) :].tolist(), skip_special_tokens=True)
        out.append(strip.apply(text).strip())
        if say and (i % 10 == 0 or i == len(sentences)):
            say(f"PyTorch generate(): {i}/{len(sentences)}")
    return out


def reference_translations(
    hf_dir: Path,
    pack_dir: Path,
    sentences: list[str],
    options: DecodeOptions | None,
    batch_size: int = PYTORCH_BATCH,
    say: Say | None = None,
) -> list[str]:
    """PyTorch's translations of what the pack is asked: the same direction, the same prompt for an LLM."""
    pack = ModelPack.open(pack_dir, verify=False)
    if pack.family.decoder_only:
        assert options is not None, "a translation LLM is asked for a direction"
        return chat_translations(hf_dir, pack, sentences, options, say)
    target = (options.target if options else None) or pack.default_target
    return pytorch_translations(hf_dir, sentences, pack.target_tokens.get(target or ""), batch_size, say)


def pack_translations(
    pack_dir: Path, sentences: list[str], options: DecodeOptions | None = None, say: Say | None = None
) -> list[str]:
    """The pack's translations as the app makes them: Translator.translate_batch with the pack's defaults
    (an LLM's: each sentence a paragraph of its own)."""
    from fanyi.engine.translator import Translator

    translator = Translator.open(pack_dir)
    kind = "fp32" if translator.quantization == "none" else translator.quantization
    progress = (lambda done, total: say(f"{kind} pack: {done}/{total} sentences")) if say else None
    return translator.translate_batch(sentences, options, progress=progress)


def corpus_scores(hypotheses: list[str], references: list[str], target_lang: str) -> tuple[float, float]:
    """(BLEU, chrF) of a system; Chinese BLEU on sacrebleu's "zh" tokenization (characters), others on 13a."""
    from sacrebleu.metrics import BLEU, CHRF

    bleu = BLEU(tokenize="zh" if base_language(target_lang) == "zh" else "13a")
    return (bleu.corpus_score(hypotheses, [references]).score, CHRF().corpus_score(hypotheses, [references]).score)


def metrics(
    outputs: dict[str, list[str]], references: list[str], target_lang: str, quantization: str
) -> tuple[Metric, Metric]:
    """BLEU and chrF of the systems "pytorch", "fp32" (when there) and the published pack's quantization."""
    by_system = {name: corpus_scores(hyps, references, target_lang) for name, hyps in outputs.items()}
    return tuple(
        Metric(name, Scores(**{system: scores[i] for system, scores in by_system.items()}), quantization)
        for i, name in enumerate(("BLEU", "chrF"))
    )


def gate_failures(found: tuple[Metric, ...], max_loss: dict[str, float]) -> list[str]:
    """One line per metric on which the pack loses more than allowed against PyTorch."""
    return [
        f"{m.name} {m.scores.pytorch:.2f} (PyTorch) → {m.scores.of(m.quantization):.2f} ({m.quantization}): "
        f"loses {m.loss():.2f}, allowed {max_loss[m.name]:g}"
        for m in found
        if m.loss() > max_loss[m.name]
    ]
