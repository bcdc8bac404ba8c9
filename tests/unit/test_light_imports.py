"""A saved run is read without the engine: loading it, exporting it as a script and rendering its report
load neither Playwright nor langchain (the record sits at the bottom of the layers), and a step the
agent records saves exactly what a loaded one does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from browser_agent.controller import ActionResult
from browser_agent.dom.snapshot import ElementNode, Rect
from browser_agent.record import AgentHistory, AgentStep, Fingerprint, RecordedResult, TokenUsage

SAVED = Path(__file__).parents[1] / "fixtures" / "history_v2_main.json"

READ_A_SAVED_RUN = """
import sys
from pathlib import Path
from browser_agent.record import AgentHistory
from browser_agent.export import export_history
from browser_agent.output import save_report

history = AgentHistory.load(sys.argv[1])
script = export_history(history, origin="run.json")
report = save_report(history, Path(sys.argv[2]) / "report.html")
heavy = sorted(m for m in ("playwright", "langchain_core") if m in sys.modules)
engine = sorted(m for m in sys.modules if m.split(".")[:2] in (["browser_agent", "controller"],
    ["browser_agent", "browser"], ["browser_agent", "llm"], ["browser_agent", "agent"]))
specs = "browser_agent.action_specs.catalog" in sys.modules  # the export wrote it from the actions' specs
print(heavy, engine, "page.goto(" in script.source, "typed ada" in report.read_text(), specs)
"""


def test_loading_exporting_and_reporting_a_saved_run_load_no_engine(tmp_path: Path) -> None:
    """In a new interpreter (this one has imported everything): the saved run's script and report are
    made, and neither Playwright, langchain nor the controller, browser, llm or agent layers were loaded:
    the actions' specs the export writes from are light."""
    done = subprocess.run(
        [sys.executable, "-c", READ_A_SAVED_RUN, str(SAVED), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "[] [] True True True", done.stdout


HEAVY = {"playwright", "langchain_core"}


def _loaded(*args: str) -> tuple[set[str], str]:
    """The packages a new interpreter run with ``args`` imports (read from ``-X importtime``), and what it
    printed on standard output."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-2000:]
    names = [
        line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")
    ]
    assert "browser_agent" in names, done.stderr[-2000:]  # the import log was read
    return {name.split(".")[0] for name in names}, done.stdout


def test_the_export_command_writes_a_saved_runs_script_without_the_engine() -> None:
    """``python -m browser_agent export run.json`` as a user runs it: the script, and no Playwright or
    langchain loaded on the way (workflows, which ``export`` also takes, are told apart without them)."""
    packages, script = _loaded("-m", "browser_agent", "export", str(SAVED))
    assert "page.goto(" in script
    assert not packages & HEAVY, packages & HEAVY


def test_the_export_command_writes_a_workflows_script_without_the_engine(tmp_path: Path) -> None:
    """A workflow (made here from the saved run, in this interpreter) exports in a new one as lightly."""
    from browser_agent.workflow import make_workflow

    workflow = make_workflow(AgentHistory.load(SAVED))
    path = workflow.save(tmp_path / "buy.workflow.json")
    packages, script = _loaded("-m", "browser_agent", "export", str(path))
    assert "def run(" in script and "page.goto(" in script
    assert not packages & HEAVY, packages & HEAVY


def test_re_identification_is_imported_without_playwright() -> None:
    """``browser_agent.reid`` reads snapshots, it takes none: the capture (Playwright) stays unloaded."""
    packages, _ = _loaded("-c", "import browser_agent.reid")
    assert not packages & HEAVY, packages & HEAVY


def test_a_loaded_history_saves_byte_for_byte_as_it_was(tmp_path: Path) -> None:
    history = AgentHistory.load(SAVED)
    assert isinstance(history.steps[2].interacted[0], Fingerprint)
    assert history.save(tmp_path / "again.json").read_text() == SAVED.read_text()


def _live_result() -> ActionResult:
    element = ElementNode(2, "e2", "input", "textbox", "Full name", "", {}, (), Rect(1, 2, 3, 4))
    return ActionResult(
        action="input_text",
        extracted_content="Typed",
        element=element,
        fingerprint=Fingerprint(tag="input", name="Full name"),
        usage=TokenUsage(10, 2),
    )


def test_a_hold_is_saved_and_loaded_and_other_results_save_without_the_field() -> None:
    held = RecordedResult(action="click_element", error="Not clicked: ...", held=True)
    saved = json.loads(AgentStep(step=1, results=[held, RecordedResult(action="done")]).model_dump_json())
    assert saved["results"][0]["held"] is True and "held" not in saved["results"][1]
    assert AgentStep.model_validate(saved).results[0].held


def test_a_result_the_controller_made_is_saved_as_its_recorded_part_only() -> None:
    """What only the running process holds (the element, its fingerprint, the extraction's tokens) never
    reaches the file: a step holding the controller's result saves what one holding the record's does."""
    live = AgentStep(step=1, results=[_live_result()])
    recorded = AgentStep(step=1, results=[RecordedResult(action="input_text", extracted_content="Typed")])
    assert isinstance(live.results[0], ActionResult) and live.results[0].fingerprint is not None
    assert live.model_dump_json(indent=2) == recorded.model_dump_json(indent=2)
    saved = json.loads(live.model_dump_json())["results"][0]
    assert set(saved) == set(RecordedResult.model_fields) - {"held"}  # saved only where it is true
    again = AgentStep.model_validate_json(live.model_dump_json())
    assert type(again.results[0]) is RecordedResult and again == recorded


def test_a_result_saved_with_fields_this_version_lacks_still_loads() -> None:
    """A newer writer's fields (or a runtime field that somehow reached a file) are dropped, not refused."""
    step = AgentStep.model_validate(
        {"step": 1, "results": [{"action": "click", "element": {"tag": "a"}, "usage": 3, "later": True}]}
    )
    assert step.results == [RecordedResult(action="click")]
