"""Fixtures for the document tests; the helpers live in docfixtures (a unique module name)."""

from __future__ import annotations

import pytest
from docfixtures import FakeTranslator


@pytest.fixture
def translator() -> FakeTranslator:
    return FakeTranslator()
