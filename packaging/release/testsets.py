"""Test sets: a source file and a reference file, one sentence a line, for one direction."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# FLORES-200's file names for the languages of our packs
HANT = "zh-Hant"  # English → Traditional Chinese: what release.traditional scores 繁體 on
FLORES_CODES = {"en": "eng_Latn", "zh": "zho_Hans", HANT: "zho_Hant"}
FLORES_NAME = "FLORES-200 devtest"


class TestSetError(Exception):
    pass


@dataclass(frozen=True)
class TestSet:
    __test__ = False  # not a pytest class

    name: str
    sources: tuple[str, ...]
    references: tuple[str, ...]

    @property
    def label(self) -> str:
        """What the catalog and quality.md call it."""
        return f"{self.name}, {len(self.sources)} sentences"

    def first(self, count: int | None) -> TestSet:
        """The first `count` sentences (all of them for None)."""
        return TestSet(self.name, self.sources[:count], self.references[:count])


def _lines(path: Path) -> list[str]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TestSetError(f"{path} cannot be read: {exc}") from None
    return [line.strip() for line in text.splitlines()]


def from_files(name: str, source: Path, reference: Path, limit: int | None = None) -> TestSet:
    sources, references = _lines(source), _lines(reference)
    if len(sources) != len(references):
        raise TestSetError(f"{name}: {source} has {len(sources)} lines but {reference} has {len(references)}")
    if not sources or not all(sources) or not all(references):
        raise TestSetError(f"{name}: {source} and {reference} must hold one non-empty sentence per line")
    return TestSet(name, tuple(sources[:limit]), tuple(references[:limit]))


def flores(folder: Path, source_lang: str, target_lang: str, limit: int | None = None) -> TestSet | None:
    """The FLORES-200 devtest pair for a direction, from the devtest folder (or the dataset's root)."""
    if (folder / "devtest").is_dir():
        folder = folder / "devtest"
    if source_lang not in FLORES_CODES or target_lang not in FLORES_CODES:
        return None
    files = [folder / f"{FLORES_CODES[lang]}.devtest" for lang in (source_lang, target_lang)]
    if not all(f.is_file() for f in files):
        return None
    # the Traditional reference says so: quality.md's 繁體 table stands beside the Simplified one
    name = f"{FLORES_NAME} {FLORES_CODES[HANT]}" if target_lang == HANT else FLORES_NAME
    return from_files(name, *files, limit=limit)
