"""The UI's routes: the page, its static files, the JSON API and the WebSocket of events and frames.

Every route sits behind ``auth.TokenGuard``. A mistake of the page's (a bad form, a control that does
not apply now) is answered 400 with the ``UserError``'s message; the page shows it. Every answer and
every event passes the gate (``artifacts.redacted``) at the one place it leaves: ``_response`` for the
routes, ``_outgoing`` for the WebSocket. Frames are pictures, masked in the browser before they are taken.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from browser_agent import artifacts
from browser_agent.errors import UserError
from browser_agent.ui.ask_human import HumanChannel
from browser_agent.ui.launch import RunForm, RunSetup, secret_names, start_replay, start_run
from browser_agent.ui.live import LiveView
from browser_agent.ui.runs import RunControl
from browser_agent.ui.saved_runs import history_path, list_runs, load_run, report_html
from browser_agent.ui.viewers import Event, Hub

__all__ = ["UiState", "build_app"]

STATIC = resources.files("browser_agent.ui").joinpath("static")
Handler = Callable[[Request], Awaitable[Response]]
# The UI page loads only its own files and talks only to its own server (framing is refused for every
# response, auth.py). Sent as a header: a <meta> policy cannot say frame-ancestors.
_PAGE_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self' ws://127.0.0.1:* ws://localhost:*"
)


@dataclass(slots=True)
class UiState:
    """Everything the routes share. Without ``setup`` the UI watches runs started from code only."""

    hub: Hub
    live: LiveView
    control: RunControl
    channel: HumanChannel
    token: str
    setup: RunSetup | None = None
    runs_dir: Path | None = None
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def keep(self, task: asyncio.Task[None]) -> None:
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


@dataclass(frozen=True, slots=True)
class _Html:
    """An HTML page to answer with, and headers of its own."""

    text: str
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class _Download:
    """A saved history to answer with, as a file to download."""

    path: Path


Api = Callable[["UiState", Request], Awaitable[Any]]


def _api(ui: UiState, handler: Api) -> Handler:
    """A route: the handler's value (JSON, ``_Html`` or ``_Download``), a ``UserError`` as 400 with its
    message."""

    async def route(request: Request) -> Response:
        try:
            result = await handler(ui, request)
        except UserError as exc:
            return _response({"error": str(exc)}, status=400)
        return _response(result)

    return route


def _response(result: Any, status: int = 200) -> Response:
    """The one place an answer leaves: redacted (a history file too: it may predate its secrets' run)."""
    if isinstance(result, _Html):
        return HTMLResponse(artifacts.redacted(result.text), headers=dict(result.headers))
    if isinstance(result, _Download):
        text = artifacts.redacted(result.path.read_text(encoding="utf-8", errors="replace"))
        disposition = f'attachment; filename="{result.path.name}"'  # a checked name: no quote in it
        return Response(text, media_type="application/json", headers={"content-disposition": disposition})
    return JSONResponse(artifacts.redacted_obj(result), status_code=status)


def _outgoing(batch: list[Event]) -> str:
    """The one place events leave for a viewer: redacted, but frames (pictures, masked when taken)."""
    return json.dumps([e if e.get("type") == "frame" else artifacts.redacted_obj(e) for e in batch])


async def _json(request: Request) -> Any:
    try:
        return await request.json()
    except ValueError as exc:
        raise UserError("The request body is not JSON.") from exc


async def _index(ui: UiState, request: Request) -> _Html:
    page = STATIC.joinpath("index.html").read_text(encoding="utf-8")
    page = page.replace("{{token}}", html.escape(ui.token, quote=True))
    return _Html(page, headers=(("content-security-policy", _PAGE_POLICY),))


async def _status(ui: UiState, request: Request) -> Any:
    setup = ui.setup
    return {
        "state": ui.control.state,
        "can_start": setup is not None,
        "secret_names": secret_names(setup.secrets) if setup is not None else [],
        "fence": list(setup.allowed_domains or []) if setup is not None else [],
        "step_timeout_s": setup.settings.step_timeout_s if setup is not None else None,
        "runs": ui.runs_dir is not None,
        "question": ui.channel.pending,
    }


def _setup(ui: UiState) -> RunSetup:
    if ui.setup is None:
        raise UserError("This UI watches a run started from code; it cannot start runs or replays.")
    return ui.setup


async def _run(ui: UiState, request: Request) -> Any:
    form = RunForm.parse(await _json(request))
    ui.keep(start_run(form, _setup(ui), ui.control, ui.channel))
    return {"state": ui.control.state}


async def _pause(ui: UiState, request: Request) -> Any:
    ui.control.pause()
    return {"state": ui.control.state}


async def _resume(ui: UiState, request: Request) -> Any:
    ui.control.resume()
    return {"state": ui.control.state}


async def _stop(ui: UiState, request: Request) -> Any:
    ui.control.stop()
    return {"state": ui.control.state}


async def _answer(ui: UiState, request: Request) -> Any:
    body = await _json(request)
    if (
        not isinstance(body, dict)
        or not isinstance(body.get("id"), int)
        or not isinstance(body.get("text"), str)
    ):
        raise UserError('An answer is {"id": <question id>, "text": "..."}.')
    ui.channel.answer(body["id"], body["text"])
    return {"answered": body["id"]}


async def _runs(ui: UiState, request: Request) -> Any:
    return {"runs": list_runs(ui.runs_dir) if ui.runs_dir is not None else []}


async def _report(ui: UiState, request: Request) -> Any:
    return _Html(report_html(_runs_dir(ui), request.path_params["name"]))


async def _download(ui: UiState, request: Request) -> Any:
    return _Download(history_path(_runs_dir(ui), request.path_params["name"]))


async def _replay(ui: UiState, request: Request) -> Any:
    setup = _setup(ui)
    history = load_run(_runs_dir(ui), request.path_params["name"])
    ui.keep(start_replay(history, setup, ui.control))
    return {"state": ui.control.state}


def build_app(ui: UiState) -> Starlette:
    """The Starlette app (the caller wraps it in ``TokenGuard``)."""
    post = ["POST"]
    routes = [
        Route("/", _api(ui, _index)),
        Route("/api/status", _api(ui, _status)),
        Route("/api/run", _api(ui, _run), methods=post),
        Route("/api/pause", _api(ui, _pause), methods=post),
        Route("/api/resume", _api(ui, _resume), methods=post),
        Route("/api/stop", _api(ui, _stop), methods=post),
        Route("/api/answer", _api(ui, _answer), methods=post),
        Route("/api/runs", _api(ui, _runs)),
        Route("/api/runs/{name}/replay", _api(ui, _replay), methods=post),
        Route("/runs/{name}/report", _api(ui, _report)),
        Route("/runs/{name}/history", _api(ui, _download)),
        WebSocketRoute("/ws", lambda ws: _viewer(ui, ws)),
        Mount("/static", StaticFiles(directory=str(STATIC))),
    ]
    return Starlette(routes=routes)


def _runs_dir(ui: UiState) -> Path:
    if ui.runs_dir is None:
        raise UserError("This UI has no folder of past runs.")
    return ui.runs_dir


async def _viewer(ui: UiState, ws: WebSocket) -> None:
    """One viewer: the events and frames go out; input events for take-over come in."""
    await ws.accept()
    viewer = ui.hub.connect()
    viewer.push(ui.control.status())

    async def sending() -> None:
        while True:
            await ws.send_text(_outgoing(await viewer.next_batch()))

    sender = asyncio.get_running_loop().create_task(sending())
    try:
        while True:
            message = await ws.receive_text()
            try:
                await ui.control.take_over(json.loads(message))
            except (UserError, ValueError) as exc:
                viewer.push({"type": "error", "message": str(exc)})
    except WebSocketDisconnect:
        pass
    finally:
        ui.hub.disconnect(viewer)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
            await sender
