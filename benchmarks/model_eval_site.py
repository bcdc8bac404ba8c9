"""The local site of the model-in-the-loop benchmark: twelve small tasks, each judged by the server.

Every task has its own pages under ``/<task>/``; what a run did reaches the server (a form posted, a page
opened, a value saved) and ``check(task, answer)`` says whether the task was done. The server keeps the
state in memory and ``reset()`` clears it between runs. It binds 127.0.0.1 only.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

__all__ = ["TASKS", "EvalSite", "Task"]

PASSWORD = "correct-horse-42"


@dataclass(frozen=True, slots=True)
class Task:
    name: str
    category: str
    text: str  # {base} is the site's origin
    check: Callable[[dict[str, Any], str], bool]  # (server state, final answer) -> done right


def _page(title: str, body: str) -> bytes:
    return f"<!doctype html><meta charset='utf-8'><title>{title}</title><body>{body}</body>".encode()


LAMPS = [
    ("Desk lamp", "24.00", 11),
    ("Floor lamp", "89.00", 12),
    ("Clip lamp", "12.50", 13),
    ("Lava lamp", "31.00", 14),
]
ARTICLES = ["Python 4 plans", "Why tabs win", "Rust 2.0 released", "CSS has loops now"]


def _newsletter(path: str, query: dict[str, str], state: dict[str, Any]) -> bytes | None:
    if path == "/newsletter/":
        return _page(
            "Newsletter",
            "<h1>Newsletter</h1><form action='/newsletter/subscribe'>"
            "<label>Email <input name='email' type='email'></label>"
            "<label><input type='checkbox' name='weekly'> Weekly digest</label>"
            "<button>Subscribe</button></form>",
        )
    if path == "/newsletter/subscribe":
        state["newsletter"] = {"email": query.get("email", ""), "weekly": query.get("weekly") == "on"}
        return _page("Subscribed", "<h1>Thanks!</h1><p>Your confirmation code is NL-4821.</p>")
    return None


def _toppings(path: str, query: dict[str, str], state: dict[str, Any]) -> bytes | None:
    if path == "/toppings/":
        boxes = "".join(
            f"<label><input type='checkbox' name='t' value='{t}'> {t.title()}</label>"
            for t in ("cheese", "ham", "olives", "pineapple")
        )
        return _page(
            "Pizza",
            f"<h1>Choose toppings</h1><form action='/toppings/save'>{boxes}<button>Save</button></form>",
        )
    if path == "/toppings/save":
        state["toppings"] = sorted(query.get("t", "").split(",")) if query.get("t") else []
        return _page("Saved", "<h1>Saved your pizza</h1>")
    return None


def _news(path: str, query: dict[str, str], state: dict[str, Any]) -> bytes | None:
    if path == "/news/":
        items = "".join(
            f"<li><a href='/news/article/{i}'>{html.escape(t)}</a></li>" for i, t in enumerate(ARTICLES)
        )
        return _page("News", f"<h1>Latest news</h1><ul>{items}</ul>")
    if path.startswith("/news/article/"):
        index = int(path.rsplit("/", 1)[1])
        state.setdefault("articles", []).append(index)
        return _page(ARTICLES[index], f"<h1>{ARTICLES[index]}</h1><p>Full story here.</p>")
    return None


def _plans(path: str, query: dict[str, str], state: dict[str, Any]) -> bytes | None:
    if path == "/plans/":
        return _page(
            "Plans",
            "<h1>Plans</h1><div role='tablist'>"
            "<button role='tab' aria-selected='true' onclick=\"show('o')\">Overview</button>"
            "<button role='tab' onclick=\"show('p')\">Pricing</button></div>"
            "<div id='o'><p>Our plans fit every team.</p></div>"
            "<div id='p' hidden><p>Starter: $9 per month</p><p>Pro: $29 per month</p></div>"
            "<script>function show(id){for(const x of ['o','p'])document.getElementById(x).hidden=x!==id;"
            "fetch('/plans/seen?tab='+id)}</script>",
        )
    if path == "/plans/seen":
        state["pricing_seen"] = state.get("pricing_seen") or query.get("tab") == "p"
        return b"ok"
    return None


def _drafts(path: str, query: dict[str, str], state: dict[str, Any]) -> bytes | None:
    if path == "/drafts/":
        drafts = [d for d in ("Old notes", "Trip plan", "Shopping") if d not in state.get("deleted", [])]
        rows = "".join(
            f"<li>{d} <form action='/drafts/delete' style='display:inline' "
            f"onsubmit=\"return confirm('Delete {d}?')\"><input type='hidden' name='d' value='{d}'>"
            f"<button>Delete {d}</button></form></li>"
            for d in drafts
        )
        return _page("Drafts", f"<h1>Drafts</h1><ul>{rows}</ul>")
    if path == "/drafts/delete":
        state.setdefault("deleted", []).append(query.get("d", ""))
        return _page(
            "Deleted", f"<h1>Deleted {html.escape(query.get('d', ''))}</h1><a href='/drafts/'>Back</a>"
        )
    return None


def _shop(path: str, query: dict[str, str], state: dict[str, Any]) -> bytes | None:
    if path == "/shop/":
        return _page(
            "Shop",
            "<h1>Catalog</h1><form action='/shop/search'><input name='q' placeholder='Search'>"
            "<button>Search</button></form>",
        )
    if path == "/shop/search":
        q = query.get("q", "").lower()
        hits = [lamp for lamp in LAMPS if q and q in lamp[0].lower()]
        rows = (
            "".join(f"<li><a href='/shop/item/{i}'>{n}</a> ${p}</li>" for n, p, i in hits)
            or "<li>No results</li>"
        )
        return _page("Results", f"<h1>Results for {html.escape(q)}</h1><ul>{rows}</ul>")
    if path.startswith("/shop/item/"):
        item = int(path.rsplit("/", 1)[1])
        state["opened_item"] = item
        name = next((n for n, _p, i in LAMPS if i == item), "?")
        return _page(name, f"<h1>{name}</h1><button>Add to cart</button>")
    return None


def _booking(path: str, query: dict[str, str], state: dict[str, Any]) -> bytes | None:
    if path == "/booking/":
        return _page(
            "Book",
            "<h1>Book a table</h1><form action='/booking/review'>"
            "<label>People <input name='people' type='number'></label>"
            "<label>Day <select name='day'><option>Thursday</option><option>Friday</option>"
            "<option>Saturday</option></select></label><button>Continue</button></form>",
        )
    if path == "/booking/review":
        people, day = html.escape(query.get("people", "")), html.escape(query.get("day", ""))
        return _page(
            "Review",
            f"<h1>Review</h1><p>{people} people on {day}</p><form action='/booking/confirm'>"
            f"<input type='hidden' name='people' value='{people}'><input type='hidden' name='day' "
            f"value='{day}'><button>Confirm booking</button></form>",
        )
    if path == "/booking/confirm":
        state["booking"] = {"people": query.get("people"), "day": query.get("day")}
        return _page("Booked", "<h1>Booking confirmed</h1>")
    return None


def _bank(path: str, query: dict[str, str], state: dict[str, Any]) -> bytes | None:
    if path == "/bank/":
        return _page(
            "Sign in",
            "<h1>Sign in</h1><form action='/bank/login'><label>Username <input name='u'></label>"
            "<label>Password <input name='p' type='password'></label><button>Sign in</button></form>",
        )
    if path == "/bank/login":
        ok = query.get("u") == "ada" and query.get("p") == PASSWORD
        state["logged_in"] = state.get("logged_in") or ok
        body = "<h1>Account</h1><p>Your balance is 1,234.56 EUR</p>" if ok else "<h1>Wrong password</h1>"
        return _page("Account", body)
    return None


def _invoices(path: str, query: dict[str, str], state: dict[str, Any]) -> bytes | None:
    if path == "/invoices/":
        rows = [
            ("May 3", "INV-71", "Chair", "$45.00"),
            ("Jun 2", "INV-88", "Desk lamp", "$19.90"),
            ("Jun 9", "INV-90", "Shelf", "$60.00"),
        ]
        cells = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
        return _page(
            "Invoices",
            "<h1>Invoices</h1><table><tr><th>Date</th><th>Number</th><th>Item</th>"
            f"<th>Total</th></tr>{cells}</table>",
        )
    return None


def _settings(path: str, query: dict[str, str], state: dict[str, Any]) -> bytes | None:
    if path == "/settings/":
        return _page(
            "Settings",
            "<h1>Settings</h1><form action='/settings/save'><label>Country <select name='c'>"
            "<option value='FR'>France</option><option value='DE'>Germany</option><option value='JP'>Japan"
            "</option></select></label><button>Save</button></form>",
        )
    if path == "/settings/save":
        state["country"] = query.get("c")
        return _page("Saved", "<h1>Settings saved</h1>")
    return None


def _home(path: str, query: dict[str, str], state: dict[str, Any]) -> bytes | None:
    if path == "/home/":
        return _page("Home", "<h1>Welcome</h1><a href='/help/' target='_blank'>Help center</a>")
    return None


def _help(path: str, query: dict[str, str], state: dict[str, Any]) -> bytes | None:
    if path == "/help/":
        state["help_opened"] = True
        return _page("Help", "<h1>Help center</h1><p>Write to support@example.test for help.</p>")
    return None


def _terms(path: str, query: dict[str, str], state: dict[str, Any]) -> bytes | None:
    if path == "/terms/":
        filler = "".join(f"<p>Clause {i}: the service is provided as is.</p>" for i in range(60))
        return _page(
            "Terms",
            f"<h1>Terms</h1>{filler}<form action='/terms/accept'><button>Accept terms</button></form>",
        )
    if path == "/terms/accept":
        state["accepted"] = True
        return _page("Accepted", "<h1>Thank you for accepting</h1>")
    return None


_SITES: dict[str, Callable[[str, dict[str, str], dict[str, Any]], bytes | None]] = {
    "newsletter": _newsletter,
    "toppings": _toppings,
    "news": _news,
    "plans": _plans,
    "drafts": _drafts,
    "shop": _shop,
    "booking": _booking,
    "bank": _bank,
    "invoices": _invoices,
    "settings": _settings,
    "home": _home,
    "help": _help,
    "terms": _terms,
}


def _pages(path: str, query: dict[str, str], state: dict[str, Any]) -> bytes | None:
    """The page at ``path`` (after a form's effect on ``state``), or None for a 404."""
    site = _SITES.get(path.strip("/").split("/", 1)[0])
    return site(path, query, state) if site is not None else None


def _has(answer: str, *needles: str) -> bool:
    return all(n.lower() in answer.lower() for n in needles)


TASKS: list[Task] = [
    Task(
        "newsletter",
        "form",
        "Open {base}/newsletter/, subscribe ada@example.com to the newsletter with the "
        "weekly digest, and report the code",
        lambda s, a: (
            s.get("newsletter") == {"email": "ada@example.com", "weekly": True} and _has(a, "NL-4821")
        ),
    ),
    Task(
        "toppings",
        "checkboxes",
        "Open {base}/toppings/ and save a pizza with exactly cheese and olives",
        lambda s, a: s.get("toppings") == ["cheese", "olives"],
    ),
    Task(
        "news",
        "list",
        "Open {base}/news/ and open the article about Rust 2.0",
        lambda s, a: s.get("articles") == [2] or (2 in s.get("articles", []) and len(s["articles"]) == 1),
    ),
    Task(
        "plans",
        "tabs",
        "Open {base}/plans/ and report the monthly price of the Pro plan",
        lambda s, a: bool(s.get("pricing_seen")) and _has(a, "29"),
    ),
    Task(
        "drafts",
        "dialog",
        "Open {base}/drafts/ and delete the draft named Old notes",
        lambda s, a: s.get("deleted") == ["Old notes"],
    ),
    Task(
        "shop",
        "search",
        "Open {base}/shop/, search for lamp and open the cheapest lamp",
        lambda s, a: s.get("opened_item") == 13,
    ),
    Task(
        "booking",
        "two pages",
        "Open {base}/booking/ and book a table for 2 people on Friday",
        lambda s, a: s.get("booking") == {"people": "2", "day": "Friday"},
    ),
    Task(
        "bank",
        "login",
        "Open {base}/bank/, sign in as ada with the password <secret>pw</secret> and report the balance",
        lambda s, a: bool(s.get("logged_in")) and _has(a, "1,234.56"),
    ),
    Task(
        "invoices",
        "table",
        "Open {base}/invoices/ and report the total of invoice INV-88",
        lambda s, a: _has(a, "19.90"),
    ),
    Task(
        "settings",
        "dropdown",
        "Open {base}/settings/ and save Germany as the country",
        lambda s, a: s.get("country") == "DE",
    ),
    Task(
        "help",
        "new tab",
        "Open {base}/home/, open the help center and report the support email address",
        lambda s, a: bool(s.get("help_opened")) and _has(a, "support@example.test"),
    ),
    Task(
        "terms",
        "scroll",
        "Open {base}/terms/ and accept the terms (the button is at the bottom)",
        lambda s, a: bool(s.get("accepted")),
    ),
]


class _Handler(BaseHTTPRequestHandler):
    site: EvalSite

    def log_message(self, format: str, *args: object) -> None:
        return

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        raw = parse_qs(parts.query, keep_blank_values=True)
        query = {k: ",".join(v) for k, v in raw.items()}
        task = parts.path.strip("/").split("/", 1)[0]
        with self.site.lock:
            body = _pages(parts.path, query, self.site.state.setdefault(task, {}))
        if body is None:
            self.send_response(404)
            body = _page("Not found", "<h1>Not found</h1>")
        else:
            self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class EvalSite:
    """The benchmark's server on 127.0.0.1; ``state[task]`` is what the runs did."""

    def __init__(self) -> None:
        handler = type("Handler", (_Handler,), {"site": self})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.state: dict[str, dict[str, Any]] = {}
        self.lock = threading.Lock()
        self.origin = f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def __enter__(self) -> EvalSite:
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def reset(self) -> None:
        with self.lock:
            self.state.clear()

    def check(self, task: Task, answer: str) -> bool:
        with self.lock:
            return task.check(self.state.get(task.name, {}), answer or "")
