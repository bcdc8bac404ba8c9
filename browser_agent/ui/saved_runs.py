"""Past runs: the saved histories in the UI's folder, listed, rendered as the HTML report, downloaded.

A run is named by its file's name; a name that is not a plain ``*.json`` file name directly inside the
folder is refused, so no request can read anything else on the disk.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from browser_agent.errors import UserError
from browser_agent.output.html import render_html
from browser_agent.record import AgentHistory

__all__ = ["history_path", "list_runs", "load_run", "report_html"]

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,200}\.json$")
MAX_LISTED = 200


def list_runs(folder: Path) -> list[dict[str, Any]]:
    """The saved runs, newest first: name, task, steps, how each ended."""
    if not folder.is_dir():
        return []
    files = sorted(
        (p for p in folder.glob("*.json") if _NAME.match(p.name)),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    return [_summary(path) for path in files[:MAX_LISTED]]


def _summary(path: Path) -> dict[str, Any]:
    try:
        history = AgentHistory.load(path)
    except UserError:  # a file that is not a history is listed as such
        return {"name": path.name, "task": "", "unreadable": True}
    return {
        "name": path.name,
        "task": history.task,
        "steps": history.model_steps(),
        "steps_label": history.steps_label(),
        "end_reason": history.end_reason,
        "success": history.is_successful(),
        "started_at": history.started_at.isoformat() if history.started_at else None,
        "result": history.final_result(),
    }


def history_path(folder: Path, name: str) -> Path:
    """The file of the run called ``name``.

    Raises:
        UserError: not a run's name, or no such run in the folder.
    """
    if not _NAME.match(name):
        raise UserError(f"{name!r} is not the name of a saved run (a .json file in the runs folder).")
    path = folder / name
    if not path.is_file():
        raise UserError(f"No saved run called {name!r} in {folder}.")
    return path


def load_run(folder: Path, name: str) -> AgentHistory:
    """Raises: UserError: no such run, or the file is not a history."""
    return AgentHistory.load(history_path(folder, name))


def report_html(folder: Path, name: str) -> str:
    """The run's HTML report, rendered from its history."""
    return render_html(load_run(folder, name))
