"""Defaults that the Python API, the command line and batches share, in a module light enough for the
command line to read without loading the agent."""

__all__ = ["DEFAULT_MAX_STEPS", "DEFAULT_SEARCH_ENGINE_URL"]

DEFAULT_MAX_STEPS = 30
"""Steps a run may take unless told otherwise: ``Agent.run``, ``browser-agent run``, ``batch`` and
``TaskSpec``."""

DEFAULT_SEARCH_ENGINE_URL = "https://duckduckgo.com/?q={query}"
"""Where ``search_web`` searches unless the controller is told otherwise (``{query}`` is the query): the
controller, and a run exported as a script."""
