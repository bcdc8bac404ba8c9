"""A stand-in for an OpenAI-compatible chat completions endpoint, on 127.0.0.1.

It lets the real provider package (langchain-openai and the openai client) run end to end without the
network: each POST gets the next scripted answer (tool-call arguments, or an HTTP status to fail with).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.support.server import LoopbackServer

Answer = dict[str, Any] | int


class FakeOpenAI(LoopbackServer):
    """Answers each request with the next of ``answers``, or with ``answers(request body)`` when it is a
    function (requests then may come in any order, e.g. from agents running at once)."""

    def __init__(self, answers: list[Answer] | Callable[[dict[str, Any]], Answer]) -> None:
        self.answers = answers if callable(answers) else list(answers)
        self.requests: list[dict[str, Any]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                return

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                fake.requests.append(body)
                answer = fake.answers(body) if callable(fake.answers) else fake.answers.pop(0)
                if isinstance(answer, int):
                    self._send(answer, {"error": {"message": "slow down", "type": "rate_limit"}})
                    return
                tool = body["tools"][0]["function"]["name"]
                call = {
                    "id": f"call_{len(fake.requests)}",
                    "type": "function",
                    "function": {"name": tool, "arguments": json.dumps(answer)},
                }
                self._send(
                    200,
                    {
                        "id": "chatcmpl-1",
                        "object": "chat.completion",
                        "created": 0,
                        "model": body["model"],
                        "choices": [
                            {
                                "index": 0,
                                "finish_reason": "tool_calls",
                                "message": {"role": "assistant", "content": None, "tool_calls": [call]},
                            }
                        ],
                        "usage": {"prompt_tokens": 1200, "completion_tokens": 40, "total_tokens": 1240},
                    },
                )

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        super().__init__(Handler)

    @property
    def base_url(self) -> str:
        return f"{self.origin}/v1"
