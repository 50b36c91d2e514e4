"""Fixtures of the PDF tests: the corpus, built once per test session (per xdist worker) into a temporary folder;
a machine with no fonts but the ones a test makes; the bundled Noto Sans SC/TC when assets/fonts has them."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from corpus import build_all
from corpus_truth import Document


@pytest.fixture(scope="session")
def pdf_corpus(tmp_path_factory) -> dict[str, Document]:
    return build_all(tmp_path_factory.mktemp("pdf-corpus"))


@pytest.fixture
def font_world(tmp_path, monkeypatch) -> SimpleNamespace:
    """No CJK font anywhere but where a test puts one: ``bundled`` (the app's assets/fonts) and ``system`` (the
    only system font folder searched), both empty; no FANYI_PDF_FONT."""
    from fanyi import paths
    from fanyi.documents.pdf import fonts

    assets = tmp_path / "assets"
    (assets / "fonts").mkdir(parents=True)
    system = tmp_path / "system-fonts"
    system.mkdir()
    monkeypatch.setattr(paths, "assets_dir", lambda: assets)
    monkeypatch.setattr(fonts, "_font_dirs", lambda: [system])
    monkeypatch.delenv(fonts.ENV, raising=False)
    return SimpleNamespace(bundled=assets / "fonts", system=system)


@pytest.fixture(scope="session")
def noto_sc(bundled_fonts) -> Path:
    """Noto Sans SC Regular in assets/fonts (tests/conftest.py's bundled_fonts: skips without it)."""
    from fanyi.documents.pdf import fonts

    return bundled_fonts / fonts.BUNDLED["Hans"]
