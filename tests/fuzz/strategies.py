"""Hypothesis strategies for commands, built from each ruleset's own pydantic models (their JSON schema).

`commands(schema, vocabulary)` draws commands that follow the schema (the ones that get past parsing and into
the rules, where a crash hides), with strings taken half the time from a vocabulary (the ids and names in the
state and in the legal listing: so a command names real units and hexes) and integers biased to the small and
the boundary values. `mutations(...)` takes a legal command and replaces, empties or drops one field, and
`junk()` is any JSON at all: together they cover the well-formed, the nearly right and the malformed.
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import strategies as st

JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**63), st.text(max_size=12))
JSON = st.recursive(JSON_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                          st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                    max_leaves=8)
SMALL_INTS = st.one_of(st.integers(-2, 12), st.sampled_from([-(2**31), 2**31, 2**63, -(2**63)]))


def junk() -> st.SearchStrategy[Any]:
    return JSON


def strings(vocabulary: list[str], pattern: str | None = None) -> st.SearchStrategy[str]:
    free = st.from_regex(pattern, fullmatch=True) if pattern else st.text(max_size=10)
    fitting = [v for v in vocabulary if pattern is None or _matches(pattern, v)]
    return st.one_of(st.sampled_from(fitting), free) if fitting else free


def _matches(pattern: str, value: str) -> bool:
    return re.fullmatch(pattern, value) is not None


def from_schema(node: dict[str, Any], defs: dict[str, Any], vocabulary: list[str]) -> st.SearchStrategy[Any]:
    """A strategy for values valid under the JSON-schema subset pydantic writes."""
    if "$ref" in node:
        return from_schema(defs[node["$ref"].rsplit("/", 1)[-1]], defs, vocabulary)
    if "const" in node:
        return st.just(node["const"])
    if "enum" in node:
        return st.sampled_from(node["enum"])
    for key in ("anyOf", "oneOf"):
        if key in node:
            return st.one_of([from_schema(n, defs, vocabulary) for n in node[key]])
    kind = node.get("type")
    if kind == "string":
        return strings(vocabulary, node.get("pattern"))
    if kind == "integer":
        low, high = node.get("minimum"), node.get("maximum")
        if low is not None or high is not None:
            return st.integers(low, high)
        return SMALL_INTS
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        items = from_schema(node.get("items", {}), defs, vocabulary)
        low = node.get("minItems", 0)
        return st.lists(items, min_size=low, max_size=min(node.get("maxItems", low + 3), low + 3))
    if kind == "object" and "properties" in node:
        required = set(node.get("required", ()))
        props = {k: from_schema(v, defs, vocabulary) for k, v in node["properties"].items()}
        return st.fixed_dictionaries({k: s for k, s in props.items() if k in required},
                                     optional={k: s for k, s in props.items() if k not in required})
    if kind == "object":
        return st.dictionaries(st.text(max_size=6), JSON, max_size=3)
    return JSON  # no constraint: any JSON value


def commands(schema: dict[str, Any], vocabulary: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    return from_schema(schema, schema.get("$defs", {}), vocabulary)


EDGES: list[Any] = [[], {}, "", None, 0, -1, 2**63, -(2**63), [""], [[]], [None], "0000", "9999", True]


def _empty(node: dict[str, Any], defs: dict[str, Any]) -> Any:
    """The empty value of a field's schema type (an empty list for `list | None`, as a client would send)."""
    if "$ref" in node:
        return _empty(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
    for option in node.get("anyOf", node.get("oneOf", [node])):
        kind = option.get("type")
        if kind in ("array", "object", "string", "integer"):
            return {"array": [], "object": {}, "string": "", "integer": 0}[kind]
    return None


def mutations(legal: list[dict[str, Any]], schema: dict[str, Any], vocabulary: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """A legal command with one field (present or optional) replaced by a value of its own schema, its type's
    empty value, an edge value or junk, or dropped: the nearly right commands a careless client sends."""
    if not legal:
        return st.nothing()
    defs = schema.get("$defs", {})
    by_type = {d["properties"]["type"].get("const"): d for d in defs.values() if "type" in d.get("properties", {})}
    kinds = sorted({c["type"] for c in legal})

    @st.composite
    def mutate(draw: st.DrawFn) -> dict[str, Any]:
        kind = draw(st.sampled_from(kinds))  # every kind of command as often as any other
        command = dict(draw(st.sampled_from([c for c in legal if c["type"] == kind])))
        model = by_type.get(kind, {}).get("properties", {})
        fields = sorted((set(command) | set(model)) - {"type"})
        if not fields:
            return command
        field = draw(st.sampled_from(fields))
        how = draw(st.sampled_from(["schema", "empty", "edge", "drop", "junk"]))
        if how == "schema" and field in model:
            command[field] = draw(from_schema(model[field], defs, vocabulary))
        elif how == "empty" and field in model:
            command[field] = _empty(model[field], defs)
        elif how == "edge":
            command[field] = draw(st.sampled_from(EDGES))
        elif how == "drop":
            command.pop(field, None)
        else:
            command[field] = draw(JSON)
        return command

    return mutate()


def vocabulary_of(*values: Any) -> list[str]:
    """Every string in some JSON values (a state, a legal listing), sorted, at most a few hundred."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            if len(value) <= 24:
                found.add(value)
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(k)
                walk(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v)

    for value in values:
        walk(value)
    return sorted(found)[:600]


def edge_cases(command: dict[str, Any], schema: dict[str, Any]) -> list[dict[str, Any]]:
    """`command` with each field (present or optional) in turn emptied, nulled, of the wrong type, or dropped:
    the sweep that a random search reaches only by luck (a `"path": []` in one move of a hundred)."""
    defs = schema.get("$defs", {})
    by_type = {d["properties"]["type"].get("const"): d for d in defs.values() if "type" in d.get("properties", {})}
    model = by_type.get(command.get("type"), {}).get("properties", {})
    out = []
    for field in sorted((set(command) | set(model)) - {"type"}):
        empty = _empty(model[field], defs) if field in model else None
        wrong = 0 if isinstance(command.get(field), str) else "x"
        for value in (empty, None, wrong):
            out.append({**command, field: value})
        out.append({k: v for k, v in command.items() if k != field})
    return out
