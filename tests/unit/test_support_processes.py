"""tests/support/processes.py judges whether a run left processes: it must see a leak, and only one."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys

from tests.support.processes import descendants, leftovers

# A process that starts a child of its own a moment later, as a shared browser starts a utility process.
SPAWNS_LATER = "import subprocess, sys, time; time.sleep(0.3); subprocess.run([sys.executable, '-c', "
SPAWNS_LATER += "'import time; time.sleep(30)']); time.sleep(30)"


async def test_a_process_started_since_is_a_leftover_with_its_command_line() -> None:
    before = descendants()
    leaked = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)  # leaked"])
    try:
        found = await leftovers(before, wait_s=0.3)
        assert list(found) == [leaked.pid]
        assert "# leaked" in found[leaked.pid]
    finally:
        leaked.kill()
        leaked.wait()
    assert await leftovers(before, wait_s=1.0) == {}


async def test_what_a_process_of_before_starts_later_is_not_a_leftover() -> None:
    shared = subprocess.Popen([sys.executable, "-c", SPAWNS_LATER])
    try:
        before = descendants()
        for _ in range(100):  # until the shared process has started its own child
            if started_later := descendants(shared.pid):
                break
            await asyncio.sleep(0.05)
        assert started_later and not started_later & before, "the shared process started no child after"
        assert await leftovers(before, wait_s=0.3) == {}
    finally:
        for pid in descendants(shared.pid):
            os.kill(pid, signal.SIGKILL)
        shared.kill()
        shared.wait()
