"""The checks of the pytest form: Playwright assertions on the page the run ended on and on the text the
agent reported there.

The text is matched by a regular expression made of literals (``re.escape`` of the recorded words,
written by ``regex_literal``), of ``re.escape(CONSTANT)`` where an input's value stood, and of ``\\d+``
for the other numbers (an order number changes every time). Each piece is kept apart as what it is, so
no character of the reported text can turn into code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from browser_agent.export.actions import StepWriter
from browser_agent.export.inputs import ScriptInput
from browser_agent.export.literals import py_string, regex_literal

__all__ = ["Ending", "end_checks"]

_TEXT_CHECK_CAP = 200


@dataclass(frozen=True, slots=True)
class Ending:
    """What the run ended on: the page's address and the text the agent reported (None when unknown)."""

    url: str | None = None
    text: str | None = None


@dataclass(frozen=True, slots=True)
class _Piece:
    """A piece of the text's pattern: regex source, or (``constant`` set) an input's value there."""

    source: str = ""
    constant: str | None = None


def _without_query(url: str) -> str:
    """``url`` without its query and fragment; empty for a malformed recorded address (nothing to check)."""
    try:
        return urlsplit(url)._replace(query="", fragment="").geturl()
    except ValueError:
        return ""


def end_checks(ending: Ending, inputs: Sequence[ScriptInput], writer: StepWriter) -> list[str]:
    """The lines of the test, after ``run(page)``, that check the end of the run."""
    lines: list[str] = []
    if ending.url and ending.url != "about:blank" and "<secret>" not in ending.url:
        target = _without_query(ending.url)
    else:
        target = ""
    if target:
        where = writer.url(target, root="BASE_URL")
        pattern = f"re.escape({where})" if where.startswith("BASE_URL") else py_string(re.escape(target))
        lines.append(f'    expect(page).to_have_url(re.compile("^" + {pattern} + r"([?#]|$)"))')
    # its closing full stop is left out: the page's own sentence may go on where the agent's report ended
    text = " ".join((ending.text or "").split()).rstrip(".!")
    if text and len(text) <= _TEXT_CHECK_CAP and "<secret>" not in text:
        parts = _text_pattern(text, inputs)
        lines += [
            "    # The text the agent reported: numbers it did not type are matched loosely (an order",
            "    # number changes every time). Edit it if the agent put the page in its own words.",
            "    said = re.compile(",
            *(f"        {'+ ' if n else ''}{part}" for n, part in enumerate(parts)),
            "    )",
            "    expect(page.get_by_text(said)).to_be_visible()",
        ]
    return lines or ["    # The run reported no end state to check."]


def _text_pattern(text: str, inputs: Sequence[ScriptInput]) -> list[str]:
    """A regular expression for ``text``, as Python expressions to join with ``+``: each input's value
    is ``re.escape(CONSTANT)``, other numbers ``\\d+``, the rest literal."""
    typed = [i for i in inputs if i.name != "base_url" and i.value.strip()]
    values = sorted(typed, key=lambda i: -len(i.value))
    alternatives = [rf"(?<!\w){re.escape(i.value)}(?!\w)" for i in values] + [r"\d+"]
    pieces: list[_Piece] = []
    at = 0
    for found in re.finditer("|".join(alternatives), text):
        match = next((i for i in values if i.value == found.group(0)), None)
        number = _Piece(r"\d+", match.constant if match is not None else None)
        pieces += [_Piece(_escaped(text[at : found.start()])), number]
        at = found.end()
    pieces.append(_Piece(_escaped(text[at:])))
    merged: list[_Piece] = []
    for piece in pieces:
        if piece.constant is None and not piece.source:
            continue
        if merged and piece.constant is None and merged[-1].constant is None:
            merged[-1] = _Piece(merged[-1].source + piece.source)
        else:
            merged.append(piece)
    return [f"re.escape({p.constant})" if p.constant else regex_literal(p.source) for p in merged]


def _escaped(text: str) -> str:
    return re.escape(text).replace("\\ ", " ").replace("\\#", "#")
