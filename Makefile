# Two commands set everything up on a fresh machine:
#   make run    virtualenv + install + find (or, when online, download and convert) the default pack + start the app
#   make test   virtualenv + install with the test extras + `make lint` + the whole test suite
#   make lint   the static checks alone: ruff (lint, import order, formatting), mypy, zizmor on the workflows
# and one builds this platform's bundle and installer into dist/ (see packaging/build.py):
#   make dist
PYTHON ?= python3
VENV   ?= .venv
# a venv's programs are in Scripts/ on Windows (make from Git Bash or MSYS2), bin/ elsewhere
ifeq ($(OS),Windows_NT)
BIN    := $(VENV)/Scripts
EXE    := .exe
else
BIN    := $(VENV)/bin
EXE    :=
endif
PIP    := $(BIN)/pip install --disable-pip-version-check -q
# `make test` needs torch (the export extra pins it in pyproject.toml). On Linux, PyPI's torch is the
# CUDA build (gigabytes); PyTorch's own CPU index has the CPU build. Where that index answers, torch is
# installed from it first and the dev install then finds the pin satisfied; where it does not (offline,
# or only a package mirror is reachable), pip takes torch as it is configured to.
TORCH_PIN       := $(shell grep -o 'torch==[0-9][0-9.]*' pyproject.toml)
TORCH_CPU_INDEX ?= https://download.pytorch.org/whl/cpu

# The tests run in parallel processes (pytest-xdist), one per CPU up to four; the tests of one file
# stay in one process, and each process builds its own tiny models (a few seconds). TEST_WORKERS=0
# runs them all in this process.
TEST_WORKERS ?= $(shell $(PYTHON) -c "import os; print(min(4, os.cpu_count() or 1))")

# The bundle is built in a venv of its own holding only the runtime dependencies and PyInstaller,
# so no export tooling (torch, transformers) can end up in it.
DIST_VENV ?= .venv-dist

.PHONY: run test lint install install-dev ocr-models fonts default-pack dist clean

$(BIN)/python$(EXE):
	$(PYTHON) -m venv $(VENV)

# pip runs again only when pyproject.toml is newer than the last install (the code itself is an
# editable install), so a second `make run` starts the app at once. The dev install holds the runtime
# one, so it stamps both: the first `make run` after `make test` does not install again.
$(VENV)/.installed: pyproject.toml | $(BIN)/python$(EXE)
	$(PIP) -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python$(EXE)
	@if [ "$$(uname -s)" = Linux ] && $(BIN)/python -c "import urllib.request; \
	    urllib.request.urlopen('$(TORCH_CPU_INDEX)/torch/', timeout=15)" 2>/dev/null; then \
	  echo "installing $(TORCH_PIN) (CPU build) from $(TORCH_CPU_INDEX)"; \
	  $(PIP) '$(TORCH_PIN)' --index-url $(TORCH_CPU_INDEX) \
	    || echo "make: $(TORCH_CPU_INDEX) failed; pip takes torch from its usual index"; \
	fi
	$(PIP) -e '.[dev]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed ocr-models fonts

install-dev: $(VENV)/.installed-dev ocr-models fonts

# The OCR models (screenshot translation, scanned PDFs) from RapidOCR's wheel on PyPI, checked by
# sha256, into assets/ocr; nothing happens once they are there. Offline, Fanyi runs without OCR.
ocr-models: | $(BIN)/python$(EXE)
	@$(BIN)/python packaging/ocr_models.py || echo "continuing without OCR models"

# The CJK fonts translated PDFs are drawn with (Noto Sans SC and TC, OFL) from the npm registry or its
# mirror, checked by sha512 and sha256, into assets/fonts; nothing happens once they are there. Offline,
# PDFs are drawn with the system's CJK fonts.
fonts: | $(BIN)/python$(EXE)
	@$(BIN)/python packaging/cjk_fonts.py || echo "continuing without the bundled CJK fonts"

# Finds an installed pack; if none, makes opus-mt-en-zh from the catalog's recipe: its files come from the
# Hugging Face Hub, hf-mirror.com or ModelScope (the first that answers) and are converted here, no torch
# needed. Offline that prints one line saying so, and the app starts anyway (it offers Import pack).
default-pack: install
	@$(BIN)/fanyi models list | grep -q '→' || $(BIN)/fanyi models install opus-mt-en-zh || true

run: default-pack
	$(BIN)/fanyi

# Static checks (configured in pyproject.toml): ruff's lint rules and formatting (a second), mypy
# (strict but for the Qt code; about a minute on two cores the first time, seconds from its cache),
# and zizmor on the GitHub workflows that build what users download (offline: no GitHub API).
lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/zizmor --offline --min-severity medium .github/workflows

test: lint
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -rs -n $(TEST_WORKERS) --dist loadfile --durations=10

$(DIST_VENV)/bin/python:
	$(PYTHON) -m venv $(DIST_VENV)

dist: $(DIST_VENV)/bin/python
	$(DIST_VENV)/bin/pip install --disable-pip-version-check -q -e '.[build]'
	$(DIST_VENV)/bin/python packaging/build.py

clean:
	rm -rf build dist .pytest_cache
