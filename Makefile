# Two commands set everything up on a fresh machine:
#   make run    virtualenv + install + find (or, when online, build) the default pack + start the app
#   make test   virtualenv + install with the test extras + the whole test suite
# and one builds this platform's bundle and installer into dist/ (see packaging/build.py):
#   make dist
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# torch comes as a CPU-only wheel when pinned; an unpinned torch would pull a multi-GB CUDA build
PIP    := $(BIN)/pip install --disable-pip-version-check -q

# The bundle is built in a venv of its own holding only the runtime dependencies and PyInstaller,
# so no export tooling (torch, transformers) can end up in it.
DIST_VENV ?= .venv-dist

.PHONY: run test install install-dev default-pack dist clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

install: $(BIN)/python
	$(PIP) -e .

install-dev: $(BIN)/python
	$(PIP) -e '.[dev]'

# Finds an installed pack; if none, tries to build opus-mt-en-zh (needs internet and the export extra).
default-pack: install
	@$(BIN)/fanyi models list | grep -q '→' || \
	  ( $(BIN)/python -c "import torch" 2>/dev/null && $(BIN)/fanyi models fetch opus-mt-en-zh ) || \
	  echo "No model pack yet: the app will start and explain how to get one."

run: default-pack
	$(BIN)/fanyi

test: install-dev
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q

$(DIST_VENV)/bin/python:
	$(PYTHON) -m venv $(DIST_VENV)

dist: $(DIST_VENV)/bin/python
	$(DIST_VENV)/bin/pip install --disable-pip-version-check -q -e '.[build]'
	$(DIST_VENV)/bin/python packaging/build.py

clean:
	rm -rf build dist .pytest_cache
