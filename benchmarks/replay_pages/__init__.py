"""Generated fixture pages for benchmarks/replay_bench.py."""
