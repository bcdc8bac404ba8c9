"""What a person reads: the console during a run, a replay or a batch, and after a run the HTML report
and the animated GIF, all from the typed record (``browser_agent.record``).

The report and the GIF need the record alone; the consoles follow a run or a replay, and come with the
agent or the replay: they are imported on first use (``from browser_agent.output import ConsoleReporter``
works as ever), so that rendering a saved run's report loads neither Playwright nor langchain.
"""

import typing as _typing

from browser_agent.lazy_names import lazy_names as _lazy_names
from browser_agent.output.files import save_gif, save_report
from browser_agent.output.gif import render_gif
from browser_agent.output.html import render_html

if _typing.TYPE_CHECKING:
    from browser_agent.output.replay_console import ReplayReporter
    from browser_agent.output.reporter import ConsoleReporter

# Each console, and the module it comes from.
_CONSOLES = {"ConsoleReporter": "reporter", "ReplayReporter": "replay_console"}

__all__ = ["ConsoleReporter", "ReplayReporter", "render_gif", "render_html", "save_gif", "save_report"]

if not _typing.TYPE_CHECKING:  # type checkers read the imports above; a module __getattr__ would hide typos
    __getattr__, __dir__ = _lazy_names(__name__, _CONSOLES, globals())
