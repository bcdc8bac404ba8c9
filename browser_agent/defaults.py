"""Defaults that the Python API, the command line and batches share, in a module light enough for the
command line to read without loading the agent."""

__all__ = ["DEFAULT_MAX_STEPS"]

DEFAULT_MAX_STEPS = 30
"""Steps a run may take unless told otherwise: ``Agent.run``, ``browser-agent run``, ``batch`` and
``TaskSpec``."""
