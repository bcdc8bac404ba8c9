"""JSON schemas as the model and the decoding server need them: small, self-contained, portable.

Pydantic's schemas are made for validators and docs: titles, ``$defs`` and ``$ref``, a discriminator
mapping, ``const``. What a model reads is billed and re-read every step, and what a server turns into a
decoding grammar (llama.cpp, vLLM, Ollama, OpenAI structured outputs) accepts a subset. This module
rewrites a schema for each use; validation always stays with the pydantic model.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Collection
from typing import Any

from pydantic import BaseModel

__all__ = [
    "FREE_TEXT_CAP",
    "NO_ELEMENT",
    "compact_schema",
    "fixed_opening",
    "flat_union",
    "grammar_schema",
    "inline_refs",
    "strip_noise",
]

NO_ELEMENT = -1  # the index of a left-out action that takes no element (a wait, an extraction)
# The longest free text a grammar admits where the model names no limit. A 1.5B model that began to copy
# a text area's value into scroll_to_text's `text` repeated one sentence until the server's context was
# full (8,000 tokens, five minutes a step, and the server went on after the step was stopped).
FREE_TEXT_CAP = 1_000

_NOISE = frozenset({"title", "discriminator", "examples"})


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with every ``$ref`` replaced by its definition and ``$defs`` dropped.

    Pydantic's models here are not recursive; a recursive one would be cut at 8 levels.
    """
    defs = schema.get("$defs", {})

    def walk(node: Any, depth: int) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/") and depth < 8:
                return walk(defs[ref.removeprefix("#/$defs/")], depth + 1)
            return {k: walk(v, depth) for k, v in node.items() if k != "$defs"}
        if isinstance(node, list):
            return [walk(v, depth) for v in node]
        return node

    inlined: dict[str, Any] = walk(schema, 0)
    return inlined


def strip_noise(schema: dict[str, Any], *, descriptions: bool = True) -> dict[str, Any]:
    """``schema`` without what a model does not need (see ``_clean``)."""
    cleaned: dict[str, Any] = _clean(schema, descriptions=descriptions)
    return cleaned


def _clean(node: Any, *, descriptions: bool, limits: bool = False) -> Any:
    """Drop what a model does not need: titles, the discriminator map, the ``type`` beside a ``const``,
    (unless ``descriptions``) field descriptions, and (unless ``limits``) string length limits, which
    only a decoding grammar enforces."""
    if isinstance(node, list):
        return [_clean(v, descriptions=descriptions, limits=limits) for v in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        # Only string values are metadata: a property named "title" or "type" maps to a dict.
        if key in _NOISE and not isinstance(value, dict):
            continue
        if key == "maxLength" and isinstance(value, int) and not limits:
            continue
        if key == "discriminator" or (key == "type" and "const" in node and isinstance(value, str)):
            continue
        if key == "description" and isinstance(value, str) and not descriptions:
            continue
        out[key] = _clean(value, descriptions=descriptions, limits=limits)
    return out


@functools.lru_cache(maxsize=64)
def compact_schema(output_model: type[BaseModel], *, descriptions: bool = True) -> str:
    """The model's JSON schema, minified, inlined and without noise (prompt tokens matter)."""
    schema = inline_refs(output_model.model_json_schema())
    return json.dumps(_clean(schema, descriptions=descriptions), separators=(",", ":"))


def grammar_schema(
    output_model: type[BaseModel],
    indices: Collection[int] | None = None,
    left_out: Collection[tuple[str, int]] = (),
    pinned: Collection[tuple[str, str]] = (),
) -> dict[str, Any]:
    """A schema servers turn into a decoding grammar: inlined, ``anyOf`` for unions, ``enum`` for
    constants, closed objects. Servers that constrain decoding to it cannot emit an invalid shape.

    ``indices``: the element indices of the page the model is looking at. When given, an action's
    ``index`` can only be one of them, and an action that needs an element is left out of a page that
    has none: a constrained model cannot name an element that is not there (small models did, step
    after step, on result pages with nothing left to click).

    ``left_out``: ``(action, index)`` pairs the grammar leaves out although the index is on the page (only
    with ``indices``): actions already sent on this same page, which did not move it, and actions that
    cannot apply to their element. Index -1 is an action that takes no element (a wait, an extraction,
    ``done``): its whole branch is left out.

    ``pinned``: ``(dotted path, text)`` pairs: the string field at the path (``"current_state.memory"``)
    admits that text only (only with ``indices``).
    """
    if indices is None:
        return _grammar(output_model)
    grammar = copy.deepcopy(_grammar(output_model))
    _only_indices(grammar, sorted(indices), set(left_out))
    for path, text in pinned:
        _pin(grammar, path.split("."), text)
    return grammar


@functools.lru_cache(maxsize=64)
def _grammar(output_model: type[BaseModel]) -> dict[str, Any]:
    """The grammar schema of ``output_model`` for any page (cached: the agent asks with the same model
    each step; callers must not change it)."""

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(v) for v in node]
        if not isinstance(node, dict):
            return node
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key == "oneOf":
                out["anyOf"] = walk(value)
            elif key == "const":
                out["enum"] = [value]
            else:
                out[key] = walk(value)
        if out.get("type") == "object" or "properties" in out:
            out["type"] = "object"
            out.setdefault("additionalProperties", False)
        if out.get("type") == "string" and not {"enum", "maxLength", "pattern", "format"} & out.keys():
            out["maxLength"] = FREE_TEXT_CAP
        return out

    cleaned = _clean(inline_refs(output_model.model_json_schema()), descriptions=False, limits=True)
    grammar: dict[str, Any] = walk(cleaned)
    return grammar


def _only_indices(grammar: dict[str, Any], indices: list[int], left_out: set[tuple[str, int]]) -> None:
    """Narrow every action's ``index`` to ``indices`` less the action's ``left_out`` ones; drop the actions
    that need one when there is none left, and the actions on no element left out."""
    items = grammar.get("properties", {}).get("action", {}).get("items")
    if not isinstance(items, dict):
        return
    branches = items.get("anyOf", [items])
    kept = []
    for branch in branches:
        fields = branch.get("properties", {})
        names = fields.get("action", {}).get("enum", ())
        taken = {index for name, index in left_out if name in names}
        if "index" not in fields:
            if NO_ELEMENT not in taken:
                kept.append(branch)
            continue
        left = [i for i in indices if i not in taken]
        needed = "index" in branch.get("required", ()) or NO_ELEMENT in taken
        if needed and not left:
            continue
        one_of_them = {"type": "integer", "enum": left}
        if needed:
            fields["index"] = one_of_them
            branch["required"] = sorted({*branch.get("required", ()), "index"})
        else:
            fields["index"] = {"anyOf": [one_of_them, {"type": "null"}]} if left else {"type": "null"}
        kept.append(branch)
    if "anyOf" in items:
        items["anyOf"] = kept


def fixed_opening(grammar: dict[str, Any]) -> str:
    """The start every reply decoded to ``grammar`` has, as the model writes it (``{"key": `` and so on):
    the required fields in order, through objects and pinned strings, up to the first value the model
    chooses (a free string's opening quote included). ``""`` for a grammar that fixes nothing.

    A server that continues a reply the request began (llama.cpp) reads these characters with the prompt
    instead of decoding them one token at a time; they are the JSON a grammar-bound model would write.
    """
    written: list[str] = []
    _open(grammar, written)
    return "".join(written)


def _open(node: dict[str, Any], written: list[str]) -> bool:
    """Append what ``node`` fixes; whether all of it is fixed (the next field's key may follow)."""
    if node.get("type") == "object" and isinstance(node.get("properties"), dict):
        required = node.get("required", ())
        # llama.cpp writes the required properties first, in their order, then the optional ones.
        first = [name for name in node["properties"] if name in required]
        if not first:
            return False
        written.append("{")
        for position, name in enumerate(first):
            written.append(("" if position == 0 else ", ") + json.dumps(name) + ": ")
            if not _open(node["properties"][name], written):
                return False
        return False  # optional properties may follow: the closing brace is the model's
    choices = node.get("enum")
    if isinstance(choices, list) and len(choices) == 1 and isinstance(choices[0], str):
        written.append(json.dumps(choices[0], ensure_ascii=False))  # as llama.cpp writes the literal
        return True
    if node.get("type") == "string" and not {"enum", "anyOf", "pattern", "format"} & node.keys():
        written.append('"')
    return False


def _pin(node: dict[str, Any], path: list[str], text: str) -> None:
    """Make the string field at ``path`` of an object schema admit ``text`` only."""
    for name in path[:-1]:
        node = node["properties"][name]
    node["properties"][path[-1]] = {"type": "string", "enum": [text]}


def flat_union(union_schema: dict[str, Any]) -> dict[str, Any]:
    """One object for a discriminated union of flat objects: the discriminator as an ``enum``, every
    other field optional. Far smaller than the union for a tool definition; the union still validates.

    ``union_schema`` is an inlined schema with ``oneOf`` or ``anyOf`` branches whose discriminator
    field holds a ``const``.
    """
    branches = union_schema.get("oneOf") or union_schema.get("anyOf") or [union_schema]
    names: list[Any] = []
    fields: dict[str, Any] = {}
    key = "action"
    for branch in branches:
        for field_name, spec in branch.get("properties", {}).items():
            if isinstance(spec, dict) and "const" in spec:
                key = field_name
                names.append(spec["const"])
            elif field_name not in fields:
                fields[field_name] = {k: v for k, v in spec.items() if k not in ("default", "description")}
    return {
        "type": "object",
        "properties": {key: {"enum": names}, **fields},
        "required": [key],
    }
