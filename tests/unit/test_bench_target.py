"""``make bench`` runs every benchmark the way its recipe names it: a script by its path (its folder first
on ``sys.path``) or a module with ``-m`` (the checkout first). A benchmark that imports ``benchmarks.…``
only works as a module; run by its path, it stops at its imports (as replay_bench.py once did)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from tests.support.forked import python_run

ROOT = Path(__file__).resolve().parents[2]

# One process imports each benchmark in turn, with the sys.path `python ARGS` would give it and none of the
# checkout's own modules left from the one before, and asks it for --help (argparse exits there). It is
# forked from one that has imported the package and the libraries (tests/support/forked.py): only the
# benchmarks' own modules are imported here.
IMPORT_EACH = r"""
import os, runpy, sys
root = os.getcwd()
rest = [p for p in sys.path if os.path.abspath(p or ".") != root]  # the checkout only where a form puts it
ours = tuple(os.path.join(root, folder) + os.sep for folder in ("benchmarks", "tests"))
for command in sys.argv[1:]:
    for name, module in list(sys.modules.items()):
        where = getattr(module, "__file__", None) or ""
        if name.split(".")[0] in ("benchmarks", "tests") or where.startswith(ours):
            del sys.modules[name]
    form, target = command.split(" ", 1)
    sys.argv = [target, "--help"]
    try:
        if form == "-m":
            sys.path[:] = [root, *rest]
            runpy.run_module(target, run_name="__main__", alter_sys=True)
        else:
            sys.path[:] = [os.path.dirname(os.path.abspath(target)), *rest]
            runpy.run_path(target, run_name="__main__")
    except SystemExit as end:
        if end.code not in (0, None):
            raise
    print("imported:", command, flush=True)
"""


def _bench_commands() -> list[str]:
    """``-m MODULE`` or ``path SCRIPT`` for each line of the Makefile's bench recipe."""
    recipe = ROOT.joinpath("Makefile").read_text().split("\nbench:", 1)[1].split("\n\n", 1)[0]
    commands = []
    for line in recipe.splitlines()[1:]:
        found = re.fullmatch(r"\t\$\(PY\) (-m \S+|\S+\.py)\b.*", line)
        assert found, f"a bench line that is not `$(PY) SCRIPT` or `$(PY) -m MODULE`: {line!r}"
        argument = found.group(1)
        commands.append(argument if argument.startswith("-m ") else f"path {argument}")
    return commands


def test_every_benchmark_of_make_bench_imports_as_its_recipe_runs_it() -> None:
    commands = _bench_commands()
    assert len(commands) >= 8
    done = python_run(["-c", IMPORT_EACH, *commands], env=dict(os.environ), cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert [line for line in done.stdout.splitlines() if line.startswith("imported:")] == [
        f"imported: {command}" for command in commands
    ]
