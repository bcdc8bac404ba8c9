"""The last check on a script before anyone gets it: it compiles, and it is made only of what the export
writes.

The script is parsed and every name, attribute, parameter, keyword, function and import in it must be
one the export uses (Playwright's calls, ``os.environ``, ``re``, the inputs' own names). Whatever a
recording held can reach the script only as a string literal (``browser_agent.export.literals``); this
check is the second line, so that a way around the first one gives an error instead of a script that
runs someone else's code when it is imported or run.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from typing import NoReturn

from browser_agent.action_specs.catalog import custom_script_words
from browser_agent.errors import UserError
from browser_agent.export.healing import HEAL_NAMES

__all__ = ["verify_script"]

_NAMES = frozenset(
    {"os", "re", "pytest", "expect", "sync_playwright", "Page", "Iterator", "quote_plus", "None", "str"}
    | {"page", "tabs", "target", "new_tab", "said", "browser", "playwright", "run", "main", "__name__"}
    | {"RECORDED_FROM", "RECORDED_TASK", "RECORDED_ANSWER", "read", "shown", "dict", "print"}
    | set(HEAL_NAMES)  # the --heal form's calls into browser-agent
)
_FRAME = re.compile(r"frame(_\d+)?")
_FUNCTIONS = frozenset({"run", "main", "page", "test_recorded_run"})
_ATTRIBUTES = frozenset(
    {"environ", "get", "compile", "escape", "IGNORECASE", "fixture", "chromium", "launch", "close"}
    | {"new_page", "context", "expect_page", "value", "append", "bring_to_front", "goto", "go_back"}
    | {"wait_for_timeout", "keyboard", "press", "mouse", "wheel", "first", "last", "filter", "locator", "or_"}
    | {"frame_locator", "get_by_role", "get_by_label", "get_by_placeholder", "get_by_test_id"}
    | {"get_by_text", "click", "fill", "press_sequentially", "select_option", "hover", "set_input_files"}
    | {"scroll_into_view_if_needed", "to_have_url", "to_be_visible", "set_default_timeout", "pages"}
    | {
        "url",
        "inner_text",
        "wait_for_load_state",
        "search",
        "group",
        "match",
        "fullmatch",
        "startswith",
        "lower",
    }
)
_KEYWORDS = frozenset(
    {"name", "exact", "has_text", "has", "label", "headless", "executable_path", "args", "opens_tab"}
)
_IMPORTS = frozenset(
    {
        ("__future__", "annotations"),
        (None, "os"),
        (None, "re"),
        (None, "pytest"),
        ("collections.abc", "Iterator"),
        ("urllib.parse", "quote_plus"),
        ("playwright.sync_api", "Page"),
        ("playwright.sync_api", "expect"),
        ("playwright.sync_api", "sync_playwright"),
        *(("browser_agent.script_healing", name) for name in HEAL_NAMES),
    }
)
_FORBIDDEN = (
    ast.ClassDef,
    ast.AsyncFunctionDef,
    ast.Lambda,
    ast.Global,
    ast.Nonlocal,
    ast.Delete,
    ast.Await,
    ast.JoinedStr,
    ast.Starred,
)


def verify_script(source: str, names: Iterable[str] = ()) -> None:
    """Check that ``source`` compiles and holds only what the export writes; ``names`` are the script's
    own variables beside the fixed ones (its inputs and their constants).

    Raises:
        UserError: it does not compile, holds a character that could end a line where Python does not
            see one, or uses something the export never writes. Nothing should be written then.
    """
    bad_char = next((c for c in source if c != "\n" and not c.isprintable()), None)
    if bad_char is not None:
        _refuse(f"it holds the character {bad_char!r} outside a string literal's escapes")
    try:
        tree = ast.parse(source)
        compile(tree, "<exported script>", "exec")
    except (SyntaxError, ValueError) as exc:
        _refuse(f"it does not compile ({exc})")
    allowed = _NAMES | frozenset(names)
    words = custom_script_words()  # what custom actions' renderers write, as their specs declare
    for node in ast.walk(tree):
        foreign = _foreign(node, allowed, words)
        if foreign:
            _refuse(f"it holds {foreign} (line {getattr(node, 'lineno', '?')})")


def _foreign(node: ast.AST, allowed: frozenset[str], words: frozenset[str] = frozenset()) -> str:
    """What in ``node`` the export never writes, described; "" when nothing."""
    if isinstance(node, _FORBIDDEN):
        return f"a {type(node).__name__}"
    if isinstance(node, ast.Name) and node.id not in allowed and not _FRAME.fullmatch(node.id):
        return f"the name {node.id!r}"
    if isinstance(node, ast.arg) and node.arg not in allowed:
        return f"the parameter {node.arg!r}"
    if isinstance(node, ast.Attribute) and node.attr not in _ATTRIBUTES and node.attr not in words:
        return f"the attribute {node.attr!r}"
    if isinstance(node, ast.keyword) and node.arg not in _KEYWORDS and node.arg not in words:
        return f"the keyword {node.arg!r}"
    if isinstance(node, ast.FunctionDef) and node.name not in _FUNCTIONS:
        return f"the function {node.name!r}"
    if isinstance(node, ast.Import):
        unknown = [a.name for a in node.names if (None, a.name) not in _IMPORTS or a.asname]
        return f"an import of {unknown}" if unknown else ""
    if isinstance(node, ast.ImportFrom):
        unknown = [a.name for a in node.names if (node.module, a.name) not in _IMPORTS or a.asname]
        return f"an import of {unknown} from {node.module!r}" if unknown or node.level else ""
    return ""


def _refuse(why: str) -> NoReturn:
    raise UserError(
        f"The exported script was not written: {why}. This is a fault of browser-agent's export (please "
        "report it with the file that caused it), or of a custom action's export= (declare the Playwright "
        "calls it writes with script_words), not of your file."
    )
