"""``PageServer``: pages from memory on 127.0.0.1, for tests and examples."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from browser_agent.testing import PageServer


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_serves_its_pages_whatever_the_query_and_404_otherwise() -> None:
    with PageServer({"/": "<h1>Home</h1>", "/thanks.html": "<p>Thanks</p>"}) as site:
        assert site.base_url.startswith("http://127.0.0.1:")
        assert site.url("thanks.html") == site.base_url + "/thanks.html"
        assert _get(site.url("/")) == (200, "<h1>Home</h1>")
        assert _get(site.url("/thanks.html?email=a%40b.c")) == (200, "<p>Thanks</p>")
        assert _get(site.url("/missing.html"))[0] == 404
        assert site.requested == ["/", "/thanks.html?email=a%40b.c", "/missing.html"]
        url = site.url("/")
    with pytest.raises(RuntimeError, match="with"):
        site.url("/")
    with pytest.raises(OSError):
        urllib.request.urlopen(url, timeout=2)
