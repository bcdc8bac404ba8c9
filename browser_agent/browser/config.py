"""Settings for launching or connecting to a browser."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = ["BrowserConfig", "Viewport"]


class Viewport(BaseModel):
    model_config = ConfigDict(frozen=True)

    width: int = Field(default=1280, gt=0)
    height: int = Field(default=800, gt=0)


class BrowserConfig(BaseModel):
    """How to get a browser: launch a local Chromium, or connect to a remote one.

    All timeouts are in milliseconds. ``allowed_domains`` uses patterns such as ``example.com``,
    ``*.example.com`` or ``http://127.0.0.1:*``; ``None`` allows every domain. With a list, no document
    (tab, pop-up, frame, form submission, redirect hop) from another site is ever requested; scripts,
    images, fetches and WebSockets of allowed pages still reach any site unless ``fence_subresources`` is
    set.
    ``data:``, ``file:``, ``blob:`` and ``javascript:`` documents need their scheme in the list
    (``"data:"``). ``capture_timeout_ms`` bounds one reading of the page (and one screenshot).

    After an action the page settles: the load event, the tab's fetches, then one rendering frame
    without DOM changes, all within ``settle_max_ms``. ``settle_quiet_ms`` > 0 also asks for that long
    without any DOM change, for pages that change it on timers after a pause.

    ``cdp_url`` connects to a running Chromium over the DevTools protocol (``http://host:9222``);
    ``ws_endpoint`` to a Playwright browser server (``playwright run-server``), which launches a
    browser for the connection: see ``server_launch_headers`` for which settings it honours.

    ``storage_state`` is a saved login (cookies and local storage, written by
    ``BrowserSession.save_storage_state``) loaded into every fresh context: each agent of a
    ``run_many`` starts from it, and a session over ``cdp_url`` opens a context of its own for it
    instead of reusing the browser's first one. It cannot be combined with ``user_data_dir``, a
    profile that keeps its own logins.
    """

    model_config = ConfigDict(frozen=True)

    headless: bool = True
    executable_path: Path | None = None
    extra_args: tuple[str, ...] = ()
    viewport: Viewport = Viewport()
    user_data_dir: Path | None = None
    downloads_dir: Path | None = None
    allowed_domains: tuple[str, ...] | None = None
    fence_subresources: bool = False
    cdp_url: str | None = None
    ws_endpoint: str | None = None
    launch_timeout_ms: float = 30_000
    action_timeout_ms: float = 5_000
    navigation_timeout_ms: float = 20_000
    capture_timeout_ms: float = 15_000
    settle_quiet_ms: float = 0
    settle_max_ms: float = 3_000
    block_external_network: bool = False
    accept_dialogs: bool = True
    storage_state: Path | None = None

    @model_validator(mode="after")
    def _one_place_for_logins(self) -> BrowserConfig:
        if self.storage_state is not None and self.user_data_dir is not None:
            raise ValueError(
                "storage_state and user_data_dir both keep a login: a profile directory keeps its own "
                "cookies and storage. Give one of them."
            )
        return self
