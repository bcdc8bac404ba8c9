"""The built-in actions, by theme; ``register_builtins`` adds them all to a registry."""

from __future__ import annotations

from browser_agent.controller.actions import done, elements, extraction, forms, navigation, scrolling, tabs
from browser_agent.controller.registry import Registry

__all__ = ["register_builtins"]


def register_builtins(registry: Registry) -> None:
    """Register every built-in action (those named in ``registry.exclude`` are skipped)."""
    for module in (navigation, elements, forms, tabs, scrolling, extraction, done):
        module.register(registry)
