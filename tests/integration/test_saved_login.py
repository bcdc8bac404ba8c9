"""Saved logins: a login saved once lets later runs and a batch of agents start logged in, the file is
owner-only, and it never leaks into a history, a report or the console."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from playwright.async_api import Browser
from pydantic import ValidationError

from browser_agent import BrowserConfig, BrowserSession, UserError, run_many
from browser_agent.cli import main_async
from browser_agent.testing import ScriptedChatModel
from tests.support.fake_openai import FakeOpenAI
from tests.support.login_site import NOTE, PASSWORD, USER, LoginSite, login_answer, openai_login_answer


@pytest.fixture
def site() -> LoginSite:
    with LoginSite() as running:
        yield running


async def _log_in(session: BrowserSession, site: LoginSite) -> None:
    await session.navigate(site.url("/"))
    await session.page.fill("input[name=user]", USER)
    await session.page.fill("input[name=password]", PASSWORD)
    await session.page.click("button")
    await session.page.wait_for_url("**/?fresh")


async def test_a_saved_login_is_owner_only_and_starts_a_fresh_context_logged_in(
    browser: Browser, site: LoginSite, tmp_path: Path
) -> None:
    path = tmp_path / "logins" / "ada.json"
    path.parent.mkdir()
    path.write_text("old")
    path.chmod(0o644)  # an older file anyone could read: the saved one replaces it, private
    async with BrowserSession(BrowserConfig(), browser=browser) as first:
        await _log_in(first, site)
        assert await first.page.text_content("#note") == f"Note: {NOTE}"
        assert await first.save_storage_state(path) == path
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    [token] = site.tokens
    assert token in path.read_text() and NOTE in path.read_text()
    assert list(path.parent.iterdir()) == [path], "no temporary file is left beside it"

    async with BrowserSession(BrowserConfig(storage_state=path), browser=browser) as second:
        await second.navigate(site.url("/"))
        assert await second.page.text_content("h1") == "Welcome, ada"
        assert await second.page.text_content("#note") == f"Note: {NOTE}", "local storage came back too"
    async with BrowserSession(BrowserConfig(), browser=browser) as without:
        await without.navigate(site.url("/"))
        assert await without.page.text_content("h1") == "Please log in"


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, "cannot read it"),
        ("{'cookies': 'tok-123456'}", "is not JSON: Expecting property name"),
        ('["tok-123456"]', "no object with 'cookies' and 'origins'"),
        ('{"cookie": "tok-123456"}', "neither 'cookies' nor 'origins'"),
        (
            '{"cookies": [{"name": "session", "value": "tok-123456"}]}',
            "cookies[0]: needs a 'url', or a 'domain' and a 'path'",
        ),
        ('{"origins": [{"origin": "x", "localStorage": [{"name": 1}]}]}', "origins[0].localStorage"),
    ],
)
async def test_a_bad_saved_login_is_one_user_error_naming_the_problem_not_the_content(
    browser: Browser, tmp_path: Path, content: str | None, problem: str
) -> None:
    path = tmp_path / "login.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(UserError) as caught:
        async with BrowserSession(BrowserConfig(storage_state=path), browser=browser):
            pass
    message = str(caught.value)
    assert problem in message and str(path) in message and "--save-login" in message, message
    assert "tok-123456" not in message


@pytest.mark.parametrize(
    "fault",
    [
        {"cookies": [{"name": "a;b", "value": "tok-123456\n", "domain": "127.0.0.1", "path": "/"}]},
        {"cookies": [{"name": "a", "value": "tok-123456", "url": "http://127.0.0.1/", "partitionKey": 5}]},
    ],
)
async def test_a_login_the_browser_refuses_is_one_line_naming_the_file_not_a_playwright_error(
    browser: Browser, tmp_path: Path, fault: dict[str, object]
) -> None:
    """What the file's checks let through (a cookie name Chromium refuses, a field they do not know)
    is translated where the context is made."""
    path = tmp_path / "login.json"
    path.write_text(json.dumps(fault))
    with pytest.raises(UserError) as caught:
        async with BrowserSession(BrowserConfig(storage_state=path), browser=browser):
            pass
    message = str(caught.value)
    assert message.startswith(f"saved login {path}: the browser refused it (") and "--save-login" in message
    assert "\n" not in message and "tok-123456" not in message, message


def test_a_saved_login_and_a_profile_directory_do_not_mix(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="Give one of them"):
        BrowserConfig(storage_state=tmp_path / "a.json", user_data_dir=tmp_path / "profile")


@pytest.mark.usefixtures("driver")
@pytest.mark.timeout(240)
async def test_run_saves_the_login_and_later_runs_and_a_batch_start_logged_in_without_leaking_it(
    site: LoginSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    login = tmp_path / "ada-login.json"
    monkeypatch.setenv("LOGIN_PW", PASSWORD)
    model = ["--model", "openai:gpt-4o-mini", "--allowed-domain", site.origin]
    common = [*model, "--start-url", site.url("/")]
    with FakeOpenAI(openai_login_answer) as fake:
        monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        first = await main_async(
            ["run", "Log in as ada", *common, "--secret", "pw=LOGIN_PW", "--save-login", str(login)]
        )
        assert first == 0, capsys.readouterr()
        assert f"login: {login}" in capsys.readouterr().err
        assert stat.S_IMODE(login.stat().st_mode) == 0o600
        [token] = site.tokens

        history, report = tmp_path / "second.json", tmp_path / "second.html"
        args = ["run", "Who is logged in?", *common, "--login", str(login), "--save", str(history)]
        assert await main_async([*args, "--report", str(report)]) == 0
        console = capsys.readouterr()
        second = json.loads(history.read_text())
        assert [s["step"] for s in second["steps"]] == [0, 1], "the first step already saw the greeting"
        assert second["steps"][-1]["results"][-1]["extracted_content"] == "Welcome, ada"

        tasks, out = tmp_path / "tasks.jsonl", tmp_path / "results.jsonl"
        lines = [{"task": f"Who is here? ({n})", "start_url": site.url("/")} for n in (1, 2)]
        tasks.write_text("".join(json.dumps(line) + "\n" for line in lines))
        batch = ["batch", str(tasks), *model, "--out", str(out), "--login", str(login)]
        assert await main_async(batch) == 0
        batch_console = capsys.readouterr()
    results = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["result"] for r in results] == ["Welcome, ada"] * 2
    artifacts = [history.read_text(), report.read_text(), console.out, console.err, batch_console.out]
    artifacts += [batch_console.err, out.read_text()]
    artifacts += [Path(r["history"]).read_text() for r in results]
    for text in artifacts:
        assert token not in text and NOTE not in text and login.read_text() not in text


@pytest.mark.timeout(180)
async def test_run_many_gives_each_agent_its_own_context_from_the_same_saved_login(
    browser: Browser, site: LoginSite, tmp_path: Path
) -> None:
    login = tmp_path / "login.json"
    async with BrowserSession(BrowserConfig(), browser=browser) as session:
        await _log_in(session, site)
        await session.save_storage_state(login)
    model = ScriptedChatModel(policy=lambda messages: login_answer(str(messages[-1].content)))
    tasks = [f"Open {site.url('/')} and say who is logged in ({n})" for n in (1, 2)]
    histories = await run_many(tasks, llm=model, concurrency=2, browser=BrowserConfig(storage_state=login))
    assert [h.final_result() for h in histories] == ["Welcome, ada", "Welcome, ada"]
    assert all(len(h.steps) == 2 for h in histories), "step 0 opened the page, step 1 read the greeting"
