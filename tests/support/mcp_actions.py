"""A controller with two actions of a user's own, served by `browser-agent mcp --actions` in the tests."""

from __future__ import annotations

from browser_agent import ActionContext, Controller

controller = Controller()


@controller.action("Count the characters the field with this index holds")
async def count_characters(index: int, ctx: ActionContext) -> str:
    """Count what a field holds without showing it.

    Args:
        index: The field's index.
    """
    _node, handle = await ctx.element(index)
    return f"the field holds {len(await handle.input_value())} characters"


@controller.action("Fail with a bug (to check that the server survives one)")
async def broken_action() -> str:
    raise RuntimeError("a bug in a user's action")
