"""``run_interruptible``: ``asyncio.run`` whose Ctrl-C (and SIGTERM, SIGHUP) always takes effect at once.

``asyncio.run`` handles SIGINT with a ``signal.signal`` handler, which Python runs only when the main
thread wakes. The kernel may hand a process's SIGINT to any of its threads (HTTP servers, rich's refresh
thread and the asyncio child watchers are threads), and then the event loop sleeps on until its next timer
or I/O: with a model call waiting, that is the model client's timeout, and its retries after it. Seen: a
batch that ignored a Ctrl-C for minutes. Here the handler is the loop's own
(``loop.add_signal_handler``), which wakes the loop through its wakeup file descriptor whichever thread
takes the signal. The first Ctrl-C cancels the run (which saves its history on the way out); a second one
stops waiting for that clean-up.

SIGTERM (what schedulers, containers and ``timeout`` send) and SIGHUP (a closed terminal or SSH session)
take the same path: without it they end the process where it stands, and a run loses the step under way
and, unless its history was written as it went, every step before. Either way the run ends in
``Interrupted`` (a ``KeyboardInterrupt``, so code written for Ctrl-C handles all three) naming the
signal; a command exits with ``128 + its number``, as a shell reports a process killed by it (130 for
Ctrl-C, 143 for SIGTERM, 129 for SIGHUP). A signal the process was told to ignore (``nohup`` ignores
SIGHUP), and a SIGTERM or SIGHUP that has a handler of its own (an application's), are left alone.

``in_a_thread_on_this_loop`` runs blocking code (the CLI's ``main``) from async code: in a worker thread,
whose ``run_interruptible`` calls send their coroutines back to the caller's loop instead of starting a
loop of their own. They then share that loop's Playwright driver (one per loop, browser/driver.py), and
the caller's loop keeps its own Ctrl-C handling.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable, Coroutine
from contextvars import ContextVar
from typing import Any, ParamSpec, TypeVar

__all__ = ["Interrupted", "exit_code", "in_a_thread_on_this_loop", "run_interruptible"]

T = TypeVar("T")
P = ParamSpec("P")

# The signals that cancel a run, where the platform has them.
_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class Interrupted(KeyboardInterrupt):
    """A run cancelled by a signal: Ctrl-C (SIGINT), SIGTERM or SIGHUP; ``signum`` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def exit_code(interrupt: KeyboardInterrupt) -> int:
    """A command's exit code after ``interrupt``: 128 + the signal's number (130 for a plain Ctrl-C)."""
    return 128 + (interrupt.signum if isinstance(interrupt, Interrupted) else signal.SIGINT)


# The loop of the async caller, in the context of the thread ``in_a_thread_on_this_loop`` started.
_caller_loop: ContextVar[asyncio.AbstractEventLoop | None] = ContextVar("_caller_loop", default=None)


def run_interruptible(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` in a new event loop; Ctrl-C, SIGTERM or SIGHUP cancels it and raises ``Interrupted``.

    In a thread started by ``in_a_thread_on_this_loop``, ``main`` runs on that caller's loop instead, and
    this thread waits for it.

    Raises:
        RuntimeError: called on a running loop's own thread (as ``asyncio.run`` is; there it would wait
            on the loop it blocks); ``main`` is left to the caller.
    """
    if _loop_running_here():
        raise RuntimeError(
            "This blocking call cannot run inside a running event loop (a notebook, async code): await its "
            "async form there (await agent.run(), await browser_agent.cli.main_async([...]))."
        )
    caller = _caller_loop.get()
    if caller is not None:
        return asyncio.run_coroutine_threadsafe(main, caller).result()
    return asyncio.run(_cancelled_by_signals(main))


def _loop_running_here() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


async def in_a_thread_on_this_loop(function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``function(*args, **kwargs)`` in a worker thread, its ``run_interruptible`` calls run on this loop.

    Cancelling the await does not stop the thread: cancel the work through the function's own means.
    """
    loop = asyncio.get_running_loop()

    def call() -> T:
        _caller_loop.set(loop)  # in the thread's own copy of the context
        return function(*args, **kwargs)

    return await asyncio.to_thread(call)


async def _cancelled_by_signals(main: Coroutine[Any, Any, T]) -> T:
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None, "a coroutine run by asyncio.run runs in a task"
    received: list[int] = []

    def on_signal(signum: int) -> None:
        if received:  # a second signal: stop waiting for the clean-up
            raise Interrupted(signum)
        received.append(signum)
        task.cancel()

    taken = _take_signals(loop, on_signal)
    try:
        return await main
    except asyncio.CancelledError:
        if received:
            raise Interrupted(received[0]) from None
        raise
    finally:
        for signum, before in taken.items():
            loop.remove_signal_handler(signum)
            signal.signal(signum, before)


def _take_signals(loop: asyncio.AbstractEventLoop, handler: Callable[[int], None]) -> dict[int, Any]:
    """Handle each of ``_SIGNALS`` on ``loop``, unless ignored, or (SIGTERM, SIGHUP) handled already;
    returns those taken, with their handlers before (to put back)."""
    taken: dict[int, Any] = {}
    for signum in _SIGNALS:
        before = signal.getsignal(signum)
        if before is signal.SIG_IGN or (signum != signal.SIGINT and before is not signal.SIG_DFL):
            continue  # ignored (nohup), or an application's own handler (SIGINT's is asyncio.run's)
        try:
            loop.add_signal_handler(signum, handler, signum)
        except (NotImplementedError, RuntimeError, ValueError):  # Windows, or not the main thread
            break
        taken[signum] = before
    return taken
