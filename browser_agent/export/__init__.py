"""Export a recorded run to a plain Playwright script: each element found by the most robust locator its
fingerprint supports, the values typed as inputs, secrets from environment variables only.

``export_history(history)`` writes the script of a saved run; ``render_script(steps)`` writes one from
any sequence of ``ExportStep`` (action, parameters, fingerprint, frame), whatever recorded them. What a
recording holds reaches the script only as string literals, and every script is checked to be made only
of what the export writes (``verify_script``) before it is returned.
"""

from browser_agent.export.locators import LocatorCode, implicit_role, locate
from browser_agent.export.script import Ending, ExportedScript, export_history, render_script
from browser_agent.export.steps import ExportStep, steps_from_history
from browser_agent.export.verify import verify_script

__all__ = [
    "Ending",
    "ExportStep",
    "ExportedScript",
    "LocatorCode",
    "export_history",
    "implicit_role",
    "locate",
    "render_script",
    "steps_from_history",
    "verify_script",
]
