"""How long the ``browser-agent`` command takes to answer when it does not run anything.

Runs each command line N times in a fresh interpreter (``python -m browser_agent ...``, and
``python -c "import browser_agent"``) from the repository this file is in, and prints the median and the
slowest wall time of each. Nothing is cached between runs except what the operating system caches (the
first run of all warms the disk cache and is not counted).

Run: ``.venv/bin/python benchmarks/cli_start.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ("run", "batch", "replay", "inspect", "demo", "mcp")


def command_lines() -> list[tuple[str, list[str]]]:
    """(label, argv) pairs: the CLI answers that must be instant, and the bare import."""
    cli = [sys.executable, "-m", "browser_agent"]
    lines = [
        ("--version", [*cli, "--version"]),
        ("--help", [*cli, "--help"]),
        ("(no arguments)", cli),
    ]
    lines += [(f"{name} --help", [*cli, name, "--help"]) for name in COMMANDS]
    lines.append(("import browser_agent", [sys.executable, "-c", "import browser_agent"]))
    return lines


def timed(argv: list[str]) -> float:
    env = os.environ | {"PYTHONPATH": str(ROOT)}  # this checkout, also from a worktree
    start = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--runs", type=int, default=7, help="runs per command line")
    args = parser.parse_args()
    lines = command_lines()
    timed(lines[0][1])  # warm the disk cache
    print(f"{'command':<24} {'median s':>9} {'max s':>7}  ({args.runs} runs, interleaved)")
    samples: dict[str, list[float]] = {label: [] for label, _ in lines}
    for _ in range(args.runs):  # interleaved, so a burst of load on the machine touches every line alike
        for label, argv in lines:
            samples[label].append(timed(argv))
    for label, _ in lines:
        times = samples[label]
        print(f"{label:<24} {statistics.median(times):>9.3f} {max(times):>7.3f}")


if __name__ == "__main__":
    main()
