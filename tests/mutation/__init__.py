"""A small mutation-testing runner: ``python -m tests.mutation`` (``make mutate``).

One-spot mutants of each target module (``targets.txt``) are sampled with a fixed seed; each is run
against only the tests that cover its line (per-test line coverage, collected once and cached under
``.mutation-cache/``), in a subprocess whose ``PYTHONPATH`` points at a temporary copy of ``src/`` that
holds the mutant. The working tree is never written. See ``python -m tests.mutation --help``.
"""
