"""What each key of a Para Bellum seat's view is to the fog of war (caldiero §20.4, arrivano §11.3.2), for the
non-interference fuzzer (bench/nifuzz.py) and the test that keeps the table whole (tests/parabellum/
test_fog_view_keys.py: a key a view serves that is not classified here fails it).

- `PUBLIC`: the table as every seat sees it, the same bytes in both seats' views (the clock, the orders' markers, the
  stack markers, the rolls made): a perturbed hidden fact that changes one was made in sight, and is skipped.
- `OWN`: what a seat is served of its own side alone (its activation's record, its march orders, its independent
  columns): the enemy's never shows.
- `REDACTED`: the enemy's pieces as far as the seat may examine them, never those out of sight.
- `MARKERS`: what the table shows the seat where it may not examine (a stack marker with its side): public, as a
  marker is to anyone at the table, but where they stand differs by seat, each seeing the other's.

A fact hidden from a seat must never change an `OWN` or `REDACTED` key of its view: where a perturbation does, the
view itself tells it (nifuzz's channel `position`), a leak the fuzzer could not see while it skipped every
perturbation the view showed as "seen" (the eighteenth session's note)."""

from __future__ import annotations

from typing import Any, Final

from arbitro.events.codec import canonical

PUBLIC: Final = "public"
OWN: Final = "own"
REDACTED: Final = "redacted"
MARKERS: Final = "markers"
SEEN: Final = frozenset({PUBLIC, MARKERS})  # a perturbation changing one of these was made in sight

# The keys of a seat view's `state` in either game, each with its class and why (the rule it rests on).
STATE_KEYS: Final[dict[str, tuple[str, str]]] = {
    "scenario": (PUBLIC, "the game's scenario"),
    "options": (PUBLIC, "the optional rules in play (engine-rules §U.1)"),
    "turn": (PUBLIC, "the turn track (§3 in both)"),
    "last_turn": (PUBLIC, "the scenario's length"),
    "phase": (PUBLIC, "the sequence of play (§3.1 in both)"),
    "step": (PUBLIC, "the sequence of play"),
    "seat": (PUBLIC, "who is awaited"),
    "weather": (PUBLIC, "the weather box (caldiero §17, arrivano §17.2.7)"),
    "initiative": (PUBLIC, "the initiative roll's winner (§6 in both)"),
    "first_turn": (PUBLIC, "§3.2 in both"),
    "formations": (PUBLIC, "each formation's order marker and its general's A side (§5.1, §3.1 B in both)"),
    "hidden_stacks": (MARKERS, "a stack out of sight is a marker with its side (caldiero §20.4, arrivano §11.3.2)"),
    "result": (PUBLIC, "the game's end as recorded"),
    "units": (REDACTED, "own units whole, the enemy's only where the seat may examine their hex (§20.4, §11.3.2)"),
    "leaders": (REDACTED, "own commanders, the enemy's only where the seat may examine their hex"),
    "activation": (OWN, "the enemy's activation only as which formation (its units acting, out of command: §4.3, "
                        "§5.3 tell where its commanders stand; rev-l L8)"),
    # Caldiero's own
    "elan_left": (PUBLIC, "the Elan track (caldiero §16)"),
    # Arrivano's own
    "hq_used": (PUBLIC, "the HQ counter on its A side (arrivano §16.1)"),
    "columns": (OWN, "an enemy independent column's order and units lie under its officer (arrivano §16.2)"),
    "march_orders": (OWN, "a march order's end is its side's to know (arrivano §17.1.5; rev-m M3)"),
    "steps_lost": (PUBLIC, "the victory count of losses, each served as the turn track shows it (§17.1.8)"),
    "flags_captured": (PUBLIC, "Campotenese's flags (arrivano §17.2.12)"),
}

# The keys of a seat view's `engine` (projections/views.seat_view): the engine's public bookkeeping.
ENGINE_KEYS: Final[dict[str, tuple[str, str]]] = {
    "seq": (PUBLIC, "the event count (a seat is served its commands', engine-rules §V.6: bench/served.py drops it)"),
    "rolls": (PUBLIC, "the count of rolls: that a roll was made is public (engine-rules §V.4)"),
    "seed_revealed": (PUBLIC, "engine-rules §R.3"),
    "interpretations": (PUBLIC, "the umpire's readings in force"),
    "decisions": (PUBLIC, "who is awaited and for what, the contexts the umpire's (views.seat_view)"),
}

# The fields of a piece in a view's `units` or `leaders`: `EXAMINED`, shown of an enemy piece the seat may examine
# (the counter's face and its markers, §20.4, §11.3.2), or `OWN`, shown of the seat's own pieces alone.
EXAMINED: Final = "examined"
PIECE_FIELDS: Final[dict[str, dict[str, tuple[str, str]]]] = {
    "units": {
        "side": (EXAMINED, "the counter"), "formation": (EXAMINED, "the counter"), "arm": (EXAMINED, "the counter"),
        "hex": (EXAMINED, "where it stands"), "where": (EXAMINED, "map, track, gone"),
        "status": (EXAMINED, "its marker (§15 in both)"), "reduced": (EXAMINED, "its face (§12.8)"),
        "art_moved": (EXAMINED, "a gun's Moved side (§11)"), "charging": (EXAMINED, "a Charge marker (caldiero §20.2)"),
        "return_turn": (EXAMINED, "the turn track (§12.8)"),
        "damaged": (EXAMINED, "a redoubt battery's Damaged side (arrivano §17.2.6)"),
        "open_order": (EXAMINED, "its V or F marker (arrivano §16.3.4)"),
        "attached": (OWN, "the formation a reserve unit joined tells where the generals stand (caldiero §15.4.3, "
                          "reading reserve_attachment; rev-l L8: `unit_kept`)"),
    },
    "leaders": {
        "side": (EXAMINED, "the counter"), "role": (EXAMINED, "the counter"), "formation": (EXAMINED, "the counter"),
        "hex": (EXAMINED, "where he stands"), "where": (EXAMINED, "map, gone"),
        "activated": (EXAMINED, "his A side (caldiero §2.2.2)"),
    },
}


def key_class(key: str) -> str:
    """The class of a differing view key as bench/nifuzz.served_difference names it (`engine.K` for the engine's):
    '' where it is not classified (nifuzz then counts it as not public)."""
    table = ENGINE_KEYS if key.startswith("engine.") else STATE_KEYS
    return table.get(key.removeprefix("engine."), ("", ""))[0]


def differs(a: Any, b: Any) -> bool:
    """Whether two served values differ as the seat is served them, in canonical bytes: decoded, they compare
    True == 1 and 1.0 == 1, a difference of the bytes served that a dict comparison hides."""
    return canonical(a) != canonical(b)


def differing_keys(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The keys where two views of one seat differ (`differs`; a key one lacks differs): the state's bare, then the
    engine's as `engine.K`, each sorted."""
    return _differing(a["state"], b["state"]) + [f"engine.{k}" for k in _differing(a["engine"], b["engine"])]


def _differing(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    return [k for k in sorted(set(a) | set(b)) if k not in a or k not in b or differs(a[k], b[k])]


def kept_keys(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The keys where two views of one seat differ that are not `SEEN` (`differing_keys`): none where every
    difference is one the table shows (a public key, a marker)."""
    return [k for k in differing_keys(a, b) if key_class(k) not in SEEN]
