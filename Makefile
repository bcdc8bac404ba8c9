# browser_agent — every target installs what it needs first. `make help` lists them.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
RUNTIME := $(VENV)/.installed-runtime
DEV     := $(VENV)/.installed-dev
# The dev set's packages alone: mypy needs them, not the Chromium (see test below).
DEV_PACKAGES := $(VENV)/.installed-dev-packages

.DEFAULT_GOAL := help
.PHONY: help demo install test lint typecheck unit integration bench clean
space := $(subst ,, )

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

# Packages go in with uv when it can be had (it installs the dev set in about 3 s where pip takes 35);
# `make test INSTALLER=pip`, or a failed uv install, uses pip and its configuration (mirrors, constraints).
# No bytecode is compiled at install: Python writes it for each module the first time one is imported
# (so a PYTHONDONTWRITEBYTECODE in the environment is not passed on to the recipes); under `make test`
# that is the one process the test workers are forked from (tests/support/forked.py).
unexport PYTHONDONTWRITEBYTECODE
INSTALLER ?= uv
UV := $(VENV)/bin/uv
PIP_INSTALL = $(PY) -m pip install --quiet --no-compile
# pip itself goes into the environment only when it is used (see $(PY) below).
ENSURE_PIP = { $(PY) -m pip --version >/dev/null 2>&1 || $(PY) -m ensurepip --quiet; }
INSTALL = $(if $(and $(filter uv,$(INSTALLER)),$(wildcard $(UV))),$(UV) pip install --quiet --python $(PY) $(1) || ){ $(ENSURE_PIP) && $(PIP_INSTALL) $(1); }

# With uv, the environment is made without pip (putting pip in takes 4 s) and this Python's own pip puts uv
# in it (pip 22.3 and later can install into another environment); where that cannot be done, the usual
# environment with pip, which then installs uv, or everything when uv cannot be had.
$(PY):
	$(if $(filter uv,$(INSTALLER)),$(PYTHON) -m venv --without-pip $(VENV) && $(PYTHON) -m pip --python $(PY) install --quiet uv 2>/dev/null || { $(PYTHON) -m venv $(VENV) && { $(PY) -m pip install --quiet uv || echo "uv is not available; installing with pip"; }; },$(PYTHON) -m venv $(VENV))

# What the demo and the README's next steps need: the package, its runtime dependencies and the
# OpenAI-compatible provider (every local model server speaks it), and a Chromium.
$(RUNTIME): pyproject.toml | $(PY)
	$(call INSTALL,-e '.[openai]')
	$(PY) -m browser_agent.cli.install
	touch $(RUNTIME)

# Optional extras into this clone's environment, with the installer that works in it (the environment may
# have no pip of its own): make install EXTRAS=ui,eval
EXTRAS ?=
install: $(RUNTIME)  ## add optional extras to .venv: make install EXTRAS=ui,eval (openai, anthropic, ollama, mcp, ray, gif, eval, ui)
	$(if $(strip $(EXTRAS)),$(call INSTALL,-e '.[$(subst $(space),,$(EXTRAS))]'),@echo "name the extras: make install EXTRAS=ui,eval")

# What the tests need besides: the dev tools and every optional extra (providers, MCP, Ray, Pillow). In one
# install with the runtime (one resolution), then the same Chromium.
$(DEV_PACKAGES): pyproject.toml | $(PY)
	$(call INSTALL,-e '.[dev]')
	touch $(DEV_PACKAGES)

$(DEV): $(DEV_PACKAGES)
	$(PY) -m browser_agent.cli.install
	touch $(RUNTIME) $(DEV)

demo: $(RUNTIME)  ## install the package and a Chromium, then run the offline demo (replay on a local shop)
	$(VENV)/bin/browser-agent demo

# The suite runs in parallel (pytest-xdist): each worker has its own servers and Chromium. Four workers on
# two cores, because many tests wait on subprocesses and timers (alternated runs on these machines: 150-157 s
# with four, 165-174 s with three; benchmarks/README.md); worksteal evens out the long tests, which
# tests/support/start_order.py puts at the front of each worker's share. The
# workers are forked from one process that imports what they need first (tests/support/forked.py). mypy
# starts as soon as the packages are in, so that the Chromium check and ruff run beside it (2-3 s of a
# fresh clone), then it goes on on the other core while the workers start; its report is printed after
# the tests'.
WORKERS ?= 4
PARALLEL = -n $(WORKERS) --dist worksteal

test: $(DEV_PACKAGES)  ## install the dev set, then run lint, type checks and the whole test suite
	$(VENV)/bin/mypy > $(VENV)/mypy.out 2>&1 & mypy=$$!; \
	$(MAKE) --no-print-directory $(DEV) \
	&& $(VENV)/bin/ruff check browser_agent tests examples benchmarks \
	&& $(VENV)/bin/pytest -q -p no:cacheprovider $(PARALLEL); tests=$$?; \
	wait $$mypy; types=$$?; cat $(VENV)/mypy.out; exit $$(( tests ? tests : types ))

unit: $(DEV)  ## only the unit tests (no browser)
	$(VENV)/bin/pytest -q tests/unit

integration: $(DEV)  ## only the integration tests (real Chromium, servers, subprocesses), in parallel
	$(VENV)/bin/pytest -q -p no:cacheprovider $(PARALLEL) tests/integration

lint: $(DEV)  ## ruff
	$(VENV)/bin/ruff check browser_agent tests examples benchmarks

typecheck: $(DEV)  ## mypy --strict on the package
	$(VENV)/bin/mypy

bench: $(DEV)  ## the benchmarks (DOM, step overhead, marks layout, session start, replay, report size, MCP view tokens, batch throughput, soak)
	$(PY) benchmarks/dom_bench.py
	$(PY) benchmarks/step_bench.py
	$(PY) -m benchmarks.marks_bench
	$(PY) benchmarks/session_start.py --runs 3
	$(PY) -m benchmarks.replay_bench
	$(PY) benchmarks/report_bench.py
	$(PY) benchmarks/mcp_tokens.py
	$(PY) -m benchmarks.throughput
	$(PY) -m benchmarks.soak

clean:  ## remove the virtual environment and caches
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
