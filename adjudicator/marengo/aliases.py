"""Names a transcriber may use for places (issue 19 point 24): the reference map's locale numbers.

The publisher's reference map numbers every locale (Marengo is 8, Peterbona 4) and writes a piece blocking an
approach as "8/4": in Marengo, toward Peterbona. map.json's `locales` maps those numbers to zones; a command may
name a zone by its number and an approach by its pair of numbers. The command is stored as sent (what the
table said); the events name the zones. Answers to a listed decision (a retreat's zone) take the names listed.
"""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.marengo.data_loader import MarengoData

ZONE_FIELDS = ("to", "zone")
APPROACH_FIELDS = ("place", "approach")


def zone(d: MarengoData, name: str) -> str:
    return d.map.locales.get(name, name)


def approach(d: MarengoData, name: str) -> str:
    if "/" not in name:
        return name
    a, b = name.split("/", 1)
    return f"{zone(d, a)}/{zone(d, b)}"


def resolved(d: MarengoData, command: Any) -> Any:
    """`command` with every locale number among its places replaced by the zone it names."""
    if not d.map.locales:
        return command
    update: dict[str, Any] = {}
    for name in ZONE_FIELDS:
        value = getattr(command, name, None)
        if isinstance(value, str):
            update[name] = zone(d, value)
    for name in APPROACH_FIELDS:
        value = getattr(command, name, None)
        if isinstance(value, str):
            update[name] = approach(d, value)
    path = getattr(command, "path", None)
    if isinstance(path, list):
        update["path"] = [zone(d, z) for z in path]
    changed = {k: v for k, v in update.items() if v != getattr(command, k)}
    return command.model_copy(update=changed) if changed else command
