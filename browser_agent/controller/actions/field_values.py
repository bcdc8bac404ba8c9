"""The values HTML's typed fields take, from the forms people write.

A date field takes ``2010-04-03`` only; a model (or a task) writes ``04/03/2010`` or ``April 3, 2010``,
and Playwright's ``fill`` refuses it, or leaves the field empty. ``field_value`` turns what was written
into the field's own format and says, in words, what it understood: the model reads it back.
Numbers written with digits only are read month first (``04/03/2010`` is April 3), unless the first
cannot be a month (``25/12/2010``). Colours are left to the browser (``red``, ``rgb(...)``).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

__all__ = ["VALUE_TYPES", "FieldValue", "field_value", "one_date_written", "spoken_date", "written_date"]

VALUE_TYPES = frozenset({"date", "time", "datetime-local", "month", "week", "number", "range", "color"})
"""Input types whose value has a fixed format: what is typed is turned into it first."""

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_MONTH_WORD = r"(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_WEEKDAY = re.compile(r"\b(mon|tues?|wed(nes)?|thu(rs)?|fri|sat(ur)?|sun)(day)?\b,?", re.IGNORECASE)
_ISO_DATE = re.compile(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})")
_NUMERIC_DATE = re.compile(r"(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})(?!\d)")
_MONTH_FIRST = re.compile(_MONTH_WORD + r"\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})", re.IGNORECASE)
_DAY_FIRST = re.compile(
    r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH_WORD + r",?\s+(\d{4})", re.IGNORECASE
)
_TIME = re.compile(
    r"(\d{1,2})(?:[:.h](\d{2}))?(?::(\d{2}))?\s*([ap])\.?\s*m?\.?(?![a-z])|(\d{1,2})[:h](\d{2})(?::(\d{2}))?",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class FieldValue:
    """What goes into the field (``value``) and how it reads (``reads``, empty when it is the same)."""

    value: str
    reads: str = ""


def field_value(kind: str, text: str) -> FieldValue | None:
    """``text`` in the format of an ``<input type=kind>``; None when it is not a value of that kind.

    Colours are not read here (the browser knows their names); their text is passed as it is.
    """
    written = text.strip()
    read = _READERS.get(kind)
    if read is None:
        return FieldValue(written)
    return read(written)


def written_date(text: str) -> dt.date | None:
    """The date named in ``text`` (ISO, ``04/03/2010``, ``April 3, 2010``, ``3 April 2010``)."""
    text = _WEEKDAY.sub(" ", text).strip()
    if found := _ISO_DATE.search(text):
        return _date(int(found[1]), int(found[2]), int(found[3]))
    if found := _MONTH_FIRST.search(text):
        return _date(int(found[3]), _MONTHS[found[1].lower()], int(found[2]))
    if found := _DAY_FIRST.search(text):
        return _date(int(found[3]), _MONTHS[found[2].lower()], int(found[1]))
    if found := _NUMERIC_DATE.search(text):
        first, second, year = int(found[1]), int(found[2]), int(found[3])
        year += 2000 if year < 100 else 0
        month, day = (second, first) if first > 12 else (first, second)
        return _date(year, month, day)
    return None


def one_date_written(text: str) -> str | None:
    """The date ``text`` names, as it is written there, when it names exactly one (the same day written
    twice counts once); None for none, or for two days ("from 12/01/2016 to 12/05/2016")."""
    spans: list[tuple[int, int]] = []
    for pattern in (_ISO_DATE, _MONTH_FIRST, _DAY_FIRST, _NUMERIC_DATE):
        for found in pattern.finditer(text):
            if not any(start < found.end() and found.start() < end for start, end in spans):
                spans.append(found.span())
    days = {written_date(text[start:end]) for start, end in spans}
    if len(days) != 1 or None in days:
        return None
    start, end = spans[0]
    return text[start:end]


def _date(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def _time_of(text: str) -> dt.time | None:
    """The time named in ``text`` (``18:15``, ``6:15 PM``, ``6 pm``, ``6:15:30 a.m.``)."""
    found = _TIME.search(text)
    if found is None:
        return None
    if found[4]:
        hour, minute, second = int(found[1]), int(found[2] or 0), int(found[3] or 0)
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if found[4].lower() == "p" else 0)
    else:
        hour, minute, second = int(found[5]), int(found[6]), int(found[7] or 0)
    try:
        return dt.time(hour, minute, second)
    except ValueError:
        return None


def spoken_date(day: dt.date) -> str:
    """``June 3, 2027``."""
    return f"{day:%B} {day.day}, {day.year}"


def _spoken_time(moment: dt.time) -> str:
    hour = moment.hour % 12 or 12
    seconds = f":{moment.second:02d}" if moment.second else ""
    return f"{hour}:{moment.minute:02d}{seconds} {'PM' if moment.hour >= 12 else 'AM'}"


def _html_time(moment: dt.time) -> str:
    return f"{moment:%H:%M:%S}" if moment.second else f"{moment:%H:%M}"


def _read_date(text: str) -> FieldValue | None:
    day = written_date(text)
    return None if day is None else FieldValue(day.isoformat(), spoken_date(day))


def _read_time(text: str) -> FieldValue | None:
    moment = _time_of(text)
    return None if moment is None else FieldValue(_html_time(moment), _spoken_time(moment))


def _read_datetime(text: str) -> FieldValue | None:
    if found := re.fullmatch(r"(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)", text):
        text = f"{found[1]} {found[2]}"
    day = written_date(text)
    # the time is looked for after the date, so that 04/03/2010 is not read as a time of 04:03
    rest = _ISO_DATE.sub(" ", _NUMERIC_DATE.sub(" ", text))
    rest = re.sub(r"\b\d{4}\b", " ", _DAY_FIRST.sub(" ", _MONTH_FIRST.sub(" ", rest)))
    moment = _time_of(rest)
    if day is None or moment is None:
        return None
    value = f"{day.isoformat()}T{_html_time(moment)}"
    return FieldValue(value, f"{spoken_date(day)}, {_spoken_time(moment)}")


def _read_month(text: str) -> FieldValue | None:
    found = re.fullmatch(r"(\d{4})[-/.](\d{1,2})", text) or re.fullmatch(r"(\d{1,2})[-/.](\d{4})", text)
    if found is not None:
        a, b = int(found[1]), int(found[2])
        year, month = (a, b) if a > 12 else (b, a)
    elif found := re.fullmatch(_MONTH_WORD + r",?\s+(\d{4})", text, re.IGNORECASE):
        year, month = int(found[2]), _MONTHS[found[1].lower()]
    else:
        day = written_date(text)
        if day is None:
            return None
        year, month = day.year, day.month
    if not 1 <= month <= 12:
        return None
    first = dt.date(year, month, 1)
    return FieldValue(f"{year:04d}-{month:02d}", f"{first:%B} {year}")


def _read_week(text: str) -> FieldValue | None:
    found = re.fullmatch(r"(\d{4})-?W(\d{1,2})", text, re.IGNORECASE) or re.fullmatch(
        r"(?:week|wk)\.?\s*(\d{1,2}),?\s+(?:of\s+)?(\d{4})", text, re.IGNORECASE
    )
    if found is not None:
        first, second = int(found[1]), int(found[2])
        year, week = (first, second) if first > 99 else (second, first)
    else:
        day = written_date(text)
        if day is None:
            return None
        year, week, _ = day.isocalendar()
    try:
        dt.date.fromisocalendar(year, week, 1)
    except ValueError:
        return None
    return FieldValue(f"{year:04d}-W{week:02d}", f"week {week} of {year}")


def _read_number(text: str) -> FieldValue | None:
    """``1,234`` ``1 234`` ``$1,234.50`` ``1.234,5`` ``12%`` as a plain decimal number."""
    bare = re.sub(r"[\s\u00a0\u202f'_$€£¥%]", "", text)
    sign = "-" if bare[:1] in ("-", "\u2212") else ""
    bare = bare.lstrip("+-\u2212")
    if not re.fullmatch(r"\d[\d.,]*|[.,]\d+", bare):
        return None
    if "," in bare and "." in bare:  # the last one written is the decimal point
        group = "," if bare.rfind(".") > bare.rfind(",") else "."
        bare = bare.replace(group, "").replace(",", ".")
    elif bare.count(",") == 1 and not re.fullmatch(r"\d{1,3},\d{3}", bare):
        bare = bare.replace(",", ".")  # 1,5: a decimal comma
    else:
        bare = bare.replace(",", "")
    if bare.count(".") > 1:
        if not re.fullmatch(r"\d{1,3}(\.\d{3})+", bare):
            return None
        bare = bare.replace(".", "")
    value = sign + bare
    return FieldValue(value, "" if value == text.strip() else value)


def _read_color(text: str) -> FieldValue | None:
    return FieldValue(text)


_READERS = {
    "date": _read_date,
    "time": _read_time,
    "datetime-local": _read_datetime,
    "month": _read_month,
    "week": _read_week,
    "number": _read_number,
    "range": _read_number,
    "color": _read_color,
}
