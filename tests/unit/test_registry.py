"""The registry and decorator: models built from signatures, injection by type, registration errors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from playwright.async_api import Frame, Page
from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from browser_agent import AgentHistory
from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionContext, ActionModel, ActionResult, Controller
from browser_agent.controller.execution import execute
from browser_agent.controller.signature import docstring_args
from browser_agent.errors import UserError
from browser_agent.sensitive import Secrets

BUILTINS = {
    "go_to_url", "go_back", "search_web", "wait", "click_element", "input_text", "hover", "send_keys",
    "upload_file", "get_dropdown_options", "select_dropdown_option", "open_tab", "switch_tab", "close_tab",
    "scroll", "scroll_to_text", "extract_content", "done",
}  # fmt: skip


def names(controller: Controller, url: str | None = None) -> set[str]:
    return {m.model_fields["action"].annotation.__args__[0] for m in controller.action_models(url)}


def test_every_builtin_is_offered_and_excludable() -> None:
    assert names(Controller()) == BUILTINS
    trimmed = Controller(exclude_actions=["search_web", "wait"])
    assert names(trimmed) == BUILTINS - {"search_web", "wait"}
    with pytest.raises(ValidationError):
        trimmed.parse_action({"action": "search_web", "query": "x"})


def test_decorator_returns_the_function_and_builds_a_flat_described_model() -> None:
    controller = Controller()

    async def add_note(text: str, ctx: ActionContext, priority: int = 2) -> str:
        """Add a note.

        Args:
            text: What the note says; keep it
                short.
            priority: 1 is urgent.
        """
        return text

    assert controller.action("Add a note to the page")(add_note) is add_note
    model = next(m for m in controller.action_models() if m.__name__ == "AddNoteAction")
    schema = model.model_json_schema()
    assert schema["description"] == "Add a note to the page"
    assert set(schema["properties"]) == {"action", "text", "priority"}  # ctx is injected, not exposed
    assert schema["properties"]["text"]["description"] == "What the note says; keep it short."
    assert schema["properties"]["priority"]["default"] == 2
    assert schema["required"] == ["action", "text"]
    assert schema["additionalProperties"] is False
    parsed = controller.parse_action({"action": "add_note", "text": "hi"})
    assert parsed.params() == {"text": "hi", "priority": 2}
    assert parsed.model_dump() == {"action": "add_note", "text": "hi", "priority": 2}


def test_the_union_names_the_bad_action_and_field() -> None:
    union = TypeAdapter(list[Controller().action_union()])
    with pytest.raises(ValidationError) as caught:
        union.validate_python(
            [{"action": "done", "text": "x", "success": True}, {"action": "click_element", "index": "four"}]
        )
    errors = caught.value.errors()
    assert len(errors) == 1
    assert errors[0]["loc"] == (1, "click_element", "index")
    with pytest.raises(ValidationError) as unknown:
        Controller().parse_action({"action": "fly", "to": "moon"})
    assert "fly" in str(unknown.value)


def test_the_union_schema_is_discriminated_and_compact() -> None:
    schema = TypeAdapter(Controller().action_union()).json_schema()
    assert schema["discriminator"]["propertyName"] == "action"
    click = schema["$defs"]["ClickElementAction"]
    assert click["properties"]["action"] == {"const": "click_element", "type": "string"}
    assert len(json.dumps(schema)) < 9_500  # measured 8 969 chars: sent with every step


def test_registration_mistakes_raise_user_error_at_decoration_time() -> None:
    controller = Controller()

    async def click_element(index: int) -> str:
        return ""

    def unannotated(text) -> str:  # type: ignore[no-untyped-def]
        return str(text)

    def frame_param(frame: Frame) -> str:
        return ""

    def varargs(*texts: str) -> str:
        return ""

    def reserved(action: str) -> str:
        return action

    cases = [
        (click_element, "already registered"),
        (unannotated, "no type annotation"),
        (frame_param, "cannot supply"),
        (varargs, "*args"),
        (reserved, "reserved"),
    ]
    for fn, message in cases:
        with pytest.raises(UserError, match=message.replace("*", r"\*")):
            controller.action("something")(fn)
    with pytest.raises(UserError, match="description"):
        controller.action("")
    with pytest.raises(UserError, match="list of patterns"):
        controller.action("x", domains="example.com")  # type: ignore[arg-type]


class Coordinates(BaseModel):
    lat: float = Field(description="Latitude in degrees.")
    lon: float = Field(description="Longitude in degrees.")


def test_a_given_param_model_is_used_whole_or_spread() -> None:
    controller = Controller()

    @controller.action("Show a place on the map", param_model=Coordinates)
    def show_place(params: Coordinates, ctx: ActionContext) -> str:
        return f"{params.lat},{params.lon}"

    @controller.action("Pin a place", param_model=Coordinates)
    def pin(lat: float, lon: float) -> str:
        return f"{lat},{lon}"

    schema = controller.parse_action({"action": "show_place", "lat": 1, "lon": 2}).model_json_schema()
    assert schema["properties"]["lat"]["description"] == "Latitude in degrees."
    assert controller.parse_action({"action": "pin", "lat": 1, "lon": 2}).params() == {"lat": 1.0, "lon": 2.0}

    def wrong(lat: float) -> str:
        return ""

    with pytest.raises(UserError, match="lon"):
        controller.action("Bad", param_model=Coordinates)(wrong)


def test_injectable_types_are_left_out_of_the_schema() -> None:
    controller = Controller()

    @controller.action("Uses everything")
    async def everything(
        query: str, ctx: ActionContext, session: BrowserSession, page: Page, llm: BaseChatModel | None
    ) -> str:
        return query

    registered = controller.registry.get("everything")
    assert set(registered.param_model.model_fields) == {"query"}
    assert dict(registered.injected) == {
        "ctx": "context", "session": "session", "page": "page", "llm": "optional_llm",
    }  # fmt: skip


def test_domain_limited_actions_are_offered_only_on_matching_urls() -> None:
    controller = Controller()

    @controller.action("Archive the open mail", domains=["*.mail.example.com", "http://127.0.0.1:*"])
    async def archive_mail(ctx: ActionContext) -> str:
        return "archived"

    assert "archive_mail" in names(controller, "https://inbox.mail.example.com/u/0")
    assert "archive_mail" in names(controller, "http://127.0.0.1:8123/page.html")
    assert "archive_mail" not in names(controller, "https://example.org/")
    assert "archive_mail" not in names(controller, None)
    # a recorded history may still name it: parsing knows every action
    assert controller.parse_action({"action": "archive_mail"}).action == "archive_mail"


def test_results_never_serialize_the_element() -> None:
    result = ActionResult(action="done", extracted_content="ok", is_done=True, success=True)
    dumped = result.model_dump(mode="json")
    assert "element" not in dumped
    assert dumped["is_done"] is True and dumped["skipped"] is False


def test_docstring_args_reads_google_style_sections() -> None:
    doc = """Do it.

    Args:
        first (str): One line.
        second: Two
            lines.

    Returns:
        first: not an argument.
    """
    assert docstring_args(doc) == {"first": "One line.", "second": "Two lines."}


async def test_secrets_are_filled_in_for_the_action_and_redacted_from_its_result() -> None:
    controller = Controller()
    seen: list[str] = []

    @controller.action("Echo")
    def echo(text: str) -> str:  # sync: runs in a worker thread
        seen.append(text)
        return f"typed {text}"

    ctx = ActionContext(session=None, sensitive_data=Secrets({"pw": "hunter2"}))  # type: ignore[arg-type]
    action = controller.parse_action({"action": "echo", "text": "<secret>pw</secret>!"})
    result = await execute(controller.registry.get("echo"), action, ctx)
    assert seen == ["hunter2!"]
    assert result.extracted_content == "typed <secret>pw</secret>!"
    assert result.action == "echo" and result.error is None


async def test_action_errors_become_results_and_bugs_propagate() -> None:
    from browser_agent.errors import ActionError

    controller = Controller()

    @controller.action("Fails for the model")
    async def refuse(reason: str) -> str:
        raise ActionError(f"cannot: {reason}")

    @controller.action("Has a bug")
    async def broken() -> Any:
        return 42  # not a result type: a bug in the action, reported to its author

    ctx = ActionContext(session=None)  # type: ignore[arg-type]
    result = await execute(
        controller.registry.get("refuse"), controller.parse_action({"action": "refuse", "reason": "why"}), ctx
    )
    assert result.error == "cannot: why"
    with pytest.raises(UserError, match="returned int"):
        await execute(controller.registry.get("broken"), controller.parse_action({"action": "broken"}), ctx)


def test_action_model_is_the_base_of_every_action() -> None:
    assert all(issubclass(m, ActionModel) for m in Controller().action_models())


def test_override_replaces_a_builtin_in_its_place_and_a_plain_duplicate_says_how() -> None:
    controller = Controller()
    before = [a.name for a in controller.registry.actions(every=True)]

    with pytest.raises(UserError, match=r"override=True"):

        @controller.action("Wait differently")
        def wait(seconds: int) -> str:
            return "never"

    @controller.action("Wait, then say so", override=True)
    def wait(seconds: int = 1) -> str:
        return f"waited {seconds}"

    assert [a.name for a in controller.registry.actions(every=True)] == before
    assert controller.registry.get("wait").function is wait
    assert controller.registry.get("wait").description == "Wait, then say so"

    trimmed = Controller(exclude_actions=["done"])

    @trimmed.action("My own done", override=True)
    def done(answer: str) -> str:
        return answer

    assert trimmed.registry.get("done").function is done, "an override is kept even when the name is excluded"


def _saved_history(tmp_path, action: dict) -> str:
    path = tmp_path / "old.json"
    step = {"step": 1, "url": "http://127.0.0.1:1/", "model_output": {"action": [action]}}
    path.write_text(json.dumps({"version": 2, "task": "t", "steps": [step]}), encoding="utf-8")
    return str(path)


def test_a_history_saved_with_the_old_search_name_loads_as_search_web(tmp_path) -> None:
    path = _saved_history(tmp_path, {"action": "search", "query": "lamps"})
    history = AgentHistory.load(path, Controller())
    assert [a.flat() for a in history.steps[0].actions] == [{"action": "search_web", "query": "lamps"}]
    # A controller whose own "search" action exists keeps it; one with neither says what is missing.
    custom = Controller()

    @custom.action("Search the shop")
    async def search(query: str) -> str:
        return query

    assert AgentHistory.load(path, custom).steps[0].actions[0].name == "search"
    with pytest.raises(UserError, match="cannot run"):
        AgentHistory.load(path, Controller(exclude_actions=["search_web"]))


def test_a_fenced_agent_is_not_offered_a_web_search_it_could_never_run() -> None:
    from browser_agent import Agent, AgentSettings, BrowserConfig
    from browser_agent.testing import ScriptedChatModel

    def offered(agent: Agent) -> set[str]:
        return names(agent.controller)

    llm = ScriptedChatModel(replies=[])
    mine = Controller()
    local = ("http://127.0.0.1:*",)
    by_settings = Agent("t", llm, controller=mine, settings=AgentSettings(allowed_domains=local))
    by_config = Agent("t", llm, browser=BrowserConfig(allowed_domains=local))
    assert "search_web" not in offered(by_settings) | offered(by_config)
    assert "- search_web(" not in by_settings.controller.describe_actions()
    assert offered(by_settings) == BUILTINS - {"search_web"}
    assert "search_web" in names(mine), "the caller's controller is left as it is"
    # No fence, or a fence that lets the search engine in: offered.
    assert "search_web" in offered(Agent("t", llm))
    engine = Agent("t", llm, settings=AgentSettings(allowed_domains=(*local, "duckduckgo.com")))
    assert "search_web" in offered(engine)
    # The fence lives in the browser's config; the settings' is a shortcut: of the two, the narrower wins.
    wide = BrowserConfig(allowed_domains=(*local, "duckduckgo.com"))
    assert "search_web" in offered(Agent("t", llm, browser=wide))
    assert "search_web" not in offered(
        Agent("t", llm, browser=wide, settings=AgentSettings(allowed_domains=local))
    )
    with pytest.raises(UserError, match="two fences, neither within the other"):
        Agent("t", llm, browser=wide, settings=AgentSettings(allowed_domains=("example.com",)))


def _bump_action(default: int) -> Any:
    """An action made by a factory: the same code each time, its default from the call."""

    def bump(by: int = default) -> str:
        """Raise the counter.

        Args:
            by: how much to add
        """
        return str(by)

    return bump


def test_an_action_registered_again_reuses_its_models_unless_what_they_are_made_of_differs() -> None:
    first, second = Controller().registry, Controller().registry
    assert first.get("click_element").action_model is second.get("click_element").action_model

    one, again, other = Controller(), Controller(), Controller()
    one.action("Raise the counter")(_bump_action(1))
    again.action("Raise the counter")(_bump_action(1))
    other.action("Raise the counter")(_bump_action(2))
    assert one.registry.get("bump").param_model is again.registry.get("bump").param_model
    assert one.registry.get("bump").function is not again.registry.get("bump").function
    fields = other.registry.get("bump").param_model.model_fields["by"]
    assert fields.default == 2 and fields.description == "how much to add"
    assert one.registry.get("bump").param_model.model_fields["by"].default == 1
    described = Controller()
    described.action("Add to the counter")(_bump_action(1))
    assert described.registry.get("bump").action_model.__doc__ == "Add to the counter"
