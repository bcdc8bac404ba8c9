"""Scripted policies for MiniWoB++ pages: one that solves click-button, click-link, enter-text and
focus-text as a careful model would (reading the utterance and the elements from the state message),
and one that always clicks a wrong button.

Both are stateless, so one model serves episodes running at once.
"""

from __future__ import annotations

import re
from typing import Any

from langchain_core.messages import BaseMessage

_ORDINALS = {"1st": 0, "2nd": 1, "3rd": 2}


def _page(messages: list[BaseMessage]) -> str:
    for message in reversed(messages):
        if isinstance(message.content, str) and "<page>" in message.content:
            return message.content.split("<page>", 1)[1].split("</page>", 1)[0]
    raise AssertionError("no state message was sent")


def _reply(goal: str, *actions: dict[str, Any]) -> dict[str, Any]:
    brain = {"evaluation_previous_goal": "", "memory": goal, "next_goal": goal}
    return {"current_state": brain, "action": list(actions)}


def _index(page: str, tag: str, text: str | None = None) -> int:
    pattern = rf"\[(\d+)\]<{tag}\b[^>]*>" + (re.escape(text) + rf"</{tag}>" if text is not None else "")
    found = re.search(pattern, page)
    assert found, f"no <{tag}> {text!r} in the page:\n{page}"
    return int(found.group(1))


def _indices(page: str, tag: str) -> list[int]:
    return [int(i) for i in re.findall(rf"\[(\d+)\]<{tag}\b", page)]


def solve(messages: list[BaseMessage]) -> dict[str, Any]:
    page = _page(messages)
    if found := re.search(r'Click on the "(.+?)" button\.', page):
        button = _index(page, "button", found.group(1).strip())
        return _reply("click it", {"action": "click_element", "index": button})
    if found := re.search(r'Click on the link "(.+?)"\.', page):  # its links are spans with a handler
        link = _index(page, "span", found.group(1).strip())
        return _reply("click it", {"action": "click_element", "index": link})
    if found := re.search(r'Enter "(.+?)" into the text field and press Submit\.', page):
        field, submit = _index(page, "input"), _index(page, "button", "Submit")
        return _reply(
            "type and submit",
            {"action": "input_text", "index": field, "text": found.group(1).strip()},
            {"action": "click_element", "index": submit},
        )
    if found := re.search(r"Focus into the (?:(\w+) input )?textbox\.", page):
        field = _indices(page, "input")[_ORDINALS.get(found.group(1) or "1st", 0)]
        return _reply("focus it", {"action": "click_element", "index": field})
    raise AssertionError(f"no scripted answer for this page:\n{page}")


def click_wrong_button(messages: list[BaseMessage]) -> dict[str, Any]:
    """Click a button whose text is not the one asked for (MiniWoB++ then ends with reward -1)."""
    page = _page(messages)
    wanted = re.search(r'Click on the "(.+?)" button\.', page)
    assert wanted, page
    buttons = re.findall(r"\[(\d+)\]<button>(.+?)</button>", page)
    wrong = next(int(i) for i, text in buttons if text != wanted.group(1))
    return _reply("click", {"action": "click_element", "index": wrong})


def choose_then_click(messages: list[BaseMessage]) -> dict[str, Any]:
    """Solve form-sequence-3 (a select wrapped by jQuery selectric, then a button) as a perfect policy
    reading the page would: choose the option by its text, then click the button."""
    page = _page(messages)
    found = re.search(r'Choose (.+?) from the dropdown, then click the button labeled "(.+?)"\.', page)
    assert found, f"no form-sequence-3 task in the page:\n{page}"
    option, label = found.group(1).strip(), found.group(2)
    dropdown = re.search(r"\[(\d+)\]<select\b([^>]*)>", page)
    assert dropdown, f"the wrapped select is not in the page:\n{page}"
    button = _index(page, "button", label)
    click = {"action": "click_element", "index": button}
    if f'value="{option}"' in dropdown.group(2):
        return _reply("click the button", click)
    choose = {"action": "select_dropdown_option", "index": int(dropdown.group(1)), "text": option}
    return _reply("choose, then click", choose, click)
