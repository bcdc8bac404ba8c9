"""Write the bytecode of what the suite imports, once, before it starts (`make test` runs this beside mypy).

The dev install does not compile bytecode: compiling all 12,800 modules of the dev set (the Anthropic and
OpenAI clients, Ray) takes about 17 CPU-seconds, and the suite imports about 6,400 of them. Instead this
process imports what the suite's processes import — every module of the package, the test modules (by
collecting them) and the optional parts that tests start in subprocesses — and Python writes each one's
bytecode as it goes. The test workers and subprocesses then find it; a module first imported later is
written by its first importer. Nothing here is checked: a module that fails to import fails its tests.

Run as ``python -m tests.support.warm_up`` with bytecode writing allowed (the Makefile unexports
``PYTHONDONTWRITEBYTECODE``).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import pkgutil

import browser_agent

# Imported by tests inside functions or by the subprocesses they start, not at a test module's top.
LATER = ("langchain_anthropic", "langchain_ollama", "langchain_openai", "ray", "uvicorn", "starlette", "PIL")


def _import(name: str) -> None:
    with contextlib.suppress(Exception):
        importlib.import_module(name)


def _skip(name: str) -> None:
    """A package that fails to import while its subpackages are listed: its tests will say why."""


def main() -> None:
    for module in pkgutil.walk_packages(browser_agent.__path__, "browser_agent.", onerror=_skip):
        if not module.name.endswith("__main__"):
            _import(module.name)
    for name in LATER:
        _import(name)
    import pytest

    with contextlib.redirect_stdout(io.StringIO()):
        pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider"])


if __name__ == "__main__":
    main()
