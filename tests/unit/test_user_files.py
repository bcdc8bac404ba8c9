"""The one bounded loader: size, encoding and depth limits, one line naming the file, never a traceback."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError, model_validator

from browser_agent import user_files
from browser_agent.errors import UserError
from browser_agent.user_files import (
    UserFileError,
    check_version,
    parse_json,
    read_json,
    read_json_lines,
    read_model,
    read_text,
    validation_message,
)


def test_reads_json_with_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"a": [1, {"b": "]}"}]}).encode())
    assert read_json(path, what="history") == {"a": [1, {"b": "]}"}]}


@pytest.mark.parametrize("opening", ["[", '{"a":'])
def test_deep_nesting_is_one_line_not_a_recursion_error(tmp_path: Path, opening: str) -> None:
    path = tmp_path / "deep.json"
    closing = "]" if opening == "[" else "}"
    path.write_text(opening * 100_000 + "1" + closing * 100_000)
    with pytest.raises(UserFileError) as caught:
        read_json(path, what="--login file")
    message = str(caught.value)
    assert "\n" not in message and str(path) in message and "100000 levels deep" in message
    assert isinstance(caught.value, UserError)


def test_brackets_inside_strings_do_not_count(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(["[" * 500 + '\\"{' * 50]))
    assert read_json(path, what="suite")[0].startswith("[[")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"\xff\xfe{}", "not UTF-8"),
        (b'{"a": ', "is not JSON"),
        (b"NaN-ish", "is not JSON"),
    ],
)
def test_faults_name_the_file(tmp_path: Path, content: bytes, expected: str) -> None:
    path = tmp_path / "f.json"
    path.write_bytes(content)
    with pytest.raises(UserFileError, match=expected) as caught:
        read_json(path, what="workflow")
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)


def test_size_limit_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text("[" + "1," * 1000 + "1]")
    with pytest.raises(UserFileError, match="larger than"):
        read_text(path, what="results", max_bytes=100)
    with pytest.raises(UserFileError, match="cannot read it"):
        read_text(tmp_path / "nope.json", what="results")


def test_json_lines_name_the_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text('{"a": 1}\n\n{"b": 2}\n{oops\n')
    reader = read_json_lines(path, what="results file")
    assert next(reader) == (1, {"a": 1})
    assert next(reader) == (3, {"b": 2})
    with pytest.raises(UserFileError, match="line 4"):
        next(reader)


def test_validation_message_never_shows_the_value() -> None:
    class Login(BaseModel):
        same_site: int

    with pytest.raises(ValidationError) as caught:
        Login.model_validate({"same_site": "Hunter2-secret"})
    message = validation_message(caught.value)
    assert message.startswith("same_site:") and "Hunter2" not in message


def test_a_cut_line_of_a_results_file_is_skipped_but_a_file_of_no_json_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text('{"a": 1}\n{"b": "cut sho\n{"c": 3}\n{"d": ')
    assert list(read_json_lines(path, what="results file", skip_cut=True)) == [(1, {"a": 1}), (3, {"c": 3})]
    path.write_text("PNG\x00\x01 not a results file\nat all\n")
    with pytest.raises(UserFileError, match="none of its 2 lines is JSON"):
        list(read_json_lines(path, what="results file", skip_cut=True))
    path.write_text('{"a": 1}\n' + "[" * 100 + "]" * 100 + "\n")
    with pytest.raises(UserFileError, match="line 2, nests 100 levels deep"):
        list(read_json_lines(path, what="results file", skip_cut=True))


def test_nan_and_infinity_are_not_json(tmp_path: Path) -> None:
    path = tmp_path / "n.json"
    for constant in ("NaN", "Infinity", "-Infinity"):
        path.write_text(f'{{"expires": {constant}}}')
        with pytest.raises(UserFileError, match=f"is not JSON: {constant} is not a JSON number"):
            read_json(path, what="saved login")


def test_a_line_of_json_lines_says_its_column_only(tmp_path: Path) -> None:
    assert str(_fault(parse_json, '{"a" 1}', "suite s, line 4,")) == (
        "suite s, line 4, is not JSON: Expecting ':' delimiter (column 6)."
    )
    assert "(line 2, column 5)" in str(_fault(parse_json, '{"a":\n  1 2}', "history h"))


def test_the_size_limit_is_read_when_a_file_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test lowers it for a whole command, instead of writing 64 MiB."""
    path = tmp_path / "a.json"
    path.write_text('{"a": "' + "x" * 100 + '"}')
    monkeypatch.setattr(user_files, "MAX_BYTES", 50)
    with pytest.raises(UserFileError, match=f"history {path} is larger than 50 bytes"):
        read_json(path, what="history")
    assert read_json(path, what="history", max_bytes=200) == {"a": "x" * 100}


class _Pair(BaseModel):
    name: str
    items: list[int]

    @model_validator(mode="after")
    def _not_empty(self) -> _Pair:
        if not self.items:
            raise ValueError("needs an item")
        return self


def test_validation_message_says_where_as_a_path_and_what_without_pydantic_words() -> None:
    with pytest.raises(ValidationError) as caught:
        _Pair.model_validate({"name": "n", "items": [1, "Hunter2-secret"]})
    assert (
        validation_message(caught.value)
        == "items[1]: Input should be a valid integer, unable to parse string as an integer"
    )
    with pytest.raises(ValidationError) as caught:
        _Pair.model_validate({"name": "n", "items": []})
    assert validation_message(caught.value, whole="the pair") == "the pair: needs an item"
    with pytest.raises(ValidationError) as caught:
        _Pair.model_validate([{"name": 1}])
    assert (
        validation_message(caught.value)
        == "the top level: Input should be a valid dictionary or instance of _Pair"
    )


def test_read_model_checks_the_format_then_the_shape(tmp_path: Path) -> None:
    def ours(data: object, named: str) -> None:
        if not isinstance(data, dict) or "version" not in data:
            raise UserFileError(f"{named} is not a pair file")
        check_version(data["version"], (1, 2), named=f"{named} has pair version")

    path = tmp_path / "p.json"
    for content, says in [
        ('{"name": "n"}', f"pair {path} is not a pair file"),
        (
            '{"version": 3}',
            f"pair {path} has pair version 3; this browser_agent reads versions 1, 2: upgrade",
        ),
        (
            '{"version": true}',
            "has pair version True; this browser_agent reads versions 1, 2: it is not a file",
        ),
        ('{"version": "' + "v" * 500 + '"}', "has pair version 'vvvvvvvvvvvvvvvvvvv; this"),
        (
            '{"version": 2, "name": "n", "items": []}',
            f"pair {path} is not a valid pair: the top level: needs an",
        ),
    ]:
        path.write_text(content)
        assert says in str(_fault(read_model, path, _Pair, what="pair", check=ours))
    path.write_text('{"version": 1, "name": "n", "items": [3]}')
    assert read_model(path, _Pair, what="pair", check=ours) == _Pair(name="n", items=[3])


def _fault(function: Callable[..., object], *args: object, **kwargs: object) -> UserFileError:
    with pytest.raises(UserFileError) as caught:
        function(*args, **kwargs)
    assert "\n" not in str(caught.value)
    return caught.value


@pytest.mark.parametrize(
    ("value", "depth"),
    [
        ({"a": "\\", "b": [[["x"]]]}, 4),  # an escaped backslash ends just before the closing quote
        (['\\"[[[', {"k[": "]]]}}"}], 2),
        ({"line\n": ["tab\t", ['\u2028 "{" \\\\']]}, 3),
        ("[[[[", 0),
        ([[], {}, [[{}]]], 4),
    ],
)
def test_depth_is_counted_outside_strings_whatever_they_hold(
    tmp_path: Path, value: object, depth: int
) -> None:
    path = tmp_path / "d.json"
    path.write_text(json.dumps(value, ensure_ascii=False))
    assert read_json(path, what="history", max_depth=depth) == value
    if depth:
        with pytest.raises(UserFileError, match=f"nests {depth} levels deep; at most {depth - 1}"):
            read_json(path, what="history", max_depth=depth - 1)
