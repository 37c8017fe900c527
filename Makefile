# Everything runs from a local virtualenv in .venv (created by `make setup`).
VENV ?= .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
PYTHON ?= python3

.PHONY: setup setup-verl setup-report demo test test-fast test-real-server bench lint clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip setuptools wheel
	$(PY) -m pip install -q -e '.[dev]'
	touch $@

# verl 0.9.1 with the CPU torch: needed by `bc-train --check` and its tests (~2 GB, ~2 min).
# CI installs the reasoning-gym extra here too (bootcamps rg/<dataset> and their conformance), and the mcp extra
# (bc-toolserve's MCP endpoint and its tests).
setup-verl: setup
	$(PY) -m pip install -q -e '.[dev,verl,poker,robotics,battery,report,reasoning-gym,mcp]'

# bc-report's plotting libraries (Altair, vl-convert, numpy; ~100 MB): the demo ends with a report
setup-report: $(VENV)/.installed-report

$(VENV)/.installed-report: $(VENV)/.installed
	$(PY) -m pip install -q -e '.[dev,report]'
	touch $@

demo: setup-report
	@bash scripts/demo.sh

test: setup
	$(BIN)/pytest

test-fast: setup
	$(BIN)/pytest -m "not slow"

# bc-eval against llama.cpp's llama-server + Gemma-3-270M on loopback. Builds both once into BC_CACHE_DIR
# (default ~/.cache/bootcamp-harness, outside the clone; ~8 min on 2 cores), then reuses them; skipped where the
# build is impossible (no compiler, no registry)
test-real-server: setup
	VENV=$(VENV) bash scripts/real_server_test.sh

bench: setup
	@for b in bench/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

lint: setup
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache runs/demo
