"""Each recorded action as lines of plain Playwright (sync API), inside the body of ``run(page, ...)``.

What an action writes is its spec's (``ActionSpec.export`` in ``browser_agent.action_specs``, a custom
action's included); this module gives the spec's renderer what it writes with (``Script``: the element's
locator, inputs, literals) and leaves out, with a warning, an action that has no export.
The steps come checked (``browser_agent.export.params``): every value is of the type its action takes.
What the recording said (a value, a name, an address) is written only as a literal (``py_string``);
comments hold only our own words.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from browser_agent.action_specs import spec_of
from browser_agent.export.inputs import Inputs
from browser_agent.export.literals import py_string
from browser_agent.export.locators import LocatorCode, locate
from browser_agent.export.steps import ExportStep
from browser_agent.record import Fingerprint

__all__ = ["Locate", "StepWriter", "robust_locator", "uses_tabs"]

Locate = Callable[[ExportStep], LocatorCode]
_INDENT = "    "
_WIDTH = 110


def robust_locator(step: ExportStep) -> LocatorCode:
    """The locator the export writes: the most robust one the step's fingerprint supports."""
    found = step.fingerprint
    if found is None:
        raise ValueError(f"{step.action} recorded no element")
    if step.frame is not None and step.frame != found.frame_path:
        found = replace(found, frame_path=step.frame)
    return locate(found, step.shown_name, named_by=step.named_by)


def uses_tabs(action: str) -> bool:
    """Whether the script keeps its list of tabs for ``action`` (it opens, switches or closes one)."""
    spec = spec_of(action)
    return spec is not None and spec.tabs


class _NoElement(Exception):
    """The step's renderer asked for its element, and the run recorded none."""


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
        """The lines its action's spec writes (``ActionSpec.export``), from the checked parameters."""
        spec = spec_of(step.action)
        if spec is None or spec.export is None:
            return self._unwritten(step, where, "it is not a built-in action")
        if step.by_widget:
            why = "the run set the value through the page's own calendar or slider, which a fill cannot"
            return self._unwritten(step, where, why)
        if spec.tabs:
            self._frames.clear()  # they were found from the tab that was current
        checked = step.params  # checked and normalised by export.params (defaults filled in)
        params = (
            spec.params.model_construct(**checked) if spec.checks is not None else spec.params_of(checked)
        )
        mark = self.inputs.mark()
        try:
            return spec.export(params, _StepScript(self, step))
        except _NoElement:
            self.inputs.rollback(mark)  # the values it met are no inputs of a step left out
            return self._unwritten(step, where, "it names no element the run recorded")

    def with_locator(self, step: ExportStep, call: str, *, opens_tab: bool = False) -> list[str]:
        """The lines finding ``step``'s element and calling ``call`` on it; with ``opens_tab``, in the
        tab the call opens."""
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


@dataclass(frozen=True, slots=True)
class _StepScript:
    """What a spec's renderer writes ``step`` with (``action_specs.Script``)."""

    writer: StepWriter
    step: ExportStep

    @property
    def element(self) -> Fingerprint | None:
        return self.step.fingerprint

    @property
    def opened_tab(self) -> bool:
        return self.step.opened_tab

    def literal(self, text: str) -> str:
        return py_string(text)

    def value(self, param: str, otherwise: str | None = None) -> str:
        recorded = self.step.params[param]
        if not isinstance(recorded, str):
            raise TypeError(f"{self.step.action}: parameter {param} is no text; write it with literal()")
        return self.writer.inputs.value(recorded, _hint(self.step, param, otherwise))

    def url(self, address: str) -> str:
        return self.writer.url(address)

    def on_element(self, call: str, *, follow_tab: bool = False) -> list[str]:
        if self.step.fingerprint is None:
            raise _NoElement
        return self.writer.with_locator(self.step, call, opens_tab=follow_tab)


def _cut(shown: str, most: int = 60) -> str:
    return shown if len(shown) <= most else shown[: most - 1] + "…"


def _comment(note: str) -> list[str]:
    """``note`` (our own words) as comment lines; a character that could end or break a line is a space."""
    plain = "".join(char if char.isprintable() else " " for char in note)
    return ["# " + line for line in textwrap.wrap(plain, _WIDTH - 2 * len(_INDENT) - 2)]
