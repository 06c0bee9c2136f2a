# toolwire — set-up and checks. Both targets install everything they need into .venv.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup demo test lint typecheck bench clean-venvs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

setup: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'

demo: setup
	$(BIN)/toolwire demo --gateway

lint: setup
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: setup
	$(BIN)/mypy

test: lint typecheck
	$(BIN)/python -m pytest

bench: setup
	$(BIN)/python -m benchmarks

# The wheel installed with each extra into fresh venvs (network: PyPI), checked as a user would.
clean-venvs: setup
	$(BIN)/python .ci/clean_venvs.py
