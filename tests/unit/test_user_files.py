"""The one bounded loader: size, encoding and depth limits, one line naming the file, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

from browser_agent.errors import UserError
from browser_agent.user_files import UserFileError, read_json, read_json_lines, read_text, validation_message


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
