"""The texts a task gives to type ("reply to them with the text "Gravida."") that the run never typed.

Asked to find an email and "reply to them with the text "Purus velit faucibus eu."", the 1.5B model
opened the mail (or only the search box), wrote "the text was replied" in its memory and called ``done``:
in 4 of the 15 email-inbox losses of seeds 0-29 the text was never typed. A quoted text counts as one to
type when the word nearest before it, in its sentence, that is a verb of typing (type, enter, write,
reply, fill in...) or of clicking (press, click, select...), a word for a text (the text, the comment,
the message...) or one that describes (starts with, ends with, labeled...), is of typing or a text:
"press "Search"" and "click on the link "Donec"" quote what to click, "an item that starts with "Gua"
and ends with "la"" traits of what to type, "the field labeled "Name"" a label. It counts as typed once
a text the model typed or chose, or the name of an element it clicked (a suggestion picked after typing
the first letters), holds it, in any case.
"""

from __future__ import annotations

import re
from collections.abc import Collection

__all__ = ["recipient", "recipient_for", "to_type", "untyped"]

_QUOTED = re.compile(r"\"([^\"]{1,200})\"|“([^”]{1,200})”")  # paired in order; one letter is no text
_TYPING = frozenset(
    {"type", "enter", "write", "input", "fill", "reply", "respond", "search", "put", "say"}
    | {"text", "comment", "message", "note", "phrase"}  # "with the text "Gravida."", "add the comment "...""
)
_CLICKING = frozenset(
    {"press", "click", "hit", "tap", "push", "select", "choose", "check", "open", "mark", "navigate", "pick"}
)
# Words that make a quote a trait or a label, not a text: "an item that starts with "Gua" and ends with
# "la"", "the field labeled "Name"".
_DESCRIBING = frozenset(
    {
        "start",
        "end",
        "begin",
        "contain",
        "include",
        "match",
        "named",
        "called",
        "labeled",
        "labelled",
        "titled",
    }
)
_KNOWN = _TYPING | _CLICKING | _DESCRIBING
_WORD = re.compile(r"[a-z]+")


def to_type(task: str) -> list[str]:
    """The texts ``task`` quotes as texts to type, in its order."""
    found = []
    for match in _QUOTED.finditer(task):
        sentence = re.split(r"[.!?;]\s", task[: match.start()])[-1].lower()
        verbs = [w for w in _WORD.findall(sentence) if _stem(w) in _KNOWN]
        text = match.group(1) or match.group(2)
        if len(text.strip()) >= 2 and verbs and _stem(verbs[-1]) in _TYPING:
            found.append(text)
    return found


# "forward that email to Hedy", "send it to @mira": whom a message goes to, by name or address.
_RECIPIENT = re.compile(r"\b(?i:forward|send)\b[^.;!?]*?\bto\s+([A-Z][\w.'-]*|@\w+|[\w.+-]+@[\w-]+\.[\w.]+)")


def recipient(task: str) -> str | None:
    """Whom ``task`` asks to forward or send something to ("forward that email to Hedy": Hedy); None
    when it names no one."""
    found = _RECIPIENT.search(task)
    return found.group(1).rstrip(".") if found else None


_RECIPIENT_LABELS = frozenset({"to", "recipient", "recipients", "send to"})


def recipient_for(label: str, task: str) -> str | None:
    """Whom ``task`` forwards or sends to, when ``label`` (a field's name: "to:") is the field for it;
    None for any other field, or a task that names no one."""
    return recipient(task) if " ".join(label.split()).lower().strip(" :") in _RECIPIENT_LABELS else None


def untyped(task: str, typed: Collection[str]) -> str | None:
    """The first text ``task`` gives to type that none of ``typed`` (what the run typed, chose, or the
    names it clicked; spaced and in lower case, as the ``done`` guard keeps them) holds; None when each
    one is typed, or the task gives none."""
    for text in to_type(task):
        wanted = " ".join(text.split()).lower()
        if not any(wanted in done for done in typed):
            return text
    return None


def _stem(word: str) -> str:
    """``word`` without a verb's ending: "types", "entering", "replied" read as their verb."""
    for ending, base in (("ied", "y"), ("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(ending) and word[: -len(ending)] + base in _KNOWN:
            return word[: -len(ending)] + base
    return word
