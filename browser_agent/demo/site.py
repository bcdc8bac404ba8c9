"""A small shop served on 127.0.0.1 whose layout changes on every load (order, wrappers, banners, ids).

Pages: ``/`` (catalog), ``/product/SLUG``, ``/cart``, ``/checkout``, ``/done``. The cart lives in a
cookie written by the page's own script; the one thing the server keeps is its record of the orders
placed (``DemoSite.orders``), which tells a benchmark what was really bought.

``serve_demo`` (``browser-agent demo --serve``) keeps one up on ``DEMO_PORT`` for the guides' commands;
``check_shop`` tells a command handed its address whether the shop answers there.
"""

from __future__ import annotations

import asyncio
import html
import itertools
import os
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from browser_agent.demo.catalog import PRODUCTS, Layout, Product
from browser_agent.errors import UserError

__all__ = ["DEMO_PORT", "DemoSite", "Order", "check_shop", "serve_demo"]

DEMO_PORT = 8765
"""The port ``browser-agent demo --serve`` takes unless told otherwise: the one the guides name."""

_BY_SLUG = {p.slug: p for p in PRODUCTS}
_STYLE = """body{font-family:sans-serif;margin:0}header{background:#234;color:#fff;padding:8px 16px}
header a{color:#fff;margin-right:12px}main{padding:16px}.card{border:1px solid #ccc;margin:8px;padding:8px;
display:inline-block;width:220px;vertical-align:top}.banner{background:#fe9;padding:8px 16px}
label{display:block;margin:8px 0}"""
_CART_JS = """function addToCart(slug){const q=document.querySelector('input[name=qty]');
const n=Math.max(1,parseInt(q?q.value:'1')||1);document.cookie='cart='+slug+':'+n+';path=/';
document.getElementById('status').textContent='Added '+n+' to your cart.';}"""


@dataclass(frozen=True, slots=True)
class Order:
    """An order as the shop recorded it when the checkout form was sent."""

    number: int
    product: str
    quantity: int
    name: str
    email: str
    shipping: str


class _QuietServer(ThreadingHTTPServer):
    """A browser that closes mid-request (its run ended) is no error of the shop's: no traceback."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def _renamed(body: str | None, renames: Mapping[str, str]) -> str | None:
    for old, new in renames.items():
        body = body.replace(old, new) if body is not None else None
    return body


def _cart(cookie: str) -> tuple[Product, int] | None:
    for part in cookie.split(";"):
        key, _, value = part.strip().partition("=")
        if key == "cart" and ":" in value:
            slug, _, qty = unquote(value).partition(":")
            if slug in _BY_SLUG and qty.isdigit():
                return _BY_SLUG[slug], int(qty)
    return None


class _Pages:
    """Renders each page with a fresh ``Layout``."""

    def __init__(self, layout: Layout) -> None:
        self.lay = layout

    def frame(self, title: str, body: str) -> str:
        lay = self.lay
        nav = (
            f'<header class="{lay.cls("top")}"><a href="/" id="{lay.gen_id()}">Home</a>'
            f'<a href="/cart" class="{lay.cls("nav")}">Cart</a></header>'
        )
        return (
            f"<!doctype html><html><head><meta charset=utf-8><title>{html.escape(title)} - Demo shop</title>"
            f"<style>{_STYLE}</style><script>{_CART_JS}</script></head>"
            f"<body>{nav}{lay.banner()}<main>{lay.wrap(body)}</main></body></html>"
        )

    def catalog(self) -> str:
        lay = self.lay
        cards = "".join(
            lay.wrap(
                f'<div class="{lay.cls("card")}">'
                f'<h3><a href="/product/{p.slug}">{html.escape(p.name)}</a></h3>'
                f"<p>{html.escape(p.blurb)}</p><p>{p.price} EUR</p></div>"
            )
            for p in lay.shuffled(PRODUCTS)
        )
        return self.frame("Catalog", f"<h1>Kitchen things</h1>{cards}")

    def product(self, product: Product) -> str:
        lay = self.lay
        body = (
            f"<h1>{html.escape(product.name)}</h1><p>{html.escape(product.blurb)}</p>"
            f"<p>Price: {product.price} EUR</p>"
            + lay.wrap(
                f'<label>Quantity <input name="qty" type="number" min="1" value="1" '
                f'class="{lay.cls("qty")}"></label>'
            )
            + lay.wrap(
                f'<button class="{lay.cls("buy")}" onclick="addToCart(\'{product.slug}\')">'
                "Add to cart</button>"
            )
            + '<p id="status" role="status"></p>'
        )
        return self.frame(product.name, body)

    def cart(self, cart: tuple[Product, int] | None) -> str:
        if cart is None:
            return self.frame("Cart", "<h1>Your cart</h1><p>Your cart is empty.</p>")
        product, qty = cart
        body = f"<h1>Your cart</h1><p>{qty} × {html.escape(product.name)}</p>" + self.lay.wrap(
            f'<a href="/checkout" class="{self.lay.cls("go")}">Checkout</a>'
        )
        return self.frame("Cart", body)

    def checkout(self) -> str:
        lay = self.lay
        fields = [
            f'<label>Full name <input name="name" autocomplete="name" class="{lay.cls("f")}"></label>',
            f'<label>Email <input name="email" type="email" class="{lay.cls("f")}"></label>',
            '<label>Shipping <select name="shipping"><option>Standard</option><option>Express</option>'
            "<option>Pick-up</option></select></label>",
        ]
        if lay.shuffled(PRODUCTS)[0].slug < "m":  # sometimes the email field comes first
            fields[0], fields[1] = fields[1], fields[0]
        form = '<form action="/done" method="get">' + "".join(lay.wrap(f) for f in fields)
        form += f'<button type="submit" class="{lay.cls("order")}">Place order</button></form>'
        return self.frame("Checkout", f"<h1>Checkout</h1>{form}")

    def done(self, order: Order | None) -> str:
        if order is None:
            return self.frame(
                "Order confirmed", "<h1>Your cart is empty.</h1><p id=order>No order placed.</p>"
            )
        what = f"{order.quantity} × {html.escape(order.product)}"
        confirmation = (
            f"Order #{order.number} confirmed: {what}, {html.escape(order.shipping)} shipping, "
            f"confirmation sent to {html.escape(order.email)}."
        )
        body = f"<h1>Thank you, {html.escape(order.name)}!</h1><p id=order>{confirmation}</p>"
        return self.frame("Order confirmed", body)


class DemoSite:
    """Serve the shop on 127.0.0.1 in a background thread; ``seed`` fixes the layouts.

    ``port`` 0 (the default) takes a free one; another port that is taken raises ``OSError`` here.
    ``renames`` replace texts in every page served (``{"Add to cart": "Add to basket"}``): a shop that
    renamed things since a run was recorded, for the healing benchmark.
    """

    def __init__(
        self, seed: int | None = None, *, port: int = 0, renames: Mapping[str, str] | None = None
    ) -> None:
        seeds = itertools.count(seed if seed is not None else int.from_bytes(os.urandom(4)))
        orders = itertools.count(1001)
        lock = threading.Lock()
        self.orders: list[Order] = []
        site = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                return

            def do_GET(self) -> None:
                with lock:
                    pages, order = _Pages(Layout(next(seeds))), next(orders)
                parts = urlsplit(self.path)
                cart = _cart(self.headers.get("Cookie", ""))
                placed = _order(parse_qs(parts.query), cart, order) if parts.path == "/done" else None
                if placed is not None:
                    with lock:
                        site.orders.append(placed)
                body = _renamed(_route(pages, parts.path, cart, placed), renames or {})
                self.send_response(200 if body else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.end_headers()
                self.wfile.write((body or "<h1>Not found</h1>").encode())

        self._httpd = _QuietServer(("127.0.0.1", port), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def __enter__(self) -> DemoSite:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/"


def _order(query: dict[str, list[str]], cart: tuple[Product, int] | None, number: int) -> Order | None:
    """The order the checkout form sent, or None when the cart is empty."""
    if cart is None:
        return None
    field = {key: query.get(key, [""])[0] for key in ("name", "email", "shipping")}
    return Order(number, cart[0].name, cart[1], field["name"], field["email"], field["shipping"])


def _route(pages: _Pages, path: str, cart: tuple[Product, int] | None, order: Order | None) -> str | None:
    if path == "/":
        return pages.catalog()
    if path.startswith("/product/") and path.removeprefix("/product/") in _BY_SLUG:
        return pages.product(_BY_SLUG[path.removeprefix("/product/")])
    if path == "/cart":
        return pages.cart(cart)
    if path == "/checkout":
        return pages.checkout()
    if path == "/done":
        return pages.done(order)
    return None


def check_shop(url: str, *, wait_s: float = 10.0) -> None:
    """Whether the demo shop answers at ``url``, waiting up to ``wait_s`` for one started a moment ago
    (``demo --serve &`` on the line before).

    Raises:
        UserError: nothing answered in time, or what answered is not the demo shop.
    """
    deadline = time.monotonic() + wait_s
    while (page := _front_page(url)) is None and time.monotonic() < deadline:
        time.sleep(0.2)
    if page is None:
        raise UserError(
            f"nothing answers at {url} (waited {wait_s:.0f} s): start the shop first with "
            "`browser-agent demo --serve`, and give the address it prints."
        )
    if "- Demo shop</title>" not in page:
        raise UserError(f"{url} is not the demo shop: give the address `browser-agent demo --serve` prints.")


def _front_page(url: str) -> str | None:
    """The page at ``url``, "" when something else answered there, None when nothing did (yet)."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # straight there, never a proxy
    try:
        with opener.open(url, timeout=5) as reply:
            return str(reply.read(65536).decode("utf-8", "replace"))
    except urllib.error.HTTPError:
        return ""
    except (urllib.error.URLError, OSError):
        return None


async def serve_demo(say: Callable[[str], None], port: int = DEMO_PORT, *, seed: int | None = None) -> None:
    """Serve the shop on 127.0.0.1:``port`` until cancelled; ``say`` is handed its address, then a line
    for each order placed.

    Raises:
        OSError: the port is taken.
    """
    with DemoSite(seed, port=port) as site:
        say(f"Demo shop at {site.url} (Ctrl-C stops it)")
        shown = 0
        while True:  # the orders come from the server's threads: look at them from here
            new = site.orders[shown:]  # counted from this copy: an order placed while these print comes next
            for order in new:
                say(_placed(order))
            shown += len(new)
            await asyncio.sleep(0.2)


def _placed(order: Order) -> str:
    """One line for the terminal: what anyone on this machine sent, its control characters escaped."""
    line = (
        f"Order #{order.number}: {order.quantity} × {order.product}, {order.shipping} shipping, "
        f"for {order.name} ({order.email})"
    )
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in line)
