"""The one gate for what is written: remembered secrets are redacted from files, lines and log records."""

from __future__ import annotations

import base64
import html
import io
import logging
import os
import sys
from pathlib import Path
from urllib.parse import quote

import pytest

from browser_agent import artifacts

SECRET = "Gate-Pa55+wörd&q"


@pytest.fixture(autouse=True)
def _remembered() -> None:
    artifacts.remember({"gate_pw": SECRET})


def test_files_and_lines_are_redacted_in_any_encoding(tmp_path: Path) -> None:
    text = f"raw {SECRET} url {quote(SECRET)} json {SECRET.encode('unicode_escape').decode()}"
    target = artifacts.write_text(tmp_path / "deep" / "report.html", text)
    written = target.read_text(encoding="utf-8")
    assert "Gate-Pa55" not in written and written.count("<secret>gate_pw</secret>") == 3
    artifacts.append_line(tmp_path / "r.jsonl", f'{{"url": "/welcome?pw={quote(SECRET, safe="")}"}}')
    artifacts.append_line(tmp_path / "r.jsonl", "second\nline")
    lines = (tmp_path / "r.jsonl").read_text(encoding="utf-8").splitlines()
    assert lines == ['{"url": "/welcome?pw=<secret>gate_pw</secret>"}', "second line"]


def test_writes_are_atomic_and_leave_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "history.json"
    artifacts.write_text(target, "one")
    artifacts.write_text(target, "two")
    assert target.read_text() == "two"
    assert os.listdir(tmp_path) == ["history.json"]


def test_a_failed_write_keeps_the_previous_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "history.json"
    artifacts.write_text(target, "complete")

    def refuse(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError):
        artifacts.write_text(target, "torn")
    assert target.read_text() == "complete" and os.listdir(tmp_path) == ["history.json"]


def test_log_records_are_redacted_for_every_handler(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("some.library")
    with caplog.at_level(logging.INFO):
        logger.info("opened %s", f"https://x.test/?pw={quote(SECRET)}")
        try:
            raise ValueError(f"bad {SECRET}")
        except ValueError:
            logger.exception("failed")
    text = caplog.text
    assert "Gate-Pa55" not in text and "Gate-Pa55" not in "".join(r.getMessage() for r in caplog.records)
    assert "<secret>gate_pw</secret>" in text


def test_redacted_obj_reaches_keys_and_nested_values() -> None:
    data = {SECRET: [SECRET, {"k": (SECRET,)}], "n": 1}
    assert "Gate" not in repr(artifacts.redacted_obj(data))


def test_pictures_in_base64_are_left_whole_and_the_text_around_them_redacted() -> None:
    short = "Zq7Wk"  # a short secret's letters turn up in a megabyte of base64 by chance
    artifacts.remember({"short_pw": short})
    body = base64.b64encode(os.urandom(1500)).decode()
    picture = f"/9j/{body[:1000]}{short}{body[1000:]}"
    report = f"<p>{short}</p><img src='data:image/jpeg;base64,{picture}'><p>{SECRET}</p>"
    assert artifacts.redacted(report) == (
        f"<p><secret>short_pw</secret></p><img src='data:image/jpeg;base64,{picture}'>"
        "<p><secret>gate_pw</secret></p>"
    )
    history = artifacts.redacted_obj({"task": f"use {short}", "steps": [{"jpeg_b64": picture}]})
    assert history == {"task": "use <secret>short_pw</secret>", "steps": [{"jpeg_b64": picture}]}


def test_a_torn_last_line_is_ended_before_the_next(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    results.write_text('{"id": "a"}\n{"id": "b", "cut sho')  # a run killed while writing
    artifacts.append_line(results, '{"id": "c"}')
    assert results.read_text().splitlines() == ['{"id": "a"}', '{"id": "b", "cut sho', '{"id": "c"}']


def test_streams_and_standard_output_are_redacted(capsys: pytest.CaptureFixture[str]) -> None:
    stream = io.StringIO()
    gated = artifacts.redacting_stream(stream)
    assert artifacts.redacting_stream(gated) is gated
    print(f"page says {quote(SECRET)}", file=gated)
    assert stream.getvalue() == "page says <secret>gate_pw</secret>\n"
    found = sys.stdout
    with artifacts.redacted_stdio():
        print(SECRET)
        print(html.escape(SECRET), file=sys.stderr)
    assert sys.stdout is found
    said = capsys.readouterr()
    assert (said.out, said.err) == ("<secret>gate_pw</secret>\n", "<secret>gate_pw</secret>\n")


def test_many_remembered_sets_are_one_pass_and_a_name_may_carry_several_values() -> None:
    from browser_agent.sensitive import Secrets

    runs = [artifacts.remember({"pw": f"Run-{n}-Pa55word"}) for n in range(12)]
    text = " ".join(f"{quote(f'Run-{n}-Pa55word')} Run-{n}-Pa55word" for n in range(12))
    assert artifacts.redacted(text) == " ".join(["<secret>pw</secret>"] * 24)
    runs[3].add("typed_1", "Typed-Later-4711")  # a set that grows is redacted with its new value
    assert artifacts.redacted("x Typed-Later-4711 y") == "x <secret>typed_1</secret> y"
    assert artifacts.redacted("<secret>pw</secret> stays") == "<secret>pw</secret> stays"
    assert isinstance(runs[0], Secrets)
