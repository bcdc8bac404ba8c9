"""The workflow and export guides run as written: every ```bash block of docs/workflows.md and
docs/export.md, in order, as one shell script in a scratch folder, offline, each command exiting 0.

The only changes to the text: the port the guides name (8765) becomes a free one, so that two runs of
the suite at once do not collide; ``browser-agent`` and ``python`` are this interpreter's, with this
checkout first on the path; ``mktemp -d`` makes its folder under the test's own. A block a guide shows
but that cannot run offline is a ```text block, and may only be one for a command that needs a model.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from browser_agent.browser.chromium import find_chromium
from browser_agent.cli import demo as demo_command
from browser_agent.demo.site import DEMO_PORT

ROOT = Path(__file__).resolve().parents[2]
GUIDES = ("workflows.md", "export.md")


def _blocks(guide: str, language: str) -> list[str]:
    text = (ROOT / "docs" / guide).read_text(encoding="utf-8")
    return re.findall(rf"^```{language}\n(.*?)^```$", text, flags=re.M | re.S)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _shims(folder: Path) -> Path:
    """``browser-agent`` and ``python`` as the guides mean them: the installed command and the venv's."""
    folder.mkdir()
    for name, command in (
        ("browser-agent", f'"{sys.executable}" -m browser_agent'),
        ("python", sys.executable),
    ):
        shim = folder / name
        shim.write_text(f'#!/bin/sh\nexec {command} "$@"\n')
        shim.chmod(0o755)
    return folder


def _run_guide(guide: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    script = "\n".join(_blocks(guide, "bash")).replace(str(DEMO_PORT), str(_free_port()))
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    chromium = find_chromium().path
    env = {
        **os.environ,
        "PATH": f"{_shims(tmp_path / 'bin')}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT),
        "TMPDIR": str(scratch),
        "BA_CHROMIUM": str(chromium) if chromium else "",
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",  # the exported test needs none of the dev set's plugins
        "COLUMNS": "160",
    }
    prologue = (
        "set -euo pipefail\n"  # a command that fails stops the guide there, named; its shop stops with it
        "trap 'echo \"guide command failed: $BASH_COMMAND\" >&2; kill $(jobs -p) 2>/dev/null || true' ERR\n"
        "trap wait EXIT\n"  # the shop's last words are part of the output
    )
    shell = subprocess.Popen(
        ["bash", "-c", prologue + script],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its process group: the shop it serves goes with it, also on a failure
    )
    try:
        out, err = shell.communicate(timeout=150)
    finally:
        with contextlib.suppress(ProcessLookupError):  # the group is gone: every process of it ended
            os.killpg(shell.pid, signal.SIGKILL)
    return subprocess.CompletedProcess(shell.args, shell.returncode, out, err)


@pytest.mark.timeout(240)  # a dozen commands, each a Python start, some a Chromium: slow on a loaded machine
@pytest.mark.parametrize("guide", GUIDES)
def test_the_guide_runs_as_written_offline(guide: str, tmp_path: Path) -> None:
    done = _run_guide(guide, tmp_path)
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert "Recorded " in done.stdout and "Demo shop stopped" in done.stderr
    # the shop took the orders the guide placed: the recorded one, and one with other values
    assert "× Blue ceramic mug, Express shipping, for Ada Lovelace (ada@example.com)" in done.stdout
    assert "× Red kettle, Express shipping, for Ada Lovelace (grace@example.org)" in done.stdout
    assert not list(tmp_path.glob("*.json")), "the guide's files go to its scratch folder"


@pytest.mark.parametrize("guide", GUIDES)
def test_a_command_the_guide_does_not_run_is_one_that_needs_a_model(guide: str) -> None:
    assert _blocks(guide, "bash"), "the scan sees the guide's blocks"
    for block in _blocks(guide, "text"):
        if "browser-agent " in block:
            assert "--model" in block, block


def test_the_command_line_names_the_shops_port_without_importing_it() -> None:
    assert demo_command.DEMO_PORT == DEMO_PORT
