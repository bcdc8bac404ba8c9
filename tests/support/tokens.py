"""o200k token counts for tests (bpe-openai, offline)."""

from __future__ import annotations

import functools
import warnings
from typing import Any


@functools.cache
def _encoding() -> Any:
    from bpe_openai import get_encoding

    with warnings.catch_warnings():  # its data loader uses a deprecated importlib.resources call
        warnings.simplefilter("ignore", DeprecationWarning)
        return get_encoding("o200k_base")


def count_tokens(text: str) -> int:
    with warnings.catch_warnings():  # the first call loads the data
        warnings.simplefilter("ignore", DeprecationWarning)
        return len(_encoding().encode(text))
