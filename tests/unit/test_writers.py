"""Everything the package writes goes through the one gate (``browser_agent/artifacts.py``): a scan of its
source for file writes, stream writes, prints, HTTP answers and WebSocket messages anywhere else fails
naming the file and the line.

A new writer has two ways: call ``artifacts`` (``write_text``, ``write_bytes``, ``append_line``,
``redacting_stream``, ``redacted``), or, when what it writes can hold no page or model text, an entry in
``ALLOWED`` below that says why.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "browser_agent"
GATE = "artifacts.py"

# (file, kind) -> why it may write without the gate. Kinds are those ``writes`` names.
ALLOWED: dict[tuple[str, str], str] = {
    ("browser/storage.py", "os.open for writing"): "a saved login is the user's own credentials file "
    "(Playwright's storage state): what it holds is the secret, by design; written 0600 and atomically",
    ("browser/storage.py", "open for writing"): "the saved login's temporary file (see os.open)",
    ("browser/storage.py", "dump"): "the saved login's JSON (see os.open)",
    ("browser/proxy.py", ".write"): "bytes relayed between the browser and the sites it may reach, "
    "unchanged: a proxy, not an artifact",
    ("testing.py", ".write"): "the test page server's HTTP answers, to the browser under test",
    ("demo/site.py", ".write"): "the demo site's HTTP answers, to the demo's browser",
    ("output/gif.py", "image save"): "the GIF is encoded into memory; files.save_gif writes it through "
    "artifacts.write_bytes",
    ("cli/export.py", ".write"): "the exported script on standard output, which main() redacts",
    ("output/console.py", "rich Console"): "make_console's consoles write to artifacts.redacting_stream",
    ("ui/app.py", "HTTP response"): "_response: the one place the UI's answers leave, redacted",
    ("ui/app.py", "WebSocket send"): "_outgoing: the one place the UI's events leave, redacted",
    ("mcp/server.py", "print"): "the address served, once bound",
    ("output/reporter.py", "print"): "JSON lines to a stream made with artifacts.redacting_stream",
}
# Every ``print`` of the command line goes to standard output or error, which ``cli.main`` redacts for
# the whole command (``artifacts.redacted_stdio``).
PRINTS_REDACTED_BY_MAIN = "cli/"

_STREAM_WRITES = {"write", "writelines", "write_text", "write_bytes"}
_WRITE_MODE = set("wax+")
_OS_WRITE_FLAGS = {"O_WRONLY", "O_RDWR", "O_CREAT", "O_APPEND", "O_TRUNC"}


def _text_mode(node: ast.Call, position: int, *, literal_only: bool = False) -> str | None:
    """The mode an ``open`` call gives (``None``: read, the default); ``"?"`` when not a literal.

    ``literal_only``: a positional argument that is not a string is no mode (``Image.open(file)``,
    ``episode.open(session)``); ``Path.open("w")`` is.
    """
    mode: ast.expr | None = node.args[position] if len(node.args) > position else None
    if literal_only and not (isinstance(mode, ast.Constant) and isinstance(mode.value, str)):
        mode = None
    for keyword in node.keywords:
        if keyword.arg == "mode":
            mode = keyword.value
    if mode is None:
        return None
    return mode.value if isinstance(mode, ast.Constant) and isinstance(mode.value, str) else "?"


def _owner(func: ast.Attribute) -> str:
    return func.value.id if isinstance(func.value, ast.Name) else ""


def _open_kind(node: ast.Call, func: ast.expr) -> str | None:
    builtin = isinstance(func, ast.Name) and func.id == "open"
    if builtin or (isinstance(func, ast.Attribute) and func.attr == "fdopen"):
        mode = _text_mode(node, 1)
    elif isinstance(func, ast.Attribute) and func.attr == "open" and _owner(func) == "os":
        flags = {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
        return "os.open for writing" if flags & _OS_WRITE_FLAGS else None
    elif isinstance(func, ast.Attribute) and func.attr == "open":  # Path.open(mode), Image.open(file)
        mode = _text_mode(node, 0, literal_only=True)
    else:
        return None
    return "open for writing" if mode is not None and (mode == "?" or set(mode) & _WRITE_MODE) else None


def _kind(node: ast.Call) -> str | None:
    """What kind of write ``node`` is, or None."""
    func = node.func
    opened = _open_kind(node, func)
    if opened is not None:
        return opened
    if isinstance(func, ast.Name):
        if func.id.endswith("Response"):  # starlette's: an HTTP answer of the UI (or another server)
            return "HTTP response"
        return {"print": "print", "Console": "rich Console", "NamedTemporaryFile": "temporary file"}.get(
            func.id
        )
    if not isinstance(func, ast.Attribute):
        return None
    owner, name = _owner(func), func.attr
    if owner == "artifacts":
        return None
    if name in {"send_text", "send_json", "send_bytes"}:
        return "WebSocket send"
    if name in _STREAM_WRITES:
        return f".{name}" if owner != "os" else "os.write"
    if name in {"dump", "mkstemp", "NamedTemporaryFile", "Console"}:
        return {"dump": "dump", "Console": "rich Console"}.get(name, "temporary file")
    if owner == "shutil" and (name.startswith("copy") or name == "move"):
        return "shutil copy"
    if name == "save" and node.keywords:  # a picture's save(out, format=...); our own save(path) pass
        return "image save"
    return None


def writes(source: str) -> list[tuple[int, str]]:
    """Every write in ``source``: (line, kind)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            kind = _kind(node)
            if kind is not None:
                found.append((node.lineno, kind))
    return sorted(found)


def _package_writes() -> list[tuple[str, int, str]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        if name == GATE:
            continue
        found += [(name, line, kind) for line, kind in writes(path.read_text(encoding="utf-8"))]
    return found


def _allowed(name: str, kind: str) -> bool:
    if kind == "print" and name.startswith(PRINTS_REDACTED_BY_MAIN):
        return True
    return (name, kind) in ALLOWED


def test_nothing_writes_around_the_gate() -> None:
    stray = [
        f"browser_agent/{name}:{line}: {kind}"
        for name, line, kind in _package_writes()
        if not _allowed(name, kind)
    ]
    assert not stray, (
        "these write without artifacts.py (use artifacts.write_text/write_bytes/append_line/"
        "redacting_stream, or allow-list with a reason):\n" + "\n".join(stray)
    )


def test_every_allowance_is_still_needed() -> None:
    used = {(name, kind) for name, _, kind in _package_writes()}
    stale = sorted(set(ALLOWED) - used)
    assert not stale, f"allow-list entries nothing needs any more (remove them): {stale}"


PLANTED = """\
from pathlib import Path
import json, os, shutil, sys, tempfile
Path("a").write_text(text)
Path("a").write_bytes(data)
with open("a", "w") as out:
    out.write(text)
with Path("a").open(mode="a") as out:
    json.dump(data, out)
os.write(fd, data)
shutil.copyfile("a", "b")
picture.save(out, format="GIF")
print(page_text)
sys.stderr.write(page_text)
Console(file=out)
tempfile.mkstemp()
open("a", mode)
fd = os.open("a", os.O_WRONLY | os.O_CREAT)
os.fdopen(fd, "wb")
JSONResponse({"page": page_text})
await ws.send_text(page_text)
"""

READS = """\
from pathlib import Path
open("a").read()
open("a", "rb").read()
Path("a").open("r", encoding="utf-8")
image.open(io.BytesIO(data))
episode.open(session)
artifacts.write_text(path, text)
history.save(path)
os.open("a", os.O_RDONLY)
"""


def test_the_scan_sees_each_planted_write_with_its_line() -> None:
    assert writes(PLANTED) == [
        (3, ".write_text"),
        (4, ".write_bytes"),
        (5, "open for writing"),
        (6, ".write"),
        (7, "open for writing"),
        (8, "dump"),
        (9, "os.write"),
        (10, "shutil copy"),
        (11, "image save"),
        (12, "print"),
        (13, ".write"),
        (14, "rich Console"),
        (15, "temporary file"),
        (16, "open for writing"),
        (17, "os.open for writing"),
        (18, "open for writing"),
        (19, "HTTP response"),
        (20, "WebSocket send"),
    ]


def test_reads_and_our_own_saves_are_not_writes() -> None:
    assert writes(READS) == []


def test_a_planted_writer_in_the_package_fails_the_scan() -> None:
    name = "agent/new_writer.py"
    found = [(name, line, kind) for line, kind in writes(PLANTED)]
    assert all(not _allowed(n, k) for n, _, k in found if k != "print")
    assert not _allowed(name, "print") and _allowed("cli/run.py", "print")
