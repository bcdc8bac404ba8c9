"""``BrowserTools``: the controller's actions and ``page_state`` as tools, independent of the MCP SDK.

Each action tool runs one action through ``Controller.run`` (secrets filled in, index checked against
the view the client saw, results redacted) and answers with its result and the fresh page view, so a
client needs one call per step. Every call is bounded by ``step_timeout_s``. What goes wrong comes back
as an error outcome the client can read: a model mistake (bad index, blocked domain, bad arguments),
a time-out, a browser that went away, or a bug in an action (logged with its traceback, redacted).
"""

from __future__ import annotations

import asyncio
import logging
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from browser_agent import artifacts
from browser_agent.controller import ActionResult, Controller, RegisteredAction
from browser_agent.errors import BrowserAgentError, UserError
from browser_agent.mcp.config import McpServerConfig
from browser_agent.mcp.page_view import capture_view
from browser_agent.mcp.sessions import ClientBrowser

__all__ = ["PAGE_STATE", "BrowserTools", "ToolOutcome", "ToolSpec"]

logger = logging.getLogger("browser_agent.mcp")

PAGE_STATE = "page_state"
# `done` ends an agent's task; an MCP client ends its own, so the tool would only mislead.
NOT_OFFERED = ("done",)
_PAGE_STATE_DESCRIPTION = (
    "The current page: URL, tabs, and every interactive element in view with its [index], with the text "
    "between them. Each action already returns this view after it ran: call this to look again, or to get "
    "a screenshot with the indices drawn on it."
)


class PageStateParams(BaseModel):
    """Arguments of ``page_state``."""

    model_config = ConfigDict(extra="forbid")

    screenshot: bool = Field(
        default=False, description="Also return a picture of the viewport with each element's index on it."
    )


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool as a client lists it."""

    name: str
    description: str
    input_schema: dict[str, Any]
    read_only: bool = False


@dataclass(frozen=True, slots=True)
class ToolOutcome:
    """What one call returns: text for the client, whether it failed, and an optional base64 JPEG."""

    text: str
    is_error: bool = False
    image_b64: str | None = None


def _input_schema(model: type[BaseModel], *, drop: str | None = None) -> dict[str, Any]:
    """``model``'s JSON schema without titles and descriptions already said elsewhere (and ``drop``)."""
    schema = model.model_json_schema()
    for key in ("title", "description"):
        schema.pop(key, None)
    properties: dict[str, Any] = schema.setdefault("properties", {})
    properties.pop(drop or "", None)
    for prop in properties.values():
        prop.pop("title", None)
    required = [name for name in schema.get("required", []) if name != drop]
    if required:
        schema["required"] = required
    else:
        schema.pop("required", None)
    return schema


def _argument_errors(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors(include_url=False):
        where = ".".join(str(p) for p in error["loc"]) or "arguments"
        parts.append(f"{where}: {error['msg']} (got {error.get('input')!r})")
    return "; ".join(parts)


class BrowserTools:
    """The tools of one server: ``controller``'s actions (all but ``done``) and ``page_state``.

    The tools are read from the controller once, here: register your actions before building the server.

    Raises:
        UserError: the controller has an action named ``page_state``.
    """

    def __init__(self, controller: Controller, config: McpServerConfig) -> None:
        if PAGE_STATE in controller.registry:
            raise UserError(f"An action is named {PAGE_STATE!r}, the name of the page view tool; rename it.")
        # a server that allows no file offers no upload: the tool could only ever be refused
        self.controller = controller if config.allowed_files else controller.without_uploads()
        self.config = config
        # validated once (a bad secret is a UserError here), and redacted from all the process writes
        self.secrets = artifacts.remember(config.secrets)
        self._actions = {
            a.name: a for a in self.controller.registry.actions(every=True) if a.name not in NOT_OFFERED
        }
        page_state = ToolSpec(
            PAGE_STATE, self._page_state_description(), _input_schema(PageStateParams), True
        )
        self._specs = [page_state, *(self._spec(a) for a in self._actions.values())]

    def specs(self) -> list[ToolSpec]:
        """Every tool, ``page_state`` first, then the actions in registration order."""
        return list(self._specs)

    def __contains__(self, name: object) -> bool:
        return name == PAGE_STATE or name in self._actions

    def _page_state_description(self) -> str:
        if not self.secrets:
            return _PAGE_STATE_DESCRIPTION
        return (
            f"{_PAGE_STATE_DESCRIPTION} Secrets you may type, written exactly so: {self.secrets.describe()}."
        )

    @staticmethod
    def _spec(action: RegisteredAction) -> ToolSpec:
        description = action.description
        if action.domains is not None:
            description += f" (only on pages of {', '.join(action.domains)})"
        return ToolSpec(action.name, description, _input_schema(action.action_model, drop="action"))

    async def call(
        self, name: str, arguments: Mapping[str, Any] | None, client: ClientBrowser
    ) -> ToolOutcome:
        """Run tool ``name`` for ``client``, one call at a time per client, within ``step_timeout_s``."""
        limit = self.config.step_timeout_s
        async with client.lock:
            try:
                async with asyncio.timeout(limit):
                    return await self._run(name, dict(arguments or {}), client)
            except TimeoutError:
                return ToolOutcome(
                    f"{name} did not finish within {limit:g} s and was stopped; the page may still be busy. "
                    f"Call {PAGE_STATE} to see where it stands.",
                    is_error=True,
                )
            except BrowserAgentError as exc:  # the browser went away, or an action misused the library
                return ToolOutcome(self._redact(f"{name} failed: {type(exc).__name__}: {exc}"), is_error=True)
            except Exception as exc:  # a bug in an action or here: logged, and the server goes on serving
                self._log_bug(name, exc)
                return ToolOutcome(
                    self._redact(
                        f"{name} failed with an internal error ({type(exc).__name__}: {exc}); "
                        "the server logged it. Try another way."
                    ),
                    is_error=True,
                )

    async def _run(self, name: str, arguments: dict[str, Any], client: ClientBrowser) -> ToolOutcome:
        if name == PAGE_STATE:
            try:
                params = PageStateParams.model_validate(arguments)
            except ValidationError as exc:
                return ToolOutcome(f"Bad arguments for {name}: {_argument_errors(exc)}", is_error=True)
            return await self._view(client, screenshot=params.screenshot)
        action = self._actions[name]
        try:
            parsed = action.action_model.model_validate({**arguments, "action": name})
        except ValidationError as exc:
            text = f"Bad arguments for {name}: {_argument_errors(exc)}. See the tool's input schema."
            return ToolOutcome(self._redact(text), is_error=True)
        url = client.session.page.url
        if not action.offered_on(url):
            domains = ", ".join(action.domains or ())
            return ToolOutcome(
                f"{name} is only offered on pages of {domains}; this page is {url}.", is_error=True
            )
        [result] = await self.controller.run(
            [parsed],
            client.session,
            sensitive_data=self.secrets,
            allowed_files=self.config.allowed_files,
        )
        view = await self._view(client)
        return ToolOutcome(f"{_result_line(result)}\n\n{view.text}", is_error=bool(result.error))

    async def _view(self, client: ClientBrowser, *, screenshot: bool = False) -> ToolOutcome:
        view = await capture_view(
            client.session,
            self.secrets,
            screenshot=screenshot,
        )
        return ToolOutcome(view.text, image_b64=view.screenshot_b64)

    def _redact(self, text: str) -> str:
        return self.secrets.redact(text)

    def _log_bug(self, name: str, exc: BaseException) -> None:
        trace = "".join(traceback.format_exception(exc))
        logger.error("tool %s raised:\n%s", name, self._redact(trace))


def _result_line(result: ActionResult) -> str:
    if result.error:
        return f"{result.action} failed: {result.error}"
    return f"{result.action}: {result.extracted_content or 'done'}"
