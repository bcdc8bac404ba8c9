import html
import json
import re
from collections.abc import Callable
from urllib.parse import quote, quote_plus

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from browser_agent.browser.domains import matches_any
from browser_agent.browser.events import EventLog
from browser_agent.errors import ActionError, UserError
from browser_agent.sensitive import Secrets

SECRETS = Secrets({"user": "ada-lovelace", "pw": 'pa$$ word/<&>"é'})
PW = 'pa$$ word/<&>"é'


def test_fill_replaces_placeholders() -> None:
    assert SECRETS.fill("<secret>user</secret>:<secret>pw</secret>", "https://x.org", matches_any) == (
        f"ada-lovelace:{PW}"
    )


def test_fill_refuses_an_unknown_placeholder_instead_of_typing_it() -> None:
    with pytest.raises(ActionError, match=r"<secret>other</secret> is not a secret of this run"):
        SECRETS.fill("<secret>other</secret>", "https://x.org", matches_any)


def test_redact_longest_value_first() -> None:
    secrets = Secrets({"short": "adaa", "long": "adaa-password"})
    assert secrets.redact("adaa with adaa-password") == "<secret>short</secret> with <secret>long</secret>"


@pytest.mark.parametrize(
    "encoded",
    [
        PW,
        quote(PW, safe=""),
        quote(PW),
        quote_plus(PW),
        quote(PW, safe="").lower(),
        html.escape(PW),
        html.escape(PW, quote=False),
        json.dumps(PW)[1:-1],
        json.dumps(PW, ensure_ascii=False)[1:-1],
        html.escape(quote_plus(PW)),
        quote_plus(PW, encoding="cp1252"),
    ],
)
def test_redact_every_encoding(encoded: str) -> None:
    text = f"before {encoded} after"
    out = SECRETS.redact(text)
    assert out == "before <secret>pw</secret> after"


def test_percent_encoded_form_in_a_url() -> None:
    url = "http://127.0.0.1:8000/login?user=ada-lovelace&pw=" + quote_plus(PW)
    assert (
        SECRETS.redact(url) == "http://127.0.0.1:8000/login?user=<secret>user</secret>&pw=<secret>pw</secret>"
    )


def test_placeholders_are_never_rewritten_inside_themselves() -> None:
    secrets = Secrets({"secret": "secret", "name": "name-value"})
    text = "type <secret>secret</secret> then secret and <secret>name</secret>"
    assert (
        secrets.redact(text)
        == "type <secret>secret</secret> then <secret>secret</secret> and <secret>name</secret>"
    )
    assert secrets.redact(secrets.redact(text)) == secrets.redact(text)


@pytest.mark.parametrize("value", ["", "a", "abc"])
def test_short_secret_is_a_user_error(value: str) -> None:
    with pytest.raises(UserError, match="at least 4"):
        Secrets({"pw": value})


def test_bad_name_and_bad_value_are_user_errors() -> None:
    with pytest.raises(UserError, match="letters, digits"):
        Secrets({"my pw": "long-enough"})
    with pytest.raises(UserError, match="must be a string"):
        Secrets({"pw": 12345})  # type: ignore[dict-item]


def test_scoped_secret_is_typed_only_on_its_domains() -> None:
    secrets = Secrets({"https://*.bank.example": {"pw": "bank-pass"}, "user": "ada-l"})
    text = "<secret>pw</secret>"
    assert secrets.fill(text, "https://www.bank.example/login", matches_any) == "bank-pass"
    with pytest.raises(ActionError, match=r"may only be used on https://\*\.bank\.example"):
        secrets.fill(text, "https://evil.example/login", matches_any)
    assert secrets.fill("<secret>user</secret>", "https://evil.example/", matches_any) == "ada-l"
    assert "bank-pass" not in secrets.describe()
    assert secrets.redact("bank-pass") == "<secret>pw</secret>"


def test_redact_obj_walks_nested_structures_and_keys() -> None:
    data = {"a": [PW, ("x", "ada-lovelace")], "n": 3, "ada-lovelace": True}
    assert SECRETS.redact_obj(data) == {
        "a": ["<secret>pw</secret>", ("x", "<secret>user</secret>")],
        "n": 3,
        "<secret>user</secret>": True,
    }


def test_no_secrets_is_a_no_op() -> None:
    empty = Secrets()
    assert not empty
    assert empty.redact("anything") == "anything"
    assert empty.fill("plain", "https://x.org", matches_any) == "plain"


# -- the normal form: any mix of the forms browsers, pages and our own formatting produce ----------------

TILDE = "hunter2-pass~!"
QUOTES = """it's a "both" pw"""


def form_urlencoded(value: str) -> str:
    """How a browser submits a form field: everything but letters, digits and ``*-._`` is escaped."""
    return quote_plus(value, safe="*").replace("~", "%7E")


def encode_uri_component(value: str) -> str:
    """JavaScript's ``encodeURIComponent``: UTF-8, upper-case hex, ``!'()*`` and ``-_.~`` left alone."""
    return quote(value, safe="!'()*")


def no_part_of(value: str, text: str, shortest: int = 4) -> bool:
    """Whether ``text`` holds no run of ``value`` of ``shortest`` characters or more."""
    return all(value[i : i + shortest] not in text for i in range(len(value) - shortest + 1))


def test_a_form_get_escapes_tilde_and_the_url_is_redacted() -> None:
    secrets = Secrets({"pw": TILDE})
    url = "http://127.0.0.1:8000/welcome.html?user=ada&pw=" + form_urlencoded(TILDE)
    assert "%7E" in url
    assert secrets.redact(url) == "http://127.0.0.1:8000/welcome.html?user=ada&pw=<secret>pw</secret>"
    assert secrets.redact(url.replace("%7E", "%7e")) == secrets.redact(url)


@pytest.mark.parametrize("value", ["p@ss w~rd!(x)'y*", "ü~(x) y'! é"])
def test_encode_uri_component_mixes_raw_and_escaped_characters(value: str) -> None:
    secrets = Secrets({"pw": value})
    shown = encode_uri_component(value)
    text = f"Link: /back?pw={shown} and text: Your code {shown}."
    assert (
        secrets.redact(text) == "Link: /back?pw=<secret>pw</secret> and text: Your code <secret>pw</secret>."
    )


def test_repr_of_a_value_with_both_quote_kinds_is_redacted() -> None:
    secrets = Secrets({"pw": QUOTES})
    quoted = repr(QUOTES)
    assert "\\'" in quoted  # repr escapes the quote it is wrapped in
    assert secrets.redact(f"Typed {quoted} into element 3") == "Typed '<secret>pw</secret>' into element 3"
    assert secrets.redact(repr([QUOTES, "x"])) == "['<secret>pw</secret>', 'x']"


def test_a_dialog_message_is_redacted_before_it_is_cut_and_quoted() -> None:
    secrets = Secrets({"pw": QUOTES})
    log = EventLog()
    message = "x" * 190 + QUOTES + " and more"  # the value straddles the 200-character cut
    # As TabRegistry._on_dialog records it: the line is written when the log is drained, with a redactor.
    log.record(
        lambda redact: f"a alert dialog said {redact(message)[:200]!r}; it was accepted", "alert dialog"
    )
    (line,) = log.drain(secrets.redact)
    assert line.startswith("a alert dialog said 'xxx") and "<secret>" in line  # the placeholder, maybe cut
    assert no_part_of(QUOTES, line)
    # Cut first, as the old line was, and no redaction can find the value again.
    assert not no_part_of(QUOTES, secrets.redact(f"{message[:200]!r}"))


@pytest.mark.parametrize(
    "shown",
    [
        "hunter2-pa\nss~!",
        "hunter2-pa  ss~!",
        "hunter2 -pass~!",
        "hunter2-\n\t pass~!",
        "hunter2-pass\u200b~!",
    ],
)
def test_a_value_split_by_whitespace_the_page_or_the_extractor_put_in_is_redacted(shown: str) -> None:
    assert Secrets({"pw": TILDE}).redact(f"[{shown}]") == "[<secret>pw</secret>]"


def test_whitespace_inside_a_value_matches_any_run_of_whitespace() -> None:
    secrets = Secrets({"pin": "4111 1111  1111\n1111"})
    for shown in (
        "4111 1111 1111 1111",
        "4111\n1111\t1111   1111",
        "4111+1111%201111%0A1111",
        "4111&nbsp;1111 1111 1111",
    ):
        assert secrets.redact(f"card {shown}.") == "card <secret>pin</secret>.", shown


@pytest.mark.parametrize(
    "encode",
    [
        lambda v: html.escape(quote(v)),  # a percent-encoded value in an HTML attribute
        lambda v: json.dumps(quote(v, safe=""))[1:-1],  # ... in a JSON string
        lambda v: quote(html.escape(v), safe=""),  # an HTML-escaped value in a URL
        lambda v: quote(json.dumps(v)[1:-1], safe=""),  # a JSON string in a URL
        lambda v: quote(quote(v, safe=""), safe=""),  # percent-encoded twice (%257E)
        lambda v: html.escape(json.dumps(v)[1:-1]),  # a JSON string in an HTML attribute (\&quot;)
        lambda v: repr(json.dumps(v)[1:-1])[1:-1],  # a JSON string shown by repr (\\")
        lambda v: json.dumps(html.escape(v), ensure_ascii=True)[1:-1],
        lambda v: "".join(f"&#{ord(c)};" for c in v),  # every character a decimal entity
        lambda v: "".join(f"&#x{ord(c):x};" for c in v),  # ... a hex entity
        lambda v: "".join(f"\\u{ord(c):04X}" for c in v),  # ... a JS escape
    ],
)
@pytest.mark.parametrize("value", [TILDE, QUOTES, PW])
def test_layers_nested_once_are_redacted(encode: Callable[[str], str], value: str) -> None:
    secrets = Secrets({"pw": value})
    assert secrets.redact(f"a {encode(value)} b") == "a <secret>pw</secret> b"


def test_placeholder_shaped_text_naming_no_secret_is_ordinary_text() -> None:
    value = "hunter2-pass"  # could be a secret's name: only the names of this run's secrets are kept
    secrets = Secrets({"pw": value, "user": "ada-lovelace"})
    page = f"You typed <secret>{value}</secret> and <secret> {value} </secret> as <secret>pass</secret>"
    out = secrets.redact(page)
    assert value not in out
    assert out == (
        "You typed <secret><secret>pw</secret></secret> and <secret> <secret>pw</secret> </secret> as "
        "<secret>pass</secret>"
    )


def test_real_placeholders_are_kept_whole_even_when_a_value_is_inside_them() -> None:
    secrets = Secrets({"user": "user", "pw": TILDE})
    text = "<secret>user</secret> <secret> pw </secret> user"
    assert secrets.redact(text) == "<secret>user</secret> <secret> pw </secret> <secret>user</secret>"


@pytest.mark.parametrize(
    "text",
    ["abc", "abdc", "dcba", "ABCD", "a-b-c-d", "ab_cd", "abce", "xabcx", "a%62c", "&#97;bc", "ab\\c"],
)
def test_text_that_merely_shares_characters_with_a_secret_is_left_alone(text: str) -> None:
    line = f"Page: {text} (end)"
    assert Secrets({"pw": "abcd"}).redact(line) == line


def test_a_value_spelled_out_with_spaces_counts_as_the_value() -> None:
    # The extractor joins text nodes with a space; a page may group digits. Both still show the value.
    assert Secrets({"pw": "abcd"}).redact("a b c d") == "<secret>pw</secret>"


ENCODERS: dict[str, Callable[[str], str]] = {
    "raw": lambda v: v,
    "quote": lambda v: quote(v, safe=""),
    "quote lower": lambda v: re.sub("%[0-9A-F]{2}", lambda m: m.group().lower(), quote(v, safe="")),
    "quote_plus": quote_plus,
    "form": form_urlencoded,
    "encodeURIComponent": encode_uri_component,
    "html": html.escape,
    "json": lambda v: json.dumps(v)[1:-1],
    "json utf-8": lambda v: json.dumps(v, ensure_ascii=False)[1:-1],
    "repr": lambda v: repr(v)[1:-1],
    "html in url": lambda v: quote(html.escape(v)),
    "url in html": lambda v: html.escape(quote(v)),
    "url in json": lambda v: json.dumps(quote(v))[1:-1],
    "json in url": lambda v: quote(json.dumps(v)[1:-1], safe=""),
    "json in html": lambda v: html.escape(json.dumps(v)[1:-1]),
    "repr of json": lambda v: repr(json.dumps(v)[1:-1])[1:-1],
    "url twice": lambda v: quote(quote(v, safe=""), safe=""),
    "entities": lambda v: "".join(f"&#{ord(c)};" for c in v),
}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    value=st.text(
        alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp", "Zs")), min_size=4, max_size=16
    ),
    encoder=st.sampled_from(sorted(ENCODERS)),
)
def test_property_no_encoding_of_a_secret_survives_redaction(value: str, encoder: str) -> None:
    secrets = Secrets({"pw": value})
    shown = ENCODERS[encoder](value)
    out = secrets.redact(f"x {shown} y")
    assert out == "x <secret>pw</secret> y"


def test_a_secret_added_later_is_redacted_by_every_holder_and_filled_only_on_its_site() -> None:
    secrets = Secrets()
    before = secrets.redact  # a holder that kept the method, as a capture's ``redact=`` does
    assert before("typed HumanPW-4711") == "typed HumanPW-4711"
    secrets.add("typed_1", "HumanPW-4711", domains=("http://127.0.0.1:8000",))
    assert before("typed HumanPW%2D4711 and HumanPW-4711") == (
        "typed <secret>typed_1</secret> and <secret>typed_1</secret>"
    )
    # a pattern compiled before an ``add`` still names its secrets right (another thread may be using it)
    old = secrets._redactor
    secrets.add("typed_2", "a-much-longer-HumanPW-4711-value")
    assert old is not None and old.sub(secrets._replacement, "x HumanPW-4711") == "x <secret>typed_1</secret>"
    assert secrets.redact("a-much-longer-HumanPW-4711-value") == "<secret>typed_2</secret>"
    assert secrets.fill("<secret>typed_1</secret>", "http://127.0.0.1:8000/x", matches_any) == "HumanPW-4711"
    with pytest.raises(ActionError, match=re.escape("may only be used on http://127.0.0.1:8000")):
        secrets.fill("<secret>typed_1</secret>", "https://evil.example/", matches_any)
    with pytest.raises(UserError, match="at least 4"):
        secrets.add("typed_3", "abc")
    assert list(secrets) == ["typed_1", "typed_2"]
