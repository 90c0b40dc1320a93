# The two commands a new user needs:
#   make lab    open the lessons in JupyterLab
#   make test   run every test (unit, differential against PyTorch, notebooks, browser)
# Each installs what it needs first: a virtual environment in .venv, the front-end bundle
# (npm), and, where we are root (CI), Debian's chromium for the browser tests.
# For a class (no clone, no Node.js): make wheelhouse student, then in build/student/
#   pip install --no-index --find-links wheelhouse 'minigrad-autograd[lab]'   (or [course] on a hub)

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml hatch_build.py | cksum | cut -d' ' -f1)
JS     := widgets/js
BUNDLE := widgets/static/widget.js
PYTEST_ARGS ?=

.PHONY: test lab lessons student nbgrader install torch frontend browser-deps lint bench fuzz docs dist \
	wheelhouse generated clean help

help:
	@echo "make lab    - open the course (notebooks/index.ipynb) in JupyterLab"
	@echo "make lessons [L=03] - build the lessons from notebooks/_source/ and run them"
	@echo "make student [STUDENT=build/student] - the hand-out version, without solutions"
	@echo "make nbgrader [NBGRADER=build/nbgrader] - the exercises as nbgrader courses (en, zh)"
	@echo "make test   - run every test"
	@echo "make bench  - run the benchmarks (ratios against PyTorch and a NumPy floor)"
	@echo "make fuzz   - the long differential fuzz run against PyTorch (FUZZ_PROGRAMS=2000)"
	@echo "make lint   - ruff"
	@echo "make generated - rewrite the files made from the code: the type stub, docs/coverage.md"
	@echo "make docs   - build the documentation site into docs/_build/html/ (warnings fail it)"
	@echo "make dist   - build the sdist and the wheel (with the front end) into dist/"
	@echo "make wheelhouse - every wheel a class needs, into wheelhouse/ (offline installs)"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): pyproject.toml hatch_build.py | $(BIN)/python
	$(BIN)/pip install -q -e '.[lab,test,docs]'
	@$(MAKE) --no-print-directory torch
	@touch $@

install: $(STAMP) frontend

# PyTorch 2.13.0 is the oracle of the differential tests. It is installed only where a local
# wheel is available (pip's find-links); elsewhere those tests skip, saying why.
# torchviz (tests/fidelity/test_torchviz.py) comes with it, --no-deps: its one big dependency is
# torch. So does Intel's MKL runtime (tests/random/test_intel_mkl.py: PyTorch's Intel-only
# bernoulli_ path, checked against MKL itself).
torch: | $(BIN)/python
	@if $(BIN)/python -c "import torch, sys; sys.exit(torch.__version__.split('+')[0] != '2.13.0')" 2>/dev/null; then \
		echo "torch 2.13.0: installed"; \
	elif $(BIN)/pip install -q --no-deps --no-index torch==2.13.0 >/dev/null 2>&1; then \
		$(BIN)/pip install -q torch==2.13.0 && echo "torch 2.13.0: installed from the local wheel"; \
	fi
	@if $(BIN)/python -c "import torch" 2>/dev/null; then \
		$(BIN)/python -c "import torchviz" 2>/dev/null || $(BIN)/pip install -q --no-deps torchviz==0.0.3 \
		|| echo "note: torchviz not installed"; \
		ls $(VENV)/lib/libmkl_rt.so.* >/dev/null 2>&1 || $(BIN)/pip install -q mkl \
		|| echo "note: mkl not installed"; \
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

# Debian's chromium drives the browser tests, and Graphviz's `dot` checks that the DOT we write
# renders (the widgets never need it); installed when we can (root with apt-get).
browser-deps:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v dot >/dev/null 2>&1 || missing="$$missing graphviz"; \
	fc-list :lang=zh 2>/dev/null | grep -q . || missing="$$missing fonts-noto-cjk"; \
	if [ -z "$$missing" ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing Debian's$$missing for the browser and DOT tests and the Chinese plots"; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null) \
		|| echo "note:$$missing could not be installed; the tests that need it will be skipped"; \
	else echo "note:$$missing not found (apt-get install$$missing); the tests that need it will be skipped"; fi

test: install browser-deps
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lab: install
	cd notebooks && ../$(BIN)/jupyter lab index.ipynb $(if $(filter 0,$(shell id -u)),--allow-root)

# The lessons are built from one source each (notebooks/_source/NN_slug.md): English and
# Chinese notebooks and their solutions, executed so that the stored outputs are real.
L ?=
lessons: install
	$(BIN)/python notebooks/build.py $(L)

STUDENT ?= build/student
student: $(STAMP)  # with wheelhouse/ inside if `make wheelhouse` ran first
	$(BIN)/python notebooks/build.py --student $(STUDENT)

# The exercises as graded assignments: one nbgrader course per language (docs/classroom/grading.md).
NBGRADER ?= build/nbgrader
nbgrader: $(STAMP)
	$(BIN)/python notebooks/grading.py $(NBGRADER)

# After adding an op: the files generated from the declarations (tests fail while they are stale).
generated: $(STAMP)
	$(BIN)/python -m minigrad._stubgen
	$(BIN)/python tests/fidelity/test_coverage.py

lint: $(STAMP)
	$(BIN)/ruff check minigrad widgets tests bench docs notebooks/build.py notebooks/grading.py notebooks/_course

bench: install
	$(BIN)/python -m bench

# Random programs run on minigrad and PyTorch, compared statement by statement (make test runs
# a brief version: tests/fuzz/test_fuzz.py).
FUZZ_PROGRAMS ?= 2000
fuzz: install
	$(BIN)/python tests/fuzz/run.py --programs $(FUZZ_PROGRAMS) --report build/fuzz-report.md

# Sphinx + myst-nb (docs/README.md says why); lessons render from their stored outputs.
docs: $(STAMP)
	rm -rf docs/_build
	$(BIN)/python -m sphinx -W --keep-going -q -b html docs docs/_build/html
	@echo "docs: open docs/_build/html/index.html"

# The sdist and the wheel, each carrying the front-end bundle (the build runs esbuild through
# hatch-jupyter-builder and fails if it cannot). Needs only `build` in the venv, not `make install`.
dist: | $(BIN)/python
	@$(BIN)/python -c "import build" 2>/dev/null || $(BIN)/pip install -q build
	rm -rf dist
	$(BIN)/python -m build --outdir dist .

# Every wheel a class needs, for a lab without internet or behind a slow mirror:
#   pip install --no-index --find-links wheelhouse 'minigrad-autograd[lab]'
WHEELHOUSE_EXTRAS ?= lab
wheelhouse: dist
	rm -rf wheelhouse
	$(BIN)/pip wheel -q --wheel-dir wheelhouse "$$(ls dist/*.whl)[$(WHEELHOUSE_EXTRAS)]"
	@echo "wheelhouse: $$(ls wheelhouse | wc -l) wheels in wheelhouse/"

clean:
	rm -rf $(VENV) $(JS)/node_modules $(BUNDLE) build dist wheelhouse docs/_build docs/jupyter_execute docs/lessons *.egg-info
