"""Translate a test set with PyTorch and with packs, score with sacrebleu, and gate int8 against PyTorch."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from fanyi.packs.catalog import Scores

PYTORCH_BATCH = 16
Say = Callable[[str], None]


@dataclass(frozen=True)
class Metric:
    name: str  # "BLEU" or "chrF"
    scores: Scores

    def text(self) -> str:
        s = self.scores
        return f"{self.name} PyTorch {s.pytorch:.2f}, fp32 {s.fp32:.2f}, int8 {s.int8:.2f}"

    def loss(self) -> float:
        """How much int8 loses against PyTorch (negative: int8 is better)."""
        return self.scores.pytorch - self.scores.int8


def pytorch_translations(hf_dir: Path, sentences: list[str], target_token: str | None,
                         batch_size: int = PYTORCH_BATCH, say: Say | None = None) -> list[str]:
    """generate() with the model's own generation defaults, as the model card's example runs it."""
    import torch
    from transformers import MarianMTModel, MarianTokenizer

    tokenizer = MarianTokenizer.from_pretrained(hf_dir)
    model = MarianMTModel.from_pretrained(hf_dir).eval()
    prefix = f"{target_token} " if target_token else ""
    # batches of similar length waste little on padding
    order = sorted(range(len(sentences)), key=lambda i: len(sentences[i]))
    out: list[str] = [""] * len(sentences)
    for start in range(0, len(order), batch_size):
        rows = order[start:start + batch_size]
        batch = tokenizer([prefix + sentences[i] for i in rows], return_tensors="pt", padding=True, truncation=True)
        with torch.inference_mode():
            generated = model.generate(**batch)
        for i, text in zip(rows, tokenizer.batch_decode(generated, skip_special_tokens=True)):
            out[i] = text
        if say:
            say(f"PyTorch generate(): {min(start + batch_size, len(order))}/{len(order)}")
    return out


def pack_translations(pack_dir: Path, sentences: list[str], say: Say | None = None) -> list[str]:
    """The pack's translations as the app makes them: Translator.translate_batch with the pack's defaults."""
    from fanyi.engine.translator import Translator

    translator = Translator.open(pack_dir)
    kind = "int8" if translator.quantization == "int8" else "fp32"
    progress = (lambda done, total: say(f"{kind} pack: {done}/{total} sentences")) if say else None
    return translator.translate_batch(sentences, progress=progress)


def corpus_scores(hypotheses: list[str], references: list[str], target_lang: str) -> tuple[float, float]:
    """(BLEU, chrF) of a system; Chinese BLEU on sacrebleu's "zh" tokenization (characters), others on 13a."""
    from sacrebleu.metrics import BLEU, CHRF

    bleu = BLEU(tokenize="zh" if target_lang == "zh" else "13a")
    return (bleu.corpus_score(hypotheses, [references]).score,
            CHRF().corpus_score(hypotheses, [references]).score)


def metrics(outputs: dict[str, list[str]], references: list[str], target_lang: str) -> tuple[Metric, Metric]:
    """BLEU and chrF for the systems "pytorch", "fp32" and "int8"."""
    by_system = {name: corpus_scores(hyps, references, target_lang) for name, hyps in outputs.items()}
    return tuple(Metric(name, Scores(**{system: scores[i] for system, scores in by_system.items()}))
                 for i, name in enumerate(("BLEU", "chrF")))


def gate_failures(found: tuple[Metric, ...], max_loss: dict[str, float]) -> list[str]:
    """One line per metric on which int8 loses more than allowed against PyTorch."""
    return [f"{m.name} {m.scores.pytorch:.2f} (PyTorch) → {m.scores.int8:.2f} (int8): "
            f"loses {m.loss():.2f}, allowed {max_loss[m.name]:g}"
            for m in found if m.loss() > max_loss[m.name]]
