"""The PDF corpus, built once per test session (per xdist worker) into a temporary folder."""

from __future__ import annotations

import pytest
from corpus import build_all
from corpus_truth import Document


@pytest.fixture(scope="session")
def pdf_corpus(tmp_path_factory) -> dict[str, Document]:
    return build_all(tmp_path_factory.mktemp("pdf-corpus"))
