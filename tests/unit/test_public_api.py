"""The public surface is deliberate: a change to it must change this test too."""

import browser_agent

EXPECTED = [
    "ActionContext",
    "ActionError",
    "ActionResult",
    "Agent",
    "AgentHistory",
    "AgentHooks",
    "AgentRunError",
    "AgentSettings",
    "BrowserAgentError",
    "BrowserConfig",
    "BrowserError",
    "BrowserSession",
    "ConsoleReporter",
    "Controller",
    "DomSnapshot",
    "ElementNode",
    "ModelError",
    "ModelOutputError",
    "ReplayOptions",
    "ReplayReport",
    "TaskSpec",
    "UserError",
    "extract_snapshot",
    "replay",
    "run_many",
    "save_gif",
    "save_report",
]


def test_all_is_sorted_and_exact() -> None:
    assert browser_agent.__all__ == sorted(browser_agent.__all__)
    assert browser_agent.__all__ == EXPECTED


def test_every_name_in_all_is_importable() -> None:
    for name in browser_agent.__all__:
        assert getattr(browser_agent, name) is not None, name


def test_no_private_or_module_leaks() -> None:
    public = {n for n in vars(browser_agent) if not n.startswith("_")}
    submodules = {
        "agent",
        "batch",
        "browser",
        "controller",
        "dom",
        "errors",
        "extras",
        "interrupts",
        "llm",
        "sensitive",
        "testing",
        "cli",
        "demo",
        "mcp",
        "models",
        "output",
        "record",
        "playback",
        "reid",
    }
    assert public - submodules == set(EXPECTED)
