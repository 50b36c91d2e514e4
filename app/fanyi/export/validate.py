"""`fanyi validate`: does a pack agree with the PyTorch model it came from? (build time: torch)

For each sentence: token ids of our tokenizer vs the model's Hugging Face tokenizer; the output of
our search vs `generate()` with the pack's defaults; and, teacher-forced on generate()'s output (or
on a reference translation), per-step logits distance, KL divergence and top-1 agreement.
Many-to-many packs are checked from English (or their first source language) into their default
target language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..engine.families.causal_lm import CausalLM
from ..engine.options import DecodeOptions
from ..engine.pack import ModelPack
from ..engine.processors import log_softmax
from ..engine.search_settings import resolve
from ..engine.translator import Translator
from ..languages import base_language
from ..paths import assets_dir
from .hf_weights import model_class
from .loaders import LOADERS, HfFolder

FP32_MAX_LOGIT_DIFF = 1e-3
INT8_MIN_TOP1 = 0.9
# a summarizer's (BART's) quantized pack: the most its teacher-forced distribution may differ from PyTorch's on
# average, KL(PyTorch || pack) in nats a step (the seed's acceptance bound for an int8 summarizer)
SUMMARY_MAX_KL = 0.05
ARTICLE_LINES = 6  # corpus lines a test article for a summarizer is made of


@dataclass
class ValidationReport:
    pack: str
    quantization: str
    sentences: int = 0
    tokenizer_mismatches: int = 0
    identical_outputs: int = 0
    steps: int = 0
    top1_agreement: float = 0.0
    max_logit_diff: float = 0.0
    mean_logit_diff: float = 0.0
    mean_kl: float = 0.0
    max_kl: float = 0.0
    problems: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.problems

    def text(self) -> str:
        lines = [
            f"pack {self.pack} ({self.quantization})",
            f"sentences                 {self.sentences}",
            f"tokenizer identical       {self.sentences - self.tokenizer_mismatches}/{self.sentences}",
            f"outputs identical         {self.identical_outputs}/{self.sentences}",
            f"teacher-forced steps      {self.steps}",
            f"top-1 agreement           {self.top1_agreement:.4f}",
            f"logits |diff| max / mean  {self.max_logit_diff:.3g} / {self.mean_logit_diff:.3g}",
            f"KL(torch || pack) mean / max  {self.mean_kl:.3g} / {self.max_kl:.3g}",
            "result                    " + ("PASS" if self.passed else "FAIL"),
        ]
        lines += [f"  - {p}" for p in self.problems]
        return "\n".join(lines)


def default_sentences(lang: str, count: int = 24) -> list[str]:
    path = assets_dir() / "corpus" / f"{lang}.txt"
    lines = (
        [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        if path.exists()
        else []
    )
    return lines[:count] or ["Hello, world."]


def default_articles(fits: Callable[[str], bool], count: int = 8) -> list[str]:
    """Short English articles (a few corpus lines each, fewer where the model reads less) for checking a
    summarizer."""
    lines = default_sentences("en", count * ARTICLE_LINES)
    articles = []
    for start in range(0, len(lines), ARTICLE_LINES):
        taken = lines[start : start + ARTICLE_LINES]
        while len(taken) > 1 and not fits(" ".join(taken)):
            taken.pop()
        articles.append(" ".join(taken))
    return articles


class _Seq2SeqReference:
    """transformers' encoder-decoder on the same sentences: its tokenizer set to the checked direction."""

    def __init__(self, translator: Translator, hf_dir: Path) -> None:
        import transformers

        family = translator.family
        self.model = getattr(transformers, LOADERS[family.name].model_class).from_pretrained(hf_dir).eval()
        if family.many_to_many:
            sources = translator.source_languages
            source = next((c for c in sources if base_language(c) == "en"), sources[0])
            self.options: DecodeOptions | None = DecodeOptions(source=source)
            # a pack tokenized by SentencePiece (M2M100's; mBART-50's, NLLB's without tokenizer.json) is the slow one's
            slow = translator.pack.manifest["tokenizer"] == "sentencepiece"
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(hf_dir, use_fast=not slow)
            self.tokenizer.src_lang = source
            self.tokenizer.tgt_lang = translator.default_target
            self.prefix = ""
        else:  # Marian: the >>id<< target token written before the text
            self.options = None
            self.tokenizer = transformers.MarianTokenizer.from_pretrained(hf_dir)
            token = translator.languages(None).source_token
            self.prefix = f"{token} " if token else ""
        choice = translator.languages(self.options)
        self.force_bos = {} if choice.forced_bos_id is None else {"forced_bos_token_id": choice.forced_bos_id}
        self.start = translator.pack.special_ids["decoder_start"]
        self.pad = translator.pack.special_ids["pad"]

    def source_ids(self, sentence: str) -> list[int]:
        ids: list[int] = self.tokenizer(self.prefix + sentence)["input_ids"]
        return ids

    def generate(self, ids: list[int]) -> list[int]:
        import torch

        with torch.no_grad():
            out = self.model.generate(input_ids=torch.tensor([ids]), **self.force_bos)[0].tolist()[1:]
        return [t for t in out if t != self.pad]

    def target_ids(self, reference: str) -> list[int]:
        ids: list[int] = self.tokenizer(text_target=reference)["input_ids"]
        return ids

    def logits(self, ids: list[int], forced: list[int]) -> np.ndarray:
        """Teacher-forced logits of every target token; the prefix the pack is fed alike."""
        import torch

        with torch.no_grad():
            logits: np.ndarray = (
                self.model(input_ids=torch.tensor([ids]), decoder_input_ids=torch.tensor([self.prefix_ids(forced)]))
                .logits[0]
                .numpy()
            )
        return logits

    def prefix_ids(self, forced: list[int]) -> list[int]:
        return [self.start] + forced[:-1] if forced else [self.start]


class _SummaryReference(_Seq2SeqReference):
    """transformers' BART summarizer as its summarization pipeline runs it: the model's text prefix before the
    text, generate() with task_specific_params.summarization over the model's generation config."""

    def __init__(self, translator: Translator, hf_dir: Path) -> None:
        import transformers

        self.model = getattr(transformers, LOADERS[translator.family.name].model_class).from_pretrained(hf_dir).eval()
        self.tokenizer = transformers.AutoTokenizer.from_pretrained(hf_dir)
        self.options = DecodeOptions(summary=True)
        self.prefix = translator.pack.manifest["source_prefix"] or ""
        config = self.model.generation_config
        tasks = getattr(self.model.config, "task_specific_params", None) or {}
        config.update(**{k: v for k, v in (tasks.get("summarization") or {}).items() if k != "prefix"})
        self.force_bos = {"generation_config": config}  # its forced <s> among the settings
        self.start = translator.pack.special_ids["decoder_start"]
        self.pad = translator.pack.special_ids["pad"]


class _CausalReference(_Seq2SeqReference):
    """transformers' decoder-only model: the same conversation through its chat template, greedy."""

    def __init__(self, translator: Translator, hf_dir: Path) -> None:
        import torch
        import transformers

        family = translator.family
        assert isinstance(family, CausalLM)  # validate_pack chose this reference for it
        name = model_class(LOADERS[family.name], HfFolder.read(hf_dir))
        self.model = getattr(transformers, name).from_pretrained(hf_dir, dtype=torch.float32).eval()
        self.tokenizer = transformers.AutoTokenizer.from_pretrained(hf_dir)
        self.options = DecodeOptions(source="en" if "en" in translator.source_languages else None)
        self.prompts = translator.tokenizer.prompts
        self.request = family.request(translator.languages(self.options))
        self.start = translator.pack.special_ids["decoder_start"]
        self.max_new_tokens = resolve(translator.pack, self.options).max_length - 1
        # the ids the pack stops at, its template's end of turn among them
        self.stops = list(translator.pack.special_ids["eos_all"] or [translator.pack.special_ids["eos"]])

    def source_ids(self, sentence: str) -> list[int]:
        return list(
            self.tokenizer.apply_chat_template(
                self.prompts.messages(sentence, self.request),
                add_generation_prompt=self.prompts.generation_prompt,
                tokenize=True,
                **self.prompts.template_kwargs,
            )
        )

    def generate(self, ids: list[int]) -> list[int]:
        import torch

        with torch.no_grad():
            out = self.model.generate(
                input_ids=torch.tensor([ids]),
                attention_mask=torch.ones(1, len(ids), dtype=torch.long),
                do_sample=False,
                num_beams=1,
                max_new_tokens=self.max_new_tokens,
                eos_token_id=self.stops,
                top_k=None,
                top_p=None,
                temperature=None,
                repetition_penalty=None,
            )
        new: list[int] = out[0, len(ids) :].tolist()
        return new

    def target_ids(self, reference: str) -> list[int]:
        ids: list[int] = self.tokenizer(reference, add_special_tokens=False)["input_ids"]
        return ids

    def logits(self, ids: list[int], forced: list[int]) -> np.ndarray:
        import torch

        with torch.no_grad():
            out = self.model(input_ids=torch.tensor([ids + forced[:-1]])).logits[0].numpy()
        logits: np.ndarray = out[len(ids) - 1 :]
        return logits


def validate_pack(
    pack_dir: Path,
    hf_dir: Path,
    sentences: list[str] | None = None,
    references: list[str] | None = None,
    min_int8_top1: float = INT8_MIN_TOP1,
) -> ValidationReport:
    translator = Translator(ModelPack.open(pack_dir), threads=None)
    summarizer = not translator.pack.translates
    kind = (
        _CausalReference if translator.family.decoder_only else _SummaryReference if summarizer else _Seq2SeqReference
    )
    ref = kind(translator, hf_dir)
    options = ref.options
    choice = translator.languages(options)
    if summarizer and not sentences:
        sentences = default_articles(lambda text: len(ref.source_ids(text)) <= translator.max_summary_tokens)
    sentences = sentences or default_sentences(choice.source_lang)
    report = ValidationReport(translator.name, translator.quantization, sentences=len(sentences))
    diffs, kls, agree = [], [], []
    for i, sentence in enumerate(sentences):
        ours_ids = translator.encode(sentence, options)
        theirs_ids = ref.source_ids(sentence)
        if ours_ids != theirs_ids:
            report.tokenizer_mismatches += 1
        generated = ref.generate(theirs_ids)
        if translator.generate_ids([theirs_ids], options)[0] == generated:
            report.identical_outputs += 1
        forced = ref.target_ids(references[i]) if references else generated
        if not forced:
            continue
        reference_logits = ref.logits(theirs_ids, forced)
        mine = translator.forced_logits(theirs_ids, ref.prefix_ids(forced))
        diffs.append(np.abs(reference_logits - mine).max(axis=-1))
        p_log, q_log = log_softmax(reference_logits.astype(np.float64)), log_softmax(mine.astype(np.float64))
        kls.append((np.exp(p_log) * (p_log - q_log)).sum(axis=-1))
        agree.append(reference_logits.argmax(-1) == mine.argmax(-1))
    d, k, a = np.concatenate(diffs), np.concatenate(kls), np.concatenate(agree)
    report.steps = int(a.size)
    report.top1_agreement = float(a.mean())
    report.max_logit_diff, report.mean_logit_diff = float(d.max()), float(d.mean())
    report.mean_kl, report.max_kl = float(k.mean()), float(k.max())

    if report.tokenizer_mismatches:
        report.problems.append(
            f"{report.tokenizer_mismatches} sentences tokenized differently from {type(ref.tokenizer).__name__}"
        )
    if translator.quantization == "none":
        if report.identical_outputs != report.sentences:
            report.problems.append("an fp32 pack must give generate()'s tokens for every sentence")
        if report.max_logit_diff > FP32_MAX_LOGIT_DIFF:
            report.problems.append(
                f"fp32 logits differ by up to {report.max_logit_diff:.3g} (allowed {FP32_MAX_LOGIT_DIFF})"
            )
    elif summarizer:
        if report.mean_kl > SUMMARY_MAX_KL:
            report.problems.append(
                f"{translator.quantization} mean KL(PyTorch || pack) {report.mean_kl:.4f} is above {SUMMARY_MAX_KL}"
            )
    elif report.top1_agreement < min_int8_top1:
        report.problems.append(
            f"{translator.quantization} top-1 agreement {report.top1_agreement:.3f} is below {min_int8_top1}"
        )
    return report
