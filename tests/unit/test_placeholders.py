"""How each parameter's placeholders are filled: typed into the page, an address to open, or kept."""

from __future__ import annotations

from typing import Annotated

import pytest
from pydantic import BaseModel

from browser_agent.browser.domains import matches_any
from browser_agent.controller import ActionContext, Controller
from browser_agent.controller.execution import execute
from browser_agent.controller.placeholders import Placeholders
from browser_agent.errors import ActionError
from browser_agent.sensitive import Secrets

SECRETS = Secrets({"https://*.bank.example": {"pw": "bank-pass"}, "user": "ada-l"})


def test_builtins_keep_placeholders_of_text_for_a_model_or_the_user_and_check_addresses() -> None:
    registry = Controller().registry
    assert registry.get("extract_content").placeholders == {
        "goal": Placeholders.KEPT,
        "output_schema": Placeholders.KEPT,
    }
    assert registry.get("done").placeholders == {"text": Placeholders.KEPT}
    assert registry.get("search_web").placeholders == {"query": Placeholders.KEPT}
    assert registry.get("go_to_url").placeholders == {"url": Placeholders.URL}
    assert registry.get("open_tab").placeholders == {"url": Placeholders.URL}
    assert registry.get("input_text").placeholders == {}  # typed


def test_structured_done_keeps_its_answer() -> None:
    class Answer(BaseModel):
        name: str

    assert Controller().with_output_model(Answer).registry.get("done").placeholders == {
        "data": Placeholders.KEPT
    }


def test_an_address_is_filled_only_when_it_leads_to_the_secret_s_sites() -> None:
    def fill(url: str) -> str:
        return SECRETS.fill(url, "https://www.bank.example/", matches_any, is_url=True)

    assert fill("https://www.bank.example/?p=<secret>pw</secret>") == "https://www.bank.example/?p=bank-pass"
    assert (
        fill("https://evil.example/?u=<secret>user</secret>") == "https://evil.example/?u=ada-l"
    )  # unscoped
    for elsewhere in ("https://evil.example/?p=<secret>pw</secret>", "https://www.bank.example@evil.example/"
                      "<secret>pw</secret>", "<secret>pw</secret>"):  # fmt: skip
        with pytest.raises(ActionError, match="may only be sent to") as refused:
            fill(elsewhere)
        assert "bank-pass" not in str(refused.value)


async def run(controller: Controller, action: dict[str, object]) -> str:
    """The action's result text, or its error."""
    ctx = ActionContext(session=None, sensitive_data=SECRETS)  # type: ignore[arg-type]
    registered = controller.registry.get(str(action["action"]))
    result = await execute(registered, controller.parse_action(action), ctx)
    return result.error or result.extracted_content or ""


async def test_a_custom_action_marks_its_parameters() -> None:
    controller = Controller()
    seen: list[str] = []

    @controller.action("Ask support")
    async def ask(question: Annotated[str, Placeholders.KEPT], url: str) -> str:
        seen.append(f"{question} | {url}")
        return "asked"

    @controller.action("Open a link")
    async def follow(link: Annotated[str, Placeholders.URL]) -> str:
        seen.append(link)
        return "followed"

    asked = {
        "action": "ask",
        "question": "is <secret>pw</secret> ok?",
        "url": "https://a.bank.example/<secret>pw</secret>",
    }
    assert await run(controller, asked) == "asked"
    assert seen == ["is <secret>pw</secret> ok? | https://a.bank.example/bank-pass"]
    assert "may only be sent to" in await run(
        controller, {"action": "follow", "link": "https://evil.example/<secret>pw</secret>"}
    )
    assert len(seen) == 1


@pytest.mark.parametrize(
    "address",
    [
        "https://evil.example\\@www.bank.example/?p=<secret>pw</secret>",  # "\" is "/" to a browser
        "https://evil.example\\\\@www.bank.example/?p=<secret>pw</secret>",
        " https://evil.example\t\\@www.bank.example/?p=<secret>pw</secret>",
    ],
)
async def test_an_address_is_checked_as_the_browser_reads_it(address: str) -> None:
    controller = Controller()

    @controller.action("Open a link")
    async def follow(url: str) -> str:
        raise AssertionError(f"opened {url}")

    assert "may only be sent to" in await run(controller, {"action": "follow", "url": address})


class FakeFrame:
    def __init__(self, url: str, parent: FakeFrame | None = None, detached: bool = False) -> None:
        self.url, self.parent_frame, self.detached = url, parent, detached

    def is_detached(self) -> bool:
        return self.detached


def test_typed_text_is_checked_against_the_document_the_element_is_in() -> None:
    from browser_agent.controller.execution import _document_url

    bank = FakeFrame("https://www.bank.example/login")
    assert _document_url(FakeFrame("about:srcdoc", FakeFrame("about:srcdoc", bank))) == bank.url  # type: ignore[arg-type]
    assert _document_url(FakeFrame("about:blank", bank)) == "about:blank"  # type: ignore[arg-type]
    assert _document_url(FakeFrame("https://www.bank.example/", detached=True)) == ""  # type: ignore[arg-type]
    assert _document_url(None) == ""
