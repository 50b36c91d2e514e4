"""繁體 two ways (packaging/release/traditional.py): the conversion alone on the local Taiwan reference
(tests/data/zh_tw_reference.tsv, written for this project), and a pack's own Traditional against its
Simplified converted, on a FLORES-shaped folder (the tiny random pack: the plumbing, not quality)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))
from release import traditional  # noqa: E402

REFERENCE = ROOT / "tests" / "data" / "zh_tw_reference.tsv"


def test_taiwans_profile_writes_the_reference_closest():
    """What docs/traditional-chinese.md reports: with Taiwan's words (s2twp) the conversion is far closer to how Taiwan
    writes than characters alone (s2t, which is what a Traditional output with Mainland words reads like)."""
    rows = {row.system.split()[1]: row for row in traditional.compare_conversion(traditional.read_pairs(REFERENCE))}
    assert rows["s2twp"].chrf > rows["s2tw"].chrf > rows["s2t"].chrf
    assert rows["s2twp"].chrf > 80 and rows["s2twp"].exact >= rows["s2twp"].total // 2


def test_a_pack_is_compared_both_ways_on_flores_zho_hant(tiny_pack, tmp_path, capsys):
    devtest = tmp_path / "flores200_dataset" / "devtest"
    devtest.mkdir(parents=True)
    (devtest / "eng_Latn.devtest").write_text("Good morning.\nWhere is the station?\n", encoding="utf-8")
    (devtest / "zho_Hant.devtest").write_text("早安。\n車站在哪裡？\n", encoding="utf-8")
    assert traditional.main(["--pack", str(tiny_pack), "--flores", str(tmp_path / "flores200_dataset")]) == 0
    out = capsys.readouterr().out
    assert "FLORES-200 devtest zho_Hant, 2 sentences" in out
    systems = [line.split(" | ")[0].lstrip("| ") for line in out.splitlines()[2:]]
    assert systems == [
        "the model's own Traditional",
        *(f"Simplified + {label}" for label in traditional.PROFILES.values()),
    ]
