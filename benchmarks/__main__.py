"""Run every benchmark: ``python -m benchmarks``."""

from __future__ import annotations

import platform

from benchmarks import (
    bench_arguments,
    bench_convert,
    bench_emulator,
    bench_gateway,
    bench_pairs,
    bench_parallel,
    bench_stateful,
    bench_store,
    bench_stream,
    bench_tools,
    bench_trace,
    bench_validate,
    bench_validators,
)


def main() -> None:
    """Run the benchmarks in order and print their tables."""
    print(f"python {platform.python_version()} on {platform.machine()}; medians of 15 batches")
    for module in (
        bench_tools,
        bench_convert,
        bench_pairs,
        bench_stream,
        bench_parallel,
        bench_arguments,
        bench_validate,
        bench_validators,
        bench_emulator,
        bench_store,
        bench_gateway,
        bench_trace,
        bench_stateful,
    ):
        print()
        module.run()


if __name__ == "__main__":
    main()
