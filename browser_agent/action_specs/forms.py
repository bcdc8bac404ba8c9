"""Dropdowns: list the options, choose one (behaviour: ``controller/actions/forms.py``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from browser_agent.action_specs import checks
from browser_agent.action_specs.reading import read_here
from browser_agent.action_specs.spec import ActionSpec, Input, Script

__all__ = ["GET_DROPDOWN_OPTIONS", "SELECT_DROPDOWN_OPTION", "SPECS"]


class GetDropdownOptionsParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: int = Field(description="The index of the dropdown.")


class SelectDropdownOptionParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: int = Field(description="The index of the dropdown (the select, combobox or listbox).")
    text: str = Field(description="The option's visible text, as listed by get_dropdown_options.")


def _select(p: SelectDropdownOptionParams, script: Script) -> list[str]:
    value = script.value("text")
    found = script.element
    if found is not None and found.tag == "select":
        return script.on_element(f"select_option(label={value})")
    option = f'page.get_by_role("option", name={value}, exact=True).click()'
    return [*script.on_element("click()"), option]  # a drawn list: open it, then choose


GET_DROPDOWN_OPTIONS = ActionSpec(
    "get_dropdown_options",
    "List a dropdown's options.",
    GetDropdownOptionsParams,
    export=read_here("get_dropdown_options"),
    checks={},
)
SELECT_DROPDOWN_OPTION = ActionSpec(
    "select_dropdown_option",
    "Choose a dropdown option by its text.",
    SelectDropdownOptionParams,
    export=_select,
    inputs={"text": Input("selected")},
    checks={"text": checks.text},
)
SPECS = (GET_DROPDOWN_OPTIONS, SELECT_DROPDOWN_OPTION)
