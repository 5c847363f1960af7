"""The command translator of the assault's one answer vocabulary (issue 18), for `bench.drivers.relog --translate`.

    python -m bench.drivers.relog --translate bench.drivers.translate_assault:translate logs/arrivano-*.jsonl

Arrivano 1.32.0 answers the advance after combat as Caldiero always did, with the kernel's shapes
(parabellum/commands.Advance, Decline): `{"type": "advance", "units", "to"}` names the hex (arrivano §12.7.2: of two
vacated hexes, the attacker's choice), `{"type": "decline"}` takes none. Games up to 1.31.0 sent `{"type":
"advance", "unit", "units"}`, the hex being the first vacated one the units could enter, and declined with `"unit":
null`. The translation plays the same game: the listed advance of the same units into the first hex listed (the
hexes are listed in the order the old procedure tried them).

Both answer the assault's other questions with one shape each (parabellum/commands.py):
the tied efficiency `efficiency_value {value}` and the Ne test `ne_choice {test}` (Caldiero's `choose {value}` up to 0.29.0,
told apart by the question asked), the Ex losses `exchange_loss {units}` (Caldiero's `lose {units}`, Arrivano's
`exchange_loss {unit}`). Every other command is kept as it was.
"""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.service import Arbitro

Played = list[tuple[str, dict[str, Any]]]


def translate(app: Arbitro, game: str, seat: str, command: dict[str, Any]) -> Played:
    kind = command.get("type")
    if kind == "choose":  # Caldiero's one word for two questions: which one is asked says which answer it was
        asked = {o["type"] for o in app.legal(game, seat)}
        if "ne_choice" in asked:
            return [(seat, {"type": "ne_choice", "test": command["value"] == 1})]
        return [(seat, {"type": "efficiency_value", "value": command["value"]})]
    if kind == "lose":
        return [(seat, {"type": "exchange_loss", "units": command["units"]})]
    if kind == "exchange_loss" and "unit" in command:
        return [(seat, {"type": "exchange_loss", "units": [command["unit"]]})]
    if kind != "advance" or "unit" not in command:
        return [(seat, command)]
    if command["unit"] is None:
        return [(seat, {"type": "decline"})]
    units = list(command.get("units") or [command["unit"]])
    listed = [o for o in app.legal(game, seat) if o.get("type") == "advance" and o["units"] == units]
    if not listed:
        raise SystemExit(f"{game}: no advance of {units} is listed under the new shapes")
    return [(seat, {"type": "advance", "units": units, "to": listed[0]["to"]})]
