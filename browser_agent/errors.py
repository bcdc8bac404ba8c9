"""The one exception tree of browser_agent.

Every error the library raises is a ``BrowserAgentError``. Each branch says who must react::

    BrowserAgentError
    ├── UserError            the developer using the library: misuse found at registration or config
    │   └── UserFileError    the user: a file handed over cannot be used (``user_files``; one line
    │                        naming the file, printed by the CLI as it is)
    ├── BrowserError         the environment: no Chromium, launch failed, page crashed, closed tab
    ├── ActionError          the model: an action could not be carried out; its message is written
    │   │                    for the model and goes back to it as an ActionResult error
    │   ├── ElementNotFoundError   an index that is not on the page (or a detached element)
    │   ├── NavigationError        a URL that could not be loaded
    │   ├── DomainNotAllowedError  a URL outside the allowed domains
    │   ├── TabClosedError         the tab was closed or crashed; another tab must be chosen
    │   └── ActionTimeoutError     the page did not respond in time
    ├── ModelError           the provider failed after retries (network, auth, rate limit)
    │   ├── ModelOutputError the reply never matched the schema, even after correction
    │   └── ProviderUnreachableError  nothing answers at the server's address (refused, unknown host)
    │       └── NotAModelServerError  something answers there, but not as a model server does
    └── AgentRunError        the run ended without success (max steps, max failures); carries history

Playwright exceptions are translated into these in exactly one place,
``browser_agent.browser.playwright_errors``; provider exceptions in ``browser_agent.llm.retry``.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ActionError",
    "ActionTimeoutError",
    "AgentRunError",
    "BrowserAgentError",
    "BrowserError",
    "DomainNotAllowedError",
    "ElementNotFoundError",
    "HeldBackError",
    "HeldForNowError",
    "ModelError",
    "ModelOutputError",
    "NavigationError",
    "NotAModelServerError",
    "ProviderUnreachableError",
    "TabClosedError",
    "UserError",
    "first_line",
]


class BrowserAgentError(Exception):
    """Base of every error raised by browser_agent."""


class UserError(BrowserAgentError):
    """The library was used wrongly; the message says what to change in your code or config."""


class BrowserError(BrowserAgentError):
    """The browser could not be started or used (no Chromium, launch failure, crashed page)."""


class ActionError(BrowserAgentError):
    """An action failed in a way the model can correct; the message is written for the model."""


class HeldBackError(ActionError):
    """A check on the model's choice held the action back, once: nothing was done, the message says why
    and what the task seems to want instead; the same action again is run."""


class HeldForNowError(HeldBackError):
    """A hold whose advice includes the same action later: another text typed into the same field, or
    this click once the form's fields are set. The agent keeps offering it to the model."""


class ElementNotFoundError(ActionError):
    """The index given by the model does not name an element on the current page."""


class NavigationError(ActionError):
    """A URL could not be loaded (unreachable host, HTTP error page, aborted navigation)."""


class DomainNotAllowedError(ActionError):
    """A URL is outside the allowed domains of this run."""


class TabClosedError(ActionError):
    """The tab an action needed was closed or crashed."""


class ActionTimeoutError(ActionError):
    """The page did not respond to an action within its time limit."""


class ModelError(BrowserAgentError):
    """The chat model's provider failed, after retries where the failure was transient."""


class ModelOutputError(ModelError):
    """The model's reply did not match the expected schema, even after it was asked to correct it."""

    def __init__(
        self,
        message: str,
        *,
        raw: str = "",
        input_tokens: int = 0,
        output_tokens: int = 0,
        cached_input_tokens: int = 0,
    ) -> None:
        super().__init__(message)
        self.raw = raw
        # What the invalid replies cost: they were paid for even though none was used.
        self.input_tokens, self.output_tokens = input_tokens, output_tokens
        self.cached_input_tokens = cached_input_tokens


_ADVICE = {
    "connection refused": "is the server running?",
    "the host name does not resolve": "check the address and this machine's network.",
}


class ProviderUnreachableError(ModelError):
    """The model's server could not be reached at all: the connection was refused, or its host name does
    not resolve. Nothing listens there, so it is not retried, and a run ends at once on it.

    The message is one line: ``cannot reach URL: REASON — what to check``.

    Attributes:
        url: The address that was tried (None when the provider's exception did not carry it).
        reason: ``connection refused`` or ``the host name does not resolve``.
    """

    def __init__(self, url: str | None, reason: str) -> None:
        advice = _ADVICE.get(reason, "check the address and that the server is up.")
        super().__init__(f"cannot reach {url or 'the model server'}: {reason} — {advice}")
        self.url, self.reason = url, reason

    def __reduce__(self) -> tuple[type[ProviderUnreachableError], tuple[str | None, str]]:
        return type(self), (self.url, self.reason)  # pickled whole (a Ray worker's error travels)


class NotAModelServerError(ProviderUnreachableError):
    """The server at the model's address answers HTTP, but not as an OpenAI-compatible (or the provider's)
    model server does: its chat endpoint is not there (404, 405, 501) or it sends an HTML page. Waiting
    does not change that, so it is not retried and a run ends at once, as when nothing answers.

    Attributes:
        url: The address that was tried (None when unknown).
        reason: What the server answered, such as ``HTTP 501, an HTML page``.
    """

    def __init__(self, url: str | None, reason: str) -> None:
        BrowserAgentError.__init__(
            self,
            f"{url or 'the model server'} answers ({reason}) but is not a model server — check --base-url "
            "(an OpenAI-compatible server's ends in /v1) and that the model server, not another one, "
            "listens on that port.",
        )
        self.url, self.reason = url, reason


class AgentRunError(BrowserAgentError):
    """The run ended without success; ``history`` holds every step taken so far."""

    def __init__(self, message: str, *, history: Any = None) -> None:
        super().__init__(message)
        self.history = history


def first_line(reason: BaseException | str | None, limit: int | None = None) -> str:
    """The first line of an exception's message (its class's name when it has none), or of a text; cut to
    ``limit`` characters when given. The one way a message is shortened to a line."""
    if reason is None:
        return ""
    text = str(reason).strip()
    if text:
        line = text.splitlines()[0]
    else:
        line = type(reason).__name__ if isinstance(reason, BaseException) else ""
    return line[:limit] if limit is not None else line
