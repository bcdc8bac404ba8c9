"""Acting on indexed elements: click, type, hover, keys, file upload (behaviour:
``controller/actions/elements.py``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from browser_agent.action_specs import checks
from browser_agent.action_specs.spec import ActionSpec, Input, Script

__all__ = [
    "CLICK_ELEMENT",
    "HOVER",
    "INPUT_TEXT",
    "POINTED_AT",
    "SEND_KEYS",
    "SET_BY_WIDGET",
    "SPECS",
    "UPLOAD_FILE",
]

_INDEX = "The element's index in the page state."
# How a click's result begins when it only pointed at a menu item, which opened its submenu
# (``controller/actions/submenus.py``): a replay does the same, an exported script hovers.
POINTED_AT = "Opened the submenu of element "
# How a typing's result begins when the page's own widget took the value: a date picked in the calendar
# a read-only field opens, a number a drawn slider was moved to (``controller/actions/calendar_pick.py``,
# ``slider.py``). A replay does the same; an exported script has no such step to write.
SET_BY_WIDGET = ("Picked ", "Moved the slider ")


class ClickElementParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: int = Field(description=_INDEX)


class InputTextParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: int = Field(description=_INDEX)
    text: str = Field(description="The text to type.")
    clear: bool = Field(True, description="Replace what the field holds (True) or append to it (False).")


class HoverParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: int = Field(description=_INDEX)


class SendKeysParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    keys: str = Field(
        description='Keys or chords separated by spaces, e.g. "Enter", "Escape", "Control+a", '
        '"Tab Tab Enter".'
    )


class UploadFileParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: int = Field(description="The index of the file input or upload button.")
    path: str = Field(description="The path of the file to upload; only the allowed files can be used.")


def _click(p: ClickElementParams, script: Script) -> list[str]:
    return script.on_element("click()", follow_tab=script.opened_tab)


def _input_text(p: InputTextParams, script: Script) -> list[str]:
    value = script.value("text")
    return script.on_element(f"{'fill' if p.clear else 'press_sequentially'}({value})")


def _hover(p: HoverParams, script: Script) -> list[str]:
    return script.on_element("hover()")


def _send_keys(p: SendKeysParams, script: Script) -> list[str]:
    return [f"page.keyboard.press({script.literal(key)})" for key in p.keys.split()]


def _upload_file(p: UploadFileParams, script: Script) -> list[str]:
    return script.on_element(f"set_input_files({script.value('path', 'file')})")


CLICK_ELEMENT = ActionSpec(
    "click_element",
    "Click an element (button, link, checkbox, option).",
    ClickElementParams,
    export=_click,
    checks={},
)
INPUT_TEXT = ActionSpec(
    "input_text",
    "Type text into a field.",
    InputTextParams,
    export=_input_text,
    inputs={"text": Input("typed")},
    checks={"text": checks.text, "clear": checks.flag},
)
HOVER = ActionSpec("hover", "Hover over an element.", HoverParams, export=_hover, checks={})
SEND_KEYS = ActionSpec(
    "send_keys",
    "Press keys, e.g. Enter, Escape, Control+a.",
    SendKeysParams,
    export=_send_keys,
    checks={"keys": checks.text},
)
UPLOAD_FILE = ActionSpec(
    "upload_file",
    "Upload an allowed file into a file input.",
    UploadFileParams,
    export=_upload_file,
    checks={"path": checks.text},
)
SPECS = (CLICK_ELEMENT, INPUT_TEXT, HOVER, SEND_KEYS, UPLOAD_FILE)
