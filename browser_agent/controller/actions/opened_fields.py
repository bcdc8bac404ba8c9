"""After a click, the empty text fields it brought onto the page: a click on Forward or Reply opens a form
whose "to" field is empty, and a small model that was told only "Clicked element 4 (Forward)" called the
task done. The click's result says how many empty fields appeared, so the next step fills them.

Fields an earlier look had seen, which the page had turned off or hidden, are told apart: a pop-up asked
"Exit to home page?" as the model typed, turned the form off, and Cancel turned it back on, its fields
emptied. Told "it opened 2 empty text fields", the 1.5B model wrote "The task is done." and pressed
Login with both empty; the result now says that they are back and to type into them again.

When the one field opened is the "to:" of a task that forwards or sends to someone, the note names whom:
told only that a field opened, the 1.5B model typed the forwarded mail's subject into it (email-inbox
seed 58)."""

from __future__ import annotations

import contextlib

from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.controller.actions.refusals import is_text_field, named_as, shows_value
from browser_agent.controller.actions.untyped_text import recipient, recipient_for
from browser_agent.controller.context import ActionContext
from browser_agent.dom.snapshot import DomSnapshot
from browser_agent.errors import ActionError

__all__ = ["opened_fields_note"]

# The in-page ids (see dom/extract.js) of the empty, enabled text fields in view; '' for a field no capture
# has seen.
_EMPTY_FIELDS_JS = """() => {
  const reg = window.__browserAgent;
  const text = ['', 'text', 'email', 'search', 'tel', 'url', 'number', 'password'];
  const found = [];
  for (const el of document.querySelectorAll('input, textarea, [contenteditable]')) {
    if (el.tagName === 'INPUT' && !text.includes(el.getAttribute('type') ? el.type : '')) continue;
    if (el.tagName !== 'INPUT' && el.tagName !== 'TEXTAREA' && !el.isContentEditable) continue;
    if (el.disabled || el.readOnly || !el.checkVisibility({ visibilityProperty: true })) continue;
    const box = el.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) continue;
    // in view only: the page view leaves out much of what is far below, and that was not opened
    if (box.bottom <= 0 || box.right <= 0 || box.top >= innerHeight || box.left >= innerWidth) continue;
    if (((el.isContentEditable ? el.textContent : el.value) || '').trim()) continue;
    found.push(reg ? reg.ids.get(el) || '' : '');
  }
  return found;
}"""


async def opened_fields_note(ctx: ActionContext, seen: DomSnapshot) -> str:
    """``; it opened N empty text fields ...`` when the page now shows empty text fields that were not
    in ``seen`` (the page the model chose from); "" otherwise, or when the page cannot be asked."""
    found: list[str] = []
    # navigated away or closed: the next state says it
    with contextlib.suppress(PlaywrightError, ActionError):
        found = await ctx.session.page.main_frame.evaluate(_EMPTY_FIELDS_JS)
    new = [element_id for element_id in found if element_id not in seen.element_ids]
    if not new:
        return ""
    if all(new):  # every one had an in-page id: an earlier look saw it, then it went off or away
        if len(new) == 1:
            return "; an empty text field is back on the page (marked *): type into it again"
        return f"; {len(new)} empty text fields are back on the page (marked *): type into them again"
    if len(new) == 1:
        return await _recipient_note(ctx, seen) or (
            "; it opened an empty text field (marked * on the page): input_text types into it"
        )
    return f"; it opened {len(new)} empty text fields (marked * on the page): input_text types into them"


async def _recipient_note(ctx: ActionContext, seen: DomSnapshot) -> str:
    """The note for one opened field that is the "to:" of whom the task sends to; "" for any other."""
    whom = recipient(ctx.task) if ctx.task else None
    if whom is None or ctx.redact(whom) != whom:
        return ""
    try:  # a look only: the next state is still the one the model's indices will refer to
        fresh = await ctx.session.capture(keep=False, retry=False)
    except (PlaywrightError, ActionError):
        return ""
    seen_ids = seen.element_ids
    opened = [
        n
        for n in fresh.selector_map.values()
        if n.element_id not in seen_ids and is_text_field(n) and not shows_value(n)
    ]
    if len(opened) != 1:
        return ""
    label = " ".join(named_as(opened[0], ctx.redact, fresh).split())
    if recipient_for(label, ctx.task) is None:
        return ""
    return (
        f"; it opened an empty {label!r} field (marked * on the page): type {whom!r} into it with input_text "
        "(whom the task sends to)"
    )
