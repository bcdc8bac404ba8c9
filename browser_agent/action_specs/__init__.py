"""Each action's declaration, in one place per action, apart from its behaviour: name, parameters (types,
defaults, descriptions, placeholder marks), its Playwright export, its workflow inputs and the checks of
its recorded values. One module per theme, as ``controller/actions/``.

The controller registers each built-in's behaviour with its spec (the spec's ``params`` is the model the
model fills in), the export writes a recorded call with ``spec.export``, the workflow maker reads
``spec.inputs``. This layer loads neither Playwright nor langchain: a saved run is exported with it.
"""

from browser_agent.action_specs.catalog import BUILTIN_SPECS, add_spec, spec_of
from browser_agent.action_specs.placeholders import Placeholders
from browser_agent.action_specs.spec import ActionSpec, BadValue, Check, Input, InputKind, Renderer, Script

__all__ = [
    "BUILTIN_SPECS",
    "ActionSpec",
    "BadValue",
    "Check",
    "Input",
    "InputKind",
    "Placeholders",
    "Renderer",
    "Script",
    "add_spec",
    "spec_of",
]
