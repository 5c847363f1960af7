"""The dice checked from what a seat was served (arbitro §R.1-§R.3), so that a seat can check them from its own copy
of a game played by e-mail, offline, as well as from the game itself: the seed once its reveal is served, the mix
of the seats' entropy from the entropy events (served to every seat whole), and each roll or draw the seat was
served with its values. An undo takes back moves, never dice (the fold keeps the mix and the roll count), so the
mix in force at a roll is the last one served before it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from arbitro.events import random as rnd

MIXES = ("entropy_added", "entropy_mixed")  # the events that set the mix (projections/fold.py)
ROLLS = ("dice_rolled", "items_drawn")


def with_mix(served: Iterable[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], str]]:
    """Each served event with the seats' entropy mixed in before it, in one pass: a kept-dice fork starts from its
    parent's (game_created's `initial_core`), and each entropy event sets it for the events after it."""
    mix: str | None = None
    for event in served:
        if mix is None:
            mix = str(((event.get("event") or {}).get("initial_core") or {}).get("mix", ""))
        yield event, mix
        if event["type"] in MIXES:
            mix = event["event"]["mix"]


def mix_before(served: Sequence[dict[str, Any]], seq: int) -> str:
    """The seats' entropy mixed in before event `seq`."""
    return next((mix for event, mix in with_mix(served) if event["seq"] >= seq), "")


def revealed_seed(served: Sequence[dict[str, Any]]) -> str | None:
    """The seed, once its reveal (seed_revealed, served to every seat) is in the log."""
    return next((e["event"]["seed"] for e in served if e["type"] == "seed_revealed"), None)


def genesis(served: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The served genesis's fields (game_created, the first event served; {} for an empty log)."""
    return (served[0].get("event") or {}) if served else {}


def derivation_of(served: Sequence[dict[str, Any]]) -> str:
    """The derivation the served genesis names: arbitro-random/2 where it commits to roll keys (arbitro §R.5)."""
    return rnd.DERIVATION_KEYED if "roll_key_root" in genesis(served) else rnd.DERIVATION


def key_proven(served: Sequence[dict[str, Any]], proof: dict[str, Any]) -> bool:
    """Whether a served proof's key (roll_proven served whole) is proven by its Merkle path against the root of roll
    keys the served genesis commits to, without the seed (arbitro §R.5)."""
    created = genesis(served)
    root, keys = created.get("roll_key_root"), created.get("roll_keys")
    return (isinstance(root, str) and isinstance(keys, int) and isinstance(proof.get("path"), list)
            and rnd.proves_key(root, keys, proof["index"], proof["key"], proof["path"]))


def recomputed_by_key(roll: dict[str, Any], key: str, mix: str, values: Any) -> list[Any] | None:
    """The served roll or draw `roll` recomputed from its proven key K_i alone (arbitro §R.5); None where this seat
    was not served its `values`, or is a private draw whose pool it was not served (arbitro §V.4)."""
    if values is None or (roll["type"] == "items_drawn" and "population" not in roll):
        return None
    if roll["type"] == "dice_rolled":
        return list(rnd.keyed_roll(key, mix, roll["index"], roll["count"], roll["sides"]))
    return list(rnd.keyed_draw(key, mix, roll["index"], roll["population"], len(values)))


def recompute(seed: str | None, mix: str, data: dict[str, Any], values: Any, source: str | None,
              derivation: str = rnd.DERIVATION) -> dict[str, Any]:
    """The roll recomputed from the revealed seed (arbitro §R.1, events/random.py), and whether it matches."""
    if source == "entered":
        return {"status": "entered from the table: nothing to recompute (arbitro §R.4)"}
    if values is None:
        return {"status": "not served to this seat: nothing to recompute (arbitro §V.4)"}
    if seed is None:
        return {"status": "the seed is not revealed yet: the roll can be recomputed once it is (arbitro §R.3)"}
    if data["type"] == "items_drawn" and "population" not in data:
        return {"status": "a private draw: the pool it came from is not served to this seat (arbitro §V.4)"}
    if data["type"] == "dice_rolled":
        again: list[Any] = list(rnd.roll(seed, mix, data["index"], data["count"], data["sides"], derivation))
    else:
        again = list(rnd.draw(seed, mix, data["index"], data["population"], len(values), derivation))
    return {"status": "recomputed from the revealed seed", "seed": seed, "values": again,
            "matches": again == list(values)}


def check(served: Sequence[dict[str, Any]], commitment: str) -> tuple[str, str]:
    """Every roll and draw served with its values, recomputed once the seed is revealed: ("passed" | "failed" |
    "unchecked", what was found). The revealed seed must hash to the commitment the game was created with."""
    seed = revealed_seed(served)
    rolls = [(e, mix) for e, mix in with_mix(served)
             if e["type"] in ROLLS and e["event"].get("source", "seed") == "seed"]
    if seed is None:
        return "unchecked", (f"{len(rolls)} rolls and draws; the seed is not revealed yet, so they are recomputed "
                             f"once it is (arbitro §R.3); its commitment is {commitment}")
    if rnd.commitment(seed) != commitment:
        return "failed", f"the revealed seed does not hash to the commitment {commitment} (arbitro §R.1)"
    checked = 0
    for e, mix in rolls:
        data = e["event"]
        values = data.get("values") if data["type"] == "dice_rolled" else data.get("drawn")
        again = recompute(seed, mix, data, values, "seed", derivation_of(served))
        if again.get("matches") is False:
            return "failed", f"#{e['seq']}: {values} in the log, {again['values']} from the revealed seed"
        checked += "matches" in again
    return "passed", (f"the revealed seed matches the commitment made at creation; {checked} of {len(rolls)} rolls "
                      "and draws were served whole to this seat, and each recomputes from it (the others are "
                      "private or hidden from it)")


def check_proofs(served: Sequence[dict[str, Any]]) -> tuple[str, str] | None:
    """Each proof of one roll (roll_proven, arbitro §R.5) served whole, checked without the seed: its key proven by
    its Merkle path against the root the served genesis commits to, and the roll's served values recomputed from
    it. None where the log holds no proof; ("passed" | "failed", what was found) otherwise."""
    proofs = [e for e in served if e["type"] == "roll_proven" and isinstance((e.get("event") or {}).get("index"), int)]
    if not proofs:
        return None
    rolls = {e["event"].get("index"): (e["event"], mix) for e, mix in with_mix(served) if e["type"] in ROLLS}
    whole = recomputed = 0
    for proof in proofs:
        data, index = proof["event"], proof["event"]["index"]
        if "key" not in data:
            continue  # a roll hidden from this seat: its key is too (arbitro §V.4)
        whole += 1
        if not key_proven(served, data):
            return "failed", (f"the key given for random index {index} is not proven by its path against the root of "
                              "roll keys the genesis commits to (arbitro §R.5)")
        roll, mix = rolls.get(index, ({}, ""))
        values = roll.get("values") if roll.get("type") == "dice_rolled" else roll.get("drawn")
        again = recomputed_by_key(roll, data["key"], mix, values)
        if again is None:
            continue  # not served, or a private draw whose pool is not: the key is proven, the values not recomputed
        if again != list(values):
            return "failed", f"random index {index}: {values} in the log, {again} from its proven key (arbitro §R.5)"
        recomputed += 1
    return "passed", (f"{whole} of {len(proofs)} proven rolls served whole: each key is proven by its path against the "
                      f"root committed at creation, and {recomputed} recompute the values served (arbitro §R.5)")
