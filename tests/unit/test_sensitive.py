import html
import json
from urllib.parse import quote, quote_plus

import pytest

from browser_agent.browser.domains import matches_any
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
