from browser_agent.sensitive import fill_secrets, redact, redact_obj

SECRETS = {"user": "ada", "pw": "ada-password"}


def test_fill_replaces_known_placeholders_only() -> None:
    assert fill_secrets("<secret>pw</secret> and <secret>other</secret>", SECRETS) == (
        "ada-password and <secret>other</secret>"
    )


def test_redact_longest_value_first() -> None:
    assert (
        redact("login ada with ada-password", SECRETS)
        == "login <secret>user</secret> with <secret>pw</secret>"
    )


def test_redact_obj_walks_nested_structures() -> None:
    data = {"a": ["ada-password", ("x", "ada")], "n": 3}
    assert redact_obj(data, SECRETS) == {"a": ["<secret>pw</secret>", ("x", "<secret>user</secret>")], "n": 3}
