"""A stand-in for an OpenAI-compatible chat completions endpoint, on 127.0.0.1.

It lets the real provider package (langchain-openai and the openai client) run end to end without the
network: each POST gets the next scripted answer (tool-call arguments, a text reply, or an HTTP status to
fail with).

Like the servers users run, it can also:

* decode to a JSON schema: a request with ``response_format={"type": "json_schema", ...}`` is answered
  with the scripted object as text only if it validates against that schema (a constrained server cannot
  produce anything else); otherwise it answers 500, which fails the test. A string field the schema pins
  to one text is written as that text, as a decoder has no other choice;
* answer tool calls with text (``tools_as_text=True``), as llama.cpp's server does;
* stop a reply at the token limit (a ``Cut`` answer: its text, ``finish_reason: length``);
* reuse the prompt prefix (``prefix_cache=True``): like llama.cpp and vLLM it keeps the previous request's
  prompt and reports, in ``usage.prompt_tokens_details.cached_tokens``, how much of the new one starts
  the same (a token is four characters here);
* be llama.cpp (``llama_cpp=True``): answer ``GET /props`` with its context, and go on from a request that
  ends with the start of the reply (an assistant message): the reply it returns is the whole message, and
  one that does not start with what the request began answers 500, as the grammar could not produce it;
* write its JSON without spaces (``compact=True``), as a server answering anew in its own style would.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any

import jsonschema

from tests.support.server import LoopbackServer


@dataclass(frozen=True)
class Cut:
    """A reply stopped at the output token limit: ``text`` is what was generated until then."""

    text: str


Answer = dict[str, Any] | int | str | Cut


class FakeOpenAI(LoopbackServer):
    """Answers each request with the next of ``answers``, or with ``answers(request body)`` when it is a
    function (requests then may come in any order, e.g. from agents running at once)."""

    def __init__(
        self,
        answers: list[Answer] | Callable[[dict[str, Any]], Answer],
        *,
        tools_as_text: bool = False,
        prefix_cache: bool = False,
        llama_cpp: bool = False,
        compact: bool = False,
    ) -> None:
        self.answers = answers if callable(answers) else list(answers)
        self.llama_cpp = llama_cpp
        self.separators = (",", ":") if compact else None
        self.prefix_cache = prefix_cache
        self._last_prompt = ""
        self.requests: list[dict[str, Any]] = []
        self.schema_errors: list[str] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                return

            def do_GET(self) -> None:
                self._send(*fake.get(self.path))

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                self.body = body
                fake.requests.append(body)
                answer = fake.answers(body) if callable(fake.answers) else fake.answers.pop(0)
                if isinstance(answer, int):
                    self._send(answer, {"error": {"message": "slow down", "type": "rate_limit"}})
                    return
                if isinstance(answer, Cut):
                    message = {"role": "assistant", "content": answer.text}
                    self._send(200, _completion(body["model"], message, "length"))
                    return
                if isinstance(answer, str):  # a plain text reply (a planner's plan)
                    message = {"role": "assistant", "content": answer}
                    self._send(200, _completion(body["model"], message, "stop"))
                    return
                schema = (body.get("response_format") or {}).get("json_schema", {}).get("schema")
                if schema is not None:
                    answer = _decoded(answer, schema)
                    try:
                        jsonschema.validate(answer, schema)
                    except jsonschema.ValidationError as exc:
                        fake.schema_errors.append(exc.message)
                        self._send(500, {"error": {"message": f"outside the schema: {exc.message}"}})
                        return
                if schema is not None or "tools" not in body or tools_as_text:
                    self._send(*fake.text_reply(body, answer))
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
                if fake.prefix_cache and "usage" in payload:
                    payload["usage"] = fake.cached_usage(self.body)
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        super().__init__(Handler)

    def text_reply(self, body: dict[str, Any], answer: Any) -> tuple[int, dict[str, Any]]:
        """A reply in text: the answer as JSON; as llama.cpp, a failure when it does not go on from the
        reply the request began (the grammar could not give it)."""
        text = json.dumps(answer, separators=self.separators)
        begun = body["messages"][-1]
        if self.llama_cpp and begun["role"] == "assistant" and not text.startswith(begun["content"]):
            self.schema_errors.append(f"{text!r} does not go on from {begun['content']!r}")
            return 500, {"error": {"message": "the reply does not continue the request"}}
        return 200, _completion(body["model"], {"role": "assistant", "content": text}, "stop")

    def get(self, path: str) -> tuple[int, dict[str, Any]]:
        """A GET: llama.cpp's ``/props`` (its context), else 404."""
        if self.llama_cpp and path == "/props":
            return 200, {"default_generation_settings": {"n_ctx": 8192}, "total_slots": 1}
        return 404, {"error": {"message": "not found"}}

    @property
    def base_url(self) -> str:
        return f"{self.origin}/v1"

    def cached_usage(self, body: dict[str, Any]) -> dict[str, Any]:
        """Usage as a prefix-reusing server reports it: the tools, then every message, in order."""
        prompt = json.dumps(body.get("tools", [])) + "".join(
            f"<{m['role']}>{m['content'] if isinstance(m['content'], str) else json.dumps(m['content'])}"
            for m in body["messages"]
        )
        same = next(
            (i for i, (a, b) in enumerate(zip(prompt, self._last_prompt, strict=False)) if a != b),
            min(len(prompt), len(self._last_prompt)),
        )
        self._last_prompt = prompt
        tokens = len(prompt) // 4
        return {
            "prompt_tokens": tokens,
            "completion_tokens": 20,
            "total_tokens": tokens + 20,
            "prompt_tokens_details": {"cached_tokens": same // 4},
        }


def _decoded(answer: Any, schema: dict[str, Any]) -> Any:
    """``answer`` with each string field that ``schema`` pins to one text (along ``properties``) set to it."""
    if isinstance(answer, str) and schema.get("type") == "string" and len(schema.get("enum", ())) == 1:
        return schema["enum"][0]
    fields = schema.get("properties")
    if not isinstance(answer, dict) or not isinstance(fields, dict):
        return answer
    return {k: _decoded(v, fields[k]) if k in fields else v for k, v in answer.items()}


def _completion(model: str, message: dict[str, Any], finish: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "finish_reason": finish, "message": message}],
        "usage": {"prompt_tokens": 300, "completion_tokens": 20, "total_tokens": 320},
    }
