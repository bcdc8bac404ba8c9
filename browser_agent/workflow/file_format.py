"""What marks a workflow file (``"format": "browser-agent-workflow"``), apart from the model that reads it:
telling a workflow from a saved history loads no more than this."""

from __future__ import annotations

from pathlib import Path
from typing import Final

__all__ = ["FORMAT", "FORMAT_VERSION", "is_workflow_file"]

FORMAT: Final = "browser-agent-workflow"
FORMAT_VERSION: Final = 1


def is_workflow_file(path: Path) -> bool:
    """Whether ``path`` holds a workflow: it says so in its first bytes (an unreadable file: no)."""
    try:
        with path.open("rb") as head:
            return f'"{FORMAT}"'.encode() in head.read(4096)
    except OSError:
        return False
