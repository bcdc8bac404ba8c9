"""A history or a workflow is a file anyone may hand over. Whatever its names, values, addresses, task,
answer and own file name hold (quotes, triple quotes, backslashes, ``\\N{...}``, NUL, U+2028, braces,
``%s``, line ends, code), the script exported from it is inert: it compiles, importing it touches nothing,
running it acts on the page only, and the pytest form's check holds the recorded answer exactly.

Each exported script is imported, or run, by the venv's python in an empty folder, against pages on
127.0.0.1; afterwards the folder must still be empty and no ``PWNED`` file may exist anywhere.
"""

from __future__ import annotations

import html
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from browser_agent.browser.chromium import find_chromium
from browser_agent.cli import main as cli_main
from browser_agent.reid import Fingerprint
from browser_agent.testing import PageServer
from browser_agent.workflow import Workflow, WorkflowInput, WorkflowStep

SQ = "'''+__import__('os').system('touch PWNED')+'''"
DQ = '"""; import os; os.system("touch PWNED"); """'
# every field of the recording holds all of it
HOSTILE = "\"\"\"''' \"\"\" ''' \\ \\N{BULLET} \x00 \u2028 \u2029 {} {0} %s \n x\\" + SQ + " " + DQ
# a file's name: no NUL or slash on Linux, the rest of it is there
FILE_NAME = "\"\"\"''' \\ \\N{BULLET} \u2028 {} %s \n" + SQ + DQ
# Imports a script by path as a module (not as __main__) and prints its constants as JSON.
IMPORTER = """import json, runpy, sys
found = runpy.run_path(sys.argv[1], run_name="exported")
print(json.dumps({k: v for k, v in found.items() if k.isupper() and isinstance(v, str)}))
"""


def _python(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    location = find_chromium()
    clean = {k: v for k, v in os.environ.items() if not k.startswith("BA_")}
    return subprocess.run(
        [sys.executable, "-B", *args],
        env={
            **clean,
            "BA_CHROMIUM": str(location.path) if location.path else "",
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
            **(env or {}),
        },
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        check=False,
    )


def _fp(tag: str, name: str, **extra: Any) -> dict[str, Any]:
    folded = " ".join(name.lower().split())
    return Fingerprint(tag=tag, name=folded, text=folded, **extra).to_dict()


def _step(
    number: int, url: str, action: dict[str, Any], said: str = "", element: Any = None
) -> dict[str, Any]:
    result = {"action": action["action"], "extracted_content": said}
    if action["action"] == "done":
        result.update(is_done=True, success=True)
    return {
        "step": number,
        "url": url,
        "model_output": {"action": [action]},
        "results": [result],
        "interacted": [element],
    }


def _save(folder: Path, data: dict[str, Any], suffix: str) -> Path:
    path = folder / (FILE_NAME + suffix)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _export(recording: Path, out: Path, *flags: str) -> str:
    assert cli_main(["export", str(recording), "--to", "playwright", "-o", str(out), *flags]) == 0
    source = out.read_text(encoding="utf-8")
    compile(source, str(out), "exec")
    return source


def _hostile_history(folder: Path) -> Path:
    """A history whose every string is ``HOSTILE``: task, addresses, elements, values, answer, actions."""
    site = "http://127.0.0.1:9/"
    field = _fp(
        "input", HOSTILE, attributes=(("placeholder", HOSTILE), ("name", HOSTILE)), frame_path=(HOSTILE,)
    )
    card = _fp("button", HOSTILE, twins=2, group=(HOSTILE,), group_depth=1, classes=(HOSTILE,))
    steps = [
        _step(1, "about:blank", {"action": "go_to_url", "url": site + HOSTILE}),
        _step(2, site + HOSTILE, {"action": "input_text", "index": 1, "text": HOSTILE}, HOSTILE, field),
        _step(3, site, {"action": "click_element", "index": 2}, f"Clicked element 2 ({HOSTILE})", card),
        _step(4, site, {"action": "select_dropdown_option", "index": 3, "text": HOSTILE}, "", field),
        _step(5, site, {"action": "send_keys", "keys": HOSTILE}),
        _step(6, site, {"action": "scroll_to_text", "text": HOSTILE}),
        _step(7, site, {"action": "search_web", "query": HOSTILE}),
        _step(8, site, {"action": "open_tab", "url": HOSTILE}),
        _step(9, site, {"action": HOSTILE, HOSTILE: HOSTILE}),
        _step(10, site + HOSTILE, {"action": "done", "text": HOSTILE, "success": True}, HOSTILE),
    ]
    return _save(folder, {"task": HOSTILE, "version": 2, "steps": steps}, ".json")


def _hostile_workflow(folder: Path) -> Path:
    link = Fingerprint(tag="a", name="x", attributes=(("href", HOSTILE),), frame_path=(HOSTILE,))
    field = Fingerprint(tag="textarea", name=HOSTILE, attributes=(("placeholder", HOSTILE),))
    workflow = Workflow(
        task=HOSTILE,
        inputs=[
            WorkflowInput(name="product", default=HOSTILE, source="element", description=HOSTILE),
            WorkflowInput(name="note", default=HOSTILE, source="typed", description=HOSTILE),
        ],
        steps=[
            WorkflowStep(action="go_to_url", params={"url": "http://127.0.0.1:9/" + HOSTILE}, url=HOSTILE),
            WorkflowStep(action="click_element", params={"index": 1}, target=link, target_input="product"),
            WorkflowStep(
                action="input_text",
                params={"index": 2, "text": HOSTILE},
                target=field,
                inputs={"text": "note"},
            ),
            WorkflowStep(action="send_keys", params={"keys": HOSTILE}, title=HOSTILE),
        ],
        recorded_result=HOSTILE,
    )
    return _save(folder, workflow.model_dump(mode="json"), ".workflow.json")


def _import_in_empty_folder(script: Path, tmp_path: Path) -> dict[str, str]:
    empty = tmp_path / "empty"
    empty.mkdir()
    imported = _python("-c", IMPORTER, str(script), cwd=empty)
    assert imported.returncode == 0, imported.stderr[-2000:]
    assert list(empty.iterdir()) == [] and not list(tmp_path.rglob("PWNED"))
    constants: dict[str, str] = json.loads(imported.stdout)
    return constants


@pytest.mark.parametrize("form", [(), ("--pytest",)], ids=["script", "pytest"])
@pytest.mark.parametrize("recording", [_hostile_history, _hostile_workflow], ids=["history", "workflow"])
def test_a_hostile_recording_exports_a_script_whose_import_touches_nothing(
    recording: Any, form: tuple[str, ...], tmp_path: Path
) -> None:
    source_folder = tmp_path / "in"
    source_folder.mkdir()
    script = tmp_path / "out" / "exported.py"
    source = _export(recording(source_folder), script, *form)
    assert "PWNED" in source  # the payload is there, as text
    constants = _import_in_empty_folder(script, tmp_path)
    # what the recording said comes back as the very same text: it was data, never code
    assert constants["RECORDED_TASK"] == HOSTILE and constants["RECORDED_FROM"].startswith(FILE_NAME)
    assert constants["RECORDED_ANSWER"] == HOSTILE
    assert HOSTILE in [value for name, value in constants.items() if not name.startswith("RECORDED_")]
    assert sorted(p.name for p in script.parent.iterdir()) == ["exported.py"]


# A form whose field, button and answer carry what a browser keeps as it is (NUL and line ends it does
# not: those are in the task, the file's name and the answer that must not match).
LABEL = "Note \"\"\"''' \\N{BULLET} {0} %s"
BUTTON = "Save \"\"\"''' \\ {} " + SQ
TYPED = "\"\"\"''' \\N{BULLET} {} %s \\ " + SQ + " " + DQ
FORM = f"""<!doctype html><title>Hostile form</title>
<label>{html.escape(LABEL)} <input id=f></label>
<button type=button id=go>{html.escape(BUTTON)}</button><p id=out></p>
<script>document.getElementById('go').onclick = async () => {{
  const value = document.getElementById('f').value;
  await fetch('/saved?v=' + encodeURIComponent(value));
  document.getElementById('out').textContent = 'Saved: ' + value;
}};</script>"""
QUERY = "?q=\"\"\"'''{}%s"


def _form_history(folder: Path, url: str, answer: str) -> Path:
    field = _fp("input", LABEL)
    button = _fp("button", BUTTON)
    steps = [
        _step(1, "about:blank", {"action": "go_to_url", "url": url}),
        _step(
            2,
            url,
            {"action": "input_text", "index": 1, "text": TYPED},
            f"Typed into element 1 ({LABEL})",
            field,
        ),
        _step(3, url, {"action": "click_element", "index": 2}, f"Clicked element 2 ({BUTTON})", button),
        _step(4, url, {"action": "done", "text": answer, "success": True}, answer),
    ]
    return _save(folder, {"task": HOSTILE, "version": 2, "steps": steps}, ".json")


def _run(
    script: Path, tmp_path: Path, site: PageServer, *pytest_args: str
) -> subprocess.CompletedProcess[str]:
    empty = tmp_path / "empty"
    empty.mkdir(exist_ok=True)
    args = ("-m", "pytest", "-q", "-p", "no:cacheprovider", *pytest_args) if pytest_args else ()
    ran = _python(*args, str(script), cwd=empty, env={"BA_BASE_URL": site.url("/")})
    assert list(empty.iterdir()) == [] and not list(tmp_path.rglob("PWNED"))
    return ran


@pytest.mark.timeout(300)  # three Chromium launches in subprocesses
def test_hostile_names_and_values_run_on_the_page_and_the_check_reads_the_exact_value(
    tmp_path: Path,
) -> None:
    with PageServer({"/form": FORM, "/saved": "ok"}) as site:
        url = site.url("/form") + QUERY
        folder = tmp_path / "in"
        folder.mkdir()
        answer = "Saved: " + TYPED
        script = tmp_path / "out" / "hostile.py"
        _export(_form_history(folder, url, answer), script)
        ran = _run(script, tmp_path, site)
        assert ran.returncode == 0, ran.stderr[-3000:]
        # the value typed, and so the button clicked, is the recorded one to the character
        saved = site.requested[-1]
        assert saved.startswith("/saved?v=") and unquote(saved.removeprefix("/saved?v=")) == TYPED

        test = tmp_path / "out" / "test_hostile.py"
        _export(_form_history(folder, url, answer), test, "--pytest", "--force")
        passed = _run(test, tmp_path, site, "-x")
        assert passed.returncode == 0, passed.stdout[-3000:]
        # what it checks is the value read on the page, compared with the hostile input as given
        source = test.read_text()
        assert "shown = page.get_by_text(note_n_bullet_0_s).first.inner_text()" in source
        assert 'assert read["note_n_bullet_0_s"] == NOTE_N_BULLET_0_S, read' in source
        # The answer is never code nor a check: with a NUL in it, it is a literal the test does not use.
        _export(_form_history(folder, url, answer + "\x00"), test, "--pytest", "--force")
        assert "\\x00" in test.read_text().split("def run(", 1)[0]
        passed = _run(test, tmp_path, site, "-x")
        assert passed.returncode == 0, passed.stdout[-3000:]


@pytest.mark.timeout(240)
def test_a_hostile_workflow_runs_on_the_page_with_another_hostile_value(tmp_path: Path) -> None:
    with PageServer({"/form": FORM, "/saved": "ok"}) as site:
        url = site.url("/form") + QUERY
        field = Fingerprint(tag="input", name=" ".join(LABEL.lower().split()))
        button = Fingerprint(tag="button", name=" ".join(BUTTON.lower().split()))
        workflow = Workflow(
            task=HOSTILE,
            inputs=[WorkflowInput(name="note", default=TYPED, source="typed", description=HOSTILE)],
            steps=[
                WorkflowStep(action="go_to_url", params={"url": url}),
                WorkflowStep(
                    action="input_text",
                    params={"index": 1, "text": TYPED},
                    target=field,
                    inputs={"text": "note"},
                ),
                WorkflowStep(action="click_element", params={"index": 2}, target=button, url=url),
            ],
            recorded_result=HOSTILE,
        )
        folder = tmp_path / "in"
        folder.mkdir()
        script = tmp_path / "out" / "hostile.py"
        _export(_save(folder, workflow.model_dump(mode="json"), ".workflow.json"), script)
        other = "\"\"\"''' \\N{DEGREE SIGN} {note} %s " + DQ
        empty = tmp_path / "empty"
        empty.mkdir()
        ran = _python(str(script), cwd=empty, env={"BA_BASE_URL": site.url("/"), "BA_NOTE": other})
        assert ran.returncode == 0, ran.stderr[-3000:]
        assert list(empty.iterdir()) == [] and not list(tmp_path.rglob("PWNED"))
        saved = site.requested[-1]
        assert saved.startswith("/saved?v=") and unquote(saved.removeprefix("/saved?v=")) == other
