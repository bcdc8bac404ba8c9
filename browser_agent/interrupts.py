"""``run_interruptible``: ``asyncio.run`` whose Ctrl-C always takes effect at once.

``asyncio.run`` handles SIGINT with a ``signal.signal`` handler, which Python runs only when the main
thread wakes. The kernel may hand a process's SIGINT to any of its threads (HTTP servers, rich's refresh
thread and the asyncio child watchers are threads), and then the event loop sleeps on until its next timer
or I/O: with a model call waiting, that is the model client's timeout, and its retries after it. Seen: a
batch that ignored a Ctrl-C for minutes. Here the handler is the loop's own
(``loop.add_signal_handler``), which wakes the loop through its wakeup file descriptor whichever thread
takes the signal. The first Ctrl-C cancels the run (which saves its history on the way out); a second one
stops waiting for that clean-up.

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

__all__ = ["in_a_thread_on_this_loop", "run_interruptible"]

T = TypeVar("T")
P = ParamSpec("P")

# The loop of the async caller, in the context of the thread ``in_a_thread_on_this_loop`` started.
_caller_loop: ContextVar[asyncio.AbstractEventLoop | None] = ContextVar("_caller_loop", default=None)


def run_interruptible(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` in a new event loop; Ctrl-C cancels it and raises ``KeyboardInterrupt`` here.

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
    return asyncio.run(_cancelled_by_sigint(main))


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


async def _cancelled_by_sigint(main: Coroutine[Any, Any, T]) -> T:
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None, "a coroutine run by asyncio.run runs in a task"
    interrupted = False

    def on_sigint() -> None:
        nonlocal interrupted
        if interrupted:  # a second Ctrl-C: stop waiting for the clean-up
            raise KeyboardInterrupt
        interrupted = True
        task.cancel()

    try:
        loop.add_signal_handler(signal.SIGINT, on_sigint)
    except (NotImplementedError, RuntimeError, ValueError):  # Windows, or not the main thread
        return await main
    try:
        return await main
    except asyncio.CancelledError:
        if interrupted:
            raise KeyboardInterrupt from None
        raise
    finally:
        loop.remove_signal_handler(signal.SIGINT)
