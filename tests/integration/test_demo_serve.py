"""``browser-agent demo --serve`` keeps the shop up until a signal, and ``--shop`` records on it, so that
the run names an address that still answers for ``workflow run`` and the exported scripts; every misuse
is one line and exit 2, before a browser starts."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from browser_agent.cli import main, main_async
from browser_agent.demo.site import DemoSite, Order, check_shop
from browser_agent.errors import UserError
from browser_agent.record import AgentHistory
from tests.support.server import LocalServer

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "tests" / "pages"
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _get(url: str, cookie: str = "") -> str:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with _DIRECT.open(request, timeout=10) as reply:
        return str(reply.read().decode())


def test_the_served_shop_prints_its_address_and_orders_and_stops_on_sigterm_with_0() -> None:
    shop = subprocess.Popen(
        [sys.executable, "-m", "browser_agent", "demo", "--serve", "--port", "0", "--seed", "3"],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert shop.stdout is not None
        first = shop.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", first)
        assert found and found.group(1) != "0", first
        assert "- Demo shop</title>" in _get(found.group(0))
        _get(found.group(0) + "done?name=Grace&email=g%40example.org&shipping=Express", "cart=red-kettle:3")
        placed = shop.stdout.readline().strip()
        assert re.fullmatch(
            r"Order #\d+: 3 × Red kettle, Express shipping, for Grace \(g@example\.org\)", placed
        )
        _get(found.group(0) + "done?name=%1B%5D0%3Bpwned%07&shipping=Express", "cart=salt-mill:1")
        assert "for \\x1b]0;pwned\\x07 ()" in shop.stdout.readline()  # no escape reaches the terminal
        shop.send_signal(signal.SIGTERM)
        err = shop.communicate(timeout=30)[1]
    finally:
        shop.kill()
    assert shop.returncode == 0, err
    assert "Demo shop stopped" in err and "Traceback" not in err


def test_a_taken_port_is_one_line_saying_what_to_do(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["demo", "--serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"browser-agent demo: cannot serve on 127.0.0.1:{port}") and "--port N" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--serve", "--record", "run.json"], "--serve only serves the shop: run --record"),
        (["--serve", "--port", "70000"], "--port 70000: give a port between 0 and 65535"),
        (["--port", "9000"], "--port 9000 goes with --serve"),
        (["--shop", "https://shop.example/"], "--shop 'https://shop.example/': give the address"),
        (["--shop", "http://127.0.0.1:x/"], "give the address `demo --serve` prints"),
        (["--shop", "http://127.0.0.1:9/", "--seed", "4"], "--seed lays out a shop this command starts"),
    ],
)
def test_a_misuse_is_one_line_and_exit_2(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("browser-agent demo: ") and says in err and err.count("\n") == 1, err


def test_check_shop_waits_then_names_what_to_start_and_refuses_another_site() -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{closed.getsockname()[1]}/"  # bound, not listening: refused
        with pytest.raises(UserError, match=r"nothing answers at .* start the shop first"):
            check_shop(url, wait_s=0.3)
    with LocalServer(PAGES) as other, pytest.raises(UserError, match="is not the demo shop"):
        check_shop(other.url("basic.html"), wait_s=0.3)
    with DemoSite() as site:
        check_shop(site.url, wait_s=0)


@pytest.mark.usefixtures("driver")
@pytest.mark.timeout(120)
async def test_a_run_recorded_on_a_served_shop_names_it_and_places_the_order(tmp_path: Path) -> None:
    with DemoSite(seed=8) as site:
        assert await main_async(["demo", "--record", str(tmp_path / "run.json"), "--shop", site.url]) == 0
        orders = list(site.orders)
    history = AgentHistory.load(tmp_path / "run.json")
    first = history.steps[0].actions[0]
    assert (first.name, first.params["url"]) == ("go_to_url", site.url)
    assert orders == [
        Order(orders[0].number, "Blue ceramic mug", 2, "Ada Lovelace", "ada@example.com", "Express")
    ]
    # the answer is the shop's words, whole: what an exported test checks the page for
    assert re.fullmatch(
        r"Order #\d+ confirmed: 2 × Blue ceramic mug, Express shipping, "
        r"confirmation sent to ada@example\.com\.",
        history.final_result() or "",
    )


@pytest.mark.usefixtures("driver")
@pytest.mark.timeout(120)
async def test_the_shipped_run_replays_on_a_served_shop() -> None:
    with DemoSite(seed=9) as site:
        assert await main_async(["demo", "--shop", site.url]) == 0
        orders = list(site.orders)
    assert [(o.product, o.quantity, o.email) for o in orders] == [("Blue ceramic mug", 2, "ada@example.com")]
