"""The release's gate for summarization packs (BART): the seed's way, two measures against PyTorch.

- validation (fanyi.export.validate) measures the mean KL(PyTorch || pack) of the teacher-forced next-token
  distributions on the held articles; an int8 pack is accepted at most validate.SUMMARY_MAX_KL (0.05);
- here: the held articles are summarized by PyTorch (transformers' summarization pipeline: the model's
  prefix, task_specific_params.summarization over its generation config) and by the fp32 and published packs
  (fanyi.summaries' engine call, Translator.summary_stream), and the published pack's summaries are scored
  against PyTorch's with ROUGE-L (rouge-score, Google's reimplementation of ROUGE-1.5.5, stemmed): its mean F1
  must be at least the bound of its quantization (BuildOptions.summary_min_rouge_l).

A summary is not a translation: no BLEU/chrF, no reference translation in the manifest.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

Say = Callable[[str], None]


@dataclass(frozen=True)
class SummaryScore:
    pack: str
    quantization: str
    texts: int  # held articles summarized
    mean_kl: float  # validation's, of the published pack
    rouge_l: dict[str, float]  # system ("fp32", the quantization) → mean ROUGE-L F1 against PyTorch's summaries
    outputs: dict[str, list[str]]  # system ("pytorch", "fp32", …) → its summaries

    def text(self) -> str:
        scores = ", ".join(f"{system} {value:.3f}" for system, value in self.rouge_l.items())
        return f"ROUGE-L against PyTorch's summaries: {scores}; mean KL {self.mean_kl:.4f}"


def pytorch_summaries(hf_dir: Path, texts: list[str], say: Say | None = None) -> list[str]:
    """The summarization pipeline of transformers over the model's folder, as its card's example runs it."""
    from transformers import AutoTokenizer, BartForConditionalGeneration, pipeline

    model = BartForConditionalGeneration.from_pretrained(hf_dir).eval()
    summarize = pipeline("summarization", model=model, tokenizer=AutoTokenizer.from_pretrained(hf_dir))
    out = []
    for i, text in enumerate(texts):
        out.append(str(summarize(text)[0]["summary_text"]).strip())
        if say:
            say(f"PyTorch summaries: {i + 1}/{len(texts)}")
    return out


def pack_summaries(pack_dir: Path, texts: list[str]) -> list[str]:
    from fanyi.engine.translator import Translator

    translator = Translator.open(pack_dir)
    return ["".join(translator.summary_stream(text)) for text in texts]


def rouge_l(candidates: list[str], references: list[str]) -> float:
    """Mean ROUGE-L F1 of each candidate against its reference."""
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)
    scores = [scorer.score(ref, cand)["rougeL"].fmeasure for cand, ref in zip(candidates, references, strict=True)]
    return sum(scores) / len(scores) if scores else 0.0


def held_texts(pack_dir: Path, given: tuple[str, ...]) -> list[str]:
    """The held articles: the release's own (--summary-set), else short articles of the corpus that fit the model."""
    if given:
        return list(given)
    from fanyi.engine.translator import Translator
    from fanyi.export.validate import default_articles

    translator = Translator.open(pack_dir, threads=1)
    return default_articles(lambda text: translator.summary_tokens(text) <= translator.max_summary_tokens)


def score(
    pack_id: str,
    hf_dir: Path,
    packs: dict[str, Path],
    quantization: str,
    mean_kl: float,
    given: tuple[str, ...],
    say: Say,
) -> SummaryScore:
    """PyTorch's summaries and each pack's of the held articles, ROUGE-L of each pack against PyTorch's."""
    published = packs[quantization]
    texts = held_texts(published, given)
    say(f"summarizing {len(texts)} held articles with PyTorch and the {', '.join(packs)} pack(s)")
    outputs = {"pytorch": pytorch_summaries(hf_dir, texts, say)}
    outputs.update({system: pack_summaries(path, texts) for system, path in packs.items()})
    scores = {system: rouge_l(outputs[system], outputs["pytorch"]) for system in packs}
    return SummaryScore(pack_id, quantization, len(texts), mean_kl, scores, outputs)


def failure(scored: SummaryScore, min_rouge_l: float) -> str | None:
    """Why the published pack fails the gate, or None."""
    got = scored.rouge_l[scored.quantization]
    if got < min_rouge_l:
        return f"ROUGE-L {got:.3f} against PyTorch's summaries is below {min_rouge_l}"
    return None


def table(scored: list[SummaryScore]) -> str:
    rows = [
        "| pack | published as | held articles | ROUGE-L fp32 | ROUGE-L pack | mean KL(PyTorch ‖ pack) |",
        "|---|---|--:|--:|--:|--:|",
    ]
    for s in scored:
        fp32 = f"{s.rouge_l['fp32']:.3f}" if "fp32" in s.rouge_l else "–"
        pack = f"{s.rouge_l[s.quantization]:.3f}"
        rows.append(f"| {s.pack} | {s.quantization} | {s.texts} | {fp32} | {pack} | {s.mean_kl:.4f} |")
    return "\n".join(rows) + "\n"
