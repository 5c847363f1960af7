"""A position's overrides (issue 19 item 13): facts a rules question or a transcribed game needs that the
standard game does not allow (a counter's value, a zone's terrain, a unit added or removed, a table's result
for a roll). A position file lists them under "overrides"; each is an object whose "kind" the ruleset names
(Ruleset.override_kinds) and applies (Ruleset.apply_override). The game records each override's public name in
its genesis (origin["overrides"]) and `status` lists them as non-standard, so no one takes the game for the
standard one. Pure: creation.genesis calls it before anything is stored."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from arbitro.adjudicator.errors import BadPosition
from arbitro.adjudicator.ruleset import Ruleset

S = TypeVar("S")


def apply_overrides(ruleset: Ruleset[Any], state: S, overrides: Any) -> tuple[S, list[str]]:
    """`state` with every override applied in order, and their names; every problem of every override at once."""
    if overrides is None:
        return state, []
    if not isinstance(overrides, list):
        raise BadPosition('"overrides" is a list of objects, each with its "kind": [{"kind": ..., ...}]')
    kinds = ruleset.override_kinds()
    offered = "; ".join(f"{k}: {what}" for k, what in sorted(kinds.items())) or "none"
    names: list[str] = []
    problems: list[str] = []
    for i, override in enumerate(overrides):
        where = f"overrides[{i}]"
        kind = override.get("kind") if isinstance(override, dict) else None
        if kind not in kinds:
            problems.append(f"{where}: {'no kind' if kind is None else f'unknown kind {kind!r}'}; "
                            f"{ruleset.name}'s kinds are: {offered}")
            continue
        try:
            state, name = ruleset.apply_override(state, override)
        except BadPosition as e:
            problems.append(f"{where} ({kind}): {e}")
            continue
        names.append(name)
    if problems:
        raise BadPosition("the position's overrides are not valid: " + "; ".join(problems))
    return state, names


def named(origin: dict[str, Any]) -> Sequence[str]:
    """The overrides a game's genesis names (none for a standard game)."""
    return tuple(origin.get("overrides", ()))
