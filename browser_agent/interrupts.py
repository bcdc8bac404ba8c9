"""``run_interruptible``: ``asyncio.run`` whose Ctrl-C always takes effect at once.

``asyncio.run`` handles SIGINT with a ``signal.signal`` handler, which Python runs only when the main
thread wakes. The kernel may hand a process's SIGINT to any of its threads (HTTP servers, rich's refresh
thread and the asyncio child watchers are threads), and then the event loop sleeps on until its next timer
or I/O: with a model call waiting, that is the model client's timeout, and its retries after it. Seen: a
batch that ignored a Ctrl-C for minutes. Here the handler is the loop's own
(``loop.add_signal_handler``), which wakes the loop through its wakeup file descriptor whichever thread
takes the signal. The first Ctrl-C cancels the run (which saves its history on the way out); a second one
stops waiting for that clean-up.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Coroutine
from typing import Any, TypeVar

__all__ = ["run_interruptible"]

T = TypeVar("T")


def run_interruptible(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` in a new event loop; Ctrl-C cancels it and raises ``KeyboardInterrupt`` here."""
    return asyncio.run(_cancelled_by_sigint(main))


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
