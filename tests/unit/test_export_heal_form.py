"""The ``--heal`` form of an exported script, without a browser: each action on an element inside ``with
healable(...)`` with the recorded action, element and goal as literals and the run's values as its
variables; a click that opened a tab goes on in the newest tab; what a recording holds stays a literal;
the plain form is what it was."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from browser_agent.cli import main as cli_main
from browser_agent.export import ExportStep, render_script
from browser_agent.reid import Fingerprint

HOSTILE = '"); import os; os.system("touch /tmp/owned")  # '


def _steps() -> list[ExportStep]:
    link = Fingerprint(tag="a", name="proceed to checkout", attributes=(("href", "/checkout"),))
    field = Fingerprint(tag="input", name="email", attributes=(("type", "email"),))
    secret = Fingerprint(tag="input", name="password", attributes=(("type", "password"),))
    return [
        ExportStep("go_to_url", {"url": "http://shop.test/"}),
        ExportStep("click_element", {"index": 3}, link, opened_tab=True, goal=HOSTILE),
        ExportStep("input_text", {"index": 5, "text": "ada@example.com", "clear": True}, field, goal="type"),
        ExportStep("input_text", {"index": 6, "text": "<secret>pw</secret>", "clear": True}, secret),
        ExportStep("scroll", {"index": None, "direction": "down", "pages": 1.0}),
    ]


def test_each_action_on_an_element_is_healable_with_its_action_element_and_goal() -> None:
    source = render_script(_steps(), heal=True).source
    assert source.count("with healable(") == 3  # the scroll of the page acts on no element
    assert "from browser_agent.script_healing import healable, healing_args, healing_wait_ms" in source
    assert "args=healing_args()" in source and "page.context.set_default_timeout(healing_wait_ms())" in source
    assert '{"action": "input_text", "text": email, "clear": True}' in source  # the run's value
    assert '"text": "<secret>pw</secret>"' in source  # filled by the healing, from BA_SECRET_PW
    tab = source.split("\"<a> 'proceed to checkout'\"", 1)[1]
    assert tab.split("\n")[2:4] == ["        opens_tab=True,", "    ):"]
    assert "        with page.context.expect_page():\n            page.get_by_role(" in tab
    assert "    page = page.context.pages[-1]" in tab and "new_tab" not in tab


def test_what_the_recording_said_stays_a_literal_in_the_heal_form() -> None:
    tree = ast.parse(render_script(_steps(), heal=True).source)
    calls = {
        node.func.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    }
    assert "system" not in calls
    goals = [
        node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and node.value == HOSTILE
    ]
    assert goals == [HOSTILE]


def test_the_plain_form_has_no_healing(tmp_path: Path) -> None:
    plain = render_script(_steps()).source
    assert "heal" not in plain and "browser_agent" not in plain and "new_tab.value" in plain
    assert render_script(_steps(), heal=False).source == plain


def test_the_command_writes_the_heal_form(tmp_path: Path) -> None:
    history = tmp_path / "run.json"
    steps = [
        {
            "step": 1,
            "url": "http://127.0.0.1:9/",
            "model_output": {"action": [{"action": "click_element", "index": 1}]},
            "results": [{"action": "click_element"}],
            "interacted": [{"tag": "button", "name": "buy now"}],
        }
    ]
    history.write_text(json.dumps({"task": "t", "version": 2, "steps": steps}))
    out = tmp_path / "healing.py"
    assert cli_main(["export", str(history), "-o", str(out), "--heal"]) == 0
    assert 'with healable(page, {"action": "click_element"}, "<button> \'buy now\'"):' in out.read_text()


def test_the_pytest_form_heals_too() -> None:
    source = render_script(_steps(), heal=True, pytest=True).source
    fixture = source.split("def page()", 1)[1].split("def test_recorded_run", 1)[0]
    assert "args=healing_args()" in fixture and source.count("with healable(") == 3
