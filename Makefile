# Two entry points: `make quickstart` runs the main example, `make test` runs the suite.
# Each creates the virtual environment and installs what it needs: the quickstart only the
# library and its runtime dependencies (a few MB, seconds), the tests the whole dev extra.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev
QUICKSTART_STAMP := $(VENV)/.installed-quickstart
PIP_QUIET := -q --disable-pip-version-check

$(PY):
	python3 -m venv $(VENV)

$(QUICKSTART_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install $(PIP_QUIET) -e .
	touch $(QUICKSTART_STAMP)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install $(PIP_QUIET) --upgrade pip
	$(PY) -m pip install $(PIP_QUIET) -e '.[dev]'
	touch $(STAMP)

.PHONY: quickstart test typecheck lint docs bench bench-quick
quickstart: $(QUICKSTART_STAMP)
	$(PY) examples/rag.py
	@echo
	@echo "Next: ask your own question:  $(PY) examples/rag.py \"Who keeps the light?\""
	@echo "      more examples in examples/ (chat.py, agent.py, jokes.py); the guide: docs/index.md"
	@echo "      run the tests:            make test"

test: $(STAMP)
	HYPOTHESIS_PROFILE=ci $(PY) -m pytest -q

typecheck: $(STAMP)
	$(PY) -m mypy
	$(VENV)/bin/pyright --pythonpath $(PY)

lint: $(STAMP)
	$(VENV)/bin/ruff check
	$(VENV)/bin/ruff format --check .

docs: $(STAMP)
	$(PY) -m mkdocs build --strict

bench: $(STAMP)
	$(PY) -m pip install -q -e '.[bench]'
	$(PY) -m bench

bench-quick: $(STAMP)
	$(PY) -m pip install -q -e '.[bench]'
	$(PY) -m bench --quick
