# Everything runs from a local virtualenv in .venv (created by `make setup`).
VENV ?= .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
PYTHON ?= python3

.PHONY: setup bytecode setup-verl setup-report demo test test-fast test-real-server test-interop python312 test-adapters-full test-ray-full bootcamp-table rg-reclassify rc-reclassify curriculum bench lint clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip setuptools wheel
	$(PY) -m pip install -q -e '.[dev]'
	$(MAKE) --no-print-directory bytecode
	touch $@

# what pip does for a regular install: an editable one leaves our modules to be compiled on first import, and
# where PYTHONDONTWRITEBYTECODE is set (many container images) on every start of every tool (~20 ms of bc-filter's)
bytecode:
	$(PY) -m compileall -q -j 0 bc-common bc-eval bc-filter bc-gen bc-report bc-toolserve bc-train bootcamps > /dev/null

# verl 0.9.1 with the CPU torch: needed by `bc-train --check` and its tests (~2 GB, ~2 min).
# CI installs the reasoning-gym extra here too (bootcamps rg/<dataset> and their conformance), and the mcp extra
# (bc-toolserve's MCP endpoint and its tests).
setup-verl: setup
	$(PY) -m pip install -q -e '.[dev,verl,poker,robotics,battery,report,report-schema,reasoning-gym,reasoning-core,textarena,openspiel,puzzles,symbolic,mcp,tokens,ray]'
	$(MAKE) --no-print-directory bytecode

# bc-report's plotting libraries (vl-convert, numpy): the demo ends with a report
setup-report: $(VENV)/.installed-report

$(VENV)/.installed-report: $(VENV)/.installed
	$(PY) -m pip install -q -e '.[dev,report]'
	touch $@

demo: setup-report
	@bash scripts/demo.sh

# TEST_WORKERS pytest-xdist processes (most tests wait on subprocesses, servers and sandboxes, so two workers keep a
# 2-core machine busy); a bootcamp's conformance checks stay on one worker (--dist loadgroup). TEST_WORKERS=0: serial
TEST_WORKERS ?= 2

test: setup
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadgroup --durations=40

test-fast: setup
	$(BIN)/pytest -m "not slow"

# bc-eval against llama.cpp's llama-server + Gemma-3-270M on loopback. Builds both once into BC_CACHE_DIR
# (default ~/.cache/bootcamp-harness, outside the clone; ~8 min on 2 cores), then reuses them; skipped where the
# build is impossible (no compiler, no registry)
test-real-server: setup
	VENV=$(VENV) bash scripts/real_server_test.sh

# our bootcamps inside verifiers 0.4, OpenEnv 0.10 and NeMo Gym 0.4 (bc_common.interop; docs/interop-*.md), each tested
# against the real peer. Each peer pins its own openai, mcp, pydantic and fastapi (verifiers: mcp==2.0.0, openai<3;
# OpenEnv: fastmcp 3 with mcp 1.x, openai 3, gradio; NeMo Gym: mcp<2, openai<=2.7.2), so each has a virtualenv of its own. Those are built once per (our
# dependencies, the peers' pins, Python) under BC_CACHE_DIR, outside the clone like test-real-server's build (pip
# keeps no download cache here: a build is 4-8 min a peer on 2 cores), then only re-pointed at this clone (an
# editable install without dependencies). The import check: a peer that failed to install fails, never skips.
BC_CACHE_DIR ?= $(HOME)/.cache/bootcamp-harness
INTEROP_KEY = $(shell $(PYTHON) -c 'import hashlib, json, sys, tomllib; p = tomllib.load(open("pyproject.toml", "rb"))["project"]; o = p["optional-dependencies"]; print(hashlib.sha256(json.dumps([sys.version_info[:2], p["dependencies"], o["dev"], o["verifiers"], o["openenv"]]).encode()).hexdigest()[:12])')
INTEROP_VENVS = $(BC_CACHE_DIR)/interop-$(INTEROP_KEY)
# NeMo Gym 0.4 (pins mcp<2, openai<=2.7.2, ray[default]) needs Python >= 3.12, newer than ours may be: its virtualenv
# is built with PYTHON312, by default the first python3.12 that runs (on PATH, then pyenv's; a pyenv shim of a version
# not selected does not run). None found fails the target, never skips it (.ci/run installs one with apt where apt
# has it, and only where none can be had runs the target with INTEROP_PEERS="verifiers openenv", warning). Its key (its pin, ours, that Python's version) is its own, so adding it rebuilt no other peer's virtualenv.
PYTHON312 ?= $(shell for p in python3.12 $$(pyenv root 2>/dev/null || echo $$HOME/.pyenv)/versions/3.12*/bin/python3.12; do "$$p" -c 'import sys, ensurepip; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1 && { command -v "$$p"; break; }; done)
NEMO_GYM_KEY = $(shell $(PYTHON312) -c 'import hashlib, json, sys, tomllib; p = tomllib.load(open("pyproject.toml", "rb"))["project"]; o = p["optional-dependencies"]; print(hashlib.sha256(json.dumps([sys.version_info[:2], p["dependencies"], o["dev"], o["nemo-gym"]]).encode()).hexdigest()[:12])')
NEMO_GYM_VENV = $(BC_CACHE_DIR)/interop-nemo-gym-$(NEMO_GYM_KEY)

python312:
	@[ -n "$(PYTHON312)" ] && "$(PYTHON312)" -c 'import sys, ensurepip; sys.exit(sys.version_info < (3, 12))' 2>/dev/null \
	  && command -v "$(PYTHON312)" \
	  || { echo "no Python >= 3.12 with venv found (PYTHON312='$(PYTHON312)'): the nemo-gym peer of make test-interop needs one; install it (apt-get install python3.12 python3.12-venv, or pyenv install 3.12) or set PYTHON312=/path/to/python3.12" >&2; exit 1; }

# the peers tested; .ci/run leaves nemo-gym out, saying so, only on a machine where no Python >= 3.12 can be had
INTEROP_PEERS ?= verifiers openenv nemo-gym

test-interop: $(if $(filter nemo-gym,$(INTEROP_PEERS)),python312)
	@set -e; for peer in $(INTEROP_PEERS); do \
	  venv="$(INTEROP_VENVS)/$$peer"; python="$(PYTHON)"; \
	  if [ $$peer = nemo-gym ]; then venv="$(NEMO_GYM_VENV)"; python="$(PYTHON312)"; fi; \
	  if [ ! -f "$$venv/.installed" ]; then \
	    echo "building $$venv (once)"; rm -rf "$$venv"; $$python -m venv "$$venv"; \
	    "$$venv/bin/pip" install -q ".[dev,$$peer]"; touch "$$venv/.installed"; \
	  fi; \
	  "$$venv/bin/pip" install -q --no-deps -e .; \
	done
	@set -e; for peer in $(INTEROP_PEERS); do case $$peer in \
	  verifiers) $(INTEROP_VENVS)/verifiers/bin/python -c 'import verifiers.v1, bc_verifiers'; \
	    $(INTEROP_VENVS)/verifiers/bin/pytest tests/interop/test_verifiers.py --durations=5;; \
	  openenv) $(INTEROP_VENVS)/openenv/bin/python -c 'import openenv.core, bc_common.interop.openenv_env'; \
	    $(INTEROP_VENVS)/openenv/bin/pytest tests/interop/test_openenv.py --durations=5;; \
	  nemo-gym) $(NEMO_GYM_VENV)/bin/python -c 'import nemo_gym, bc_common.interop.nemo_gym_env'; \
	    $(NEMO_GYM_VENV)/bin/pytest tests/interop/test_nemo_gym.py --durations=5;; \
	  *) echo "unknown interop peer $$peer (known: verifiers openenv nemo-gym)" >&2; exit 2;; \
	esac; done

# the conformance suite (attack and signal checks) on every rg/<dataset> and rc/<task>, withheld ones included (CI
# samples them)
test-adapters-full: setup-verl
	BC_ADAPTERS_FULL=1 BC_INCLUDE_KNOWN_ISSUES=1 $(BIN)/pytest tests/bootcamps/test_conformance.py -q -k 'rg/ or rc/ or os/ or pz/'
	BC_ADAPTERS_FULL=1 $(BIN)/pytest tests/gen/test_set_values.py -q -k adapted --timeout 1800

# the acceptance size of the Ray tool-worker test (1,000 sessions x 10 calls; CI runs 200 x 10) and the scale recipes
test-ray-full: setup-verl
	BC_RAY_FULL=1 $(BIN)/pytest -p no:xdist tests/toolserve/test_ray_workers.py tests/scale -q -s

# the measured table of docs/bootcamps.md: reference / noisy / baselines per bootcamp and group, distinct rate, rows/s
bootcamp-table: setup
	$(PY) scripts/bootcamp_table.py

# which rg datasets are withheld by default: every check on every dataset, then bootcamps/rg/withheld.py
rg-reclassify: setup
	rm -f runs/rg-reclassify.jsonl && mkdir -p runs
	for d in $$($(PY) -c 'from bootcamps.rg.datasets import names; print(" ".join(names()))'); do \
	  timeout 900 $(PY) scripts/rg_reclassify.py measure $$d >> runs/rg-reclassify.jsonl \
	    || echo "{\"dataset\": \"$$d\", \"seconds\": 900, \"failures\": {\"time\": \"the suite did not finish in 900 s\"}}" >> runs/rg-reclassify.jsonl; \
	done
	$(PY) scripts/rg_reclassify.py write runs/rg-reclassify.jsonl

# which rc tasks are withheld by default: every check on every task, then bootcamps/rc/withheld.py
rc-reclassify: setup
	rm -f runs/rc-reclassify.jsonl && mkdir -p runs
	for t in $$($(PY) -c 'from bootcamps.rc.tasks import roster; print(" ".join(roster()))'); do \
	  timeout 900 $(PY) scripts/rc_reclassify.py measure $$t >> runs/rc-reclassify.jsonl \
	    || echo "{\"task\": \"$$t\", \"seconds\": 900, \"failures\": {\"time\": \"the suite did not finish in 900 s\"}}" >> runs/rc-reclassify.jsonl; \
	done
	$(PY) scripts/rc_reclassify.py write runs/rc-reclassify.jsonl

# the curriculum loop: bc-gen | bc-eval | bc-gen --curriculum, ROUNDS times (MODEL, BOOTCAMP, N, BAND to taste)
BOOTCAMP ?= arithmetic
MODEL ?= builtin:noisy
ROUNDS ?= 3
N ?= 100
BAND ?= 0.2:0.8
CURRICULUM_DIR ?= runs/curriculum
curriculum: setup
	mkdir -p $(CURRICULUM_DIR)
	$(BIN)/bc-gen $(BOOTCAMP) -n $(N) --seed 0 -o $(CURRICULUM_DIR)/tasks-0.jsonl
	@for r in $$(seq 0 $$(($(ROUNDS) - 1))); do \
	  $(BIN)/bc-eval $(CURRICULUM_DIR)/tasks-$$r.jsonl --model $(MODEL) -o $(CURRICULUM_DIR)/eval-$$r.jsonl -q \
	    --summary $(CURRICULUM_DIR)/summary-$$r.json || exit 1; \
	  $(BIN)/bc-gen $(BOOTCAMP) --curriculum $(CURRICULUM_DIR)/eval-$$r.jsonl --band $(BAND) -n $(N) \
	    --seed $$((r + 1)) -o $(CURRICULUM_DIR)/tasks-$$((r + 1)).jsonl || exit 1; \
	done

bench: setup bytecode
	@for b in bench/[!_]*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

lint: setup
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache runs/demo runs/curriculum
