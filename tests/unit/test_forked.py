"""A forked command behaves as ``python ARGS`` in a new interpreter would (tests/support/forked.py)."""

from __future__ import annotations

import importlib
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import forked
from tests.support.forked import python_run, worker_python

SCRIPT = """
import atexit, os, sys, threading, time
print("argv", sys.argv[1:], "cwd", os.getcwd(), "var", os.environ.get("FORKED_VAR"))
print("path0", sys.path[0])
print("main", __name__, "stdin", repr(sys.stdin.read()))
atexit.register(lambda: print("atexit ran", flush=True))
threading.Thread(target=lambda: (time.sleep(0.2), print("thread joined"))).start()
print("to stderr\\r\\nline", file=sys.stderr)
sys.exit(int(sys.argv[1]))
"""


@pytest.mark.parametrize("fresh", [True, False])
def test_a_forked_script_gets_its_arguments_environment_streams_and_ending(
    tmp_path: Path, fresh: bool
) -> None:
    script = tmp_path / "s.py"
    script.write_text(SCRIPT)
    env = {**os.environ, "FORKED_VAR": "seen"}
    done = python_run([str(script), "3", "x y"], env=env, cwd=tmp_path, fresh=fresh)
    assert done.returncode == 3
    assert done.args == [sys.executable, str(script), "3", "x y"]
    lines = done.stdout.splitlines()
    assert lines[:3] == [
        f"argv ['3', 'x y'] cwd {tmp_path} var seen",
        f"path0 {tmp_path}",
        "main __main__ stdin ''",
    ]
    assert lines[3:] == ["thread joined", "atexit ran"]
    assert done.stderr == "to stderr\nline\n"


def test_a_forked_module_runs_as_main_and_an_exception_is_exit_1_with_its_traceback(tmp_path: Path) -> None:
    done = python_run(["-m", "browser_agent", "--version"], env=dict(os.environ))
    assert done.returncode == 0 and done.stdout.strip()
    new = python_run(["-m", "browser_agent", "--version"], env=dict(os.environ), fresh=True)
    assert done.stdout == new.stdout
    script = tmp_path / "boom.py"
    script.write_text("raise ValueError('boom')\n")
    failed = python_run([str(script)], env=dict(os.environ))
    assert failed.returncode == 1
    assert "Traceback" in failed.stderr and "ValueError: boom" in failed.stderr


def test_a_forked_command_past_its_timeout_is_killed_and_the_next_runs(tmp_path: Path) -> None:
    script = tmp_path / "slow.py"
    script.write_text("import time; time.sleep(30)\n")
    with pytest.raises(subprocess.TimeoutExpired):
        python_run([str(script)], env=dict(os.environ), timeout=1)
    assert python_run(["-c", "print('next')"], env=dict(os.environ)).stdout == "next\n"


def test_a_worker_interpreter_is_a_forked_child_with_the_forwarders_streams_signals_and_ending() -> None:
    command = [*shlex.split(worker_python() or pytest.skip("no fork here")), "-u", "-c"]
    echo = (
        "import os, sys; print(sys.stdin.readline().strip(), os.getpid()); sys.stderr.write('e'); sys.exit(4)"
    )
    done = subprocess.run([*command, echo], input="hello\n", capture_output=True, text=True, timeout=30)
    assert done.returncode == 4 and done.stderr == "e"
    word, pid = done.stdout.split()
    assert word == "hello" and int(pid) != 0
    wait = "import sys, time; print('ready', flush=True); time.sleep(30)"
    with subprocess.Popen([*command, wait], stdout=subprocess.PIPE, text=True) as forwarder:
        assert forwarder.stdout is not None and forwarder.stdout.readline() == "ready\n"
        forwarder.terminate()  # passed on to the child, which ends, and the forwarder with it
        assert forwarder.wait(10) == -signal.SIGTERM
        assert forwarder.stdout.read() == "", "the stream ends with the child: the forwarder kept no copy"


def test_a_client_that_leaves_before_its_answer_does_not_stop_the_server(tmp_path: Path) -> None:
    assert python_run(["-c", "pass"], env=dict(os.environ)).returncode == 0  # the server is up
    path = forked._Server.get().path
    request = {"args": ["-c", "import time; time.sleep(30)"], "env": dict(os.environ), "cwd": str(tmp_path)}
    for asks in (False, True):  # leaves before asking; asks, then leaves before the child's pid
        with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as conn:
            conn.connect(path)
            if asks:
                read, write = os.pipe()
                socket.send_fds(conn, [json.dumps(request).encode()], [read, write, write])
                os.close(read)
                os.close(write)
    assert python_run(["-c", "print('still here')"], env=dict(os.environ)).stdout == "still here\n"


def test_every_module_the_server_preloads_imports() -> None:
    """A preload name that does not import is skipped without a word (an optional extra may be missing
    elsewhere), so a renamed module would quietly leave its imports to every child: here every extra is
    installed. (Already imported in a worker forked from the server.)"""
    failed = []
    for name in forked.PRELOAD + forked.WORKER_PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            failed.append(f"{name}: {exc}")
    assert failed == []


def test_the_run_server_forks_its_children_with_the_runs_test_modules_rewritten_by_pytest(
    request: pytest.FixtureRequest,
) -> None:
    """Under pytest-xdist the run's server collects the run's tests before forking the workers
    (``_collect_tests``); its collection fails quietly, so this checks that it took place: a child has
    the module of every test of the run imported, by pytest's assertion rewriter."""
    if not (os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get(forked.SERVER_VARIABLE)):
        pytest.skip("only under pytest-xdist (make test), whose workers come from the run's server")
    code = (
        "import sys; print(*sorted(n for n, m in list(sys.modules.items()) if n.startswith('tests.') and"
        " type(getattr(m, '__loader__', None)).__name__ == 'AssertionRewritingHook'))"
    )
    done = python_run(["-c", code], env=dict(os.environ))
    expected = {item.module.__name__ for item in request.session.items if isinstance(item, pytest.Function)}
    assert done.returncode == 0, done.stderr
    assert __name__ in expected and expected <= set(done.stdout.split()), expected - set(done.stdout.split())


def test_the_test_files_pytest_has_not_rewritten_are_found_for_the_collecting_child(tmp_path: Path) -> None:
    """On a fresh clone the server's child rewrites, last first, the test modules that have no rewritten
    bytecode (``_unrewritten``); where pytest keeps it is read from pytest's own layout, checked here."""
    folder = tmp_path / "suite"
    (folder / "deeper").mkdir(parents=True)
    first, second, third = folder / "test_a.py", folder / "test_b.py", folder / "deeper" / "test_c.py"
    for file in (first, second, third):
        file.write_text("def test_it():\n    assert 1\n")
    (folder / "helpers.py").write_text("")
    assert forked._test_files([str(folder), f"{first}::test_it"]) == [third, first, second]
    assert forked._test_files([f"{second}::test_it"]) == [second]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    collect = ["--collect-only", "-q", "-p", "no:cacheprovider", str(first), str(third)]
    code = f"import sys, pytest; sys.dont_write_bytecode = False; raise SystemExit(pytest.main({collect!r}))"
    collected = python_run(["-c", code], env=env | {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}, cwd=tmp_path)
    assert collected.returncode == 0, collected.stdout + collected.stderr
    assert forked._unrewritten([first, second, third]) == [second]
    os.utime(third, (third.stat().st_atime, third.stat().st_mtime + 5))  # edited since it was rewritten
    assert forked._unrewritten([first, second, third]) == [second, third]
