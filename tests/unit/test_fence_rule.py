"""The one fence rule: which source wins, limits bound the rest, and when one pattern is within another."""

from __future__ import annotations

import itertools

import pytest

from browser_agent.browser.domains import matches_domain
from browser_agent.browser.fence_rule import FenceSource, covers, pattern_covers, resolve_fence
from browser_agent.errors import UserError

choice, default, limit = FenceSource.choice, FenceSource.default, FenceSource.limit


@pytest.mark.parametrize(
    ("wide", "narrow"),
    [
        ("example.com", "example.com"),
        ("example.com", "shop.example.com"),
        ("example.com", "*.example.com"),
        ("example.com", "*.shop.example.com"),
        ("*.example.com", "shop.example.com"),
        ("*.example.com", "*.shop.example.com"),
        ("*", "example.com"),
        ("*", "*.example.com"),
        ("*", "http://127.0.0.1:*"),
        ("*", "127.0.0.1:8000"),
        ("http://127.0.0.1:*", "http://127.0.0.1:8000"),
        ("http://127.0.0.1:*", "http://127.0.0.1:8000/"),
        ("127.0.0.1", "http://127.0.0.1:8000"),
        ("127.0.0.1", "127.0.0.1:*"),
        ("127.0.0.1:*", "127.0.0.1:8000"),
        ("*://127.0.0.1:*", "https://127.0.0.1:9"),
        ("http:", "http://127.0.0.1:*"),
        ("data:", "DATA: "),
        ("example.com", " Example.COM "),
        ("http://*.example.com", "http://shop.example.com"),
    ],
)
def test_a_pattern_covers_what_it_lets_through(wide: str, narrow: str) -> None:
    assert pattern_covers(wide, narrow)


@pytest.mark.parametrize(
    ("wide", "narrow"),
    [
        ("shop.example.com", "example.com"),
        ("*.example.com", "example.com"),
        ("example.com", "example.com.evil.net"),
        ("example.com", "badexample.com"),
        ("*", "data:"),
        ("*", "file:"),
        ("example.com", "*"),
        ("http://127.0.0.1:8000", "http://127.0.0.1:*"),
        ("http://127.0.0.1:*", "127.0.0.1"),  # the narrow one lets https through, and no port
        ("http://127.0.0.1:*", "https://127.0.0.1:8000"),
        ("http://127.0.0.1:*", "http://127.0.0.1"),  # no explicit port: the wide one wants one
        ("127.0.0.1:8000", "127.0.0.1:*"),
        ("a?c:80", "a*c:80"),  # fnmatch would say the narrow one matches the wide one: it is wider
        ("*.a?c", "*.a*c"),
        ("*.a*c", "*.abc"),  # wildcards other than a leading "*." are not reasoned about
        ("http://a*.example.com", "http://ab.example.com"),
        ("http://*", "http://example.com"),
        ("data:", "http:"),
        ("http:", "127.0.0.1"),  # the narrow one lets https through
        ("", "example.com"),
        ("example.com", ""),
    ],
)
def test_a_pattern_does_not_cover_what_it_may_not_let_through(wide: str, narrow: str) -> None:
    assert not pattern_covers(wide, narrow)


PATTERNS = [
    "*",
    "example.com",
    "shop.example.com",
    "*.example.com",
    "*.shop.example.com",
    "http://127.0.0.1:*",
    "http://127.0.0.1:8000",
    "https://127.0.0.1:*",
    "127.0.0.1",
    "127.0.0.1:*",
    "127.0.0.1:8000",
    "*://127.0.0.1:*",
    "http://*.example.com",
    "http://example.com",
    "http://example.com/",
    "http:",
    "data:",
    "a?c",
    "a*c",
    "*.a?c",
    "http://a?c:*",
]
URLS = [
    "https://example.com/x",
    "http://example.com/",
    "http://example.com:8000/",
    "https://shop.example.com/",
    "https://a.shop.example.com/",
    "https://example.com.evil.net/",
    "http://127.0.0.1:8000/",
    "http://127.0.0.1:9000/",
    "https://127.0.0.1:8000/",
    "http://127.0.0.1/",
    "ws://127.0.0.1:8000/",
    "data:text/html,x",
    "file:///etc/passwd",
    "http://abc/",
    "http://a.abc/",
    "http://a?c/",
    "http://x.a?c/",
    "http://abc:80/",
    "mailto:a@example.com",
]


def test_coverage_agrees_with_the_matcher_on_every_pair() -> None:
    """Soundness: whatever the narrow pattern lets through, the wide one does too."""
    for wide, narrow in itertools.product(PATTERNS, PATTERNS):
        if pattern_covers(wide, narrow):
            for url in URLS:
                if matches_domain(url, narrow):
                    assert matches_domain(url, wide), (wide, narrow, url)


def test_a_list_covers_another_pattern_by_pattern() -> None:
    assert covers(("a.test", "b.test"), ("x.a.test", "b.test"))
    assert not covers(("a.test",), ("a.test", "b.test"))
    assert covers(("a.test",), ())


# -- the rule ----------------------------------------------------------------------------------------


def test_nothing_given_is_no_fence() -> None:
    assert resolve_fence() is None
    assert resolve_fence(choice("--allowed-domain", None), default("the recorded fence", None)) is None


def test_the_narrower_of_two_choices_wins_and_incomparable_ones_are_refused() -> None:
    config, shortcut = choice("BrowserConfig", ("example.com",)), choice("AgentSettings", ("a.example.com",))
    assert resolve_fence(config, shortcut) == ("a.example.com",)
    assert resolve_fence(shortcut, config) == ("a.example.com",)
    with pytest.raises(UserError, match=r"BrowserConfig \['example.com'\] and AgentSettings \['b.test'\]"):
        resolve_fence(config, choice("AgentSettings", ("b.test",)))


def test_a_choice_replaces_a_default_even_a_narrower_one() -> None:
    recorded = default("the fence the run was recorded under", ("a.test",))
    assert resolve_fence(choice("--allowed-domain", ("*",)), recorded) == ("*",)
    assert resolve_fence(recorded) == ("a.test",)
    narrow = default("the task's", ("x.a.test",))
    assert resolve_fence(recorded, narrow) == ("x.a.test",)


def test_a_limit_bounds_every_other_source() -> None:
    server = limit("the server's fence", ("http://127.0.0.1:*",))
    # nothing else: the limit is the fence (a history saved without one, replayed from the UI)
    assert resolve_fence(server, default("the recorded fence", None)) == ("http://127.0.0.1:*",)
    assert resolve_fence(server, choice("the form", ("http://127.0.0.1:8000",))) == ("http://127.0.0.1:8000",)
    # a wider default gives way to the limit; a wider choice is refused
    assert resolve_fence(server, default("the recorded fence", ("*",))) == ("http://127.0.0.1:*",)
    with pytest.raises(UserError, match=r"the form \['\*'\] is not within the server's fence"):
        resolve_fence(server, choice("the form", ("*",)))
    with pytest.raises(UserError, match="is not within the server's fence"):
        resolve_fence(server, default("the recorded fence", ("example.com",)))


def test_two_limits_both_bound_the_result() -> None:
    outer, inner = limit("the server's fence", ("a.test",)), limit("the browser's", ("x.a.test",))
    assert resolve_fence(outer, inner) == ("x.a.test",)
    assert resolve_fence(inner, outer) == ("x.a.test",)
    with pytest.raises(UserError, match="is not within"):
        resolve_fence(outer, limit("another", ("b.test",)))


def _grammar_patterns() -> list[str]:
    hosts = ["a.test", "b.a.test", "*.a.test", "*.b.a.test", "127.0.0.1", "abc", "a?c", "a*c", "*"]
    ports = ["", ":*", ":80", ":8000"]
    found = {"*", "http:", "https:", "data:"}
    for host, port in itertools.product(hosts, ports):
        if host != "*":
            found.add(host + port)
        for scheme in ("http", "https", "*"):
            found.add(f"{scheme}://{host}{port}")
    return sorted(found)


def _grammar_urls() -> list[str]:
    hosts = ["a.test", "b.a.test", "c.b.a.test", "xa.test", "a.test.evil", "127.0.0.1", "abc", "a.abc"]
    ports = ["", ":80", ":8000", ":9"]
    urls = [f"{s}://{h}{p}/x" for s, h, p in itertools.product(("http", "https", "ws"), hosts, ports)]
    return [*urls, "data:text/html,x", "file:///x", "http:///nohost", "mailto:a@a.test"]


def test_coverage_is_sound_over_a_whole_grammar_of_patterns() -> None:
    """Every pair of patterns built from hosts, wildcards, ports and schemes: when one is said to cover
    the other, no address the narrow one lets through is refused by the wide one."""
    patterns, urls = _grammar_patterns(), _grammar_urls()
    matched = {p: {u for u in urls if matches_domain(u, p)} for p in patterns}
    covered = [(w, n) for w, n in itertools.product(patterns, patterns) if pattern_covers(w, n)]
    assert len(covered) > 3 * len(patterns), "the check says yes to more than identical patterns"
    for wide, narrow in covered:
        assert matched[narrow] <= matched[wide], (wide, narrow, sorted(matched[narrow] - matched[wide]))
