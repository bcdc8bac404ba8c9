"""The MCP server's tools, page view text and CLI loaders, without a browser."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from browser_agent import ActionContext, Controller, UserError
from browser_agent.browser import BrowserState, TabInfo
from browser_agent.cli import main
from browser_agent.cli.mcp import load_controller
from browser_agent.cli.secret_files import load_secrets
from browser_agent.dom.snapshot import DomSnapshot, ElementNode, Rect, TextNode
from browser_agent.mcp import BrowserTools, McpServerConfig
from browser_agent.mcp.page_view import view_text


def _tools(controller: Controller | None = None, **config: object) -> BrowserTools:
    return BrowserTools(controller or Controller(), McpServerConfig(**config))  # type: ignore[arg-type]


def test_every_action_but_done_is_a_tool_after_page_state() -> None:
    specs = _tools().specs()
    names = [s.name for s in specs]
    assert names[0] == "page_state" and specs[0].read_only
    assert "done" not in names
    every = [a.name for a in Controller().registry.actions(every=True) if a.name != "done"]
    assert names[1:] == [n for n in every if n != "upload_file"], "no file is allowed: no upload is offered"
    allowing = [s.name for s in _tools(allowed_files=(Path(__file__).parent,)).specs()]
    assert allowing[1:] == every


def test_input_schemas_are_the_action_parameters_without_titles() -> None:
    specs = {s.name: s for s in _tools().specs()}
    assert specs["go_to_url"].input_schema == {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "url": {
                "type": "string",
                "description": "The full address to open, with its scheme (https://...).",
            },
            "reload": {
                "type": "boolean",
                "default": False,
                "description": "Load it again even if the tab shows it (what was typed there is lost).",
            },
        },
        "required": ["url"],
    }
    assert specs["go_back"].input_schema == {
        "type": "object",
        "additionalProperties": False,
        "properties": {},
    }
    assert specs["page_state"].input_schema["properties"]["screenshot"]["type"] == "boolean"
    assert specs["go_to_url"].description == "Open a URL in the current tab."


def test_domain_limited_actions_say_where_they_work() -> None:
    controller = Controller()

    @controller.action("Read the shop's basket", domains=["shop.example.com"])
    async def read_basket(ctx: ActionContext) -> str:
        return "empty"

    spec = next(s for s in _tools(controller).specs() if s.name == "read_basket")
    assert spec.description == "Read the shop's basket (only on pages of shop.example.com)"


def test_secret_names_are_offered_and_values_never_listed() -> None:
    specs = _tools(secrets={"pw": "hunter2-secret"}).specs()
    assert "Secrets you may type, written exactly so: <secret>pw</secret>." in specs[0].description
    assert "hunter2-secret" not in json.dumps([(s.description, s.input_schema) for s in specs])


def test_an_action_named_page_state_is_refused() -> None:
    controller = Controller()

    @controller.action("Shadow the page view")
    async def page_state() -> str:
        return ""

    with pytest.raises(UserError, match="'page_state', the name of the page view tool; rename it"):
        _tools(controller)


def _node(index: int, text: str, states: tuple[str, ...] = ()) -> ElementNode:
    return ElementNode(
        index=index,
        element_id=f"e{index}",
        tag="input",
        role=None,
        name="",
        text=text,
        attributes={},
        states=states,
        rect=Rect(0, 0, 10, 10),
    )


def _snapshot(*nodes: ElementNode) -> DomSnapshot:
    items = (TextNode("Sign in"), *nodes)
    return DomSnapshot(
        url="http://127.0.0.1/", title="t", items=items, selector_map={n.index: n for n in nodes}
    )


def test_page_view_names_url_tabs_and_events() -> None:
    state = BrowserState(
        url="http://127.0.0.1/b",
        title="B",
        tabs=(TabInfo(0, "http://127.0.0.1/a", "A"), TabInfo(1, "http://127.0.0.1/b", "")),
        current_tab_id=1,
        snapshot=_snapshot(_node(1, "", ('value="ada"',))),
        events=("dialog accepted: Sure?",),
    )
    assert view_text(state).splitlines() == [
        "Current URL: http://127.0.0.1/b",
        "Title: B",
        "Tabs:",
        "  [0] A - http://127.0.0.1/a",
        "  [1] (untitled) - http://127.0.0.1/b (current)",
        "Since the last view:",
        "  - dialog accepted: Sure?",
        "Page ([n] is the index to pass to actions; *[n] appeared since the last view):",
        "Sign in",
        '[1]<input value="ada"/>',
    ]
    single = BrowserState(
        url="about:blank", title="", tabs=(TabInfo(0, "about:blank", ""),), current_tab_id=0
    )
    assert "Tabs" not in view_text(single) and view_text(single).endswith("(page not captured)")


def test_load_controller_finds_the_users_controller() -> None:
    controller = load_controller("tests.support.mcp_actions:controller")
    assert "count_characters" in controller.registry


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("tests.support.mcp_actions", "must look like module:name"),
        ("no_such_module_here:controller", "cannot import 'no_such_module_here'"),
        ("tests.support.mcp_actions:SECRETS", "is nothing, not a Controller"),
        ("tests.support.mcp_actions:count_characters", "is function, not a Controller"),
    ],
)
def test_load_controller_says_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(UserError, match=message):
        load_controller(spec)


def test_load_secrets_reads_an_object_of_strings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The one reader of --secrets and --secret, for mcp as for run and replay."""
    path = tmp_path / "s.json"
    path.write_text('{"pw": "long-x"}')
    assert load_secrets(path) == {"pw": "long-x"}
    monkeypatch.setenv("MY_TOKEN_12", "tok-from-env")
    assert load_secrets(path, ["token=MY_TOKEN_12"]) == {"pw": "long-x", "token": "tok-from-env"}
    path.write_text('{"https://*.bank.example": {"pw": "long-pass"}}')
    assert load_secrets(path) == {"https://*.bank.example": {"pw": "long-pass"}}
    for text, message in (
        ("[1]", "must hold one object"),
        ("{", "is not JSON"),
        ('{"a": 1}', "must hold one object"),
        ('{"https://x": {"pw": 2}}', "must hold one object"),
        ('{"pw": "x"}', "pw"),  # too short to redact: refused before any browser starts
    ):
        path.write_text(text)
        with pytest.raises(UserError, match=message):
            load_secrets(path)
    with pytest.raises(UserError, match="cannot read"):
        load_secrets(tmp_path / "missing.json")


def test_a_missing_sdk_is_one_line_saying_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)  # `import mcp` now fails as if it were not installed
    for name in [n for n in sys.modules if n.startswith("browser_agent.mcp")]:
        monkeypatch.delitem(sys.modules, name)
    assert main(["mcp"]) == 2
    from browser_agent.extras import install_hint

    assert capsys.readouterr().err.strip() == (
        f"browser-agent mcp: The MCP server needs the MCP SDK: {install_hint('mcp')}"
    )


def test_a_tool_answer_leaves_the_server_redacted() -> None:
    from urllib.parse import quote_plus

    from browser_agent.mcp.server import _as_result
    from browser_agent.mcp.tools import ToolOutcome

    secret = "Mcp-Pa55+wörd &q"
    _tools(secrets={"pw": secret})  # the server's secrets are remembered when its tools are made
    result = _as_result(ToolOutcome(f"page: {secret}, address ?pw={quote_plus(secret)}"))
    assert result.content[0].text == "page: <secret>pw</secret>, address ?pw=<secret>pw</secret>"  # type: ignore[union-attr]
