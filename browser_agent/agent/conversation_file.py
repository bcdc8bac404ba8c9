"""The request of each step written to a folder (``AgentSettings.save_conversation_path``), to read what
the model was sent."""

from __future__ import annotations

from pathlib import Path

from langchain_core.messages import BaseMessage

from browser_agent import artifacts
from browser_agent.llm import message_text

__all__ = ["save_conversation"]


def save_conversation(folder: Path, number: int, messages: list[BaseMessage]) -> None:
    """Write ``messages`` to ``folder/step_NNN.txt``, one ``--- type ---`` header a message; a screenshot
    is named, not written. (A reply's opening that a server is sent, ``prefill_reply``, is not shown.)"""
    lines = []
    for message in messages:
        pictures = "" if isinstance(message.content, str) else "\n(with a screenshot)"
        lines.append(f"--- {message.type} ---\n{message_text(message)}{pictures}")
    artifacts.write_text(Path(folder, f"step_{number:03d}.txt"), "\n".join(lines))
