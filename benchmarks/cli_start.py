"""How long the ``browser-agent`` command takes to answer when it does not run anything.

Runs each command line N times in a fresh interpreter (``python -m browser_agent ...``,
``python -c "import browser_agent"``, and ``python -c pass``: the floor, the interpreter alone) from the
repository this file is in (or ``--root``, e.g. another checkout to compare with), and prints the median
and the slowest wall time of each. The lines take turns run by run, so a burst of load on the machine
touches all of them alike; nothing is cached between runs but what the operating system caches (one
warm-up run first is not counted).

``--dead-server`` also times ``browser-agent run`` against a model server that is not there
(``--base-url http://127.0.0.1:9/v1``) and prints its exit code and last line.

Run: ``.venv/bin/python benchmarks/cli_start.py [--runs N] [--root DIR] [--dead-server]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

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
    lines.append(("python -c pass (floor)", [sys.executable, "-c", "pass"]))  # the interpreter alone
    return lines


def timed(argv: list[str], root: Path) -> tuple[float, subprocess.CompletedProcess[str]]:
    env = os.environ | {"PYTHONPATH": str(root)}  # that checkout's code, also a worktree's
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, check=False)
    return time.perf_counter() - start, done


def dead_server(root: Path, runs: int) -> None:
    """``run`` against a port where nothing listens: how long until it gives up, and what it says."""
    argv = [sys.executable, "-m", "browser_agent", "run", "Read the code", "--model", "openai:local"]
    argv += ["--base-url", "http://127.0.0.1:9/v1"]
    results = [timed(argv, root) for _ in range(runs)]
    done = results[-1][1]
    last = (done.stderr.strip().splitlines() or [""])[-1]
    seconds = statistics.median(t for t, _ in results)
    print(f"{'run, dead model server':<24} {seconds:>9.3f} {max(t for t, _ in results):>7.3f}")
    print(f"  exit {done.returncode}: {last[:160]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--runs", type=int, default=7, help="runs per command line")
    parser.add_argument(
        "--root", type=Path, default=Path(__file__).resolve().parents[1], help="the checkout to measure"
    )
    parser.add_argument("--dead-server", action="store_true", help="also time a run on a dead server")
    args = parser.parse_args()
    root = args.root.resolve()
    lines = command_lines()
    timed(lines[0][1], root)  # warm the disk cache
    print(f"checkout: {root}")
    print(f"{'command':<24} {'median s':>9} {'max s':>7}  ({args.runs} runs, interleaved)")
    samples: dict[str, list[float]] = {label: [] for label, _ in lines}
    for _ in range(args.runs):  # interleaved, so a burst of load on the machine touches every line alike
        for label, argv in lines:
            samples[label].append(timed(argv, root)[0])
    for label, _ in lines:
        times = samples[label]
        print(f"{label:<24} {statistics.median(times):>9.3f} {max(times):>7.3f}")
    if args.dead_server:
        dead_server(root, max(1, min(args.runs, 3)))


if __name__ == "__main__":
    main()
