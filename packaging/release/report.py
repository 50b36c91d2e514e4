"""quality.md: the catalog's quality numbers as a markdown table, for the release page and the README."""

from __future__ import annotations

from fanyi.packs.catalog import Catalog

HEADER = ("| pack | test set | BLEU PyTorch | BLEU fp32 | BLEU int8 | chrF PyTorch | chrF fp32 | chrF int8 "
          "| int8 top-1 agreement |\n|---|---|--:|--:|--:|--:|--:|--:|--:|")


def _number(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def quality_table(built: Catalog) -> str:
    rows = [HEADER]
    for p in built.packs:
        q = p.quality
        if q is None:
            continue
        agreement = "–" if q.int8_top1_agreement is None else f"{100 * q.int8_top1_agreement:.1f} %"
        numbers = [_number(getattr(s, k)) for s in (q.bleu, q.chrf) for k in ("pytorch", "fp32", "int8")]
        cells = [p.id, q.test_set, *numbers, agreement]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def quality_markdown(built: Catalog, skipped: list[tuple[str, str]]) -> str:
    import sacrebleu

    lines = [
        f"# Pack quality (catalog {built.serial}, {built.generated})",
        "",
        "PyTorch: `generate()` of the original model with its own generation defaults. fp32 and int8: the "
        "packs through Fanyi's engine (`Translator.translate_batch`, the pack's defaults). "
        f"sacrebleu {sacrebleu.__version__}: BLEU with the `zh` tokenizer for Chinese targets (`13a` otherwise), "
        "chrF with its defaults. int8 top-1 agreement: teacher-forced next-token agreement with PyTorch "
        "on the validation sentences.",
        "",
        quality_table(built),
    ]
    if skipped:
        lines += ["Optional packs left out of this catalog:", ""]
        lines += [f"- {pack_id}: {why}" for pack_id, why in skipped]
        lines.append("")
    return "\n".join(lines)
