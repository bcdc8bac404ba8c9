"""Each recorded action as lines of plain Playwright (sync API), inside the body of ``run(page, ...)``.

The steps come checked (``browser_agent.export.params``): every value is of the type its action takes.
What the recording said (a value, a name, an address) is written only as a literal (``py_string``);
comments hold only our own words.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from browser_agent.defaults import DEFAULT_SEARCH_ENGINE_URL
from browser_agent.export.inputs import Inputs
from browser_agent.export.literals import py_string
from browser_agent.export.locators import LocatorCode, locate
from browser_agent.export.steps import ExportStep

__all__ = ["TAB_ACTIONS", "Locate", "StepWriter", "robust_locator"]

Locate = Callable[[ExportStep], LocatorCode]
TAB_ACTIONS = frozenset({"open_tab", "switch_tab", "close_tab"})
_INDENT = "    "
_WIDTH = 110
_READING = frozenset({"extract_content", "page_markdown", "get_dropdown_options"})
_ON_ELEMENTS = frozenset(
    {"click_element", "input_text", "select_dropdown_option", "hover", "upload_file", "scroll"}
)
_SCROLL_PX = 720  # one screen of Playwright's default viewport


def robust_locator(step: ExportStep) -> LocatorCode:
    """The locator the export writes: the most robust one the step's fingerprint supports."""
    found = step.fingerprint
    if found is None:
        raise ValueError(f"{step.action} recorded no element")
    if step.frame is not None and step.frame != found.frame_path:
        found = replace(found, frame_path=step.frame)
    return locate(found, step.shown_name, named_by=step.named_by)


@dataclass(slots=True)
class StepWriter:
    """Writes steps one after the other; ``warnings`` collects what could not be written faithfully.

    ``base_url`` is the site's root as recorded (the first address the run opened): addresses under it
    are written relative to the ``base_url`` input, so the script runs against another host.
    """

    inputs: Inputs
    locate: Locate = robust_locator
    base_url: str | None = None
    warnings: list[str] = field(default_factory=list)
    _page_url: str = ""
    _frames: dict[str, str] = field(default_factory=dict)  # frame_locator chain -> its variable

    def lines(self, step: ExportStep, where: str) -> list[str]:
        """The lines for ``step`` (``where`` names it in warnings: ``step 3``), indented for the body of
        ``run``, after a blank line where a page begins."""
        body: list[str] = []
        if step.url and step.url != self._page_url and step.url != "about:blank":
            body.append("")
        self._page_url = step.url or self._page_url
        body += self._action(step, where)
        return [_INDENT + line if line else "" for line in body]

    def _action(self, step: ExportStep, where: str) -> list[str]:
        simple = self._simple(step)
        if simple is not None:
            return simple
        if step.action in _READING:
            return [f"# the agent read the page here ({step.action}): nothing to do in a script"]
        if step.action == "done":
            return ["# the agent reported the task done here"]
        if step.action not in _ON_ELEMENTS:
            return self._unwritten(step, where, "it is not a built-in action")
        if step.fingerprint is None:
            return self._unwritten(step, where, "it names no element the run recorded")
        return self._element_action(step)

    def _simple(self, step: ExportStep) -> list[str] | None:
        """The actions on the page or the browser, not on an element; None for the others."""
        p, action = step.params, step.action
        if action == "go_to_url":
            return [f"page.goto({self.url(p['url'])})"]
        if action == "go_back":
            return ["page.go_back()"]
        if action == "search_web":
            value = self.inputs.value(p["query"], _hint(step, "query", "query"))
            engine = DEFAULT_SEARCH_ENGINE_URL.split("{query}")
            return [f"page.goto({py_string(engine[0])} + quote_plus({value}) + {py_string(engine[-1])})"]
        if action == "wait":
            return [f"page.wait_for_timeout({round(p['seconds'] * 1000)})"]
        if action == "send_keys":
            return [f"page.keyboard.press({py_string(key)})" for key in p["keys"].split()]
        if action == "scroll_to_text":
            return [f"page.get_by_text({py_string(p['text'])}).first.scroll_into_view_if_needed()"]
        if action == "scroll" and p["index"] is None:
            return self._scroll(p["direction"], p["pages"])
        if action in TAB_ACTIONS:
            self._frames.clear()  # they were found from the tab that was current
            return _tab_lines(action, p)
        return None

    def _scroll(self, direction: str, pages: float) -> list[str]:
        px = round(_SCROLL_PX * abs(pages)) * (-1 if direction in ("up", "left") else 1)
        dx, dy = (px, 0) if direction in ("left", "right") else (0, px)
        return [
            "# Playwright scrolls to each element it acts on; kept for pages that load more as they scroll",
            f"page.mouse.wheel({dx}, {dy})",
        ]

    def _element_action(self, step: ExportStep) -> list[str]:
        p, action, found = step.params, step.action, step.fingerprint
        assert found is not None
        if action == "click_element":
            if step.opened_tab:
                return self._with_locator(step, "click()", opens_tab=True)
            return self._with_locator(step, "click()")
        if action == "input_text":
            value = self.inputs.value(p["text"], _hint(step, "text"))
            method = "fill" if p["clear"] else "press_sequentially"
            return self._with_locator(step, f"{method}({value})")
        if action == "select_dropdown_option":
            value = self.inputs.value(p["text"], _hint(step, "text"))
            if found.tag == "select":
                return self._with_locator(step, f"select_option(label={value})")
            option = f'page.get_by_role("option", name={value}, exact=True).click()'
            return [*self._with_locator(step, "click()"), option]
        if action == "hover":
            return self._with_locator(step, "hover()")
        if action == "upload_file":
            value = self.inputs.value(p["path"], _hint(step, "path", "file"))
            return self._with_locator(step, f"set_input_files({value})")
        return self._with_locator(step, "scroll_into_view_if_needed()")  # a panel's scroll

    def _with_locator(self, step: ExportStep, call: str, *, opens_tab: bool = False) -> list[str]:
        if step.named_by is not None:  # the input's own variable, under the name it got in the script
            name, value = step.named_by
            step = replace(step, named_by=(self.inputs.add(name, value).name, value))
        code = self.locate(step)
        lines = _comment(code.note)
        if not code.robust:
            self.warnings.append(f"{step.action}: {code.note}")
        chain = self._rooted(code, lines)
        one = "".join(chain) + f".{call}"
        if len(one) + 2 * len(_INDENT) <= _WIDTH:
            act = [one]
        else:
            lines += ["target = (", *(_INDENT + part for part in chain), ")"]
            act = [f"target.{call}"]
        if opens_tab:
            self._frames.clear()  # they were found from the tab that was current
            return [
                *lines,
                "with page.context.expect_page() as new_tab:",
                *(_INDENT + line for line in act),
                "page = new_tab.value",  # the agent went on in the new tab
                "tabs.append(page)",
            ]
        return lines + act

    def _rooted(self, code: LocatorCode, lines: list[str]) -> tuple[str, ...]:
        """The chain starting at the variable of its frame (declared on ``lines`` when new), if in one."""
        if not code.frames:
            return code.chain
        root = "".join(code.chain[: 1 + code.frames])
        if root not in self._frames:
            self._frames[root] = "frame" if not self._frames else f"frame_{len(self._frames) + 1}"
            lines.append(f"{self._frames[root]} = {root}")
        name = self._frames[root]
        nested = ".filter(has=" + root  # a card's filter finds the element from the same root
        rest = code.chain[1 + code.frames :]
        return (
            name,
            *(".filter(has=" + name + p[len(nested) :] if p.startswith(nested) else p for p in rest),
        )

    def _unwritten(self, step: ExportStep, where: str, why: str) -> list[str]:
        """A comment of our own words only: the action's name and parameters are the recording's, so
        they go to the warning (as ``repr`` shows them), not into the script."""
        args = ", ".join(f"{_cut(repr(k))}: {_cut(repr(v))}" for k, v in step.params.items())
        action = _cut(repr(step.action))
        self.warnings.append(f"{where}: the action {action} ({{{args}}}) was not exported: {why}")
        return _comment(f"NOT EXPORTED: {where} ({why}; see the export's warnings); add it by hand")

    def url(self, url: str, *, root: str = "base_url") -> str:
        """An address as Python: under ``base_url``, relative to the ``root`` variable that holds it."""
        if "<secret>" in url:
            return self.inputs.value(url, "url")
        if self.base_url and url.startswith(self.base_url):
            rest = url[len(self.base_url) :]
            return f"{root} + {py_string(rest)}" if rest else root
        return py_string(url)


def _tab_lines(action: str, p: Mapping[str, Any]) -> list[str]:
    if action == "open_tab":
        url = py_string(p["url"])
        return ["page = page.context.new_page()", "tabs.append(page)", f"page.goto({url})"]
    if action == "switch_tab":
        return [f"page = tabs[{int(p['tab_id'])}]", "page.bring_to_front()"]
    return [f"tabs[{int(p['tab_id'])}].close()"]


def _hint(step: ExportStep, param: str, otherwise: str | None = None) -> str:
    """What to call the value of ``param``: the input it was named when recorded, else ``otherwise``,
    else its field's label."""
    return step.input_names.get(param) or otherwise or _field_hint(step)


def _field_hint(step: ExportStep) -> str:
    """What to call the value typed into a field: its label, else its placeholder or form name."""
    found = step.fingerprint
    if found is None:
        return "text"
    if found.tag == "select":
        return found.attribute("name") or found.attribute("id") or (found.name.split() or ["choice"])[0]
    return found.name or found.attribute("placeholder") or found.attribute("name") or "text"


def _cut(shown: str, most: int = 60) -> str:
    return shown if len(shown) <= most else shown[: most - 1] + "…"


def _comment(note: str) -> list[str]:
    """``note`` (our own words) as comment lines; a character that could end or break a line is a space."""
    plain = "".join(char if char.isprintable() else " " for char in note)
    return ["# " + line for line in textwrap.wrap(plain, _WIDTH - 2 * len(_INDENT) - 2)]
