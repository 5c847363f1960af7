"""JSON-pointer patches: replace, add or remove a value in a plain JSON value. Umpire rulings patch a ruleset state
with them; a seat's export holds its view after each event as the patch from the view before (`patch_between`)."""

from __future__ import annotations

from typing import Any


class PatchError(ValueError):
    pass


def patch_between(before: Any, after: Any, path: str = "") -> list[dict[str, Any]]:
    """The operations that make `before` into `after`, its objects' key order included (apply_patch(before, ops)
    == after, and lists its keys as `after` does): objects key by key (one whose keys would come out in another
    order is replaced whole, the root by removing and adding its keys), lists of one length item by item,
    anything else replaced whole. Both roots are objects."""
    if _same(before, after):
        return []
    if isinstance(before, dict) and isinstance(after, dict):
        kept = [key for key in before if key in after]
        if kept + [key for key in after if key not in before] != list(after):
            if path:
                return [{"op": "replace", "path": path, "value": after}]
            return [*({"op": "remove", "path": f"/{_escape(k)}"} for k in before),
                    *({"op": "add", "path": f"/{_escape(k)}", "value": v} for k, v in after.items())]
        ops: list[dict[str, Any]] = [{"op": "remove", "path": f"{path}/{_escape(key)}"}
                                     for key in before if key not in after]
        for key in after:
            where = f"{path}/{_escape(key)}"
            if key in before:
                ops += patch_between(before[key], after[key], where)
            else:
                ops.append({"op": "add", "path": where, "value": after[key]})
        return ops
    if not path:
        raise PatchError("a patch turns one object into another: both roots must be objects")
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        return [op for i, (b, a) in enumerate(zip(before, after)) for op in patch_between(b, a, f"{path}/{i}")]
    return [{"op": "replace", "path": path, "value": after}]


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON text: of one type (false is not 0, as Python's == has it), objects' keys in one order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def apply_patch(document: Any, operations: tuple[dict[str, Any], ...] | list[dict[str, Any]]) -> Any:
    """Apply RFC 6902-style `replace`, `add` and `remove` operations in order to a plain JSON value."""
    for number, op in enumerate(operations, 1):
        if not isinstance(op, dict):
            raise PatchError(f"operation {number}: not an object with op, path and value")
        kind, path = op.get("op"), op.get("path")
        if kind not in ("replace", "add", "remove") or not isinstance(path, str) or not path.startswith("/"):
            raise PatchError(f"operation {number}: needs op replace|add|remove and a path like /units/0/hex")
        tokens = [_unescape(t) for t in path[1:].split("/")]
        parent = document
        for depth, token in enumerate(tokens[:-1]):
            parent = _child(parent, token, "/" + "/".join(tokens[: depth + 1]), number)
        last = tokens[-1]
        if kind == "remove":
            _remove(parent, last, path, number)
        elif "value" not in op:
            raise PatchError(f"operation {number} ({kind} {path}): needs a value")
        else:
            _set(parent, last, op["value"], kind, path, number)
    return document


def _child(node: Any, token: str, where: str, number: int) -> Any:
    if isinstance(node, dict):
        if token not in node:
            raise PatchError(f"operation {number}: {where} does not exist")
        return node[token]
    if isinstance(node, list):
        index = _index(token, len(node), where, number)
        return node[index]
    raise PatchError(f"operation {number}: {where} is not inside an object or list")


def _index(token: str, size: int, where: str, number: int) -> int:
    if not token.isdigit() or int(token) >= size:
        raise PatchError(f"operation {number}: {where}: no element {token} (size {size})")
    return int(token)


def _set(parent: Any, last: str, value: Any, kind: str, path: str, number: int) -> None:
    if isinstance(parent, dict):
        if kind == "replace" and last not in parent:
            raise PatchError(f"operation {number}: {path} does not exist (use add)")
        parent[last] = value
    elif isinstance(parent, list):
        if kind == "add" and last == "-":
            parent.append(value)
        elif kind == "add":
            parent.insert(_index(last, len(parent) + 1, path, number), value)
        else:
            parent[_index(last, len(parent), path, number)] = value
    else:
        raise PatchError(f"operation {number}: {path}: parent is not an object or list")


def _remove(parent: Any, last: str, path: str, number: int) -> None:
    if isinstance(parent, dict) and last in parent:
        del parent[last]
    elif isinstance(parent, list):
        del parent[_index(last, len(parent), path, number)]
    else:
        raise PatchError(f"operation {number}: {path} does not exist")
