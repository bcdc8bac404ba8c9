"""What a script reads from the page it ended on: the values the agent reported, read by a locator.

The agent's answer is its own sentence ("Glass Carafe: $22.00", "Order 5001 placed: 2 x ..."), and
sometimes a shortened copy of what it was shown ("receipt sent to ad…"): neither is asserted. What the
page shows is: each value of the answer holding a digit (a price, an order number), not one the run
typed, is read at the end of ``run`` from the first element on the page showing a text of its shape
(``$22.00`` -> ``\\$\\d+\\.\\d+``), with the address the run ended on; so is each input's value the
answer repeated (the email a receipt went to), found on the page by the value given; ``run`` returns
them by name.

The pytest form checks each against an expectation the user may set (``BA_EXPECT_<NAME>``, a regular
expression), else against the value recorded — exactly after a run that entered nothing (a lookup: the
page's data is the answer), by its shape after one that did (an order number is new every time).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from browser_agent.export.inputs import ENV_PREFIX, ScriptInput, identifier
from browser_agent.export.literals import py_string, regex_literal

__all__ = ["Read", "end_reads", "read_checks", "read_lines"]

_VALUE = re.compile(r"[^\s\w]?\d[\d.,:/-]*\d?%?|[^\s\w]?\d")
_MOST = 5  # values read at the end; an answer with more is a table, which a script should read itself
_CUT = "…"


@dataclass(frozen=True, slots=True)
class Read:
    """One value read at the end: its key in what ``run`` returns, its shape, and what is expected;
    or (``variable`` set) an input's value the answer repeated, which the page must show as given."""

    key: str
    shape: str = ""
    expected: str = ""
    variable: str | None = None

    @property
    def constant(self) -> str:
        return f"EXPECT_{self.key.upper()}"


def end_reads(answer: str | None, inputs: Sequence[ScriptInput], *, entered: bool) -> list[Read]:
    """The values of ``answer`` a script reads back from the page: those holding a digit that are no
    input's value, before any mark of a shortened text; ``entered`` says the run typed or chose values."""
    text = (answer or "").split(_CUT, 1)[0]
    typed = {i.value.strip() for i in inputs if i.name != "base_url"}
    if "<secret>" in text:
        return []
    reads = [
        Read(i.name, variable=i.name)
        for i in inputs
        if i.name != "base_url" and len(i.value.strip()) >= 3 and _says(text, i.value)
    ][:_MOST]
    for found in _VALUE.finditer(text):
        value = found.group(0).rstrip(".,:")
        if value in typed:
            continue
        shape = _shape(value)
        key = _key(text[: found.start()], len(reads) + 1, {r.key for r in reads})
        reads.append(Read(key, shape, shape if entered else re.escape(value)))
        if len(reads) == _MOST:
            break
    return reads


def read_lines(reads: Sequence[Read]) -> list[str]:
    """The end of ``run``'s body: read each value from the page it ended on, return them by name."""
    lines = [
        "",
        "    # What the run reported, read from the page it ended on (see the test for the checks).",
        "    page.wait_for_load_state()",
        "    read = {}",
    ]
    for item in reads:
        if item.variable is not None:
            name = item.variable
            lines += [
                f"    shown = page.get_by_text({name}).first.inner_text()",
                f"    read[{py_string(item.key)}] = {name} if {name}.lower() in shown.lower() else shown",
            ]
            continue
        shape = regex_literal(item.shape)
        lines += [
            f"    shown = page.get_by_text(re.compile({shape})).first.inner_text()",
            f"    read[{py_string(item.key)}] = re.search({shape}, shown).group(0)",
        ]
    return [*lines, '    read["url"] = page.url', "    return read"]


def read_checks(reads: Sequence[Read], url: str | None, url_code: str | None) -> list[str]:
    """The test's lines after ``read = run(page)``: the address, then each value against its expectation."""
    lines: list[str] = []
    if url_code is not None:
        lines.append(f'    assert re.match("^" + {url_code} + r"([?#]|$)", read["url"]), read["url"]')
    elif url:
        lines.append(f'    assert read["url"].startswith({py_string(url)}), read["url"]')
    for item in reads:
        if item.variable is not None:
            lines.append(f"    assert read[{py_string(item.key)}] == {item.variable.upper()}, read")
        else:
            lines.append(f"    assert re.fullmatch({item.constant}, read[{py_string(item.key)}]), read")
    return lines or ["    # The run reported no end state to check."]


def expectation_constants(reads: Sequence[Read]) -> list[str]:
    """The expectations, each from its environment variable when set (a regular expression)."""
    reads = [r for r in reads if r.variable is None]
    if not reads:
        return []
    return [
        "",
        "# What the test expects of each value read at the end: BA_EXPECT_<NAME> (a regular expression)",
        "# when set, else the value recorded (its shape, after a run that entered values).",
        *(f"{r.constant} = os.environ.get({_env(r)}, {regex_literal(r.expected)})" for r in reads),
    ]


def without_query(url: str) -> str:
    """``url`` without its query and fragment; empty for a malformed recorded address."""
    try:
        return urlsplit(url)._replace(query="", fragment="").geturl()
    except ValueError:
        return ""


def _env(read: Read) -> str:
    return py_string(ENV_PREFIX + read.constant)


def _says(text: str, value: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(value.strip())}(?!\w)", text, re.IGNORECASE) is not None


def _shape(value: str) -> str:
    """A value's regular expression: its digits as ``\\d+``, the rest as it is."""
    parts = re.split(r"\d+", value)
    return r"\d+".join(re.escape(part) for part in parts)


def _key(before: str, number: int, taken: set[str]) -> str:
    """The name of a value: the word before it in the answer (``order``, ``price``), else ``value_N``."""
    words = re.findall(r"[A-Za-z]{2,}", before)
    key = identifier(words[-1]) if words else f"value_{number}"
    if key in taken or key == "url":
        key = f"{key}_{number}"
    return key
