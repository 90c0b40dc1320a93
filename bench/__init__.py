"""Benchmarks: `python -m bench` (core) and `python bench/bench_widgets.py` (widgets)."""
