"""What a person reads: the console during a run, a replay or a batch, and after a run the HTML report
and the animated GIF, all from the typed record (``browser_agent.record``)."""

from browser_agent.output.files import save_gif, save_report
from browser_agent.output.gif import render_gif
from browser_agent.output.html import render_html
from browser_agent.output.replay_console import ReplayReporter
from browser_agent.output.reporter import ConsoleReporter

__all__ = ["ConsoleReporter", "ReplayReporter", "render_gif", "render_html", "save_gif", "save_report"]
