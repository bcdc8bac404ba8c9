"""What people write, in the format of each typed HTML field (``controller/actions/field_values``)."""

from __future__ import annotations

import pytest

from browser_agent.controller.actions.field_values import FieldValue, field_value, one_date_written


@pytest.mark.parametrize(
    ("kind", "written", "value", "reads"),
    [
        ("date", "04/03/2010", "2010-04-03", "April 3, 2010"),
        ("date", "4/3/10", "2010-04-03", "April 3, 2010"),
        ("date", "25/12/2010", "2010-12-25", "December 25, 2010"),  # 25 is no month: day first
        ("date", "April 3, 2010", "2010-04-03", "April 3, 2010"),
        ("date", "Saturday, April 3rd, 2010", "2010-04-03", "April 3, 2010"),
        ("date", "3 April 2010", "2010-04-03", "April 3, 2010"),
        ("date", "2010-04-03", "2010-04-03", "April 3, 2010"),
        ("time", "6:15 AM", "06:15", "6:15 AM"),
        ("time", "6:15 PM", "18:15", "6:15 PM"),
        ("time", "8:04PM", "20:04", "8:04 PM"),
        ("time", "12:30 a.m.", "00:30", "12:30 AM"),
        ("time", "6 pm", "18:00", "6:00 PM"),
        ("time", "18:15:30", "18:15:30", "6:15:30 PM"),
        ("datetime-local", "04/03/2010 6:15 PM", "2010-04-03T18:15", "April 3, 2010, 6:15 PM"),
        ("datetime-local", "April 3, 2010 at 6:15 PM", "2010-04-03T18:15", "April 3, 2010, 6:15 PM"),
        ("datetime-local", "2010-04-03T18:15", "2010-04-03T18:15", "April 3, 2010, 6:15 PM"),
        ("month", "April 2010", "2010-04", "April 2010"),
        ("month", "04/2010", "2010-04", "April 2010"),
        ("month", "2010-04", "2010-04", "April 2010"),
        ("week", "2010-W13", "2010-W13", "week 13 of 2010"),
        ("week", "Week 13, 2010", "2010-W13", "week 13 of 2010"),
        ("week", "04/03/2010", "2010-W13", "week 13 of 2010"),
        ("number", "1,234", "1234", "1234"),
        ("number", "$1,234.50", "1234.50", "1234.50"),
        ("number", "1.234,5", "1234.5", "1234.5"),
        ("number", "1,5", "1.5", "1.5"),
        ("number", "-12", "-12", ""),
        ("range", "75%", "75", "75"),
    ],
)
def test_the_forms_people_write_become_the_field_format(
    kind: str, written: str, value: str, reads: str
) -> None:
    assert field_value(kind, written) == FieldValue(value, reads)


@pytest.mark.parametrize(
    ("kind", "written"),
    [
        ("date", "13/13/2010"),
        ("date", "February 30, 2010"),
        ("date", "soon"),
        ("time", "25:00"),
        ("time", "13:00 PM"),
        ("datetime-local", "04/03/2010"),  # no time
        ("month", "13/2010"),
        ("week", "2010-W54"),
        ("number", "twelve"),
        ("number", "1.2.3"),
    ],
)
def test_what_is_no_value_of_the_kind_is_none(kind: str, written: str) -> None:
    assert field_value(kind, written) is None


def test_a_colour_is_left_to_the_browser() -> None:
    assert field_value("color", " red ") == FieldValue("red")


@pytest.mark.parametrize(
    ("task", "date"),
    [
        ("Select 12/27/2016 as the date and hit submit.", "12/27/2016"),
        ("Book the cheapest flight from: LCH to: GGG on 12/18/2016.", "12/18/2016"),
        ("Leave on June 3, 2027 (06/03/2027), at noon", "June 3, 2027"),  # one day written twice
        ("the 3rd of March 2027, please", "3rd of March 2027"),
        ("Stay from 12/01/2016 to 12/05/2016.", None),  # two days: which field takes which is not ours
        ("Book a table for 4 guests", None),
        ("Pick 13/31/2016", None),  # no such day
    ],
)
def test_the_one_date_a_task_names_is_given_as_written(task: str, date: str | None) -> None:
    assert one_date_written(task) == date
