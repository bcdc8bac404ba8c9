"""The export of an action that only read the page: a comment, for a script has nothing to do there."""

from __future__ import annotations

from pydantic import BaseModel

from browser_agent.action_specs.spec import Renderer, Script

__all__ = ["read_here"]


def read_here(name: str) -> Renderer[BaseModel]:
    """The renderer of the reading action ``name`` (a built-in's, never a recording's, words)."""

    def render(p: BaseModel, script: Script) -> list[str]:
        return [f"# the agent read the page here ({name}): nothing to do in a script"]

    return render
