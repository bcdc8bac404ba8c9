"""``browser_agent.ui``: a local web UI with a live view of the agent's browser (the ``[ui]`` extra).

The core never imports this package; importing it without its extra installed is one ``UserError``
saying what to install.
"""

from browser_agent.extras import require

require("starlette", "ui", "The web UI")
require("uvicorn", "ui", "The web UI")

from browser_agent.ui.ask_human import ASK_HUMAN, HumanChannel  # noqa: E402
from browser_agent.ui.launch import RunForm, RunSetup  # noqa: E402
from browser_agent.ui.server import LiveServer  # noqa: E402

__all__ = ["ASK_HUMAN", "HumanChannel", "LiveServer", "RunForm", "RunSetup"]
