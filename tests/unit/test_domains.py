import pytest

from browser_agent.browser.domains import check_url_allowed, is_url_allowed, matches_domain
from browser_agent.browser.fence import DomainFence, browser_join
from browser_agent.errors import DomainNotAllowedError


@pytest.mark.parametrize(
    ("url", "pattern", "expected"),
    [
        ("https://example.com/a", "example.com", True),
        ("https://shop.example.com/a", "example.com", True),
        ("https://example.com.evil.net/", "example.com", False),
        ("https://shop.example.com/", "*.example.com", True),
        ("https://example.com/", "*.example.com", False),
        ("http://127.0.0.1:8123/x", "http://127.0.0.1:*", True),
        ("https://127.0.0.1:8123/x", "http://127.0.0.1:*", False),
        ("http://127.0.0.1:8123/x", "127.0.0.1:8123", True),
        ("http://127.0.0.1:9999/x", "127.0.0.1:8123", False),
        ("https://anything.org", "*", True),
    ],
)
def test_matches_domain(url: str, pattern: str, expected: bool) -> None:
    assert matches_domain(url, pattern) is expected


def test_no_list_allows_all_and_about_blank_is_always_allowed() -> None:
    assert is_url_allowed("https://x.org", None)
    assert is_url_allowed("about:blank", ["example.com"])


def test_blocked_url_message_names_the_allowed_domains() -> None:
    with pytest.raises(DomainNotAllowedError, match=r"outside the allowed domains \(example.com\)"):
        check_url_allowed("https://evil.net/", ["example.com"])


def test_a_socket_is_checked_as_the_site_of_its_handshake() -> None:
    fence = DomainFence(("http://127.0.0.1:*", "https://chat.example.com"), subresources=True)
    assert not fence._refuses_socket("ws://127.0.0.1:8765/live")
    assert not fence._refuses_socket("wss://chat.example.com/socket")
    assert fence._refuses_socket("ws://chat.example.com/socket")  # only https was listed for it
    assert fence._refuses_socket("wss://evil.example/exfiltrate")


@pytest.mark.parametrize(
    ("location", "expected"),
    [
        ("/next", "http://a.test:8000/next"),
        ("/\\b.test:9000/x", "http://b.test:9000/x"),
        ("\\\\b.test/x", "http://b.test/x"),
        ("http:\\\\b.test/y", "http://b.test/y"),
        ("  //b.test/z\n", "http://b.test/z"),
        ("/pa\tth", "http://a.test:8000/path"),
        ("http:relative", "http://a.test:8000/dir/relative"),
        ("https://c.test/q?x=\\y", "https://c.test/q?x=\\y"),
    ],
)
def test_a_redirect_target_is_resolved_as_the_browser_resolves_it(location: str, expected: str) -> None:
    assert browser_join("http://a.test:8000/dir/page", location) == expected
