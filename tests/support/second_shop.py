"""A second shop, unlike the demo, served on 127.0.0.1 with one of fourteen fixed layouts.

What makes it unlike ``browser_agent.demo``: a catalog card is one link whose name is the whole card
("Blue Ceramic Mug $14.00 New"), with prices and badges that differ from item to item and layout to
layout; a look-alike item ("Blue Ceramic Mug Set") that sits next to the real one in some layouts; the
quantity and the country are custom dropdowns (plain ``div`` options in some layouts, ``role=option`` in
others); the shipping is a radio group; the cart's checkout link opens a new tab. The server keeps the
orders placed (``SecondShop.orders``), which is what a test or benchmark judges by. ``renames`` replaces
words in every page served (``{"Add to cart": "Add to bag"}``): a shop that renamed things since a run was
recorded, whatever its layout.

Pages: ``/`` (catalog), ``/item/SLUG``, ``/cart``, ``/checkout``, ``/done``.
"""

from __future__ import annotations

import html
import itertools
import random
import sys
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

__all__ = ["COUNTRIES", "ITEMS", "LAYOUTS", "Item", "SecondShop", "ShopOrder", "sold"]


@dataclass(frozen=True, slots=True)
class Item:
    slug: str
    name: str
    price: str


ITEMS = (
    Item("blue-ceramic-mug", "Blue Ceramic Mug", "14.00"),
    Item("blue-ceramic-mug-set", "Blue Ceramic Mug Set", "38.00"),
    Item("stoneware-bowl", "Stoneware Bowl", "14.00"),
    Item("walnut-tray", "Walnut Serving Tray", "42.50"),
    Item("linen-napkins", "Linen Napkins", "18.00"),
    Item("copper-kettle", "Copper Kettle", "64.00"),
    Item("glass-carafe", "Glass Carafe", "22.00"),
)
COUNTRIES = ("United Kingdom", "Norway", "France", "Japan", "Canada")
SHIPPING = ("Standard", "Express", "Overnight")
BADGES = ("New", "Sale", "Bestseller", "-20%")
# name -> (shuffle catalog, badges, decoy beside the mug, role=option lists, wrappers, renamed ids,
#          moved buttons, promotion prices)
LAYOUTS = (
    "canonical",
    "shuffled",
    "badges",
    "promotion",
    "decoy-next",
    "decoy-first",
    "aria-options",
    "wrapped",
    "renamed",
    "moved-buttons",
    "banner",
    "badges-shuffled",
    "all-at-once",
    "fields-swapped",
)


@dataclass(frozen=True, slots=True)
class ShopOrder:
    """An order as the shop recorded it when the checkout form was sent."""

    number: int
    product: str
    quantity: int
    name: str
    email: str
    country: str
    shipping: str


class _Look:
    """What one layout changes; the same on every load of the shop (a benchmark's one layout)."""

    def __init__(self, layout: str) -> None:
        self.name = layout
        self._rng = random.Random(layout)
        everything = layout == "all-at-once"
        self.shuffle = everything or "shuffled" in layout or layout == "decoy-first"
        self.badges = everything or "badges" in layout or layout == "promotion"
        self.promotion = everything or layout == "promotion"
        self.decoy = everything or layout.startswith("decoy")
        self.aria = everything or layout == "aria-options"
        self.wrapped = everything or layout == "wrapped"
        self.renamed = everything or layout == "renamed"
        self.moved = everything or layout == "moved-buttons"
        self.banner = everything or layout == "banner"
        self.swapped = layout == "fields-swapped"

    def items(self) -> list[Item]:
        shown = [i for i in ITEMS if self.decoy or i.slug != "blue-ceramic-mug-set"]
        if self.shuffle:
            self._rng.shuffle(shown)
        if self.decoy:  # the look-alike right beside the real one, before it or after it
            mug = next(i for i in shown if i.slug == "blue-ceramic-mug")
            decoy = next(i for i in shown if i.slug == "blue-ceramic-mug-set")
            shown.remove(decoy)
            at = shown.index(mug) + (0 if self.name == "decoy-first" else 1)
            shown.insert(at, decoy)
        return shown

    def badge(self, item: Item) -> str:
        return random.Random(item.slug + self.name).choice((*BADGES, "")) if self.badges else ""

    def price(self, item: Item) -> str:
        if self.promotion and item.slug in ("blue-ceramic-mug", "glass-carafe", "copper-kettle"):
            return f"{float(item.price) * 0.8:.2f}"
        return item.price

    def wrap(self, inner: str) -> str:
        return f'<div class="w"><div class="w2">{inner}</div></div>' if self.wrapped else inner

    def ident(self, base: str) -> str:
        return f"{base}-{self._rng.getrandbits(20):05x}" if self.renamed else base


_STYLE = """body{font-family:sans-serif;margin:0}header{background:#123;color:#fff;padding:8px 16px}
header a{color:#fff;margin-right:12px}main{padding:16px}a.card{display:inline-block;border:1px solid #bbb;
margin:6px;padding:8px;width:200px;color:#000;text-decoration:none;vertical-align:top}.badge{background:#c00;
color:#fff;padding:0 4px;margin-left:6px}.dd{position:relative;margin:8px 0}.dd-list{border:1px solid #888;
background:#fff}.dd-list[hidden]{display:none}.opt{padding:4px 8px;cursor:pointer}.opt:hover{background:#eef}
label{display:block;margin:8px 0}.promo{background:#fe9;padding:8px 16px}"""
_SCRIPT = """function ddToggle(id){const l=document.getElementById(id+'-list');l.hidden=!l.hidden;
document.getElementById(id+'-btn').setAttribute('aria-expanded',String(!l.hidden));}
function ddPick(id,v){document.getElementById(id).value=v;
document.getElementById(id+'-btn').textContent=document.getElementById(id+'-btn').dataset.label+': '+v;
document.getElementById(id+'-list').hidden=true;}
function addToCart(slug){const q=document.getElementById('qty');const n=parseInt(q.value)||1;
document.cookie='cart='+slug+':'+n+';path=/';
document.getElementById('status').textContent='Added '+n+' to your cart.';}"""


def _dropdown(look: _Look, field: str, label: str, options: Sequence[str], first: str) -> str:
    """A custom dropdown: a button, a list of options (plain divs, or ARIA options), a hidden input."""
    opts = "".join(
        f'<div class="opt" {"role=option " if look.aria else ""}'
        f"onclick=\"ddPick('{field}','{html.escape(o)}')\">{html.escape(o)}</div>"
        for o in options
    )
    role = ' role="listbox"' if look.aria else ""
    return (
        f'<div class="dd"><button type="button" id="{field}-btn" data-label="{label}" '
        'aria-haspopup="listbox" '
        f'aria-expanded="false" onclick="ddToggle(\'{field}\')">{label}: {html.escape(first)}</button>'
        f'<div class="dd-list" id="{field}-list"{role} hidden>{opts}</div>'
        f'<input type="hidden" name="{field}" id="{field}" value="{html.escape(first)}"></div>'
    )


def sold(layout: str) -> frozenset[str]:
    """The names of the items the layout's catalog shows."""
    return frozenset(item.name for item in _Look(layout).items())


class _Pages:
    def __init__(self, look: _Look) -> None:
        self.look = look

    def frame(self, title: str, body: str) -> str:
        promo = '<div class="promo" role="note">Spring sale: 20% off selected items</div>'
        nav = '<header><a href="/">Harbor Goods</a><a href="/cart">Bag</a></header>'
        return (
            f"<!doctype html><html><head><meta charset=utf-8><title>{html.escape(title)} - Harbor Goods"
            f"</title><style>{_STYLE}</style><script>{_SCRIPT}</script></head><body>{nav}"
            f"{promo if self.look.banner or self.look.promotion else ''}<main>{body}</main></body></html>"
        )

    def catalog(self) -> str:
        look, cards = self.look, []
        for item in look.items():
            badge = look.badge(item)
            was = f" <s>${item.price}</s>" if look.price(item) != item.price else ""
            cards.append(
                look.wrap(
                    f'<a class="card" href="/item/{item.slug}"><h3>{html.escape(item.name)}</h3>'
                    f"<span>${look.price(item)}</span>{was}"
                    f"{f'<span class=badge>{badge}</span>' if badge else ''}</a>"
                )
            )
        return self.frame("Shop", f"<h1>Tableware</h1>{''.join(cards)}")

    def item(self, item: Item) -> str:
        look = self.look
        qty = look.wrap(_dropdown(look, "qty", "Quantity", ("1", "2", "3", "4", "5"), "1"))
        add = look.wrap(
            f'<button id="{look.ident("add")}" onclick="addToCart(\'{item.slug}\')">Add to cart</button>'
        )
        parts = [qty, add] if not look.moved else [add, qty]
        if look.moved:  # the button above the list: the click still needs the quantity first
            parts = [f"<p>Choose a quantity, then add.</p>{qty}", add]
        body = (
            f"<h1>{html.escape(item.name)}</h1><p class=price>Price: ${look.price(item)}</p>"
            + "".join(parts)
            + '<p id="status" role="status"></p>'
        )
        return self.frame(item.name, body)

    def cart(self, cart: tuple[Item, int] | None) -> str:
        if cart is None:
            return self.frame("Bag", "<h1>Your bag</h1><p>Your bag is empty.</p>")
        item, qty = cart
        go = self.look.wrap('<a href="/checkout" target="_blank">Proceed to checkout</a>')
        body = f"<h1>Your bag</h1><p>{qty} x {html.escape(item.name)}</p>{go}"
        return self.frame("Bag", body)

    def checkout(self) -> str:
        look = self.look
        name = f'<label>Full name <input name="{look.ident("fullname")}" autocomplete="name"></label>'
        email = f'<label>Email <input name="{look.ident("email")}" type="email"></label>'
        fields = [name, email] if not look.swapped else [email, name]
        country = _dropdown(look, "country", "Country", COUNTRIES, COUNTRIES[0])
        radios = "".join(
            f'<label><input type="radio" name="shipping" value="{s}"'
            f"{' checked' if s == 'Standard' else ''}> {s}</label>"
            for s in SHIPPING
        )
        shipping = f"<fieldset><legend>Shipping</legend>{radios}</fieldset>"
        parts = [*(look.wrap(f) for f in fields), look.wrap(country), look.wrap(shipping)]
        form = (
            f'<form action="/done" method="get" id="{look.ident("order")}">{"".join(parts)}'
            '<button type="submit">Place order</button></form>'
        )
        return self.frame("Checkout", f"<h1>Checkout</h1>{form}")

    def done(self, order: ShopOrder | None) -> str:
        if order is None:
            return self.frame("Order", "<h1>Nothing to order</h1><p id=result>Your bag is empty.</p>")
        text = (
            f"Order {order.number} placed: {order.quantity} x {html.escape(order.product)} to "
            f"{html.escape(order.country)} ({html.escape(order.shipping)}), receipt sent to "
            f"{html.escape(order.email)}."
        )
        return self.frame(
            "Order placed", f"<h1>Thanks, {html.escape(order.name)}</h1><p id=result>{text}</p>"
        )


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


_BY_SLUG = {i.slug: i for i in ITEMS}


def _cart(cookie: str) -> tuple[Item, int] | None:
    for part in cookie.split(";"):
        key, _, value = part.strip().partition("=")
        if key == "cart" and ":" in value:
            slug, _, qty = unquote(value).partition(":")
            if slug in _BY_SLUG and qty.isdigit():
                return _BY_SLUG[slug], int(qty)
    return None


def _order(query: dict[str, list[str]], cart: tuple[Item, int] | None, number: int) -> ShopOrder | None:
    if cart is None:
        return None
    values = {key.split("-")[0]: v[0] for key, v in query.items()}  # a renamed field keeps its stem
    get = values.get
    fields = (get("fullname", ""), get("email", ""), get("country", ""), get("shipping", ""))
    return ShopOrder(number, cart[0].name, cart[1], *fields)


class SecondShop:
    """Serve the shop on 127.0.0.1 (a random port) in a background thread, in the layout named."""

    def __init__(self, layout: str = "canonical", *, renames: Mapping[str, str] | None = None) -> None:
        if layout not in LAYOUTS:
            raise ValueError(f"no layout {layout!r}; the layouts are {LAYOUTS}")
        self.layout = layout
        self.orders: list[ShopOrder] = []
        renamed = dict(renames or {})
        numbers = itertools.count(5001)
        lock = threading.Lock()
        shop = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                return

            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                cart = _cart(self.headers.get("Cookie", ""))
                pages = _Pages(_Look(layout))
                placed = None
                if parts.path == "/done":
                    with lock:
                        placed = _order(parse_qs(parts.query), cart, next(numbers))
                        if placed is not None:
                            shop.orders.append(placed)
                body = _route(pages, parts.path, cart, placed)
                for old, new in renamed.items():
                    body = body.replace(old, new) if body else body
                self.send_response(200 if body else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.end_headers()
                self.wfile.write((body or "<h1>Not found</h1>").encode())

        self._httpd = _QuietServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def __enter__(self) -> SecondShop:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/"


def _route(pages: _Pages, path: str, cart: tuple[Item, int] | None, order: ShopOrder | None) -> str | None:
    if path == "/":
        return pages.catalog()
    if path.startswith("/item/") and path.removeprefix("/item/") in _BY_SLUG:
        return pages.item(_BY_SLUG[path.removeprefix("/item/")])
    if path == "/cart":
        return pages.cart(cart)
    if path == "/checkout":
        return pages.checkout()
    if path == "/done":
        return pages.done(order)
    return None
