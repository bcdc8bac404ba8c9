"""A text the task quotes and asks for in lower or upper case is typed in that case.

Asked to 'Type "DOLORES" in all lower case letters', the 1.5B model typed ``doLORes`` (enter-text-2 seed
50): it knew the text, not how to change its case. When the typed text is one the task quotes, in other
letters' case, and the task asks for one case only (lower case, small letters; upper case, all caps,
capital letters), the text is typed in that case, and the result says so.
"""

from __future__ import annotations

import re

from browser_agent.controller.actions.task_quotes import quoted_texts
from browser_agent.controller.context import ActionContext

__all__ = ["text_in_case"]

_LOWER = re.compile(r"\b(?:lower[\s-]?case|small letters)\b", re.IGNORECASE)
_UPPER = re.compile(r"\b(?:upper[\s-]?case|all caps|in caps|capital letters|block capitals)\b", re.IGNORECASE)


def text_in_case(text: str, ctx: ActionContext) -> tuple[str, str]:
    """The text to type for ``text``: in the case the task asks for, when ``text`` is a text the task
    quotes in another case; with what the result says of it (empty when ``text`` is typed as it is)."""
    lower, upper = bool(_LOWER.search(ctx.task)), bool(_UPPER.search(ctx.task))
    if lower == upper:
        return text, ""  # no case asked for, or both: not this rule's to choose
    cased = text.lower() if lower else text.upper()
    if cased == text or text.strip().lower() not in quoted_texts(ctx.task):
        return text, ""
    kind = "lower" if lower else "upper"
    return cased, f" in place of {ctx.quote(text)} (the task asks for {kind} case)"
