# Two entry points: `make quickstart` runs the main example, `make test` runs the suite.
# Each creates the virtual environment and installs what it needs.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

.PHONY: quickstart test typecheck lint bench bench-quick
quickstart: $(STAMP)
	$(PY) examples/rag.py

test: $(STAMP)
	HYPOTHESIS_PROFILE=ci $(PY) -m pytest -q

typecheck: $(STAMP)
	$(PY) -m mypy
	$(VENV)/bin/pyright --pythonpath $(PY)

lint: $(STAMP)
	$(VENV)/bin/ruff check
	$(VENV)/bin/ruff format --check .

bench: $(STAMP)
	$(PY) -m pip install -q -e '.[bench]'
	$(PY) -m bench

bench-quick: $(STAMP)
	$(PY) -m pip install -q -e '.[bench]'
	$(PY) -m bench --quick
