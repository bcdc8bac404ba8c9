"""Where an action parameter's text goes, which decides how its ``<secret>name</secret>`` placeholders are
filled (``controller.execution``).

A parameter is marked with ``typing.Annotated``::

    async def ask_support(question: Annotated[str, Placeholders.KEPT], ctx: ActionContext) -> str: ...

Unmarked parameters are ``TYPED``, except one named ``url``, which is a ``URL``.
"""

from __future__ import annotations

import enum

from pydantic import BaseModel

__all__ = ["Placeholders", "placeholder_uses"]


class Placeholders(enum.Enum):
    """How the placeholders of one parameter are filled.

    Attributes:
        TYPED: The text goes into the page: filled, a scoped secret only when the frame of the
            action's element (``index``), or the tab when the action has none, is on its sites.
        URL: The text is an address the browser opens: filled, a scoped secret only when the address
            itself, once filled, is on its sites.
        KEPT: The text goes to a model or to the user, never to a page: placeholders stay as they are.
    """

    TYPED = "typed"
    URL = "url"
    KEPT = "kept"


def placeholder_uses(params: type[BaseModel]) -> dict[str, Placeholders]:
    """The use of each field of ``params`` that is not ``TYPED``: its mark, or ``URL`` for ``url``."""
    uses: dict[str, Placeholders] = {}
    for name, info in params.model_fields.items():
        marks = [m for m in info.metadata if isinstance(m, Placeholders)]
        use = marks[-1] if marks else (Placeholders.URL if name == "url" else Placeholders.TYPED)
        if use is not Placeholders.TYPED:
            uses[name] = use
    return uses
