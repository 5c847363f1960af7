"""The players' set-up choices (monferrato scenario, "Setup iniziale"; §4): decisions on the engine's stack,
Pro-France's first, each listed exactly, a choice with one answer applied without asking, then the chits dealt and
the first marker drawn; the choices are public and nothing hidden is served before or through them."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.monferrato.battle import fire_value
from arbitro.adjudicator.monferrato.common import printed_fire
from arbitro.adjudicator.monferrato.picture import monferrato_picture
from arbitro.adjudicator.pictures.model import Block
from arbitro.projections.base import UMPIRE
from arbitro.events.codec import canonical
from tests.monferrato.harness import Game, app, new_game, set_up
from arbitro.adjudicator.seat_numbers import events_of

ARMY = ["cordoba", "spa_inf1", "spa_inf2", "spa_inf3", "spa_inf4", "spa_cav1", "spa_art1", "spa_art2", "spa_sap1",
        "spa_sap2", "spa_camp"]
SETUP = "monferrato §4 (scenario, Setup iniziale)"  # §4 sets the units up as the scenario says; its heading
DUCHY_OF_MILAN = ["alessandria", "casalmaggiore", "cremona", "lodi", "lomellina", "milano", "novara", "pavia",
                  "tortona", "valenza"]


def fresh(**interpretations: str) -> Game:
    """A new game of the scenario, its set-up not yet made; the readings given set by the umpire's ruling."""
    a = app()
    g = Game(a, a.create("monferrato", "1628"))
    if interpretations:
        g.send("umpire", type="ruling", reason="the readings of this test", interpretation=interpretations)
    return g


def picture_blocks(g: Game) -> list[Block]:
    """The unit blocks of the umpire's map picture of the game now."""
    picture = monferrato_picture(g.app.view(g.id, UMPIRE), ())
    return [block for blocks in picture.blocks.values() for block in blocks]


def answer(g: Game, units: list[str], zone: str) -> list[dict[str, Any]]:
    return g.send(g.frames[-1].seats[0], type="set_up", units=units, zone=zone)


def test_pro_france_sets_up_first_and_each_choice_is_listed_exactly() -> None:
    g = fresh()
    assert g.awaited == "set_up" and g.frames[-1].seats == ("pro_france",) and g.frames[-1].rule == SETUP
    assert g.state.activation is None and g.state.hands == {}  # §4: the units first, then the chits
    nevers = ["nevers", "gon_inf3", "gon_inf4", "gon_inf5"]
    assert g.legal("pro_france") == [{"type": "set_up", "units": nevers, "zone": z} for z in ("mantova", "casale")]
    assert g.legal("pro_spain") == []
    g.reject("pro_spain", SETUP, "waiting for pro_france to set up", type="set_up", units=nevers,
             zone="casale")
    g.reject("pro_france", SETUP, "", type="set_up", units=nevers, zone="trino")
    answer(g, nevers, "casale")
    assert {g.state.units[u].zone for u in nevers} == {"casale"}
    assert g.legal("pro_france") == [{"type": "set_up", "units": [u], "zone": "mantova"} for u in ("gon_art1", "gon_art3")]
    events = answer(g, ["gon_art1"], "mantova")  # the 3 in Mantova, the 4 goes with Nevers ("a scelta: 3 o 4")
    assert [(e["units"], e["zone"]) for e in events if e["type"] == "set_up"] == [
        (("gon_art1",), "mantova"), (("gon_art3",), "casale")] or [
        (list(e["units"]), e["zone"]) for e in events if e["type"] == "set_up"] == [(["gon_art1"], "mantova"),
                                                                                      (["gon_art3"], "casale")]
    answer(g, ["gon_sap2"], "mantova")
    assert g.state.units["gon_sap1"].zone == "casale"
    assert [o["zone"] for o in g.legal("pro_france")] == ["trino", "alba", "moncalvo", "nizza"]
    answer(g, [], "alba")
    assert g.state.forts["alba"] == ["pro_france"] and g.state.fort_counters["pro_france"] == 2
    # "Ovunque nel riquadro di Mantova": no fortress, not Cremona (the Spanish garrison), not closed Venice
    assert [o["zone"] for o in g.legal("pro_france")] == ["borgoforte", "bozzolo", "casalmaggiore", "goito",
                                                          "marmirolo", "ostiglia", "viadana"]
    answer(g, [], "ostiglia")
    assert g.frames[-1].seats == ("pro_spain",)
    assert g.legal("pro_spain") == [{"type": "set_up", "units": ["cordoba"], "zone": z} for z in DUCHY_OF_MILAN]


def test_the_armies_set_up_unit_by_unit_anywhere_in_their_duchy_then_the_chits_are_dealt() -> None:
    g = fresh()
    set_up_france = [(["nevers", "gon_inf3", "gon_inf4", "gon_inf5"], "mantova"), ([], "nizza"), ([], "goito")]
    for units, zone in set_up_france:  # Nevers at Mantova: the artillery and sapper choices are moot, not asked
        answer(g, units, zone)
    assert {g.state.units[u].zone for u in ("gon_art1", "gon_art3", "gon_sap1", "gon_sap2")} == {"mantova"}
    for i, u in enumerate(ARMY):
        answer(g, [u], DUCHY_OF_MILAN[i % 3])
    assert [o["zone"] for o in g.legal("pro_spain")][:3] == ["asti", "carmagnola", "chieri"]
    while g.awaited == "set_up":
        answer(g, [g.legal("pro_spain")[0]["units"][0]], "torino")
    assert g.state.units["sav_camp"].zone == "torino" and g.state.units["spa_camp"].zone == "casalmaggiore"
    assert {k: len(v) for k, v in g.state.hands.items()} == {"pro_france": 4, "pro_spain": 4}
    assert g.state.activation is not None and g.state.phase == "play"
    g.reject("pro_france" if g.state.activation.seat == "pro_france" else "pro_spain", SETUP,
             "no set-up choice is awaited", type="set_up", units=[], zone="trino")


def test_the_reading_mantova_inset_fort_duchy_keeps_the_duchy_s_zones() -> None:
    g = fresh(mantova_inset_fort="duchy")
    for units, zone in ((["nevers", "gon_inf3", "gon_inf4", "gon_inf5"], "mantova"), ([], "trino")):
        answer(g, units, zone)
    assert [o["zone"] for o in g.legal("pro_france")] == ["borgoforte", "bozzolo", "goito", "marmirolo", "ostiglia",
                                                          "viadana"]  # not Casalmaggiore, in the Duchy of Milan


def test_the_reading_scelta_3_o_4_value_each_asks_each_counter_s_value_and_the_rules_fire_it() -> None:
    """"1 Artiglieria (a scelta: 3 o 4)": under value_each the side picks each of the four counters' value (one of
    each kind stays in Mantova, the other goes with Nevers), public; the default one_of_each never asks it."""
    g = fresh(scelta_3_o_4="value_each")
    answer(g, ["nevers", "gon_inf3", "gon_inf4", "gon_inf5"], "casale")
    # one counter is like the other but for its value: which stays in Mantova is not asked
    assert g.state.units["gon_art1"].zone == "mantova" and g.state.units["gon_art3"].zone == "casale"
    assert g.awaited == "choose_value" and g.frames[-1].rule == SETUP
    assert g.legal("pro_france") == [{"type": "choose_value", "unit": "gon_art1", "fire": v} for v in (3, 4)]
    g.reject("pro_france", SETUP, "", type="choose_value", unit="gon_art1", fire=5)
    g.reject("pro_france", SETUP, "", type="choose_value", unit="gon_art3", fire=4)
    g.reject("pro_france", SETUP, "first the value of gon_art1", type="set_up", units=[], zone="trino")
    events = g.send("pro_france", type="choose_value", unit="gon_art1", fire=4)
    assert [(e["unit"], e["fire"]) for e in events if e["type"] == "value_chosen"] == [("gon_art1", 4)]
    for unit, fire in (("gon_art3", 4), ("gon_sap1", 4), ("gon_sap2", 3)):
        assert g.legal("pro_france")[0]["unit"] == unit
        g.send("pro_france", type="choose_value", unit=unit, fire=fire)
    assert g.state.chosen_fire == {"gon_art1": 4, "gon_art3": 4, "gon_sap1": 4, "gon_sap2": 3}
    assert {g.state.units[u].zone for u in ("gon_art1", "gon_sap1")} == {"mantova"}
    assert [e["event"]["fire"] for e in g.served("pro_spain") if e["event"]["type"] == "value_chosen"] == [4, 4, 4, 3]
    assert g.awaited == "set_up" and [o["zone"] for o in g.legal("pro_france")] == ["trino", "alba", "moncalvo", "nizza"]
    drawn = {b.id: b.values for b in picture_blocks(g)}  # the map shows the value chosen, not the one printed
    assert (drawn["gon_art1"], drawn["gon_sap1"], drawn["gon_sap2"]) == ("A4", "S4", "S3")
    default = fresh()
    answer(default, ["nevers", "gon_inf3", "gon_inf4", "gon_inf5"], "casale")
    answer(default, ["gon_art1"], "mantova")
    answer(default, ["gon_sap1"], "mantova")
    assert default.awaited == "set_up" and default.state.chosen_fire == {}


def test_a_chosen_value_is_the_counter_s_fire() -> None:
    """The value chosen is the one the rules read: printed_fire, in battle (§8 artillery with sappers), sieges (§9)
    and stacking (§12)."""
    g = fresh()
    s = g.state
    s.chosen_fire["gon_art1"] = 4
    assert printed_fire(s, "gon_art1") == 4 and printed_fire(s, "gon_art3") == 4 and printed_fire(s, "gon_sap1") == 3
    s.units["gon_art1"].zone = s.units["gon_sap1"].zone = "mantova"
    assert fire_value(s, "gon_art1", False, "mantova") == 4


def test_the_set_up_serves_the_same_bytes_to_each_seat_whatever_the_hands_dealt_after() -> None:
    """Non-interference: two games whose dice (and so hands) differ serve Pro-Spain and Pro-France the same set-up;
    no hand is dealt until it is over, and a `set_up` event names units and a zone only."""
    games = [new_game(standard=False) for _ in range(2)]
    for g in games:
        set_up(g)
    assert games[0].state.hands != games[1].state.hands
    for seat in ("pro_spain", "pro_france"):
        served = [[e["event"] for e in g.served(seat) if e["event"]["type"] in ("set_up", "fort_built")] for g in games]
        assert canonical(served[0]) == canonical(served[1]) and len(served[0]) >= 20
        assert all(set(e) == {"type", "seat", "units", "zone", "rule"} for e in served[0] if e["type"] == "set_up")


def test_pro_france_s_hand_entered_in_pro_spain_s_last_set_up_command_is_never_served_to_pro_spain() -> None:
    """Non-interference (arbitro §V.5, monferrato §4): in a transcribed game Pro-Spain's last set-up command deals
    both hands, the umpire entering each draw. Two games whose umpire enters different Pro-France hands serve
    Pro-Spain the same bytes, the roll it waits on included (its values entered so far were served whole to the
    command's seat: Pro-France's chits with them), in the log and in a fork made while the next draw waits."""
    hands = (["chit01", "chit02", "chit03"], ["chit06", "chit07", "chit08"])
    served, forks = [], []
    for hand in hands:
        a = app()
        g = Game(a, a.create("monferrato", "1628", transcribed=True, game_id="m"))
        set_up(g)
        assert g.awaited == "random" and g.frames[-1].ctx.command_seat == "pro_spain"
        g.enter(*hand)
        assert g.awaited == "random" and list(g.frames[-1].ctx.entered) == [tuple(hand)]  # the umpire's record
        events = [e["event"] for e in g.served("pro_spain")]
        events[0] = {k: v for k, v in events[0].items()  # each game's own seed and salt key
                     if k not in ("seed_commitment", "salt_key_commitment")}
        served.append(canonical(events))  # (the chain's hashes and salts differ with the seed, as they should)
        forks.append(canonical(events_of(a.log(a.fork(g.id, a.game(g.id).head_seq), "pro_spain"))).decode())
    assert served[0] == served[1]
    assert not any(chit in text for chit in hands[0] + hands[1] for text in (served[0].decode(), *forks))
