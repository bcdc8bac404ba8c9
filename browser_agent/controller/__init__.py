"""Actions: the registry and decorator, the typed action context, the built-ins, and running them."""

from browser_agent.controller.action_types import ActionModel, ActionResult
from browser_agent.controller.context import ActionContext, ControllerSettings
from browser_agent.controller.controller import Controller
from browser_agent.controller.placeholders import Placeholders
from browser_agent.controller.registry import RegisteredAction, Registry

__all__ = [
    "ActionContext",
    "ActionModel",
    "ActionResult",
    "Controller",
    "ControllerSettings",
    "Placeholders",
    "RegisteredAction",
    "Registry",
]
