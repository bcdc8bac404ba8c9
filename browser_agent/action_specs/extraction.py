"""Reading the page for a goal (behaviour: ``controller/actions/extraction.py``)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from browser_agent.action_specs.placeholders import Placeholders
from browser_agent.action_specs.reading import read_here
from browser_agent.action_specs.spec import ActionSpec

__all__ = ["EXTRACT_CONTENT", "PAGE_MARKDOWN", "SPECS"]


class ExtractContentParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # The goal and the schema go to the extraction model, never to the page: placeholders stay.
    goal: Annotated[str, Placeholders.KEPT] = Field(
        description='What to extract, e.g. "the prices of all listed laptops" or "the opening hours".'
    )
    output_schema: Annotated[dict[str, Any] | None, Placeholders.KEPT] = Field(
        None,
        description='Optional JSON schema the answer must follow (e.g. {"type": "object", "properties": '
        '{"prices": {"type": "array", "items": {"type": "number"}}}}); the answer is then JSON.',
    )


class PageMarkdownParams(BaseModel):
    model_config = ConfigDict(extra="forbid")


EXTRACT_CONTENT = ActionSpec(
    "extract_content",
    "Read the whole page (not only what is shown) for a goal.",
    ExtractContentParams,
    export=read_here("extract_content"),
    checks={},
)
# Not offered any more; histories recorded when it was are still exported.
PAGE_MARKDOWN = ActionSpec(
    "page_markdown",
    "Read the text of the whole page.",
    PageMarkdownParams,
    export=read_here("page_markdown"),
    checks={},
)
SPECS = (EXTRACT_CONTENT, PAGE_MARKDOWN)
