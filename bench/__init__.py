"""Benchmarks (not installed; run `python bench/bench.py`)."""
