"""Benchmarks: `python -m bench` (core), `python bench/bench_widgets.py` (widgets) and
`python bench/bench_hub.py` (students at once on a real JupyterHub; docs/classroom)."""
