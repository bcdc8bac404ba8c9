"""Addresses from a model, a page, a saved run or a user: read without raising, a fault said in words."""

from __future__ import annotations

import pytest

from browser_agent.agent.task_url import task_url
from browser_agent.browser.addresses import address_fault, checked_address
from browser_agent.browser.domains import check_url_allowed, is_url_allowed, matches_domain, origin_of
from browser_agent.browser.fence import browser_join
from browser_agent.errors import DomainNotAllowedError, NavigationError

MALFORMED = [
    ("http://[zz/", "Invalid IPv6 URL"),
    ("http://[::1/x", "Invalid IPv6 URL"),
    ("http://a:99999/", "Port out of range 0-65535"),
    ("http://a:-1/", "Port could not be cast to integer value"),
    ("http://a.com:8000:1/", "Port could not be cast"),
    ("http://exa mple.com/", "its host holds a space"),
    ("http://a\x00b/", "control character"),
    ("https://a.com/\x7f", "control character"),
    ("http://\u2100.com/", "invalid characters under NFKC normalization"),
    ("http:///path", "it has no host"),
    ("example.com/page", "it has no scheme"),
    ("   ", "it is empty"),
]


@pytest.mark.parametrize(("url", "fault"), MALFORMED)
def test_a_malformed_address_is_a_navigation_error_saying_why(url: str, fault: str) -> None:
    found = address_fault(url)
    assert found is not None and fault in found
    with pytest.raises(NavigationError, match=r"^not a valid address: .*give a whole address") as caught:
        checked_address(url)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/a b?q=1 2",  # a space outside the host: the browser encodes it
        " https://example.com/ ",
        "http://[::1]:8000/",
        "http://127.0.0.1:65535/",
        "about:blank",
        "data:text/html,<p>x</p>",
        "file:///tmp/page.html",
        "javascript:void(0)",  # refused by the fence and the action, not as malformed
    ],
)
def test_a_well_formed_address_passes(url: str) -> None:
    assert address_fault(url) is None
    assert checked_address(url) == url


@pytest.mark.parametrize(("url", "_fault"), MALFORMED)
def test_the_domain_matchers_never_raise(url: str, _fault: str) -> None:
    for pattern in ("*", "a", "a:*", "http://a:*", "*.com", "http:", "data:"):
        matches_domain(url, pattern)
    is_url_allowed(url, ["a"])
    assert isinstance(origin_of(url), str)


@pytest.mark.parametrize("url", ["http://[zz/", "http://[::1/x", "http://\u2100.com/"])
def test_an_address_python_cannot_read_is_on_no_list(url: str) -> None:
    assert not is_url_allowed(url, ["*", "http:", "[zz"])
    with pytest.raises(DomainNotAllowedError, match="outside the allowed domains"):
        check_url_allowed(url, ["*"])


@pytest.mark.parametrize("url", ["http://a:99999/", "http://a:-1/", "http://a:x/"])
def test_an_address_whose_port_is_not_one_is_on_no_site_list(url: str) -> None:
    assert not is_url_allowed(url, ["a", "a:*", "http://a:*", "*.a"])


def test_a_redirect_to_a_malformed_address_is_judged_not_raised() -> None:
    assert browser_join("http://127.0.0.1:8000/a", "http://[zz/") == "http://[zz/"
    assert browser_join("http://[zz/", "/b") == "/b"
    assert not is_url_allowed(browser_join("http://127.0.0.1:8000/", "http://[zz/x"), ["http://127.0.0.1:*"])


def test_a_task_naming_a_malformed_address_opens_nothing() -> None:
    assert task_url("Open http://[zz/ and buy") is None
    assert task_url("Open http://a:99999/shop") is None
    assert task_url("Open https://shop.example/") == "https://shop.example/"


def test_a_malformed_start_url_on_the_command_line_is_one_line_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from browser_agent.cli import main

    assert main(["run", "Buy it", "--start-url", "http://[zz/", "--model", "openai:gpt-4o"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "--start-url 'http://[zz/' is not a valid address: Invalid IPv6 URL." in err


def test_a_recorded_malformed_address_exports_without_raising() -> None:
    from browser_agent.controller import ActionResult
    from browser_agent.export import export_history
    from browser_agent.record import ActionCall, AgentHistory, AgentStep, StepOutput

    steps = [
        AgentStep(
            step=number,
            url=url,
            model_output=StepOutput(action=[ActionCall(name="go_to_url", params={"url": url})]),
            results=[ActionResult(action="go_to_url", is_done=number == 2, extracted_content="ok")],
        )
        for number, url in enumerate(("http://[zz/", "http://a:99999/"), start=1)
    ]
    script = export_history(AgentHistory(task="t", steps=steps), pytest=True)
    assert "http://[zz/" in script.source


def test_inspect_of_a_malformed_address_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    from browser_agent.cli import main

    assert main(["inspect", "http://a:99999/"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "'http://a:99999/' is not a valid address: Port out of range 0-65535." in err
