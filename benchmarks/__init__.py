"""toolwire benchmarks: ``python -m benchmarks`` runs them all and prints medians and ratios."""
