"""Where an action parameter's text goes, which decides how its ``<secret>name</secret>`` placeholders are
filled (``controller.execution``).

A parameter is marked with ``typing.Annotated``::

    async def ask_support(question: Annotated[str, Placeholders.KEPT], ctx: ActionContext) -> str: ...

Unmarked parameters are ``TYPED``, except one named ``url``, which is a ``URL``. The mark lives here, in
the light layer of the actions' declarations, so that an action's parameter model carries it wherever
the model is read; ``browser_agent.controller.Placeholders`` is the same class.
"""

from __future__ import annotations

import enum

__all__ = ["Placeholders"]


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
