"""quality.md: every pack of the release in one table on the same sentences, for the release page and the docs."""

from __future__ import annotations

from dataclasses import dataclass

from fanyi.library.catalog import Catalog, Quality

from . import scoring, summary_gate, traditional
from .scoring import Scored

HEADER = (
    "| direction | sentences | pack | published as | BLEU PyTorch | BLEU fp32 | BLEU pack | chrF PyTorch "
    "| chrF fp32 | chrF pack | top-1 agreement |\n|---|---|---|---|--:|--:|--:|--:|--:|--:|--:|"
)
CATALOG_HEADER = (
    "| pack | direction | test set | BLEU PyTorch | BLEU pack | chrF PyTorch | chrF pack |\n"
    "|---|---|---|--:|--:|--:|--:|"
)


def _number(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def _agreement(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f} %"


def comparison_table(scored: list[Scored]) -> str:
    """One row per pack and direction. The packs of a direction are scored on the sentences all of them
    translated: the first of the direction's test set (they read the same files), as many as the fewest."""
    groups: dict[tuple[str, str, str], list[Scored]] = {}
    for s in scored:
        groups.setdefault((s.source, s.target, s.test_set.name), []).append(s)
    rows = [HEADER]
    for (source, target, name), members in groups.items():
        count = min(len(s.test_set.sources) for s in members)
        for s in members:
            outputs = {system: hyps[:count] for system, hyps in s.outputs.items()}
            bleu, chrf = scoring.metrics(outputs, list(s.test_set.references[:count]), target, s.quantization)
            numbers = [
                _number(value)
                for m in (bleu, chrf)
                for value in (m.scores.pytorch, m.scores.fp32, m.scores.of(s.quantization))
            ]
            cells = [
                f"{source}→{target}",
                f"{name}, {count} sentences",
                s.pack,
                s.quantization,
                *numbers,
                _agreement(s.top1_agreement),
            ]
            rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def _direction(pack_id: str, q: Quality) -> str:
    return f"{q.source}→{q.target}" if q.source and q.target else pack_id


def catalog_table(built: Catalog) -> str:
    """Each pack on its own test set: the numbers catalog.json carries."""
    rows = [CATALOG_HEADER]
    for p in built.packs:
        for q in p.qualities:
            numbers = [_number(value) for s in (q.bleu, q.chrf) for value in (s.pytorch, s.of(p.quantization))]
            rows.append("| " + " | ".join([p.id, _direction(p.id, q), q.test_set, *numbers]) + " |")
    return "\n".join(rows) + "\n"


@dataclass(frozen=True)
class TraditionalRows:
    """One pack's 繁體 two ways on an English → Traditional Chinese test set (release.traditional)."""

    pack_id: str
    test_set: str
    rows: list[traditional.Row]


def quality_markdown(
    built: Catalog,
    scored: list[Scored],
    skipped: list[tuple[str, str]],
    hant: list[TraditionalRows],
    summaries: list[summary_gate.SummaryScore] | None = None,
) -> str:
    import sacrebleu

    lines = [
        f"# Pack quality (catalog {built.serial}, {built.generated})",
        "",
        "Every pack of this release, OPUS-MT and translation LLMs alike, on the same sentences of each "
        "direction. PyTorch: `generate()` of the original model (OPUS-MT with its own generation defaults; "
        "an LLM greedy, on the prompt the pack writes: the model's chat template around its card's "
        "instruction). fp32 and pack: the packs through Fanyi's engine (`Translator.translate_batch`, the "
        "pack's defaults; an LLM is given each sentence as a paragraph). The pack is what the catalog "
        f"publishes: int8 for OPUS-MT, int4 for LLMs. sacrebleu {sacrebleu.__version__}: BLEU with the `zh` "
        "tokenizer for Chinese targets (`13a` otherwise), chrF with its defaults. Top-1 agreement: "
        "teacher-forced next-token agreement of the pack with PyTorch on the validation sentences.",
        "",
        comparison_table(scored),
        "The catalog's numbers, each pack on all the sentences it was scored on:",
        "",
        catalog_table(built),
    ]
    if hant:
        lines += [
            "## 繁體: the model's own Traditional against its Simplified converted by OpenCC",
            "",
            "English translated into Traditional Chinese each way the app can ask for it, scored against the "
            "test set's Traditional reference (`packaging/release/traditional.py`; the app's default for 繁體 is "
            "`fanyi.languages.DEFAULT_TRADITIONAL`).",
            "",
        ]
        lines += [traditional.table(h.rows, f"{h.pack_id}, {h.test_set}") + "\n" for h in hant]
    if summaries:
        lines += [
            "## Summarizers",
            "",
            "Each summarization pack's summaries of the held articles against PyTorch's (transformers' summarization "
            "pipeline), ROUGE-L F1 with stemming (rouge-score), and the mean KL(PyTorch ‖ pack) of the "
            "teacher-forced next-token distributions (the gate: at most 0.05).",
            "",
            summary_gate.table(summaries),
        ]
    if skipped:
        lines += ["Optional packs left out of this catalog:", ""]
        lines += [f"- {pack_id}: {why}" for pack_id, why in skipped]
        lines.append("")
    return "\n".join(lines)
