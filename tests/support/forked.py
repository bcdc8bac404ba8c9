"""Run ``python ARGS`` as a process forked from one that has already imported the package and what its
commands import, instead of a new interpreter that imports them all again (about a CPU-second each time,
most of a short command's cost on two cores).

The command still runs as its own process, as ``python ARGS`` would: its own arguments, environment,
working directory and standard streams, ``__main__`` run by ``runpy`` as the interpreter runs it, the
interpreter's own ending (``atexit``, threads joined, buffers flushed) and its exit code. What differs
from a new interpreter is only what was imported before: a test about what a command imports, or about
the interpreter's start, uses ``subprocess`` instead (``fresh=True`` below).

One server process per test process, started at first use: it imports, then forks a child per request.
A request is a packet on a Unix socket carrying the command as JSON and the three standard streams as
file descriptors; the answer is the child's pid, then its exit code. The server ends with its parent
(it reads its stdin, a pipe from the test process, to the end).

Under pytest-xdist the run's controller starts one server before its workers, and the workers are forked
from it too (``worker_python``: the interpreter xdist starts for a worker is a few-line forwarder that
hands its streams to a forked child and ends with the child's exit code). A worker then starts with
pytest, the package, the libraries the tests import and the test modules already loaded, instead of
importing them again in each of four new interpreters, and its commands are forked from the same server.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import importlib
import io
import json
import os
import pkgutil
import runpy
import selectors
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import types
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["Running", "python_run", "python_start", "worker_python"]

# What the package's commands and the examples import: loaded once in the server, shared by every child.
PRELOAD = (
    "browser_agent",
    "browser_agent.agent",
    "browser_agent.cli",
    "browser_agent.cli.run",
    "browser_agent.cli.options",
    "browser_agent.models",
    "browser_agent.testing",
    "browser_agent.demo",
    "browser_agent.output",
    "browser_agent.batch",
    "browser_agent.workflow",
    "browser_agent.export",
    "langchain_openai",
    "playwright.async_api",
)
# What a test worker imports besides (pytest, and what test modules import at their top or inside tests),
# loaded too when the server is the run's (``worker_python``). Not the pytest plugins named with ``-p``
# in pyproject.toml, nor the test modules, by import: pytest must import those itself, to rewrite their
# asserts, and does (a collection run in the server, ``_collect_tests``). Not Ray either: one test imports
# it, in one worker, so its second of imports need not delay every worker.
WORKER_PRELOAD = (
    "pytest",
    "hypothesis",
    "mcp",
    "mcp.client.stdio",
    "langchain_anthropic",
    "langchain_ollama",
    "miniwob",
    "uvicorn",
    "starlette",
    "PIL.Image",
)
# The server a worker's ``python_run`` uses when the run's controller started one (``worker_python``).
SERVER_VARIABLE = "TESTS_FORK_SERVER"
_PACKET = 1 << 20


def python_run(
    args: Sequence[str],
    *,
    env: Mapping[str, str],
    cwd: str | Path | None = None,
    timeout: float = 60,
    fresh: bool = False,
) -> subprocess.CompletedProcess[str]:
    """What ``subprocess.run([sys.executable, *args], capture_output=True, text=True, check=False)``
    gives, with ``env``, ``cwd`` and ``timeout``; run by a forked child unless ``fresh`` (or no fork)."""
    command = [sys.executable, *args]
    if fresh or not hasattr(os, "fork"):
        return subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, env=dict(env), cwd=cwd, check=False
        )
    return _Server.get().run(command, dict(env), str(cwd or os.getcwd()), timeout)


def python_start(args: Sequence[str], *, env: Mapping[str, str], cwd: str | Path | None = None) -> Running:
    """``python ARGS`` started as ``python_run`` starts it, without waiting for its end: its ``pid`` (to
    send it a signal), and ``wait(timeout)`` for what ``python_run`` would have returned."""
    return _Server.get().start([sys.executable, *args], dict(env), str(cwd or os.getcwd()))


class Running:
    """A command started by ``python_start``; its output is read as it comes (a full pipe would stall it)."""

    def __init__(self, command: list[str], pid: int, conn: socket.socket, out_r: int, err_r: int) -> None:
        self.command, self.pid, self._conn = command, pid, conn
        self._output: list[tuple[bytes, bytes]] = []
        self._reader = threading.Thread(target=self._read, args=(out_r, err_r), daemon=True)
        self._reader.start()

    def _read(self, out_r: int, err_r: int) -> None:
        self._output.append(_read_both(out_r, err_r, time.monotonic() + 3600))

    def wait(self, timeout: float) -> subprocess.CompletedProcess[str]:
        """Its end, within ``timeout`` seconds (past them it is killed: ``TimeoutExpired``)."""
        deadline = time.monotonic() + timeout
        with self._conn:
            try:
                self._conn.settimeout(max(0.1, timeout))
                code = _number(self._conn.recv(64))
            except (TimeoutError, OSError) as exc:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.pid, signal.SIGKILL)
                raise subprocess.TimeoutExpired(self.command, timeout) from exc
        self._reader.join(max(0.1, deadline - time.monotonic()))
        out, err = self._output[0] if self._output else (b"", b"")
        return subprocess.CompletedProcess(self.command, code, _text(out), _text(err))


def worker_python(tests: Sequence[str] = ()) -> str | None:
    """The ``python`` of an xdist ``popen`` spec that forks the worker from this process's server (started
    here with the workers' imports and the run's ``tests`` collected, and named in the environment the
    workers inherit), or None where there is no fork."""
    if not hasattr(os, "fork"):
        return None
    server = _Server.get(for_workers=True, tests=tests)
    os.environ[SERVER_VARIABLE] = server.path
    return shlex.join([sys.executable, "-S", __file__, "--forward"])


class _Server:
    _current: _Server | None = None
    _lock = threading.Lock()

    @classmethod
    def get(cls, *, for_workers: bool = False, tests: Sequence[str] = ()) -> _Server:
        with cls._lock:
            if cls._current is None or not cls._current.alive():
                shared = os.environ.get(SERVER_VARIABLE)
                shared = shared if shared and os.path.exists(shared) else None
                cls._current = cls(shared=shared, workers=for_workers, tests=tests)
            return cls._current

    def __init__(
        self, *, shared: str | None = None, workers: bool = False, tests: Sequence[str] = ()
    ) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        if shared is not None:  # the run's server, started by the controller: it outlives this worker
            self.path = shared
            return
        self.path = os.path.join(tempfile.mkdtemp(prefix="forked-"), "socket")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("BROWSER_", "OPENAI_", "PYTEST_"))}
        role = ["--workers", *tests] if workers else []  # a server for the workers collects their tests
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.support.forked", self.path, *role],
            stdin=subprocess.PIPE,
            env={k: v for k, v in env.items() if not k.endswith("_API_KEY")},
            cwd=Path(__file__).resolve().parents[2],
        )
        atexit.register(self.close)
        # A fresh clone's first start compiles every module it imports: on a loaded 2-core machine that
        # took over a minute (seen while a local model server and other test runs shared the cores).
        deadline = time.monotonic() + 240
        while not os.path.exists(self.path):
            if self.process.poll() is not None:
                raise RuntimeError(f"the forking server exited ({self.process.returncode}) before it started")
            if time.monotonic() > deadline:
                raise RuntimeError("the forking server did not start within 240 s")
            time.sleep(0.02)

    def alive(self) -> bool:
        return os.path.exists(self.path) if self.process is None else self.process.poll() is None

    def close(self) -> None:
        if self.process is None:
            return
        if self.process.stdin is not None:
            self.process.stdin.close()  # the server reads to the end and stops
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(5)
        if self.process.poll() is None:
            self.process.kill()
        shutil.rmtree(os.path.dirname(self.path), ignore_errors=True)

    def start(self, command: list[str], env: dict[str, str], cwd: str) -> Running:
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        null = os.open(os.devnull, os.O_RDONLY)
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        conn.connect(self.path)
        _ask(conn, command[1:], env, cwd, [null, out_w, err_w])
        for fd in (null, out_w, err_w):
            os.close(fd)
        return Running(command, _number(conn.recv(64)), conn, out_r, err_r)

    def run(
        self, command: list[str], env: dict[str, str], cwd: str, timeout: float
    ) -> subprocess.CompletedProcess[str]:
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        null = os.open(os.devnull, os.O_RDONLY)
        with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as conn:
            conn.connect(self.path)
            _ask(conn, command[1:], env, cwd, [null, out_w, err_w])
            for fd in (null, out_w, err_w):
                os.close(fd)
            pid = _number(conn.recv(64))
            deadline = time.monotonic() + timeout
            try:
                out, err = _read_both(out_r, err_r, deadline)
                conn.settimeout(max(0.1, deadline - time.monotonic()))
                code = _number(conn.recv(64))
            except (TimeoutError, OSError) as exc:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                raise subprocess.TimeoutExpired(command, timeout) from exc
        return subprocess.CompletedProcess(command, code, _text(out), _text(err))


def _ask(conn: socket.socket, args: list[str], env: dict[str, str], cwd: str, streams: list[int]) -> None:
    """Send the server a request: ``python ARGS`` in ``cwd`` with ``env``, on these three streams."""
    request = json.dumps({"args": args, "env": env, "cwd": cwd}).encode()
    socket.send_fds(conn, [request], streams)


def _number(answer: bytes) -> int:
    if not answer:
        raise RuntimeError("the forking server stopped before it answered")
    return int(answer)


def _read_both(out_r: int, err_r: int, deadline: float) -> tuple[bytes, bytes]:
    chunks: dict[int, list[bytes]] = {out_r: [], err_r: []}
    with selectors.DefaultSelector() as selector:
        for fd in chunks:
            selector.register(fd, selectors.EVENT_READ)
        try:
            while selector.get_map():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                for key, _ in selector.select(left):
                    data = os.read(key.fd, 65536)
                    if data:
                        chunks[key.fd].append(data)
                    else:
                        selector.unregister(key.fd)
        finally:
            for fd in chunks:
                os.close(fd)
    return b"".join(chunks[out_r]), b"".join(chunks[err_r])


def _text(data: bytes) -> str:
    """As ``text=True`` reads a stream: the locale's encoding, universal newlines."""
    return data.decode(errors="replace").replace("\r\n", "\n").replace("\r", "\n")


# -- the server ----------------------------------------------------------------------------------


def _serve(path: str, *, workers: bool, tests: Sequence[str]) -> tuple[dict[str, Any], list[int]]:
    """Import, then fork a child per request; returns only in a child, with its request and streams."""
    _preload(workers=workers, tests=tests)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(path + ".new")
    os.rename(path + ".new", path)  # the client waits for the name: it exists once it can connect
    listener.listen(16)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, "request")
    selector.register(sys.stdin, selectors.EVENT_READ, "parent")
    while True:
        for key, _ in selector.select():
            if key.data == "parent":
                if not os.read(sys.stdin.fileno(), 4096):
                    os._exit(0)  # the test process is gone: so is this one (its children run on)
            elif key.data == "request":
                conn, _ = listener.accept()
                request = _receive(conn)
                if request is None:  # the client left before asking: the server goes on
                    conn.close()
                    continue
                assert threading.active_count() == 1, "no fork with a thread running"
                pid = os.fork()
                if pid == 0:
                    selector.close()
                    listener.close()
                    conn.close()
                    return request
                for fd in request[1]:
                    os.close(fd)
                try:
                    conn.send(str(pid).encode())
                except OSError:  # the client left (interrupted): nobody waits for its command
                    os.kill(pid, signal.SIGKILL)
                selector.register(os.pidfd_open(pid), selectors.EVENT_READ, (pid, conn))
            else:
                selector.unregister(key.fd)
                _reap(key.fd, *key.data)


def _preload(*, workers: bool, tests: Sequence[str] = ()) -> None:
    helper = _compile_beside(WORKER_PRELOAD) if workers else None
    _import_all(PRELOAD + (WORKER_PRELOAD if workers else ()))
    if helper is not None:  # it would only import again what this process has now imported (what it
        helper.kill()  # has not written by now is not worth a wait: a file is written whole, or not at all)
        helper.wait()
    if workers:  # every module of the package, as a worker's collection imports them
        import browser_agent

        for module in pkgutil.walk_packages(browser_agent.__path__, "browser_agent."):
            if not module.name.endswith("__main__"):
                with contextlib.suppress(Exception):
                    importlib.import_module(module.name)
        _collect_tests(tests)
    # What is imported stays as it is in every child: out of the collector's reach, its pages are not
    # copied into each child by the first collection that would walk them.
    gc.freeze()


def _import_all(names: Sequence[str]) -> None:
    """Import each of ``names`` that can be (an optional extra may be missing elsewhere)."""
    for name in names:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)


def _compile_beside(names: Sequence[str]) -> subprocess.Popen[bytes] | None:
    """Import ``names``, last first, in a process of their own beside this one's imports, only for the
    bytecode it writes: on a fresh clone this process then finds most of their modules compiled (the
    forking server's start, which the workers wait for, took 14-19 s instead of 22-25, for 3-10 CPU-s
    on the core that waited). Where the bytecode is there already it costs that core a few seconds of
    imports. Killed, if it has not ended, once this process's own imports are done."""
    if sys.dont_write_bytecode:
        return None
    return subprocess.Popen(
        [sys.executable, "-m", "tests.support.forked", "--import", *reversed(names)],
        cwd=Path(__file__).resolve().parents[2],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _collect_tests(tests: Sequence[str]) -> None:
    """Collect the run's ``tests`` (paths or node ids; the whole suite without any) once, without running
    them: pytest imports every test module, rewriting its asserts (and writes the rewritten bytecode
    beside it). Each worker forked afterwards finds the modules imported, so its own collection takes
    about 1 CPU-second instead of 2, or 4 on a fresh clone where the workers, starting together, would
    each rewrite every module. What the collection reports is left to the workers' own: nothing is
    printed here.

    Where test modules have no rewritten bytecode yet (a fresh clone: 5 s on one core, the other idle
    once mypy is done), a forked child collects those last first, only for the bytecode it writes, and
    this process finds the later ones rewritten (3.4-3.7 s instead of 4.7-5.4). It is stopped when
    this collection ends."""
    tests = tests or [str(Path(__file__).resolve().parents[1])]  # the whole suite
    unwritten = [] if sys.dont_write_bytecode else _unrewritten(_test_files(tests))
    child = os.fork() if len(unwritten) > 1 else -1
    if child == 0:
        try:
            _collect([str(f) for f in reversed(unwritten)])
        finally:
            os._exit(0)
    try:
        _collect(tests)
    finally:
        if child > 0:
            os.kill(child, signal.SIGKILL)
            os.waitpid(child, 0)


def _collect(tests: Sequence[str]) -> None:
    import pytest

    quiet = io.StringIO()
    with contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(quiet):
        pytest.main(["--collect-only", "-q", "-p", "no:xdist", "-p", "no:cacheprovider", *tests])


def _test_files(tests: Sequence[str]) -> list[Path]:
    """The test files ``tests`` names: a node id's file, a file, or the ``test_*.py`` under a folder."""
    files: list[Path] = []
    for test in tests:
        path = Path(test.partition("::")[0])
        files += sorted(path.rglob("test_*.py")) if path.is_dir() else [path]
    return list(dict.fromkeys(files))


def _unrewritten(files: Sequence[Path]) -> list[Path]:
    """Those of ``files`` without bytecode from pytest's assertion rewriter as new as the file (pytest
    keeps it beside the compiler's, in ``__pycache__``, its name tagged with pytest's version)."""
    import pytest

    tag = f"{sys.implementation.cache_tag}-pytest-{pytest.__version__}.pyc"
    unwritten = []
    for file in files:
        pyc = file.parent / "__pycache__" / f"{file.stem}.{tag}"
        try:
            if pyc.stat().st_mtime >= file.stat().st_mtime:
                continue
        except OSError:
            pass
        unwritten.append(file)
    return unwritten


def _reap(pidfd: int, pid: int, conn: socket.socket) -> None:
    """Tell the client how its child ended."""
    _, status = os.waitpid(pid, 0)
    with contextlib.suppress(OSError):  # the client gave up (a timeout)
        conn.send(str(os.waitstatus_to_exitcode(status)).encode())
    conn.close()
    os.close(pidfd)


def _receive(conn: socket.socket) -> tuple[dict[str, Any], list[int]] | None:
    """A request and its three streams, or None when the client left or sent something else."""
    try:
        message, fds, _, _ = socket.recv_fds(conn, _PACKET, 3)
    except OSError:
        return None
    try:
        request = json.loads(message)
    except ValueError:
        request = None
    if not isinstance(request, dict) or len(fds) != 3:
        for fd in fds:
            os.close(fd)
        return None
    return request, fds


def _become(request: dict[str, Any], fds: list[int]) -> None:
    """In the child: take the request's streams, directory, environment and arguments, as a new
    interpreter started with them would have them; then run ``-c CODE``, ``-m MODULE`` or a script as
    ``__main__``, as it would."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    args: list[str] = request["args"]
    if args[0] == "-u":  # unbuffered standard streams, as ``python -u``
        args = args[1:]
        sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), write_through=True)
        sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), write_through=True)
    if args[0] == "-c":
        sys.argv = ["-c", *args[2:]]
        sys.path[0] = ""
        main = sys.modules["__main__"] = types.ModuleType("__main__")  # as empty as a new interpreter's
        exec(compile(args[1], "<string>", "exec"), vars(main))
    elif args[0] == "-m":
        sys.argv = [args[1], *args[2:]]
        sys.path[0] = os.getcwd()
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = list(args)
        sys.path[0] = os.path.dirname(os.path.abspath(args[0]))
        runpy.run_path(args[0], run_name="__main__")


def _forward(args: list[str]) -> None:
    """Stand in for ``python ARGS`` (an xdist worker's interpreter): a child forked from the run's server
    runs ARGS with this process's streams, environment and directory; this process keeps no copy of the
    streams (their reader sees them end when the child does), passes on the signals it is sent, and ends
    with the child's exit code."""
    child: list[int] = []
    early: list[int] = []  # signals that came before the child's pid: passed on once it is known

    def pass_on(number: int, _frame: object) -> None:
        if child:
            os.kill(child[0], number)
        else:
            early.append(number)

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, pass_on)
    with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as conn:
        conn.connect(os.environ[SERVER_VARIABLE])
        _ask(conn, args, dict(os.environ), os.getcwd(), [0, 1, 2])
        child.append(_number(conn.recv(64)))
        for number in early:
            os.kill(child[0], number)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        code = _number(conn.recv(64))
    if code < 0:  # killed by a signal: so is this process, as its parent would see the child end
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code)


if __name__ == "__main__":
    if sys.argv[1] == "--forward":
        _forward(sys.argv[2:])
    elif sys.argv[1] == "--import":  # the helper of ``_compile_beside``
        _import_all(sys.argv[2:])
    else:
        workers = sys.argv[2:3] == ["--workers"]
        _become(*_serve(sys.argv[1], workers=workers, tests=sys.argv[3:] if workers else ()))
