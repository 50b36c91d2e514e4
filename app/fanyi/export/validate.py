"""`fanyi validate`: does a pack agree with the PyTorch model it came from? (build time: torch)

For each sentence: token ids of our tokenizer vs the model's Hugging Face tokenizer; the output of
our search vs `generate()` with the pack's defaults; and, teacher-forced on generate()'s output (or
on a reference translation), per-step logits distance, KL divergence and top-1 agreement.
Many-to-many packs are checked from English (or their first source language) into their default
target language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..engine.language_choice import base_language
from ..engine.options import DecodeOptions
from ..engine.pack import ModelPack
from ..engine.processors import log_softmax
from ..engine.translator import Translator
from ..paths import assets_dir

FP32_MAX_LOGIT_DIFF = 1e-3
INT8_MIN_TOP1 = 0.9


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
    lines = [l.strip() for l in path.read_text(encoding="utf-8").splitlines() if l.strip()] if path.exists() else []
    return lines[:count] or ["Hello, world."]


def _reference(translator: Translator, hf_dir: Path):
    """The PyTorch model, its tokenizer set to the checked direction, the options and the text to tokenize."""
    import transformers

    family = translator.pack.family
    model = getattr(transformers, family.model_class).from_pretrained(hf_dir).eval()
    if family.target_language == "source_token":
        hf_tok = transformers.MarianTokenizer.from_pretrained(hf_dir)
        token = translator.languages(None).source_token
        return model, hf_tok, None, lambda s: f"{token} {s}" if token else s
    sources = translator.source_languages
    source = next((c for c in sources if base_language(c) == "en"), sources[0])
    options = DecodeOptions(source=source)
    hf_tok = transformers.AutoTokenizer.from_pretrained(hf_dir)
    hf_tok.src_lang = source
    hf_tok.tgt_lang = translator.default_target
    return model, hf_tok, options, lambda s: s


def validate_pack(pack_dir: Path, hf_dir: Path, sentences: list[str] | None = None,
                  references: list[str] | None = None, min_int8_top1: float = INT8_MIN_TOP1) -> ValidationReport:
    import torch

    translator = Translator(ModelPack.open(pack_dir), threads=None)
    model, hf_tok, options, as_text = _reference(translator, hf_dir)
    choice = translator.languages(options)
    sentences = sentences or default_sentences(choice.source_lang)
    report = ValidationReport(translator.name, translator.quantization, sentences=len(sentences))
    start = translator.pack.special_ids["decoder_start"]
    force_bos = {} if choice.forced_bos_id is None else {"forced_bos_token_id": choice.forced_bos_id}
    diffs, kls, agree = [], [], []
    for i, sentence in enumerate(sentences):
        ours_ids = translator.encode(sentence, options)
        theirs_ids = hf_tok(as_text(sentence))["input_ids"]
        if ours_ids != theirs_ids:
            report.tokenizer_mismatches += 1
        with torch.no_grad():
            generated = model.generate(input_ids=torch.tensor([theirs_ids]), **force_bos)[0].tolist()[1:]
        pad = translator.pack.special_ids["pad"]
        generated = [t for t in generated if t != pad]
        if translator.generate_ids([theirs_ids], options)[0] == generated:
            report.identical_outputs += 1
        if references:
            forced = hf_tok(text_target=references[i])["input_ids"]
        else:
            forced = generated
        prefix = [start] + forced[:-1] if forced else [start]
        with torch.no_grad():
            ref = model(input_ids=torch.tensor([theirs_ids]),
                        decoder_input_ids=torch.tensor([prefix])).logits[0].numpy()
        mine = translator.forced_logits(theirs_ids, prefix)
        diffs.append(np.abs(ref - mine).max(axis=-1))
        p_log, q_log = log_softmax(ref.astype(np.float64)), log_softmax(mine.astype(np.float64))
        kls.append((np.exp(p_log) * (p_log - q_log)).sum(axis=-1))
        agree.append(ref.argmax(-1) == mine.argmax(-1))
    d, k, a = np.concatenate(diffs), np.concatenate(kls), np.concatenate(agree)
    report.steps = int(a.size)
    report.top1_agreement = float(a.mean())
    report.max_logit_diff, report.mean_logit_diff = float(d.max()), float(d.mean())
    report.mean_kl, report.max_kl = float(k.mean()), float(k.max())

    if report.tokenizer_mismatches:
        report.problems.append(f"{report.tokenizer_mismatches} sentences tokenized differently from "
                               f"{type(hf_tok).__name__}")
    if translator.quantization == "none":
        if report.identical_outputs != report.sentences:
            report.problems.append("an fp32 pack must give generate()'s tokens for every sentence")
        if report.max_logit_diff > FP32_MAX_LOGIT_DIFF:
            report.problems.append(f"fp32 logits differ by up to {report.max_logit_diff:.3g} "
                                   f"(allowed {FP32_MAX_LOGIT_DIFF})")
    elif report.top1_agreement < min_int8_top1:
        report.problems.append(f"int8 top-1 agreement {report.top1_agreement:.3f} is below {min_int8_top1}")
    return report
