"""A recording is a file anyone may hand over: the export must turn whatever it holds into a script that is
inert (its text only ever a literal) or refuse it in one line, never crash and never write a bad script.

Here without a browser: every action the export knows with malformed parameters through the CLI, the
literals and the last check on a script attacked directly, and the pytest form's check of a hostile
answer evaluated as the script would evaluate it.
"""

from __future__ import annotations

import ast
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from browser_agent.cli import main as cli_main
from browser_agent.errors import UserError
from browser_agent.export import Ending, ExportStep, render_script, verify_script
from browser_agent.export.literals import long_string, py_string, regex_literal
from browser_agent.export.params import KNOWN_ACTIONS
from browser_agent.reid import Fingerprint

NASTY = [
    '"""',
    "'''",
    "\"\"\"'''",
    "\\",
    "a\\",
    "\\N{BULLET}",
    "\x00",
    "\u2028",
    "\u2029",
    "\u202e",  # a right-to-left override: what the source shows would not be what it does
    "\udcff",  # a lone surrogate, as a file name that is not UTF-8 decodes to
    "{}",
    "{0}",
    "%s",
    "\n",
    "\r",
    "\x0c",
    "'''+__import__('os').system('touch PWNED')+'''",
    '"""; import os; os.system("touch PWNED"); """',
    "\\'''",
    '\\"""',
]
BUTTON = {"tag": "button", "name": "go", "text": "go"}
FIELD = {"tag": "input", "name": "email", "attributes": [["type", "email"]]}
SELECT = {"tag": "select", "name": "shipping", "attributes": [["name", "shipping"]]}
# a good example of each action's parameters and the element it acts on
GOOD: dict[str, tuple[dict[str, Any], dict[str, Any] | None]] = {
    "go_to_url": ({"url": "http://127.0.0.1:9/a"}, None),
    "open_tab": ({"url": "http://127.0.0.1:9/b"}, None),
    "go_back": ({}, None),
    "search_web": ({"query": "oak desk"}, None),
    "wait": ({"seconds": 2}, None),
    "send_keys": ({"keys": "Tab Enter"}, None),
    "scroll_to_text": ({"text": "Reviews"}, None),
    "scroll": ({"direction": "down", "pages": 0.5}, None),
    "switch_tab": ({"tab_id": 0}, None),
    "close_tab": ({"tab_id": 1}, None),
    "click_element": ({"index": 3}, BUTTON),
    "hover": ({"index": 3}, BUTTON),
    "input_text": ({"index": 4, "text": "ada@example.com", "clear": True}, FIELD),
    "select_dropdown_option": ({"index": 5, "text": "Express"}, SELECT),
    "upload_file": ({"index": 6, "path": "cv.pdf"}, FIELD),
    "extract_content": ({"goal": "prices"}, None),
    "page_markdown": ({}, None),
    "get_dropdown_options": ({"index": 5}, SELECT),
    "done": ({"text": "ok", "success": True}, None),
}
MISSING = object()
BAD_SHAPES: list[Any] = [MISSING, None, math.nan, -math.inf, "1e400", 10**30, -1, "x", [], True]


def _history(action: str, params: dict[str, Any], element: dict[str, Any] | None) -> str:
    """A saved history, as its JSON text, that opens a page and then does ``action``."""
    first = {"action": "go_to_url", "url": "http://127.0.0.1:9/"}
    steps = [
        {"step": 1, "url": "about:blank", "model_output": {"action": [first]}, "results": [{}]},
        {
            "step": 2,
            "url": "http://127.0.0.1:9/",
            "model_output": {"action": [{"action": action, **params}]},
            "results": [{"action": action}],
            "interacted": [element],
        },
    ]
    text = json.dumps({"task": "t", "version": 2, "steps": steps})
    return text.replace('"1e400"', "1e400")  # json reads it as infinity


def _export(tmp_path: Path, text: str, *flags: str) -> tuple[int, Path]:
    history = tmp_path / "run.json"
    history.write_text(text)
    out = tmp_path / "out" / "exported.py"
    return cli_main(["export", str(history), "-o", str(out), *flags]), out


@pytest.mark.parametrize("action", sorted(GOOD))
def test_every_action_the_export_knows_has_a_good_example_here(action: str, tmp_path: Path) -> None:
    assert set(GOOD) == KNOWN_ACTIONS
    code, out = _export(tmp_path, _history(action, *GOOD[action]))
    assert code == 0 and out.exists()
    compile(out.read_text(), str(out), "exec")


def _cases() -> list[tuple[str, str, Any]]:
    return [
        (action, name, shape)
        for action, (params, _) in sorted(GOOD.items())
        for name in {**params, "index": None}  # index: read by scroll only, ignored by the others
        for shape in BAD_SHAPES
    ]


@pytest.mark.parametrize(("action", "param", "shape"), _cases())
def test_a_malformed_parameter_is_exported_safely_or_refused_in_one_line(
    action: str, param: str, shape: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    params, element = GOOD[action]
    params = {k: v for k, v in params.items() if k != param}
    if shape is not MISSING:
        params[param] = shape
    code, out = _export(tmp_path, _history(action, params, element))
    err = capsys.readouterr().err
    assert "Traceback" not in err
    if code == 0:  # exported: the script compiles and passed the check of what it may hold
        source = out.read_text()
        verify_script(source, _names(source))
        return
    assert code == 2 and not out.exists() and not out.parent.exists()
    line = err.strip()
    assert "\n" not in line and line.startswith("browser-agent export: ")
    if isinstance(shape, float) and not math.isfinite(shape):  # NaN, -Infinity: refused by the loader
        assert re.search(r"run\.json is not JSON: -?\w+ is not a JSON number", line), line
        return
    assert re.search(rf"step 2, action {action}: parameter {param} is \S", line), line


def _names(source: str) -> set[str]:
    """The inputs of a script: its run function's keyword parameters and the constants they default to."""
    run = next(n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == "run")
    return {a.arg for a in run.args.kwonlyargs} | {a.arg.upper() for a in run.args.kwonlyargs}


@pytest.mark.parametrize(
    ("action", "params", "expected"),
    [
        ("wait", {"seconds": "1e400"}, "parameter seconds is inf; expected a finite number"),
        ("switch_tab", {"tab_id": "x"}, "parameter tab_id is 'x'; expected a tab number from 0 to 1000"),
        ("send_keys", {}, "parameter keys is missing"),
        ("go_to_url", {}, "parameter url is missing"),
        ("input_text", {"index": 4, "text": {"a": 1}}, "parameter text is {'a': 1}; expected text"),
    ],
)
def test_the_refusal_names_the_step_the_action_and_the_value(
    action: str, params: dict[str, Any], expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = _export(tmp_path, _history(action, params, GOOD[action][1]))
    assert code == 2
    assert f"step 2, action {action}: {expected}" in capsys.readouterr().err


def test_a_recorded_nan_is_refused_by_the_exporter_too() -> None:
    """A history made in Python (never through a file, whose loader refuses NaN) is checked as well."""
    with pytest.raises(UserError, match="parameter seconds is nan; expected a finite number"):
        render_script([ExportStep("wait", {"seconds": math.nan})])


def test_a_negative_wait_is_none_and_a_string_tab_id_of_digits_is_a_tab() -> None:
    steps = [ExportStep("wait", {"seconds": -5}), ExportStep("switch_tab", {"tab_id": "2"})]
    source = render_script(steps).source
    assert "page.wait_for_timeout(0)" in source and "page = tabs[2]" in source


@pytest.mark.parametrize("text", NASTY)
def test_a_literal_reads_back_as_its_text_and_is_one_printable_line(text: str) -> None:
    for literal in [py_string(text), regex_literal(re.escape(text)), "\n".join(long_string(text * 40, ""))]:
        assert ast.literal_eval(literal) in (text, re.escape(text), text * 40)
        assert all(c == "\n" or c.isprintable() for c in literal)
    assert "\n" not in py_string(text) and "\u2028" not in py_string(text)


def test_a_raw_regex_literal_is_used_only_where_it_reads_back() -> None:
    assert regex_literal(r"Order #\d+") == r'r"Order #\d+"'
    for source in [r"\N{BULLET}", "a\\", '"\\d', "\\d\x00", "\\d\u2028"]:
        assert ast.literal_eval(regex_literal(source)) == source


def _fp(tag: str, name: str, **extra: Any) -> Fingerprint:
    return Fingerprint(tag=tag, name=name, text=name, **extra)


def _everything(text: str) -> tuple[list[ExportStep], Ending]:
    """Steps whose every recorded string is ``text``."""
    field = _fp("input", text, attributes=(("placeholder", text), ("name", text)), frame_path=(text,))
    card = _fp("button", text, twins=2, group=(text,), group_depth=1, classes=(text,))
    steps = [
        ExportStep("go_to_url", {"url": "http://127.0.0.1:9/" + text}, url=text),
        ExportStep("input_text", {"text": text}, field, shown_name=text, url="http://127.0.0.1:9/" + text),
        ExportStep("click_element", {}, card, shown_name=text),
        ExportStep("select_dropdown_option", {"text": text}, _fp("select", text, attributes=(("id", text),))),
        ExportStep("send_keys", {"keys": text}),
        ExportStep("scroll_to_text", {"text": text}),
        ExportStep("search_web", {"query": text}),
        ExportStep("open_tab", {"url": text}),
        ExportStep(text, {text: text}),
        ExportStep("click_element", {}, _fp("a", text, attributes=(("href", text),)), named_by=(text, text)),
        ExportStep("done", {"text": text}),
    ]
    return steps, Ending(url="http://127.0.0.1:9/" + text, text=text)


@pytest.mark.parametrize("text", NASTY)
@pytest.mark.parametrize("pytest_form", [False, True])
def test_hostile_text_in_every_field_is_only_ever_a_literal(text: str, pytest_form: bool) -> None:
    steps, ending = _everything("x " + text + " y")
    script = render_script(steps, task=text, origin=text, ending=ending, pytest=pytest_form)
    tree = ast.parse(script.source)  # render_script checked it already; this says what "inert" means
    ours = [ast.get_docstring(tree) or ""]
    ours += [line for line in script.source.splitlines() if line.lstrip().startswith("#")]
    assert not any(text.strip() and text.strip() in line for line in ours)
    namespace: dict[str, Any] = {}
    exec(compile(tree, "exported", "exec"), namespace)  # importing it defines names and does nothing else
    assert namespace["RECORDED_TASK"] == text and namespace["RECORDED_FROM"] == text


@pytest.mark.parametrize(
    "answer", ["\x00", "Saved \x00 '' if True else ''", "a\x00b", "x\\", "\\N{BULLET} {0}", "$1) or (1"]
)
def test_the_pytest_forms_check_of_a_hostile_answer_matches_that_answer_only(answer: str) -> None:
    """What the test expects of a value read back is a literal pattern matching the recorded value only."""
    steps = [ExportStep("go_to_url", {"url": "http://127.0.0.1:9/"})]
    source = render_script(steps, ending=Ending(text=answer), pytest=True).source
    namespace: dict[str, Any] = {}
    exec(compile(ast.parse(source), "exported", "exec"), namespace)
    expected = {name: value for name, value in namespace.items() if name.startswith("EXPECT_")}
    values = re.findall(r"[^\s\w]?\d", answer)
    assert len(expected) == len(values)
    for pattern, value in zip(expected.values(), values, strict=True):
        assert re.fullmatch(pattern, value) and not re.fullmatch(pattern, value + "x")
    assert answer not in source.split("def run(", 1)[1] or not answer.strip()


@pytest.mark.parametrize(
    "addition",
    [
        "__import__('os').system('touch PWNED')",
        "os.system('touch PWNED')",
        "import subprocess",
        "from os import system",
        "import os as o",
        "page.__class__",
        "exec('1')",
        "class X: pass",
        "f'{page}'",
        "x = lambda: 1",
        "'\u2028'",
        "'\x00'",
    ],
)
def test_the_last_check_refuses_anything_the_export_never_writes(addition: str) -> None:
    source = render_script([ExportStep("go_to_url", {"url": "http://127.0.0.1:9/"})]).source
    verify_script(source, {"base_url", "BASE_URL"})
    with pytest.raises(UserError, match="The exported script was not written: it "):
        verify_script(source + "\n" + addition + "\n", {"base_url", "BASE_URL"})


def test_a_script_that_fails_the_check_is_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The CLI checks what it writes, after redaction, again: a script that changed is refused."""
    import browser_agent.artifacts as artifacts

    monkeypatch.setattr(artifacts, "redacted", lambda text: text + "\nimport subprocess\n")
    code, out = _export(tmp_path, _history("go_back", {}, None))
    assert code == 2 and not out.exists()


def test_a_recorded_label_that_reads_like_the_scripts_own_code_stays_the_label() -> None:
    """A card's label holding the very text of its frame's locator is kept as it was, not rewritten."""
    framed = _fp("button", "add", twins=2, group=('page.frame_locator("iframe")',), group_depth=1)
    step = ExportStep("click_element", {}, framed, frame=("http://127.0.0.1:9/",), shown_name="Add")
    source = render_script([step]).source
    assert """.filter(has_text='page.frame_locator("iframe")')""" in source
    assert '.filter(has=frame.get_by_role("button", name="Add", exact=True))' in source
