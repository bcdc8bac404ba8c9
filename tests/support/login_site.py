"""A site with a login form on 127.0.0.1: the right password sets a random session cookie, and the home
page greets whoever that cookie belongs to; after logging in, the page also keeps a note in local storage
and shows it on every load."""

from __future__ import annotations

import html
import re
import secrets
import threading
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs

from browser_agent.agent.conversation import page_of_state
from browser_agent.testing import find_index
from tests.support.server import LoopbackServer

USER, PASSWORD = "ada", "analytical-engine-1843"
NOTE = "note-kept-in-local-storage"

_LOGIN_FORM = (
    "<title>Log in</title><h1>Please log in</h1><form method='post' action='/login'>"
    "<label>Username <input name='user'></label><label>Password <input name='password' type='password'>"
    "</label><button>Log in</button></form>"
)
# The note is written once, right after logging in, and shown on every load of the home page.
_HOME = (
    "<title>Home</title><h1>Welcome, {user}</h1><p id='note'></p><script>"
    "if (location.search === '?fresh') localStorage.setItem('note', '{note}');"
    "document.getElementById('note').textContent = 'Note: ' + (localStorage.getItem('note') || 'none');"
    "</script>"
)


class LoginSite(LoopbackServer):
    """The site; ``tokens`` are the session cookies it handed out (the secrets a saved login holds)."""

    def __init__(self) -> None:
        self.tokens: dict[str, str] = {}
        lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                return

            def do_GET(self) -> None:
                user = site.tokens.get(_cookie(self.headers.get("Cookie", ""), "session"))
                if user is None:
                    self._page(_LOGIN_FORM)
                else:
                    self._page(_HOME.format(user=html.escape(user), note=NOTE))

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
                form = {k: v[0] for k, v in parse_qs(body).items()}
                if form.get("user") != USER or form.get("password") != PASSWORD:
                    self._page("<title>Log in</title><h1>Wrong user or password</h1>" + _LOGIN_FORM)
                    return
                token = secrets.token_hex(16)
                with lock:
                    site.tokens[token] = USER
                self.send_response(303)
                self.send_header("Set-Cookie", f"session={token}; Path=/; HttpOnly; SameSite=Lax")
                self.send_header("Location", "/?fresh")
                self.end_headers()

            def _page(self, text: str) -> None:
                body = f"<!doctype html><html><body>{text}</body></html>".encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        super().__init__(Handler)


def _cookie(header: str, name: str) -> str:
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return ""


def login_answer(state: str) -> dict[str, Any]:
    """A model's reply to a state message of this site: log in (the password as the secret ``pw``) when
    asked to, else report who the page welcomes."""
    page = page_of_state(state)
    welcome = re.search(r"Welcome, \w+", page)
    if welcome is not None:
        actions: list[dict[str, Any]] = [{"action": "done", "text": welcome.group(0), "success": True}]
    elif "Please log in" in page:
        actions = [
            {"action": "input_text", "index": find_index(page, "input", "Username"), "text": USER},
            {
                "action": "input_text",
                "index": find_index(page, "input", "Password"),
                "text": "<secret>pw</secret>",
            },
            {"action": "click_element", "index": find_index(page, "button", "Log in")},
        ]
    else:
        actions = [{"action": "done", "text": "no greeting on the page", "success": False}]
    goal = actions[0]["action"]
    brain = {"evaluation_previous_goal": "Unknown", "memory": goal, "next_goal": goal}
    return {"current_state": brain, "action": actions}


def openai_login_answer(body: dict[str, Any]) -> dict[str, Any]:
    """``login_answer`` over the OpenAI wire format (for ``FakeOpenAI``)."""
    texts = [m["content"] for m in body["messages"] if isinstance(m["content"], str)]
    return login_answer(texts[-1])
