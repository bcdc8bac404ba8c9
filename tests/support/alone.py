"""Turns for tests that need the machine to themselves while pytest-xdist runs the others in parallel.

A test marked ``alone`` bounds a wait against the wall clock on a page that takes the processor (runaway
scripts in many tabs): with other tests running beside it on two cores, the page's own processes starve
and the bound it checks no longer says anything about the code. Such a test waits until the tests running
in the other workers end, and they start no new test until it is done.

Two file locks shared by the workers of one run: ``run`` is held shared by every test that runs and
exclusively by an ``alone`` one; ``gate`` is taken first by everyone, so that a waiting ``alone`` test
is not starved by tests that keep taking ``run`` shared one after another.
"""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def turn(folder: Path, *, alone: bool) -> Iterator[None]:
    """Hold the run lock in ``folder``: shared for an ordinary test, exclusive for an ``alone`` one."""
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "gate.lock").open("a") as gate, (folder / "run.lock").open("a") as run:
        fcntl.flock(gate, fcntl.LOCK_EX)
        try:
            fcntl.flock(run, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        finally:
            if not alone:
                fcntl.flock(gate, fcntl.LOCK_UN)  # others may start; an alone test keeps the gate
        try:
            yield
        finally:
            fcntl.flock(run, fcntl.LOCK_UN)
            fcntl.flock(gate, fcntl.LOCK_UN)
