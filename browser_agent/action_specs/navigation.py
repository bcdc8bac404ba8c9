"""Navigation: open a URL, go back, search the web, wait (behaviour: ``controller/actions/navigation.py``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from browser_agent.action_specs import checks
from browser_agent.action_specs.placeholders import Placeholders
from browser_agent.action_specs.spec import ActionSpec, Input, Script
from browser_agent.defaults import DEFAULT_SEARCH_ENGINE_URL

__all__ = ["GO_BACK", "GO_TO_URL", "SEARCH_WEB", "SPECS", "WAIT"]


class GoToUrlParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str = Field(description="The full address to open, with its scheme (https://...).")
    reload: bool = Field(
        False, description="Load it again even if the tab shows it (what was typed there is lost)."
    )


class GoBackParams(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SearchWebParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # The query goes to a search engine, a third party: its placeholders are never filled.
    query: Annotated[str, Placeholders.KEPT] = Field(description="The search terms.")


class WaitParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seconds: float = Field(3.0, description="How long to wait, at most 10 seconds.")


def _go_to_url(p: GoToUrlParams, script: Script) -> list[str]:
    return [f"page.goto({script.url(p.url)})"]


def _go_back(p: GoBackParams, script: Script) -> list[str]:
    return ["page.go_back()"]


def _search_web(p: SearchWebParams, script: Script) -> list[str]:
    value = script.value("query", "query")
    engine = DEFAULT_SEARCH_ENGINE_URL.split("{query}")
    return [f"page.goto({script.literal(engine[0])} + quote_plus({value}) + {script.literal(engine[-1])})"]


def _wait(p: WaitParams, script: Script) -> list[str]:
    return [f"page.wait_for_timeout({round(p.seconds * 1000)})"]


GO_TO_URL = ActionSpec(
    "go_to_url",
    "Open a URL in the current tab.",
    GoToUrlParams,
    export=_go_to_url,
    inputs={"url": Input("url")},
    checks={"url": checks.text},
)
GO_BACK = ActionSpec("go_back", "Go back one page.", GoBackParams, export=_go_back, checks={})
SEARCH_WEB = ActionSpec(
    "search_web",
    "Search the web (not this site).",
    SearchWebParams,
    export=_search_web,
    inputs={"query": Input("query", description="what was searched for on the web")},
    checks={"query": checks.text},
)
WAIT = ActionSpec(
    "wait", "Wait for the page to change.", WaitParams, export=_wait, checks={"seconds": checks.seconds}
)
SPECS = (GO_TO_URL, GO_BACK, SEARCH_WEB, WAIT)
