"""A pydantic model from a JSON schema, so an extraction answer can be validated like any reply.

Covers what extraction schemas use: objects with properties and ``required``, arrays, strings,
numbers, integers, booleans, null, ``enum``, ``anyOf``/``oneOf`` and local ``$ref`` to ``$defs``
(the form pydantic's own ``model_json_schema()`` writes). Anything else is a clear ``ActionError``:
the schema comes from the model, which can send a simpler one.
"""

from __future__ import annotations

from typing import Any, Literal, Union, cast

from pydantic import BaseModel, ConfigDict, Field, create_model

from browser_agent.errors import ActionError

__all__ = ["model_from_schema"]

_SCALARS: dict[str, Any] = {"string": str, "number": float, "integer": int, "boolean": bool, "null": None}
_MAX_DEPTH = 12


def model_from_schema(schema: dict[str, Any], name: str = "Extracted") -> type[BaseModel]:
    """The model ``schema`` describes; a schema that is not an object is wrapped as ``{"value": ...}``.

    Raises:
        ActionError: the schema uses a construct this converter does not read.
    """
    if not isinstance(schema, dict):
        raise ActionError(f"schema must be a JSON schema object, not {type(schema).__name__}.")
    reader = _Reader(schema.get("$defs") or schema.get("definitions") or {})
    if schema.get("type", "object") == "object" and "properties" in schema:
        return reader.object_model(schema, name, 0)
    value = reader.type_of(schema, name, 0)
    model: type[BaseModel] = create_model(name, value=(value, ...))
    return model


class _Reader:
    def __init__(self, defs: dict[str, Any]) -> None:
        self.defs = defs
        self.models: dict[str, type[BaseModel]] = {}

    def object_model(self, schema: dict[str, Any], name: str, depth: int) -> type[BaseModel]:
        required = set(schema.get("required", []))
        fields: dict[str, Any] = {}
        for key, sub in (schema.get("properties") or {}).items():
            annotation = self.type_of(sub, f"{name}_{key}", depth + 1)
            description = sub.get("description") if isinstance(sub, dict) else None
            if key in required:
                fields[key] = (annotation, Field(..., description=description))
            else:
                fields[key] = (annotation | None, Field(default=None, description=description))
        extra: Literal["allow", "ignore"] = (
            "allow" if schema.get("additionalProperties") is True else "ignore"
        )
        model: type[BaseModel] = create_model(
            schema.get("title") or name, __config__=ConfigDict(extra=extra), **fields
        )
        return model

    def type_of(self, schema: Any, name: str, depth: int) -> Any:
        if depth > _MAX_DEPTH:
            raise ActionError(f"schema is nested more than {_MAX_DEPTH} levels deep; send a flatter one.")
        if schema is True or schema == {}:
            return Any
        if not isinstance(schema, dict):
            raise ActionError(f"schema part {schema!r} is not a JSON schema object.")
        combined = self._combined(schema, name, depth)
        if combined is not None:
            return combined
        kind = schema.get("type", "object")
        if isinstance(kind, list):
            return Union[tuple(self.type_of({**schema, "type": k}, name, depth) for k in kind)]  # noqa: UP007
        if kind == "array":
            return list[self.type_of(schema.get("items", {}), f"{name}_item", depth + 1)]  # type: ignore[misc]
        if kind == "object":
            if "properties" in schema:
                return self.object_model(schema, name, depth)
            return dict[str, Any]
        if kind in _SCALARS:
            return type(None) if kind == "null" else _SCALARS[kind]
        raise ActionError(f"schema type {kind!r} is not a JSON schema type; use object, array, string, ...")

    def _combined(self, schema: dict[str, Any], name: str, depth: int) -> Any:
        """The type of a ``$ref``, an ``enum`` or an ``anyOf``/``oneOf``; None for other schemas."""
        if "$ref" in schema:
            return self._ref(schema["$ref"], depth)
        if "enum" in schema:
            return cast(Any, Literal)[tuple(schema["enum"])]
        for key in ("anyOf", "oneOf"):
            if key in schema:
                members = [self.type_of(s, f"{name}_{i}", depth + 1) for i, s in enumerate(schema[key])]
                return Union[tuple(members)]  # noqa: UP007 - built from a tuple
        return None

    def _ref(self, ref: str, depth: int) -> Any:
        key = ref.rsplit("/", 1)[-1]
        if not ref.startswith(("#/$defs/", "#/definitions/")) or key not in self.defs:
            raise ActionError(f"schema $ref {ref!r} does not point into its own $defs.")
        target = self.defs[key]
        if not (isinstance(target, dict) and "properties" in target):
            return self.type_of(target, key, depth + 1)
        if key not in self.models:
            self.models[key] = self.object_model(target, key, depth + 1)
        return self.models[key]
