"""Write a run's report and GIF next to its history."""

from __future__ import annotations

from pathlib import Path

from browser_agent import artifacts
from browser_agent.output.gif import render_gif
from browser_agent.output.html import render_html
from browser_agent.record import AgentHistory

__all__ = ["save_gif", "save_report"]


def save_report(history: AgentHistory, path: str | Path) -> Path:
    """Write the run report: one self-contained HTML file (screenshots when they were recorded)."""
    return artifacts.write_text(path, render_html(history))


def save_gif(history: AgentHistory, path: str | Path) -> Path:
    """Write an animated GIF of the steps' screenshots, captioned with each step's goal.

    Raises:
        UserError: Pillow is missing (``pip install 'pw-browser-agent[gif]'``), or no step has a
            screenshot (``AgentSettings(record_screenshots=True)``).
    """
    return artifacts.write_bytes(path, render_gif(history))
