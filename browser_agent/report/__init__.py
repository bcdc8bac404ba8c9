"""What a person looks at after a run: a self-contained HTML report and an animated GIF.

Both read a history in its saved form (``AgentHistory.model_dump(mode="json")``, the JSON that
``history.save`` writes), so a report can be made from a live run or from a file, and this layer sits
below the agent: ``history.save_report(...)`` and ``history.save_gif(...)`` call it.
"""

from browser_agent.report.gif import render_gif
from browser_agent.report.html import render_html

__all__ = ["render_gif", "render_html"]
