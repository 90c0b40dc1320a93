# The two commands a new user needs:
#   make lab    open the lessons in JupyterLab
#   make test   run every test (unit, differential against PyTorch, notebooks, browser)
# Each installs what it needs first: a virtual environment in .venv, the front-end bundle
# (npm), and, where we are root (CI), Debian's chromium for the browser tests.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)
JS     := widgets/js
BUNDLE := widgets/static/widget.js
PYTEST_ARGS ?=

.PHONY: test lab install torch frontend browser-deps lint bench fuzz docs clean help

help:
	@echo "make lab    - open the lessons in JupyterLab"
	@echo "make test   - run every test"
	@echo "make bench  - run the benchmarks (ratios against PyTorch and a NumPy floor)"
	@echo "make fuzz   - the long differential fuzz run against PyTorch (FUZZ_PROGRAMS=2000)"
	@echo "make lint   - ruff"
	@echo "make docs   - build the documentation into docs/_site/"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[widgets,test]'
	@$(MAKE) --no-print-directory torch
	@touch $@

install: $(STAMP) frontend

# PyTorch 2.13.0 is the oracle of the differential tests. It is installed only where a local
# wheel is available (pip's find-links); elsewhere those tests skip, saying why.
torch: | $(BIN)/python
	@if $(BIN)/python -c "import torch, sys; sys.exit(torch.__version__.split('+')[0] != '2.13.0')" 2>/dev/null; then \
		echo "torch 2.13.0: installed"; \
	elif $(BIN)/pip install -q --no-deps --no-index torch==2.13.0 >/dev/null 2>&1; then \
		$(BIN)/pip install -q torch==2.13.0 && echo "torch 2.13.0: installed from the local wheel"; \
	else \
		echo "note: no local PyTorch 2.13.0 wheel; differential tests will be skipped."; \
		echo "      (to download it, several GB: $(BIN)/pip install torch==2.13.0)"; \
	fi

frontend: $(BUNDLE)

# The widgets' front end: one ES module with Graphviz (WebAssembly) inlined, so the browser
# fetches nothing. Built by esbuild from widgets/js/src; not committed.
$(BUNDLE): $(JS)/package.json $(JS)/package-lock.json $(JS)/build.mjs $(wildcard $(JS)/src/*)
	@command -v npm >/dev/null 2>&1 || { echo "error: building $@ needs Node.js and npm"; exit 1; }
	cd $(JS) && npm ci --no-audit --no-fund --loglevel=error && npm run --silent build
	@touch $@

# Debian's chromium drives the browser tests; installed when we can (root with apt-get).
browser-deps:
	@if command -v chromium >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing Debian's chromium for the browser tests"; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
		|| echo "note: chromium could not be installed; browser tests will be skipped"; \
	else echo "note: chromium not found (apt-get install chromium); browser tests will be skipped"; fi

test: install browser-deps
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lab: install
	$(BIN)/jupyter lab notebooks/ $(if $(filter 0,$(shell id -u)),--allow-root)

lint: $(STAMP)
	$(BIN)/ruff check minigrad widgets tests bench

bench: install
	$(BIN)/python -m bench

# Random programs run on minigrad and PyTorch, compared statement by statement (make test runs
# a brief version: tests/fuzz/test_fuzz.py).
FUZZ_PROGRAMS ?= 2000
fuzz: install
	$(BIN)/python tests/fuzz/run.py --programs $(FUZZ_PROGRAMS)

docs: $(STAMP)
	$(BIN)/python docs/build.py

clean:
	rm -rf $(VENV) $(JS)/node_modules $(BUNDLE) build *.egg-info
