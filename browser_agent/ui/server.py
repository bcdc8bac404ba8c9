"""``LiveServer``: the UI served on 127.0.0.1 from inside this process, for one run from code or for
the runs its form starts (``browser-agent ui``)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Generator
from pathlib import Path
from types import TracebackType
from typing import Self

import uvicorn

from browser_agent import artifacts
from browser_agent.agent import AgentHooks
from browser_agent.batch import Executor
from browser_agent.controller import Controller
from browser_agent.errors import UserError
from browser_agent.ui.app import UiState, build_app
from browser_agent.ui.ask_human import DEFAULT_ANSWER_TIMEOUT_S, HumanChannel, with_ask_human
from browser_agent.ui.auth import TokenGuard, new_token
from browser_agent.ui.batch_board import BatchBoard
from browser_agent.ui.launch import RunSetup
from browser_agent.ui.live import LiveView
from browser_agent.ui.runs import RunControl
from browser_agent.ui.viewers import Hub

__all__ = ["LiveServer"]

HOST = "127.0.0.1"  # never another: the token is the only other lock


class _Server(uvicorn.Server):
    """uvicorn's server, leaving the process's signals alone: Ctrl-C belongs to the caller."""

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield


class LiveServer:
    """A local web UI with a live view of the agent's browser, its step timeline and controls.

    Usage::

        async with LiveServer() as live:
            print("watch at", live.url)
            agent = Agent(task, llm, controller=live.controller(), hooks=live.hooks())
            await agent.run()

    ``controller()`` adds the ``ask_human`` action (the model may ask the person watching);
    ``hooks()`` feeds the timeline and lets the UI pause, resume, stop and take over the run.

    Args:
        port: The port on 127.0.0.1 (0: a free one).
        setup: Lets the UI's form start runs and replays (the model, browser and secrets they use).
        runs_dir: A folder of saved histories to list (``setup.runs_dir`` when omitted).
        fps: Live view frames a second, at most.
        answer_timeout_s: How long ``ask_human`` waits for an answer.
    """

    def __init__(
        self,
        *,
        port: int = 0,
        setup: RunSetup | None = None,
        runs_dir: Path | None = None,
        fps: float = 4.0,
        answer_timeout_s: float = DEFAULT_ANSWER_TIMEOUT_S,
    ) -> None:
        if not 0 < fps <= 30:
            raise UserError(f"fps={fps}: give a rate between 0 and 30 frames a second.")
        self.token = new_token()
        hub = Hub()
        live = LiveView(hub, fps=fps)
        hub.on_watchers = live.watchers  # the screencast runs only while someone watches
        self.state = UiState(
            hub=hub,
            live=live,
            control=RunControl(hub, live),
            channel=HumanChannel(hub.publish, timeout_s=answer_timeout_s),
            token=self.token,
            setup=setup,
            runs_dir=runs_dir or (setup.runs_dir if setup is not None else None),
        )
        self._port = port
        self._server: _Server | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def port(self) -> int:
        if self._server is None or not self._server.servers:
            return self._port
        port: int = self._server.servers[0].sockets[0].getsockname()[1]
        return port

    @property
    def url(self) -> str:
        """The address to open, with its token (print it; anyone with it can drive the run)."""
        return f"http://{HOST}:{self.port}/?token={self.token}"

    def controller(self, base: Controller | None = None) -> Controller:
        """A copy of ``base`` (the built-ins when None) with ``ask_human``, answered in this UI."""
        return with_ask_human(base, self.state.channel)

    def batch_board(self, inner: Executor | None = None) -> BatchBoard:
        """An executor for ``run_many(..., executor=...)`` that shows the batch here task by task
        (running ``inner``'s way: this process by default)."""
        return BatchBoard(self.state.hub, inner)

    def hooks(self, chained: AgentHooks | None = None) -> AgentHooks:
        """Hooks that show the run here, then call ``chained``'s (a console reporter's, say)."""
        return self.state.control.hooks(chained)

    async def start(self) -> None:
        """Bind 127.0.0.1 and serve in this event loop.

        Raises:
            UserError: the port is taken.
        """
        if self.state.setup is not None:  # what the UI sends is redacted before the first run starts
            artifacts.remember(self.state.setup.secrets)
        app = TokenGuard(build_app(self.state), self.token, lambda: self.port)
        config = uvicorn.Config(
            app, host=HOST, port=self._port, log_level="warning", lifespan="off", ws="websockets-sansio"
        )
        self._server = _Server(config)
        self._task = asyncio.get_running_loop().create_task(self._server.serve(), name="ui server")
        while not self._server.started:
            if self._task.done():
                failure = self._task.exception() if not self._task.cancelled() else None
                raise UserError(
                    f"The UI could not listen on {HOST}:{self._port} (is the port taken?): {failure!r}"
                ) from failure
            await asyncio.sleep(0.02)

    async def close(self) -> None:
        """Stop serving; a run the form started is stopped and awaited."""
        for task in list(self.state.tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.state.live.close()
        if self._server is not None and self._task is not None:
            self._server.should_exit = True
            with contextlib.suppress(asyncio.CancelledError, SystemExit):
                await self._task
        self._server = self._task = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.close()
