"""The offline demo: a shop served on 127.0.0.1 whose layout changes on every page load (``DemoSite``,
which keeps a record of the orders placed), and a purchase recorded on it (``RECORDED_RUN``) that
``browser-agent demo`` replays and ``examples/workflow.py`` runs as a workflow with other values."""

from importlib import resources
from pathlib import Path

from browser_agent.demo.site import DemoSite, Order

__all__ = ["RECORDED_RUN", "DemoSite", "Order"]

RECORDED_RUN = Path(str(resources.files("browser_agent.demo").joinpath("recorded_run.json")))
