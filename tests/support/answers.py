"""A pydantic model the CLI tests import by path, as users do with --output-schema."""

from pydantic import BaseModel


class Code(BaseModel):
    code: str
