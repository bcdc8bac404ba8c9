"""``run_interruptible``: a Ctrl-C takes effect at once even when a thread other than the main one
receives the signal (plain ``asyncio.run`` then sleeps on until its next timer)."""

from __future__ import annotations

import asyncio
import signal
import threading
import time
from collections.abc import Iterator

import pytest

from browser_agent.browser.watchdog import within
from browser_agent.interrupts import Interrupted, exit_code, in_a_thread_on_this_loop, run_interruptible


@pytest.fixture(autouse=True)
def _default_handlers() -> Iterator[None]:
    """Each test starts from the handlers a fresh process has: another test in the same worker may have
    left a library's own (Ray's ``ray.init`` puts a SIGTERM handler in place and keeps it), which
    ``run_interruptible`` rightly leaves alone."""
    kept = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    yield
    for number, handler in kept.items():
        signal.signal(number, handler)


def _sigint_from_another_thread(after_s: float, sent: int = signal.SIGINT) -> None:
    def send() -> None:
        time.sleep(after_s)
        signal.pthread_kill(threading.get_ident(), sent)  # this thread takes it, not the main one

    threading.Thread(target=send, daemon=True).start()


def test_sigint_taken_by_another_thread_cancels_the_run_at_once() -> None:
    cleaned = []

    async def long_wait() -> None:
        try:
            await asyncio.sleep(30)  # a model call waiting on its client's timeout
        finally:
            cleaned.append(True)

    _sigint_from_another_thread(0.3)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run_interruptible(long_wait())
    assert time.monotonic() - start < 5, "the Ctrl-C waited for the loop's next timer"
    assert cleaned == [True], "the run's clean-up ran"
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler, "the usual handler is back"


@pytest.mark.parametrize(
    ("sent", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)]
)
def test_sigterm_and_sighup_cancel_the_run_as_ctrl_c_does_and_name_their_exit_code(
    sent: signal.Signals, code: int
) -> None:
    cleaned = []

    async def long_wait() -> None:
        # sent once the run is under way: sent before, a SIGTERM would end this test process (a loaded
        # machine once took longer than the sender's wait to start the loop)
        _sigint_from_another_thread(0.3, sent)
        try:
            await asyncio.sleep(30)
        finally:
            cleaned.append(True)

    before = signal.getsignal(sent)
    start = time.monotonic()
    with pytest.raises(Interrupted) as raised:
        run_interruptible(long_wait())
    assert time.monotonic() - start < 5 and cleaned == [True], "cancelled at once, its clean-up ran"
    assert raised.value.signum == sent and exit_code(raised.value) == code
    assert signal.getsignal(sent) is before, "the handler before is back"


def test_an_ignored_sighup_or_an_applications_own_handler_is_left_alone() -> None:
    taken: list[int] = []

    async def wait_out_the_signals() -> str:
        signal.pthread_kill(threading.get_ident(), signal.SIGHUP)  # ignored: nothing happens
        signal.pthread_kill(threading.get_ident(), signal.SIGTERM)  # the application's handler takes it
        await asyncio.sleep(0.3)
        return "went on"

    def own(number: int, _frame: object) -> None:
        taken.append(number)

    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN), signal.signal(signal.SIGTERM, own)
    try:
        assert run_interruptible(wait_out_the_signals()) == "went on"
        assert taken == [signal.SIGTERM]
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN and signal.getsignal(signal.SIGTERM) is own
    finally:
        signal.signal(signal.SIGHUP, previous[0])
        signal.signal(signal.SIGTERM, previous[1])
    assert exit_code(KeyboardInterrupt()) == 130, "a Ctrl-C raised by other code"


def test_a_run_that_ends_returns_its_value_and_restores_the_handler() -> None:
    async def answer() -> int:
        await asyncio.sleep(0)
        return 42

    assert run_interruptible(answer()) == 42
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_cancellation_that_is_not_a_ctrl_c_stays_a_cancellation() -> None:
    async def cancelled() -> None:
        task = asyncio.current_task()
        assert task is not None
        asyncio.get_running_loop().call_soon(task.cancel)
        await asyncio.sleep(5)

    with pytest.raises(asyncio.CancelledError):
        run_interruptible(cancelled())


def test_blocking_code_run_from_a_loop_has_its_runs_on_that_loop_and_its_errors_raised_there() -> None:
    async def where() -> tuple[asyncio.AbstractEventLoop, int]:
        return asyncio.get_running_loop(), threading.get_ident()

    def blocking(fail: bool) -> tuple[tuple[asyncio.AbstractEventLoop, int], int]:
        if fail:
            run_interruptible(_raises())
        return run_interruptible(where()), threading.get_ident()

    async def blocks_its_own_loop() -> None:  # a coroutine sent to the loop that calls back synchronously
        inner = where()
        try:
            run_interruptible(inner)
        finally:
            inner.close()

    async def caller() -> None:
        here = asyncio.get_running_loop(), threading.get_ident()
        ran_on, called_in = await in_a_thread_on_this_loop(blocking, False)
        assert ran_on == here, "the coroutine ran on the caller's loop, in its thread"
        assert called_in != here[1], "the blocking code ran in a thread of its own"
        with pytest.raises(ValueError, match="from the coroutine"):
            await in_a_thread_on_this_loop(blocking, True)
        with pytest.raises(RuntimeError, match="inside a running event loop"):  # not a wait for ever
            await within(in_a_thread_on_this_loop(run_interruptible, blocks_its_own_loop()), 10)

    asyncio.run(caller())
    loop, _ = run_interruptible(where())  # outside, a loop of its own again
    assert not loop.is_running() and loop.is_closed()


async def _raises() -> None:
    raise ValueError("from the coroutine")


def test_a_blocking_run_inside_a_running_loop_says_to_await_instead() -> None:
    async def inside() -> None:
        run = where_am_i()
        with pytest.raises(RuntimeError, match=r"await its async form there \(await agent.run\(\)"):
            run_interruptible(run)
        run.close()

    asyncio.run(inside())


async def where_am_i() -> None:
    await asyncio.sleep(0)
