"""Acting on indexed elements: click, type, hover, keys, file upload."""

from __future__ import annotations

import contextlib

from playwright.async_api import ElementHandle, Page

from browser_agent.action_specs import elements as specs
from browser_agent.browser.playwright_errors import PlaywrightError, map_action_errors
from browser_agent.controller.action_types import ActionResult
from browser_agent.controller.actions.card_guard import NameBelow, check_card_named, scroll_to_named
from browser_agent.controller.actions.card_outside import check_outside_cards
from browser_agent.controller.actions.close_guard import check_not_closing_unfilled, closes
from browser_agent.controller.actions.enter_key import EnterWatch, named_keys
from browser_agent.controller.actions.expand_guard import check_expanded_first
from browser_agent.controller.actions.field_note import empty_field_note
from browser_agent.controller.actions.field_values import VALUE_TYPES
from browser_agent.controller.actions.goal_guard import OffTheList, check_goal_names_it
from browser_agent.controller.actions.leave_guard import check_leaving, leaving_question
from browser_agent.controller.actions.menu_path import check_menu_path
from browser_agent.controller.actions.model_typing import check_typing, text_meant
from browser_agent.controller.actions.opened_fields import opened_fields_note
from browser_agent.controller.actions.overwrite_guard import note_typed
from browser_agent.controller.actions.place_guard import check_place_asked
from browser_agent.controller.actions.pointer import click_at_point, click_checked, hover_checked
from browser_agent.controller.actions.quoted_button import check_quoted_button
from browser_agent.controller.actions.read_only import type_into_read_only
from browser_agent.controller.actions.refusals import check_typeable
from browser_agent.controller.actions.slider import set_slider
from browser_agent.controller.actions.step_verb import check_step_verb
from browser_agent.controller.actions.submenus import (
    announces_submenu,
    open_submenu_by_pointing,
    submenu_items,
)
from browser_agent.controller.actions.submit_guard import (
    check_no_open_suggestions,
    check_not_sending_unset,
    may_send,
)
from browser_agent.controller.actions.suggestions import watch_suggestions
from browser_agent.controller.actions.toggle_guard import check_not_unchecking, is_toggle, note_checked
from browser_agent.controller.actions.typed_fields import put_value
from browser_agent.controller.actions.unnamed_box import check_box_named
from browser_agent.controller.context import ActionContext
from browser_agent.controller.registry import Registry
from browser_agent.dom.snapshot import ElementNode
from browser_agent.dom.text_limits import OPTION_CAP
from browser_agent.errors import ActionError

__all__ = ["click_element", "hover", "input_text", "register", "send_keys", "upload_file"]

_FILE_CHOOSER_TIMEOUT_MS = 2_000


def _is_file_input(node: ElementNode) -> bool:
    return node.tag == "input" and node.attributes.get("type", "").lower() == "file"


async def click_element(index: int, ctx: ActionContext) -> ActionResult:
    """Click an element."""
    node = await ctx.node(index)
    if _is_file_input(node):
        raise ActionError(f"element {index} is a file input; {_how_to_upload(ctx)}")
    if node.tag == "select" and not node.select_id:  # a click opens nothing a model can see or use
        options = ", ".join(ctx.quote(text) for text in node.options[:8])
        raise ActionError(
            f"element {index} is a dropdown: a click does not choose; use select_dropdown_option with index "
            f"{index} and the text of one option" + (f" ({options})." if options else ".")
        )
    if ctx.model_chose:
        # the place a goal asks for ("the 4th result") names the element more surely than a page link's
        # number in the same goal ("... on page 2"): the place guard speaks first
        check_place_asked(index, node, await ctx.current_snapshot(), ctx.goal, ctx.task, ctx.session)
        try:
            check_goal_names_it(index, node, await ctx.current_snapshot(), ctx.goal, ctx.session, ctx.quote)
        except OffTheList as exc:  # the step's clicks on the list still run
            return ActionResult(skipped=True, extracted_content=ctx.redact(str(exc)))
    if ctx.model_chose:
        await _check_target(index, node, ctx)
    if announces_submenu(node) and await open_submenu_by_pointing(item := (await ctx.element(index))[1]):
        items = ", ".join(ctx.quote(name, OPTION_CAP) for name in await submenu_items(item))
        await ctx.session.settle()
        return ActionResult(
            extracted_content=f"{specs.POINTED_AT}{index} ({_label(node, ctx)}) by pointing at it; "
            + (f"nothing chosen; its items are on the page now: {items}" if items else "nothing chosen")
        )
    if ctx.model_chose and may_send(node):
        snapshot = await ctx.current_snapshot()
        check_expanded_first(index, node, snapshot, ctx.task, ctx.session, ctx.redact)
        check_no_open_suggestions(index, node, snapshot, ctx.session, ctx.redact)
        _, handle = await ctx.element(index)
        await check_not_sending_unset(index, node, handle, snapshot, ctx.session, ctx.redact, ctx.task)
    opened: list[Page] = []

    def on_page(page: Page) -> None:
        opened.append(page)

    session = ctx.session
    session.context.on("page", on_page)
    try:
        async with session.watch_input() as watched:
            with map_action_errors(f"click on element {index}"):
                frame = (await ctx.current_snapshot()).frames.get(node.frame_id)
                # Without the watch, only Playwright's own click waits for the navigation it starts.
                if not (
                    watched
                    and frame is not None
                    and await click_at_point(session.page, frame, node.element_id)
                ):
                    await click_checked((await ctx.element(index))[1])
        await session.settle()
    finally:
        session.context.remove_listener("page", on_page)
    if opened:
        return await _followed_new_tab(index, opened[-1], ctx)
    note = (
        await _checked_note(index, node, ctx)
        or await empty_field_note(index, node, ctx)
        or await opened_fields_note(ctx, await ctx.current_snapshot())
    )
    return ActionResult(extracted_content=f"Clicked element {index} ({_label(node, ctx)}){note}")


async def _check_target(index: int, node: ElementNode, ctx: ActionContext) -> None:
    """The checks of a click the model chose on what the task names: the button it quotes, the card, the
    place in a menu path, a question that leaves the page, a box it unchecks or closes."""
    snapshot = await ctx.current_snapshot()
    check_quoted_button(index, node, snapshot, ctx.task, ctx.session, ctx.redact)
    try:
        check_card_named(index, node, snapshot, ctx.task, ctx.session, ctx.redact)
    except NameBelow as below:
        raise await scroll_to_named(below, ctx) from None
    try:
        check_outside_cards(index, node, snapshot, ctx.task, ctx.session, ctx.redact)
    except NameBelow as below:
        raise await scroll_to_named(below, ctx) from None
    check_step_verb(index, node, snapshot, ctx.task, ctx.session, ctx.redact)
    await check_leaving(index, node, _label(node, ctx), ctx)
    check_not_unchecking(index, _label(node, ctx), node, await ctx.current_snapshot(), ctx.task, ctx.session)
    check_box_named(index, node, await ctx.current_snapshot(), ctx.task, ctx.session, ctx.redact)
    check_menu_path(index, node, await ctx.current_snapshot(), ctx.task, ctx.redact)
    if closes(node):
        handle = (await ctx.element(index))[1]
        await check_not_closing_unfilled(
            index, node, handle, await ctx.current_snapshot(), ctx.task, ctx.session, ctx.redact
        )


_CHECKABLE_ROLES = frozenset({"checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"})
_CHECKED_JS = """(el) => (el.tagName === 'INPUT' && ['checkbox', 'radio'].includes(el.type)) ? el.checked
  : (el.getAttribute('aria-checked') === null ? null : el.getAttribute('aria-checked') === 'true')"""


async def _checked_note(index: int, node: ElementNode, ctx: ActionContext) -> str:
    """Whether a checkbox, radio or switch is checked after the click: the result says what the click
    did, so a model does not click it again to find out (a small model toggled one on, off, on, off)."""
    kind = node.attributes.get("type", "").lower()
    if not ((node.tag == "input" and kind in ("checkbox", "radio")) or node.role in _CHECKABLE_ROLES):
        return ""
    checked = None
    with contextlib.suppress(PlaywrightError, ActionError):  # the click took the element away: say nothing
        checked = await (await ctx.element(index))[1].evaluate(_CHECKED_JS)
    if checked is None:
        return ""
    if is_toggle(node):
        note_checked(ctx.session, (await ctx.current_snapshot()).url, node.element_id, bool(checked))
    return "; it is now checked" if checked else "; it is now unchecked"


async def _followed_new_tab(index: int, page: Page, ctx: ActionContext) -> ActionResult:
    """The click opened a tab: the session already made it current; wait for it and say so."""
    await ctx.session.settle(page)
    tab_id = ctx.session.current_tab_id  # the session follows tabs the page opens
    return ActionResult(
        extracted_content=f"Clicked element {index}; it opened new tab {tab_id} ({page.url}), now current",
        new_tab=tab_id,
    )


async def input_text(index: int, text: str, ctx: ActionContext, clear: bool) -> str:
    """Type text into an input, text area or editable element."""
    node, handle = await ctx.element(index)
    if _is_file_input(node):
        raise ActionError(f"element {index} is a file input; {_how_to_upload(ctx)}")
    if node.tag not in ("input", "textarea", "select"):  # a field is no drawn slider: no round trip
        moved = await set_slider(index, _label(node, ctx), handle, text, ctx)
        if moved is not None:
            return moved
    snapshot = await ctx.current_snapshot()
    await check_typeable(index, node, handle, snapshot, ctx.redact)
    text, swapped = await text_meant(index, node, text, snapshot, ctx) if ctx.model_chose else (text, "")
    kind = str(await handle.evaluate("(el) => (el.tagName === 'INPUT' ? el.type : '')"))
    if kind in VALUE_TYPES:  # put_value refuses a read-only one itself
        return await put_value(index, handle, kind, text, ctx, _label(node, ctx))
    picked = await type_into_read_only(index, _label(node, ctx), handle, text, ctx)
    if picked is not None:
        return picked
    if ctx.model_chose:
        await check_typing(index, _label(node, ctx), node, handle, text, clear, ctx)
    prior = await handle.evaluate_handle(_ACTIVE_JS)
    try:
        async with watch_suggestions(handle, ctx.redact) as suggested:
            with map_action_errors(f"typing into element {index}"):
                if clear and await _fillable(handle):
                    await handle.fill(text)  # fires input events: controlled (React-style) inputs see it
                else:
                    await _type_at_end(handle, text, clear=clear)
                shown = await handle.evaluate(_VALUE_JS)
                taken = shown is not None or bool(await handle.evaluate(_TOOK_KEYS_JS, prior))
            appeared = await suggested()
    finally:
        with contextlib.suppress(PlaywrightError):
            await prior.dispose()
    note_typed(ctx.session, snapshot.url, node.element_id)
    if not taken:
        raise ActionError(
            f"element {index} ({_label(node, ctx)}) is no text field and did not take the typing (the keys "
            "went nowhere, or to what had the focus before); the click on it was done and may have changed "
            "the page (see it). input_text types into fields only."
        )
    if shown == "" and text.strip():
        await _text_not_kept(index, node, handle, ctx)
    secret = node.attributes.get("type", "").lower() == "password"
    note = swapped + _holds_note(shown, secret, ctx) + appeared
    return f"Typed {ctx.quote(text)} into element {index} ({_label(node, ctx)}){note}"


async def _text_not_kept(index: int, node: ElementNode, handle: ElementHandle, ctx: ActionContext) -> None:
    """Typing left the field empty: fail, saying why when the page shows it. A page can turn a field off
    as it takes the focus (a pop-up that must be answered first) or empty it again; a small model told
    "the field now holds ''" went on as if the text were in and clicked the form's button.

    Raises:
        ActionError: always.
    """
    disabled = False
    with contextlib.suppress(PlaywrightError):
        disabled = bool(await handle.evaluate("(el) => el.disabled === true || el.readOnly === true"))
    asked = await leaving_question(ctx.session.page, ctx.redact) if disabled else None
    if asked:  # named: told only "answer it", the model gave up ("the fields are disabled")
        why = (
            f"as it took the focus, the page turned the field off and {asked} (its controls are marked * on "
            f"the page): click that, then type into element {index} again"
        )
    elif disabled:
        why = (
            "as it took the focus, the page turned the field off and showed something to answer first, such "
            "as a pop-up (its controls are marked * on the page): answer it so that the task can go on, then "
            f"type into element {index} again"
        )
    else:
        why = "the page emptied it again: it may take other text, or something else comes first"
    raise ActionError(f"typing into element {index} ({_label(node, ctx)}) left it empty: {why}.")


_HOLDS_SHOWN = 80  # characters of a field's value quoted back; a longer one is cut to its start


def _holds_note(shown: str | None, secret: bool, ctx: ActionContext) -> str:
    """What the field holds after typing, read back from the page: a small model that is not told kept
    typing the same text into a field that already held it. A password field's value is not repeated."""
    if shown is None:
        return ""
    if secret:
        return f"; the field now holds {len(shown)} characters"
    kept = ctx.redact(shown)  # redacted before it is cut, so no part of a secret is quoted
    if len(kept) <= _HOLDS_SHOWN:
        return f"; the field now holds {kept!r}"
    return f"; the field now holds {kept[:_HOLDS_SHOWN]!r}… ({len(kept)} characters)"


_VALUE_JS = """(el) => ('value' in el && typeof el.value === 'string') ? el.value
  : (el.isContentEditable ? el.innerText : null)"""
# The element holding the keyboard focus, through shadow roots.
_ACTIVE_JS = """(el) => { let a = el.ownerDocument.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return a; }"""
# Whether the element, with no value of its own, took the keys typed into it: the focus is in it, or on
# something its click focused (its own field, a list with type-ahead). A row or a card (a mail in a list)
# opens on the click and the keys go nowhere, or into the field focused before; "Typed ..." then let a
# small model go on as if its reply were written.
_TOOK_KEYS_JS = f"""(el, prior) => {{ const a = ({_ACTIVE_JS})(el);
  if (!a || a === el.ownerDocument.body || a === el.ownerDocument.documentElement) return false;
  return el.contains(a) || a !== prior; }}"""
_FILLABLE_JS = """(el) => el.isContentEditable || el.tagName === 'TEXTAREA' || (el.tagName === 'INPUT' &&
  !['checkbox','radio','button','submit','reset','file','image','range','color','hidden'].includes(el.type))"""


async def _fillable(handle: ElementHandle) -> bool:
    return bool(await handle.evaluate(_FILLABLE_JS))


async def _type_at_end(handle: ElementHandle, text: str, *, clear: bool) -> None:
    """Type key by key after what the field holds (or over it), for widgets ``fill`` refuses."""
    await handle.click()
    await handle.evaluate("""(el) => { if ('value' in el && el.setSelectionRange) {
        const n = String(el.value).length; try { el.setSelectionRange(n, n); } catch (e) {} } }""")
    # email and number fields have no selection to set: the caret stays where the click put it, in the
    # middle of the value ('ada@exampleada@example.com.com'); the End key moves it in any field
    await handle.press("ControlOrMeta+End")
    if clear:
        await handle.press("ControlOrMeta+a")
        await handle.press("Delete")
    await handle.type(text)


async def hover(index: int, ctx: ActionContext) -> str:
    """Move the mouse over an element (opens hover menus and tooltips)."""
    node, handle = await ctx.element(index)
    with map_action_errors(f"hover over element {index}"):
        await hover_checked(handle)
    await ctx.session.settle()
    return f"Hovering over element {index} ({_label(node, ctx)})"


async def send_keys(keys: str, ctx: ActionContext) -> str:
    """Press keys on the focused element."""
    keys = named_keys(keys)
    names = keys.split() or [keys]
    enter = EnterWatch(ctx.page)
    await enter.before(keys)
    async with ctx.session.watch_input():  # Enter may submit a form: its navigation is waited for
        with map_action_errors(f"pressing {ctx.quote(keys)}"):
            for number, name in enumerate(names):
                try:
                    await ctx.page.keyboard.press(name)
                except PlaywrightError as exc:
                    if "Unknown key" not in str(exc):
                        raise
                    raise ActionError(_no_key(name, names[:number], ctx)) from None
    await ctx.session.settle()
    return f"Pressed {keys}" + await enter.note(ctx.snapshot or ctx.session.last_snapshot)


def _no_key(name: str, pressed: list[str], ctx: ActionContext) -> str:
    """A word sent to ``send_keys`` that names no key: small models sent a text to type there (a sender's
    name to search for), and read Playwright's "Unknown key" as a page error."""
    done = f" ({ctx.redact(' '.join(pressed))} pressed before it)" if pressed else ""
    return (
        f"{ctx.quote(name)} is no key{done}: send_keys presses keys such as Enter, Tab, Escape or "
        "Control+a; to type text, use input_text with the field's index."
    )


async def upload_file(index: int, path: str, ctx: ActionContext) -> str:
    """Choose a file for a file input (or for the button that opens the file chooser)."""
    target = ctx.allowed_file(path)
    node, handle = await ctx.element(index)
    with map_action_errors(f"uploading to element {index}"):
        if _is_file_input(node):
            await handle.set_input_files(target)
        else:
            async with ctx.page.expect_file_chooser(timeout=_FILE_CHOOSER_TIMEOUT_MS) as chooser:
                await handle.click()
            await (await chooser.value).set_files(target)
    await ctx.session.settle()
    return f"Uploaded {target.name} to element {index}"


def _how_to_upload(ctx: ActionContext) -> str:
    """What a click or typing into a file input should have been: ``upload_file``, unless the run allows
    no file (the action is then not offered)."""
    if ctx.allowed_files:
        return "use upload_file with its index and one of the allowed files."
    return "this run allows no file to be uploaded (the agent was given no allowed_files)."


def _label(node: ElementNode, ctx: ActionContext) -> str:
    """The element's name, short: redacted before it is cut (a cut secret is no longer recognised)."""
    return ctx.redact((node.name or node.text or node.tag).strip())[:60]


def register(registry: Registry) -> None:
    registry.add_spec(click_element, specs.CLICK_ELEMENT)
    registry.add_spec(input_text, specs.INPUT_TEXT)
    registry.add_spec(hover, specs.HOVER)
    registry.add_spec(send_keys, specs.SEND_KEYS)
    registry.add_spec(upload_file, specs.UPLOAD_FILE)
