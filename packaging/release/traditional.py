"""繁體 two ways, scored against a Traditional Chinese reference: a pack's own Traditional output (its
``>>cmn_Hant<<`` or ``zho_Hant``) and its Simplified output converted by OpenCC (fanyi.variants: Taiwan's
``s2twp``, and ``s2t``, Traditional characters with the words left as they were).

Two uses, from the ``packaging`` folder:

    python -m release.traditional --pack PACK_DIR --flores flores200_dataset [--limit N]
    python -m release.traditional --reference ../tests/data/zh_tw_reference.tsv

The first translates FLORES-200 devtest ``eng_Latn`` with the pack and scores each way against
``zho_Hant`` (a real pack: what docs/traditional-chinese.md's choice of the default for 繁體 is to be checked with);
the second scores only the conversion, OpenCC's profiles on a reference's own Simplified side, which
needs no model. The release pipeline (pipeline.py) runs the first on every pack that translates English
into Chinese when it has such a test set (--flores, or --test-set en-zh-Hant) and writes the table into
quality.md; it gates nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .scoring import corpus_scores
from .testsets import HANT, TestSet, flores

PROFILES = {
    "s2t": "OpenCC s2t (characters only)",
    "s2tw": "OpenCC s2tw (Taiwan's characters)",
    "s2twp": "OpenCC s2twp (Taiwan's characters and words)",
}
Say = Callable[[str], None]


@dataclass(frozen=True)
class Row:
    system: str
    bleu: float
    chrf: float
    exact: int  # sentences equal to the reference
    total: int


def score(system: str, hypotheses: list[str], references: list[str]) -> Row:
    bleu, chrf = corpus_scores(hypotheses, references, "zh")
    return Row(system, bleu, chrf, sum(h == r for h, r in zip(hypotheses, references)), len(references))


def convert(texts: list[str], profile: str) -> list[str]:
    import opencc

    converter = opencc.OpenCC(profile)
    return [converter.convert(text) for text in texts]


def compare_pack(pack_dir: Path, test_set: TestSet, say: Say | None = None) -> list[Row]:
    """The pack's own Traditional (where it has one) and its Simplified converted, each way as the app
    asks for it (fanyi.routing)."""
    from fanyi import routing
    from fanyi.engine.translator import Translator
    from fanyi.library import installed

    pack = installed.find_pack(str(pack_dir))
    translator = Translator.open(pack_dir)
    sources, references = list(test_set.sources), list(test_set.references)

    def translate(target: str) -> list[str]:
        found = routing.route([pack], "en", target)
        if say:
            say(f"{pack.name}: translating {len(sources)} sentences into {target}")
        return translator.translate_batch(sources, routing.decode_options(found.direction, found.variant))

    rows = []
    try:
        rows.append(score("the model's own Traditional", translate("zho_Hant"), references))
    except routing.NoRoute:
        pass  # a pack that writes Chinese one way only
    simplified = translate("zh-Hans")
    rows += [
        score(f"Simplified + {label}", convert(simplified, profile), references) for profile, label in PROFILES.items()
    ]
    return rows


def compare_conversion(pairs: list[tuple[str, str]]) -> list[Row]:
    """OpenCC's profiles on the Simplified side of (Simplified, Traditional) pairs: the conversion alone."""
    simplified, traditional = [s for s, _ in pairs], [t for _, t in pairs]
    return [score(label, convert(simplified, profile), traditional) for profile, label in PROFILES.items()]


def read_pairs(path: Path) -> list[tuple[str, str]]:
    """A reference file: Simplified TAB Traditional a line; # comments and blank lines skipped."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [tuple(line.split("\t")) for line in lines if line.strip() and not line.startswith("#")]


def table(rows: list[Row], label: str) -> str:
    out = [f"| {label} | BLEU | chrF | sentences exact |", "|---|--:|--:|--:|"]
    out += [f"| {r.system} | {r.bleu:.1f} | {r.chrf:.1f} | {r.exact} of {r.total} |" for r in rows]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m release.traditional", description=__doc__.split("\n\n")[0])
    parser.add_argument("--pack", type=Path, help="a pack that translates English into Chinese")
    parser.add_argument("--flores", type=Path, help="FLORES-200 (its root or devtest folder), with --pack")
    parser.add_argument("--limit", type=int, help="score the first N sentences")
    parser.add_argument("--reference", type=Path, help="Simplified TAB Traditional pairs: the conversion alone")
    args = parser.parse_args(argv)
    if args.reference:
        print(table(compare_conversion(read_pairs(args.reference)), f"{args.reference.name}, conversion alone"))
        return 0
    if not (args.pack and args.flores):
        parser.error("give --pack and --flores, or --reference")
    test_set = flores(args.flores, "en", HANT, args.limit)
    if test_set is None:
        parser.error(f"{args.flores} has no eng_Latn.devtest and zho_Hant.devtest")
    rows = compare_pack(args.pack, test_set, lambda message: print(message, file=sys.stderr, flush=True))
    print(table(rows, f"{args.pack.name}, {test_set.label}"))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "app"))
    sys.exit(main())
