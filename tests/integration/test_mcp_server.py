"""``browser-agent mcp`` driven by a real MCP client of the official SDK, over stdio and over HTTP.

The server runs as the CLI runs it (a subprocess of the venv's ``browser-agent``) with the test module's
own actions, secrets from a file, and the domain fence on 127.0.0.1; pages come from the local server.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from playwright.async_api import Browser

from browser_agent import Controller
from browser_agent.browser import BrowserConfig
from browser_agent.mcp import McpBrowserServer, McpServerConfig
from tests.support.server import LocalServer

ROOT = Path(__file__).resolve().parents[2]
EXECUTABLE = str(Path(sys.executable).parent / "browser-agent")
SECRETS = {"pw": "correct-horse-battery"}


def _server_args(tmp_path: Path, *extra: str) -> list[str]:
    secrets = tmp_path / "secrets.json"
    secrets.write_text(json.dumps(SECRETS))
    return [
        "mcp",
        "--local-only",
        "--allowed-domain",
        "127.0.0.1",
        "--actions",
        "tests.support.mcp_actions:controller",
        "--secrets",
        str(secrets),
        *extra,
    ]


def _text(result: types.CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))


def _index(view: str, fragment: str) -> int:
    for line in view.splitlines():
        found = re.match(r"\*?\[(\d+)\]", line)
        if found and fragment in line:
            return int(found.group(1))
    raise AssertionError(f"no element line shows {fragment!r} in:\n{view}")


async def _call(client: Client, name: str, arguments: dict[str, object]) -> tuple[bool, str]:
    result = await client.call_tool(name, arguments)
    return result.is_error, _text(result)


async def test_stdio_lists_tools_runs_a_task_and_returns_tool_errors(
    tmp_path: Path, server: LocalServer
) -> None:
    params = StdioServerParameters(  # secrets from a file, and one from the environment (--secret)
        command=EXECUTABLE,
        args=_server_args(tmp_path, "--secret", "user=BA_MCP_TEST_USER"),
        cwd=str(ROOT),
        env=dict(os.environ) | {"BA_MCP_TEST_USER": "ada-lovelace"},
    )
    async with Client(params) as client:
        await _lists_the_tools(client)
        await _signs_in_with_secrets(client, server)
        await _returns_tool_errors(client, server)


async def _lists_the_tools(client: Client) -> None:
    listed = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert {"page_state", "go_to_url", "input_text", "click_element", "count_characters"} <= set(listed)
    assert "done" not in listed
    custom = listed["count_characters"]
    assert custom.description == "Count the characters the field with this index holds"
    assert custom.input_schema["properties"]["index"]["type"] == "integer"
    assert custom.input_schema["required"] == ["index"]
    assert "<secret>pw</secret>" in (listed["page_state"].description or "")
    assert "<secret>user</secret>" in (listed["page_state"].description or "")


async def _signs_in_with_secrets(client: Client, server: LocalServer) -> None:
    failed, view = await _call(client, "go_to_url", {"url": server.url("agent/login.html")})
    assert not failed and "URL: " + server.url("agent/login.html") in view
    user, pw = _index(view, "<input/>"), _index(view, "type=password")
    failed, view = await _call(client, "input_text", {"index": user, "text": "ada"})
    assert not failed
    failed, view = await _call(client, "input_text", {"index": pw, "text": "<secret>pw</secret>"})
    assert not failed and SECRETS["pw"] not in view  # typed, then redacted
    failed, said = await _call(client, "count_characters", {"index": pw})
    assert not failed and said.startswith("count_characters: the field holds 21 characters")
    failed, view = await _call(client, "click_element", {"index": _index(view, "Sign in</button>")})
    assert not failed
    assert "Title: Account" in view and "Your balance is 1,234.56 EUR" in view


async def _returns_tool_errors(client: Client, server: LocalServer) -> None:
    await _call(client, "go_to_url", {"url": server.url("agent/login.html")})
    failed, said = await _call(client, "go_to_url", {"url": "https://example.com/"})
    assert failed and "outside the allowed domains (127.0.0.1)" in said
    failed, said = await _call(client, "click_element", {"index": 99})
    assert failed and "element 99 is not on the page; this page has indices 0-2" in said
    assert "URL: " + server.url("agent/login.html") in said  # the page view comes with the error
    failed, said = await _call(client, "click_element", {"index": "first"})
    assert failed and said.startswith("Bad arguments for click_element: index:")
    failed, said = await _call(client, "broken_action", {})
    assert failed and "internal error (RuntimeError: a bug in a user's action)" in said
    result = await client.call_tool("page_state", {"screenshot": True})  # still serving
    assert not result.is_error and "[2]<button>Sign in</button>" in _text(result)
    shot = result.content[-1]
    assert isinstance(shot, types.ImageContent) and shot.mime_type == "image/jpeg"


@asynccontextmanager
async def _http_server(tmp_path: Path) -> AsyncIterator[str]:
    process = await asyncio.create_subprocess_exec(
        EXECUTABLE,
        *_server_args(tmp_path, "--transport", "http", "--port", "0"),
        cwd=str(ROOT),
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stderr is not None
        line = (await asyncio.wait_for(process.stderr.readline(), timeout=20)).decode()
        found = re.search(r"serving on (http://\S+)", line)
        assert found, f"the server said {line!r}"
        yield found.group(1)
    finally:
        process.terminate()
        await asyncio.wait_for(process.wait(), timeout=10)


async def test_http_clients_get_isolated_browsers(tmp_path: Path, server: LocalServer) -> None:
    async with _http_server(tmp_path) as url, Client(url) as first, Client(url) as second:
        failed, view = await _call(first, "go_to_url", {"url": server.url("agent/login.html")})
        assert not failed and "Title: Sign in" in view
        await _call(first, "open_tab", {"url": server.url("agent/account.html")})
        failed, view = await _call(second, "go_to_url", {"url": server.url("controller/target.html")})
        assert not failed and "agent/" not in view and "Tabs" not in view  # none of the first's tabs
        failed, view = await _call(first, "page_state", {})
        assert "Title: Account" in view and "Tabs:" in view and "target.html" not in view
        failed, said = await _call(second, "go_to_url", {"url": "http://example.com/"})
        assert failed and "outside the allowed domains" in said
        failed, said = await _call(second, "click_element", {"index": 1000})
        assert failed and "element 1000 is not on the page" in said
        async with Client(url, mode="2026-07-28") as sessionless:  # the revision without sessions
            failed, said = await _call(sessionless, "page_state", {})
            assert failed and "keeps one browser per MCP session, and this request belongs to none" in said


async def test_a_call_past_the_step_timeout_is_stopped(browser: Browser) -> None:
    config = McpServerConfig(browser=BrowserConfig(settle_max_ms=1_000), step_timeout_s=0.5)
    mcp_server = McpBrowserServer(Controller(), config, browser=browser)
    async with Client(mcp_server.build()) as client:
        started = asyncio.get_running_loop().time()
        failed, said = await _call(client, "wait", {"seconds": 5})
        assert failed and said.startswith("wait did not finish within 0.5 s and was stopped")
        assert asyncio.get_running_loop().time() - started < 3
        failed, view = await _call(client, "page_state", {})
        assert not failed and view.startswith("Current URL: about:blank")
