"""Where an action parameter's text goes, which decides how its ``<secret>name</secret>`` placeholders are
filled (``controller.execution``).

A parameter is marked with ``typing.Annotated``::

    async def ask_support(question: Annotated[str, Placeholders.KEPT], ctx: ActionContext) -> str: ...

Unmarked parameters are ``TYPED``, except one named ``url``, which is a ``URL``. The mark itself is
declared with the actions' specs (``browser_agent.action_specs``), whose parameter models carry it.
"""

from __future__ import annotations

from pydantic import BaseModel

from browser_agent.action_specs.placeholders import Placeholders

__all__ = ["Placeholders", "placeholder_uses"]


def placeholder_uses(params: type[BaseModel]) -> dict[str, Placeholders]:
    """The use of each field of ``params`` that is not ``TYPED``: its mark, or ``URL`` for ``url``."""
    uses: dict[str, Placeholders] = {}
    for name, info in params.model_fields.items():
        marks = [m for m in info.metadata if isinstance(m, Placeholders)]
        use = marks[-1] if marks else (Placeholders.URL if name == "url" else Placeholders.TYPED)
        if use is not Placeholders.TYPED:
            uses[name] = use
    return uses
