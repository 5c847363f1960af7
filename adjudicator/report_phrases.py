"""A served event in plain words, for `arbitro report` (issue 13): a sentence template per event type the five
rulesets and the engine write, filled from the event's own fields, and a generic sentence for any other type (its
name and fields), so a new event type is reported before anyone writes its template.

Every phrase is built from the event as the seat was served it: a field the seat may not see is absent, and then
the template is not used (the generic sentence names only what is there). Nothing here reads the state."""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping
from typing import Any

from arbitro.projections.base import reads_chain

# The engine's bookkeeping: who is awaited, checkpoints, the steps of a procedure. Not part of the story.
UNTOLD = frozenset({
    "checkpoint", "decision_opened", "decision_revised", "decision_resolved", "step_began", "distances_taken",
    "order_test_taken", "charge_ended",
    "step_recorded", "entropy_added", "entropy_requested", "entropy_committed", "entropy_revealed",
    "entropy_waived", "entropy_mixed", "levels_done", "loss_task_ended", "direction_released",
})

# Types whose command is a combat (fire, assault, melee, battle, bombardment): their entries are marked as combats.
COMBAT_WORDS = ("attack", "assault", "combat", "melee", "fire", "battle", "volley", "bombard", "raid")
# Types that are losses: counted per turn and side in the report's losses table.
LOSS_TYPES = frozenset({
    "unit_eliminated", "leader_eliminated", "leader_lost", "eliminated", "strength_lost", "morale_lost",
    "hits_taken", "step_lost", "steps_lost",
})

# type -> its sentence, or sentences tried in order: the first whose fields were all served is used.
PHRASES: dict[str, str | tuple[str, ...]] = {
    # the engine (arbitro §R, §S, §U, §V)
    "game_created": "The game is created: {ruleset} {version}, scenario {scenario}, seats {seats}",
    "dice_rolled": ("rolled {values} on {count}d{sides} for {purpose}", "a roll hidden from you ({count}d{sides})"),
    "items_drawn": ("drew {drawn} for {purpose}", "a draw hidden from you, for {purpose}"),
    "ruling_made": "Umpire's ruling: {reason}",
    "undo_requested": "{seat} asks to undo back to #{to_seq}",
    "undo_answered": "{seat} answers the undo request: {accept}",
    "undo_declined": "the undo asked by {seat} is declined",
    "undone": "Undone by {by} back to #{to_seq}: {reason}",
    "seed_revealed": "the dice seed is revealed ({reason})",
    "salt_key_revealed": "the salt key is revealed ({reason}): every salt can now be recomputed",
    "game_forked": "game {child} is forked from #{at}",
    "key_registered": "{seat} registers its signing key: its commands after this one are signed with it",
    "key_withdrawn": "The umpire withdraws {seat}'s signing key, which covered commands {first_cmd} to {last_cmd}: {reason}",
    "entered_on_behalf": "{by} enters this command for {seat}",
    "random_requested": "{seat} is asked to enter a {kind} for {purpose}",
    "dispute_opened": "{by} opens dispute {dispute} about events {about}: {text}",
    "dispute_replied": "{by} answers dispute {dispute}: {text}",
    "dispute_ruled": "The umpire rules dispute {dispute} {outcome}: {text}",
    # turns and phases
    "turn_began": ("Round {round} begins at {hour}:00 with {side}'s turn", "Turn {turn} begins"),
    "turn_ended": ("{side}'s turn of round {round} ends", "Turn {turn} ends"),
    "phase_began": "The {phase} phase begins ({seat})",
    "initiative_won": "{seat} wins the initiative",
    "weather_changed": "The weather moves to box {box}",
    "game_ended": ("The game ends: {result}", "The game ends: {reason}", "The game ends: {winner} wins, VP {vp}"),
    "at_start_placed": "the At Start blocks are placed: {placements}",
    "units_called": "{units} are called {path}",
    "setup_ended": "{side} has set up",
    "end_moved": "the last turn moves to {last_turn}",
    "game_over": "The game is over: {winner} wins ({reason})",
    # orders, commitment, activation
    "order_changed": "{formation} changes to {order} orders",
    "order_change_tried": "{formation} tries to change to {order} orders: {succeeded}",
    "unit_order_set": "{unit} is given {order} orders",
    "formation_activated": "{formation} is activated",
    "activation_ended": "the activation ends",
    "leader_activated": "{leader} is activated at {level}",
    "level_attempted": "{leader} tries for {wanted}: {total} against {needed}, {success}",
    "level_changed": "{leader} is now at {level}",
    "cavalry_activated": "{unit} tries to activate: {success}",
    "zones_activated": "{command} activates {zones}",
    "command_drawn": "{command} is drawn for {seat}",
    "chit_played": "{seat} plays {chit}",
    "blocks_activated": "{blocks} are activated",
    "activation_allowance": "{count} more activation(s) allowed",
    "headquarters_activated": "{side} activates the headquarters {counter}",
    "officer_order_tried": "{officer} tries to give {units} {order} orders: {succeeded}",
    "column_formed": "{officer} forms a column of {units} at {order}",
    "column_dissolved": "{officer}'s column is dissolved",
    "march_order_ended": "the march order {march} ends: {reason}",
    "artillery_turned": "{units} turn (moved: {moved})",
    "open_order_marked": "{unit} is marked {marker} (open order)",
    "open_order_tested": "{unit} tests its open order: {test}, passed {passed}",
    "chit_drawn": "{seat} draws {chit}",
    "chits_dealt": "{seat} is dealt {chits}",
    "option_used": "{side} uses the option {option} ({vp} VP)",
    "brigade_arrives": "{leader}'s brigade arrives: {success}",
    "units_acted": "{units}: {action}",
    "supply_checked": "{command}'s supply: out {out}, back {back}",
    # movement
    "unit_moved": "{unit} moves {path}",
    "units_moved": "{units} move {path}",
    "leader_moved": "{leader} moves {path}",
    "blocks_moved": "{side} moves {blocks} from {from_zone} to {to_zone} ({place})",
    "unit_retreated": "{unit} retreats {path}",
    "retreated": "{units} retreat to {to}",
    "unit_advanced": "{unit} advances {path}",
    "units_advanced": "{units} advance to {to}",
    "unit_placed": "{unit} is placed at {hex}",
    "leader_placed": "{leader} is placed at {hex}",
    "group_entered": "{group} enters at {hex}: {units}",
    "group_arrived": "{group} arrives at {zone}: {units}",
    "manoeuvre_started": "{side} manoeuvres {blocks} from {from_zone} into {to_zone}",
    "manoeuvre_blocked": "{side} blocks the manoeuvre at {approach} with {blocks}",
    "manoeuvre_ended": "the manoeuvre ends: {result}",
    "blocks_revealed": "{side} reveals {blocks}",
    "blocks_hidden": "{side} turns {blocks} face down again",
    "pieces_sighted": "{seat} sights {pieces}",
    # combat
    "combat_declared": "{kind} by {attackers} on {target}",
    "leader_transferred": ("{leader} joins {unit}", "{leader} is left without a unit"),
    "fire_resolved": "{firers} fire on {target}: {dice} dice needing {needed}, {hits} hits",
    "melee_resolved": "{attackers} in melee with {target}: {attack_total} against {defence_total}, {winner} wins",
    "assault_declared": ("{attackers} assault {targets}", "{side} assaults across {approach} with {blocks}"),
    "assault_resolved": ("assault on {targets}: result {result}, {attack_strength} against {defence_strength}, odds {odds}",
                         "assault: {attack} against {defence}, {winner} wins ({detail})"),
    "assault_ended": "the assault ends: {winner} wins, {conquered} taken",
    "defending_leaders": "the defending leaders: {blocks}",
    "pursuit_declared": "{side} pursues with {blocks}, strength {strength}",
    "bombardment_cancelled": "{side}'s bombardment is cancelled ({reason})",
    "infantry_fired": "{unit} at {hex} fires on {target}: {result}",
    "elan_spent": "{unit} spends its Elan: passed {passed}, {columns} column(s)",
    "morale_checked": "{unit} tests its morale: passed {passed}",
    "artillery_fired": "{artillery} fire on {target}: result {result} (column {column}, roll {roll})",
    "battle_began": "{attacker} attacks in {zone}: {attackers} against {defenders}",
    "battle_ended": "{winner} wins the battle in {zone}",
    "volley": "{seat} fires in {zone}: dice {dice}, {hits} hits, {saved} saved",
    "raided": "{units} raid {zone}: die {die}, {result}",
    "bombardment_declared": "{side} bombards {approach} with {block}",
    "bombardment_resolved": "{side}'s bombardment of {target}: strength {strength}",
    "defensive_fire": "defensive fire: {fire}, strength {strength}",
    "attackers_withdrawn": "{units} withdraw",
    "combat_ended": "the combat ends",
    # losses and their aftermath
    "unit_eliminated": "{unit} is eliminated",
    "leader_eliminated": "{leader} is eliminated",
    "leader_lost": "{leader} is lost",
    "eliminated": "{units} are eliminated ({reason})",
    "strength_lost": "{block} loses {points} ({reason})",
    "morale_lost": "{unit} loses {levels} morale level(s) to {reason}",
    "morale_recovered": "{unit} recovers to {hits} hits",
    "hits_taken": "{unit} is {result}",
    "status_changed": "{unit} is now {status}",
    "objective_taken": "{side} takes the objective at {hex}",
    "victory_points": "{seat} scores {delta} VP ({reason})",
    "morale_changed": "{nation}'s morale becomes {value} ({reason})",
    "demoralised": "{side} is demoralised",
    "morale_bonus": "{side} gains {amount} morale",
    "disorganised": "{units} are disorganised ({reason})",
    "recovered": "{units} recover",
    "replaced": "{unit} is replaced at {zone}",
    "camp_flipped": "{units} flip",
    "forts_taken": "{seat} takes the forts in {zone}: {converted} converted, {destroyed} destroyed",
    "fort_built": "{seat} builds a fort in {zone}",
    "wall_battered": "the wall of {side} falls to level {level}",
    "bridge_destroyed": "the bridge at {hex} is destroyed",
}

TEMPLATES: dict[str, tuple[tuple[str, frozenset[str]], ...]] = {
    name: tuple((text, frozenset(f for _, f, _, _ in string.Formatter().parse(text) if f))
                for text in ((texts,) if isinstance(texts, str) else texts))
    for name, texts in PHRASES.items()}
QUIET_FIELDS = frozenset({"type", "rule", "index", "source", "about", "visible_to", "seed_commitment", "data_hash",
                          "salt_key_commitment", "initial", "initial_core", "origin", "hash", "frame", "ctx",
                          "cites", "evidence"})  # a dispute's: named apart, with what they name (report.cited)


def told(event_type: str) -> bool:
    return event_type not in UNTOLD


def is_combat(event_type: str) -> bool:
    return any(word in event_type for word in COMBAT_WORDS)


def words(value: Any) -> str:
    """A field's value in plain words: a path as arrows, a list as 'a, b and c', a Marengo block by its name (or its
    token when the name is not served), a table as 'key value' pairs."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        if "block" in value or "token" in value:
            return str(value.get("block") or f"block {value.get('token')}")
        return ", ".join(f"{k} {words(v)}" for k, v in value.items() if v not in (None, "", [], {}))
    if isinstance(value, (list, tuple)):
        items = [words(v) for v in value]
        if not items:
            return "none"
        return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"
    return "" if value is None else str(value)


def phrase(data: Mapping[str, Any]) -> str:
    """The event in plain words: its template when every field the template names was served, else its type and
    fields."""
    kind = str(data.get("type", ""))
    fields = {k: _path(v) if k == "path" else words(v) for k, v in data.items()}
    served = {k for k, v in data.items() if v is not None}
    for text, names in TEMPLATES.get(kind, ()):
        if names <= served:
            return text.format(**fields)
    details = "; ".join(f"{k.replace('_', ' ')} {fields[k]}" for k in data if k not in QUIET_FIELDS and fields[k])
    return kind.replace("_", " ").capitalize() + (f": {details}" if details else "")


def _path(value: Any) -> str:
    """A path of hexes or zones, as arrows from where it starts."""
    return "along " + " → ".join(map(str, value)) if isinstance(value, (list, tuple)) else words(value)


def details(data: Mapping[str, Any]) -> str:
    """The fields the sentence does not name (the odds' shifts, modifiers, notes), for the curious reader."""
    served = {k for k, v in data.items() if v is not None}
    used = [names for _, names in TEMPLATES.get(str(data.get("type", "")), ()) if names <= served]
    if not used:
        return ""
    named = used[0]
    return "; ".join(f"{k.replace('_', ' ')} {words(v)}" for k, v in data.items()
                     if k not in named and k not in QUIET_FIELDS and v not in (None, "", [], {}))


class NoteNames:
    """How a reader names the notes dispute messages cite (arbitro §D.7), from the notes it may read (`notes`: those
    of the chains it reads, projections.base.reads_chain: the public ones, its own private ones, and every one for
    the umpire): a cited note with its text where the note held under that number,
    in that chain, has the hash it was cited with. A message committed before store schema 3 cites a note by its
    number in the game's one count; the upgrade numbered each chain 1, 2, 3 ... and hashed it again (docs/stores.md),
    so where the reader reads the chain and no note of it has the cited hash, the number is named as the note's
    pre-schema-3 one, never as the note that holds that number now. A seat's notes come without their digests (a
    note's hash covers the log's number of its event, seat_numbers.noted): a seat's reader names a cited note by its
    chain and number, unchecked against the cited hash (the pre-schema-3 case is then told only to the umpire); and
    a note a seat cited was cited without its hash (admission.note_reference), so every reader names it so."""

    def __init__(self, notes: Iterable[Any], reader: str) -> None:
        self.held = {(n.chain, n.id): n for n in notes}
        self.hashes = {(chain, n.hash) for (chain, _), n in self.held.items()}
        self.checkable = all(n.hash for n in self.held.values())  # False: digests withheld from a seat
        self.reader = reader

    def __call__(self, ref: Mapping[str, Any]) -> str:
        chain = f"private:{ref['by']}" if ref["private"] else "public"
        kind, number = "private note" if ref["private"] else "note", ref["note"]
        where = f"(on #{ref['seq']}, by {ref['by']})"
        note = self.held.get((chain, number))
        hashed = bool(ref.get("hash"))  # a seat cites a note without its hash (engine-rules §V.6): by chain and number
        if note is not None and (not hashed or note.hash == ref.get("hash") or not self.checkable):
            # named where the reader holds it: a seat-cited note is recorded at its command's last event, which need
            # not be the note's own (an umpire's note mid-command)
            return f'{kind} {number} (on #{note.seq}, by {ref["by"]}): "{note.text}"'
        if hashed and self.checkable and reads_chain(self.reader, chain) and (chain, ref.get("hash")) not in self.hashes:
            return (f"a {kind} cited under its pre-schema-3 number {number} {where}: no {chain} note holds the hash it "
                    "was cited with (renumbered by the schema-3 upgrade, or damaged: `arbitro verify`)")
        return f"{kind} {number} {where}"


def evidence_words(ref: Mapping[str, Any], notes: NoteNames | None = None) -> str:
    """One piece of a dispute message's evidence (arbitro §D.7) as a reader names it; a note as `notes` names it,
    where the reader's notes are known."""
    match ref.get("kind"):
        case "note":
            if notes is not None:
                return notes(ref)
            return f"{'private ' if ref['private'] else ''}note {ref['note']} (on #{ref['seq']}, by {ref['by']})"
        case "position":
            return f"{ref['seat']}'s position after #{ref['at']}"
        case "readjudication":
            return f"the re-adjudication with {', '.join(f'{k}={v}' for k, v in ref['readings'].items())}"
    return f"fork {ref.get('game')}"


HIDDEN_WORDS = "an event hidden from you"


def worded(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each served event with `words` (its sentence, built only from what was served) and `told` (False for the
    engine's bookkeeping, which a viewer dims), as the browser viewer reads them; a seat's item (one per command)
    with its events' sentences joined, and each of its events worded."""
    out = []
    for event in events:
        if "events" in event:  # a seat's item, one per command (seat_numbers.per_command): its events in words
            inner = worded(event["events"])
            out.append({**event, "events": inner, "words": "; ".join(e["words"] for e in inner) or HIDDEN_WORDS,
                        "told": any(e["told"] for e in inner)})
            continue
        data = event.get("event") or {}
        out.append({**event, "words": phrase(data) if data else HIDDEN_WORDS,
                    "told": bool(data) and told(str(data.get("type", "")))})
    return out
