"""A pack's download size reads the same in the README, the app and the command line: one figure, one unit."""

from __future__ import annotations

import re
from pathlib import Path

from fanyi.library import catalog
from fanyi.sizes import listed_size

ROOT = Path(__file__).resolve().parents[1]


def readme_downloads() -> dict[str, str]:
    """pack id → the download figure of README's "Which pack" table ("~299 MB" → "299 MB")."""
    found = {}
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > 2 and "→" in cells[2]:
            figure = cells[2].split("→")[0].strip().lstrip("~")
            for pack in re.findall(r"`([^`]+)`", cells[0]):
                found[pack] = figure
    return found


def test_a_packs_download_size_is_one_figure_in_one_unit_everywhere(qapp):
    """~310 MB (README), 299 MB (the app) and 298.5 MB (the command line) for one download."""
    from fanyi.ui.pack_ops import listed_size_text

    shipped = catalog.read(ROOT / "assets" / "catalog.json")
    readme = readme_downloads()
    assert set(readme) == {p.id for p in shipped.packs}
    for entry in shipped.packs:
        assert readme[entry.id] == listed_size(entry.download_size) == listed_size_text(entry.download_size), entry.id
    assert listed_size(313_000_000) == "299 MB" and listed_size(4_080_000_000) == "3.8 GB"
