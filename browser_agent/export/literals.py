"""Python literals for text the export did not write itself.

Every name, value, address, answer and file name a recording holds reaches a script only through here,
as a string literal that ``repr`` made (control characters, NUL, U+2028 and the like escaped), checked
to read back as the same text. A recording is a file anyone may hand over: nothing in it is ever code, a
comment or a docstring of the script.
"""

from __future__ import annotations

import ast
import re

__all__ = ["long_string", "py_string", "regex_literal"]

_RAW_SAFE = re.compile(r"[ -~]*")  # printable ASCII: what a raw literal may hold as it is
_CHUNK = 72


def py_string(text: str) -> str:
    """``text`` as a Python string literal, in double quotes when it can be.

    Raises:
        TypeError: ``text`` is not a string (a recording's value of another type must be refused
            before it gets here).
    """
    if not isinstance(text, str):
        raise TypeError(f"a string literal needs a str, not {type(text).__name__}")
    literal = repr(text)
    if literal.startswith("'") and '"' not in text and "'" not in text:
        literal = '"' + literal[1:-1] + '"'
    return _checked(literal, text)


def regex_literal(source: str) -> str:
    """A regular expression's source as a literal: raw (``r"Order #\\d+"``) when it holds backslashes
    and is plain printable ASCII a raw literal can hold as it is, else as ``py_string`` writes it."""
    if "\\" in source and _RAW_SAFE.fullmatch(source) and '"' not in source and not source.endswith("\\"):
        raw = f'r"{source}"'
        if _reads_back(raw, source):
            return raw
    return py_string(source)


def long_string(text: str, indent: str, width: int = 110) -> list[str]:
    """``text`` as lines of Python forming one expression: one literal when it fits in ``width`` after
    ``indent``, else literals of about ``_CHUNK`` characters of text each, inside parentheses."""
    one = py_string(text)
    if len(indent) + len(one) <= width - 20:  # room for the name it is assigned to
        return [one]
    pieces = [py_string(piece) for piece in _chunks(text)]
    return ["(", *(f"{indent}    {piece}" for piece in pieces), f"{indent})"]


def _chunks(text: str) -> list[str]:
    """``text`` cut after spaces into pieces of about ``_CHUNK`` characters (a long word is cut too)."""
    pieces: list[str] = []
    current = ""
    for word in re.findall(r"\S*\s*", text):
        while len(word) > _CHUNK:
            if current:
                pieces.append(current)
                current = ""
            pieces.append(word[:_CHUNK])
            word = word[_CHUNK:]
        if len(current) + len(word) > _CHUNK:
            pieces.append(current)
            current = ""
        current += word
    return [*pieces, current] if current else pieces


def _checked(literal: str, text: str) -> str:
    if not _reads_back(literal, text):
        raise ValueError(f"the literal {literal[:60]} does not read back as the text it was made from")
    return literal


def _reads_back(literal: str, text: str) -> bool:
    """Whether ``literal`` is one plain string literal of ``text``, printable on one line."""
    if not all(char.isprintable() for char in literal):
        return False
    try:
        node = ast.parse(literal, mode="eval").body
    except SyntaxError:
        return False
    return isinstance(node, ast.Constant) and node.value == text
