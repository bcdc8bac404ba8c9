"""The checks of the pytest form: the address the run ended on and the values it read there.

Never the agent's own sentence, nor the shortened text a model was shown: those are not on the page.
What ``run`` reads at its end is written by ``browser_agent.export.reads``; here, the test's lines that
check it, each built of literals and the script's own constants only.
"""

from __future__ import annotations

from dataclasses import dataclass

from browser_agent.export.actions import StepWriter
from browser_agent.export.reads import Read, read_checks, without_query

__all__ = ["Ending", "end_checks"]


@dataclass(frozen=True, slots=True)
class Ending:
    """What the run ended on: the page's address and the text the agent reported (None when unknown)."""

    url: str | None = None
    text: str | None = None


def end_checks(ending: Ending, reads: list[Read], writer: StepWriter) -> list[str]:
    """The lines of the test, after ``read = run(page)``, that check the end of the run."""
    target = ""
    if ending.url and ending.url != "about:blank" and "<secret>" not in ending.url:
        target = without_query(ending.url)
    if not target:
        return read_checks(reads, None, None)
    where = writer.url(target, root="BASE_URL")
    return read_checks(reads, target, f"re.escape({where})" if where.startswith("BASE_URL") else None)
