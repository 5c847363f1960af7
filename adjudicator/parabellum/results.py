"""The results of an assault (caldiero §12.5.4, arrivano §12.5.4: the same seven results, worded alike in both
books), written once: which side each result strikes and how, the Dr test's outcome, and the commanders the
assault's die makes test (caldiero §4.4.1-§4.4.2, arrivano §4.5.1-§4.5.2).

Written once here or in the kernel too: an Ae's or a De's eliminations (`eliminated`), the retreat a rout forces at
once (both §15.2.1: parabellum/retreat_frame.disordered, routed_away), the Ex whole (`exchanged`: whom it takes by
D26's hooks, then the others' tests), the Dr's one-hex retreat (`dr_retreat`) and its tests, both games' assault stage
DR_TESTS (`dr_tests`), the Ne test's offer and what a tested Ne gives (D25, `ne_offered`, `ne_answered`, NE_ROW), and
Caldiero's Dr turned Dd or Ex by its terrain (the table's `Variant.table_result`). What stays each game's, through
`Results`: the hexes a Dr's retreats are asked by, and Arrivano's DR procedure (arrivano §10.1.1, §12.5.4: Defence-order units
in a village or redoubt may hold or exchange)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Final, Literal, Protocol, get_args

from arbitro.adjudicator.parabellum import efficiency, elimination, retreat_frame, rout
from arbitro.adjudicator.parabellum.data import CrtResult
from arbitro.adjudicator.parabellum.act import Act, stack_roll
from arbitro.adjudicator.parabellum.assault import ADVANCE
from arbitro.adjudicator.parabellum.assault_frame import assault_below
from arbitro.adjudicator.parabellum.leaders import leader_test
from arbitro.adjudicator.parabellum.steps import Row
from arbitro.adjudicator.parabellum.variant import Reading, Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.events.parabellum import AssaultResolved, AssaultUnderway, ExchangeLossAwaited, NeChoiceAwaited

# Both §12.5.4: the results a CRT cell holds, as the tables store them (parabellum/data.CrtResult validates them).
RESULTS: Final[tuple[str, ...]] = get_args(CrtResult)
# Both §12.5.4 Ex: the sides in the order their losses are settled (caldiero's defender covers the SP the
# attacker lost, D26).
EX_SIDES: Final = ("attackers", "defenders")
EXCHANGE_LOSS: Final = "exchange_loss"  # the kind of the decision a side's owner names its Ex loss in
NE_CHOICE: Final = "ne_choice"  # the kind of the attacker's choice to test a Ne (both games)


class Results(Protocol):
    """What each game does itself with an assault's result (caldiero's combat stages, arrivano's assault procedure)."""

    def retreat_tested(self, units: Sequence[str]) -> None:
        """Dr: `units` retreat one hex (`dr_retreat`; arrivano's village or redoubt choice first, §10.1.1) and then
        test (the assault's stage DR_TESTS, `dr_tests`)."""
        ...


def apply_result(a: Act, game: Results, result: str, attackers: Sequence[str], defenders: Sequence[str],
                 ne_testable: bool) -> None:
    """caldiero §12.5.4, arrivano §12.5.4: what `result` does. `attackers` are the units still attacking,
    `defenders` those the table fought (artillery, which takes no part in an assault, is not among them except as
    a De takes it); `ne_testable`: a Ne may be tested (`ne_may_test` below says). Ae / De: every attacker / defender
    eliminated with the guns it drags (`eliminated`); Ad / Dd: a disorder level each, a rout retreating at once
    (§15.2.1, retreat_frame.disordered); Ex: `exchanged`; Ne: the attacker asked to test it (`ne_offered`);
    a Dr's retreats are the game's (`Results`). A result outside the table changes nothing."""
    if result in ("Ae", "De"):
        eliminated(a, attackers if result == "Ae" else defenders, "Ae" if result == "Ae" else "De")
    elif result in ("Ad", "Dd"):
        retreat_frame.disordered(a, attackers if result == "Ad" else defenders, a.variant.rules.RESULTS)
    elif result == "Ne" and ne_testable:  # with no Attack order, no effect
        ne_offered(a)
    elif result == "Ex":
        exchanged(a, a.variant)
    elif result == "Dr":
        game.retreat_tested(defenders)


def eliminated(game: Act, units: Sequence[str], result: Literal["Ae", "De"]) -> None:
    """Both §12.5.4 Ae / De with §11.1 (the guns an assault's result drags with its units): an Ae's `units` (the
    attackers), then the guns they leave alone in their hexes; a De's every unit of the assault's attacked hexes, hex
    by hex, `units` (the defenders) citing the result, the guns stacked with them §11.1, forced by it."""
    variant = game.variant
    rules = variant.rules
    if result == "Ae":
        elimination.eliminated_with_guns(game, variant, units, rules.RESULTS, result="Ae")
        return
    for u in [x for h in game.world().assault().targets for x in game.world().units_at(h)]:
        if u in units:
            elimination.eliminate(game, variant, u, rules.RESULTS, result="De")
        else:
            elimination.eliminate(game, variant, u, rules.ARTILLERY_STACKED,
                                  because=elimination.cause_of(rules.RESULTS, result="De"))


def ne_tested(variant: Variant, w: World, attackers: Sequence[str], roll: efficiency.StackRoll) -> str:
    """An Ne under an Attack order that the attacker tests (§12.5.4 Ne in both; one die a stack, §13.1.2): Ex when
    the tests pass as the variant reads it (D25), Ad otherwise."""
    passed = [list(stack.values()) for stack in efficiency.stack_tests(variant, w, attackers, roll)]
    return "Ex" if variant.ne_passes(passed) else "Ad"


def ne_offered(a: Act) -> None:
    """Both §12.5.4 Ne under an Attack order ("può ... fare un test di efficienza": the attacker may test): he is
    asked, above the assault (NE_CHOICE, answered by NE_ROW's `ne_choice`)."""
    rule = a.variant.rules.RESULTS
    a.assault_frames().push(NE_CHOICE, (a.world().assault().attacker_side,), str(rule),
                            f"Ne with an Attack order: test efficiency (Ex if passed, Ad if failed) or keep Ne ({rule})",
                            NeChoiceAwaited())


def ne_answered(game: Act, variant: Variant, test: bool) -> None:
    """Both §12.5.4 Ne under an Attack order, the attacker's answer to the test `ne_offered` asked, on the
    attackers still in the assault below: kept, no effect; tested (one die a stack, §13.1.2, "Ne test in <hex>" in
    both games since the eighteenth session), Ex where the tests pass as the variant reads it (D25), else Ad, recorded
    as the assault's result (arrivano recorded none until the sixteenth session) and carried out as the table's."""
    if not test:
        return
    w, rules = game.world(), variant.rules
    c = w.assault()
    attackers = [u for u in c.attackers if w.on_map(u)]
    new = ne_tested(variant, w, sorted(attackers), stack_roll(game, lambda h: f"{rules.RESULTS} Ne test in {h}"))
    game.emit(AssaultResolved(result=new, rule=str(rules.RESULTS), targets=c.targets, notes=("Ne tested by the attacker",)))
    exchanged(game, variant) if new == "Ex" else retreat_frame.disordered(game, attackers, rules.RESULTS)


def exchange_losses(game: Act, variant: Variant, side: str = "attackers", named: Sequence[str] | None = None) -> bool:
    """§12.5.4 Ex in both ("sia l'attaccante che il difensore perdono"; caldiero: the attacker first, the defender
    then at least the SP he lost), between the assault's attackers and defenders: from `side` on, each side loses
    what the variant allows (D26: `ex_attacker_losses` with the attackers' efficiency in use, `ex_defender_losses`
    with the SP the attacker lost, on the strengths `ex_strengths` counts), eliminated at once with the guns it
    leaves alone (§11.1), citing "§12.5.4 (Ex result)" in both games (as an Ae's "(Ae result)"); where several losses are allowed the side's
    owner names one (EXCHANGE_LOSS, above the assault), his answer coming back as `named`. True once both sides have
    lost (the others' tests follow, each game's own); False while an owner is asked."""
    c = assault_below(game.ctx.game.core.decisions)
    assert c is not None, "an exchange is an assault's result"
    lost = 0
    # The strengths of the combat, counted once before any loss: the attacker's loss must not change the strengths the
    # defender's loss is compared on (arrivano's `modified` reading counts the attackers still in the combat; rev-i R1).
    sp = variant.ex_strengths(game.world(), c.attackers, c.defenders)
    for role in EX_SIDES[EX_SIDES.index(side):]:
        w = game.world()
        if named is None:
            units = [u for u in (c.attackers if role == "attackers" else c.defenders)
                     if w.on_map(u) and not w.is_artillery(u)]
            sets = ([(u,) for u in variant.ex_attacker_losses(w, units, c.chosen.get("attack", 0), sp)]
                    if role == "attackers" else [tuple(s) for s in variant.ex_defender_losses(w, units, lost, sp)])
            if len(sets) > 1:
                rule = str(variant.rules.RESULTS)
                game.assault_frames().push(EXCHANGE_LOSS, (w.side_of(sets[0][0]),), rule, f"decide the exchange loss ({rule})",
                            ExchangeLossAwaited(role=role, sets=tuple(sets)))
                return False
            named = sets[0] if sets else ()
        lost = sum(sp[u] for u in named)
        elimination.eliminated_with_guns(game, variant, named, variant.rules.RESULTS, result="Ex")
        named = None
    return True


def exchange_tested(game: Act, variant: Variant, units: Sequence[str], roll: efficiency.StackRoll) -> Iterator[list[str]]:
    """Both §12.5.4 Ex after the losses: every other unit of the combat (`units`, in the order each game takes them)
    still on the map tests, artillery not (it takes no part in an assault, caldiero §11.0.1, arrivano §11.0.2), one
    die a stack (§13.1.2), a failing one taking a disorder level citing the result (`rout.disorder`). Lazy: yields
    each stack's units it routed, which retreat at once (§15.2.1: each game opens it, retreat_frame.opened), before the next die."""
    w = game.world()
    for stack in efficiency.stack_tests(variant, w, [u for u in units if w.on_map(u) and not w.is_artillery(u)], roll):
        yield [u for u in efficiency.failed([stack]) if rout.disorder(game, variant, u, variant.rules.RESULTS)]


def exchanged(game: Act, variant: Variant, side: str = "attackers", named: Sequence[str] | None = None) -> None:
    """Both §12.5.4 Ex in the assault below, in both games' order: the losses (`exchange_losses` from `side` on,
    `named` an owner's answer), then, once both sides have lost, the others' tests (`exchange_tested`, sorted), and
    the units they routed retreat at once (§15.2.1, retreat_frame.routed_away), their frames opened once every die is
    rolled. One reading for both books since the eighteenth session (caldiero opened them so; arrivano opened each
    stack's before the next die: the dice and what they decide are the same either way, only the retreats' frames
    differ, one a side)."""
    if not exchange_losses(game, variant, side, named):
        return
    c, rules = game.world().assault(), variant.rules
    routed = [u for stack in exchange_tested(game, variant, sorted(c.attackers + c.defenders),
                                             stack_roll(game, lambda h: f"{rules.RESULTS} Ex test in {h}")) for u in stack]
    retreat_frame.routed_away(game, dict.fromkeys(routed, rout.RETREAT_HEXES), rules.RESULTS)


def ne_may_test(orders: Sequence[str], reading: Reading, attacked_under_attack: bool = True) -> bool:
    """Both §12.5.4 Ne ("Se le unità in attacco avevano Ordine Attacco", the same words in both books): whether the
    attacker may test an Ne, from the orders of the units still in the attack when it is resolved. Interpretation
    `ne_attack_order`: `every_attacker` (the default: the words speak of the units in the attack, all of them, and a
    unit attacking under Advance after its "Attack?" test had no Attack order) or `any_attacker` (one suffices). The
    two games read it each its own way until caldiero 0.17.0 and arrivano 1.17.0 (issue 19). `attacked_under_attack`
    False ("avevano": no Attack order made the assault, whatever the orders read now): no test. Arrivano passes its
    frame's `forced`, so a counter-charge (§14.2.4: "con un Ordine di Difesa") never tests, though its order, read
    again as the position stands, may read Attack by now (rev-o O5); Caldiero, with no counter-charge, passes none."""
    held = [order == "attack" for order in orders]
    return attacked_under_attack and bool(held) and (all(held) if reading("ne_attack_order") == "every_attacker"
                                                     else any(held))


def dr_levels(status: str, passed: bool, reading: Callable[[str], str]) -> int:
    """Both §12.5.4 Dr: the disorder levels a unit's Dr test adds (rout.worsened applies them). Passed: one, so a
    unit in good order is disordered; failed: two, so it routs (§15.2.1). One already disordered that passes routs
    by its second level (§15.1), or stays as it is under the reading `dr_pass_already_disordered: disordered`."""
    if not passed:
        return 2
    return 0 if status == "disordered" and reading("dr_pass_already_disordered") == "disordered" else 1


def dr_tested(variant: Variant, w: World, units: Sequence[str], roll: efficiency.StackRoll,
              reading: Callable[[str], str]) -> Iterator[dict[str, int]]:
    """Both §12.5.4 Dr, once its one-hex retreat is made ("devono ritirarsi di un esagono e fare un test di
    efficienza", the same words in both books: the retreat, then the test): `units` (those still on the map) test,
    one die per stack where each now stands (§13.1.2), and each stack gives the disorder levels its units add
    (`dr_levels`). A unit its retreat already routed (into an enemy ZoC, §12.6.1) takes no test: no die could make
    it worse, and it retreated for its rout; a stack of such units rolls no die (until caldiero 0.20.0 and arrivano
    1.22.0 it rolled one that decided nothing). Lazy, as `efficiency.stack_tests`: the caller applies a stack's
    levels before the next die."""
    testers = [u for u in units if w.status(u) != "routed"]
    for stack in efficiency.stack_tests(variant, w, testers, roll):
        yield {u: dr_levels(w.status(u), passed, reading) for u, passed in stack.items()}


def dr_retreat(game: Act, units: Sequence[str]) -> None:
    """Both §12.5.4 Dr ("devono ritirarsi di un esagono e fare un test di efficienza"): `units` retreat one hex first,
    the guns with them eliminated (§11.1), both citing the result; their tests are the assault's stage DR_TESTS
    (`dr_tests`), once the retreats are made."""
    rules = game.variant.rules
    retreat_frame.opened(game, dict.fromkeys(units, 1), rules.RESULTS, rules.RESULTS)


def dr_tests(game: Act, c: AssaultUnderway) -> None:
    """The assault's stage DR_TESTS in both games, once the Dr's one-hex retreats are made, the advance next: its
    `dr_units` still on the map test (`dr_tested`, one die a stack where they now stand, "Dr test in <hex>"), each
    unit's levels recorded (`rout.disorder`) citing the result, or where they rout it §15.2.1, which both books'
    §12.5.4 Dr names ("(15.2.1)"); the routed, in test order, retreat `dr_rout_hexes` more at once
    (retreat_frame.routed_away: the guns with them eliminated, §11.1)."""
    game.assault_frames().revise(stage=ADVANCE)
    w, rules = game.world(), game.variant.rules
    roll = stack_roll(game, lambda h: f"{rules.RESULTS} Dr test in {h}")
    routed = [u for levels in dr_tested(game.variant, w, [u for u in c.dr_units if w.on_map(u)], roll, game.reading)
              for u, added in levels.items()
              if rout.disorder(game, game.variant, u, rules.RESULTS, added, routs=rules.ROUT_COMBAT)]
    retreat_frame.routed_away(game, dict.fromkeys(routed, dr_rout_hexes(game.reading)), rules.RESULTS)


def dr_rout_hexes(reading: Callable[[str], str]) -> int:
    """Both §12.5.4 Dr with §15.2.1: the hexes a unit the Dr test routs retreats beyond the Dr's one hex; reading
    `dr_rout_retreat`: two more (`additional_2`), or two in all (`total_2`: one more)."""
    return 2 if reading("dr_rout_retreat") == "additional_2" else 1


def commanders_tested(game: Act, variant: Variant, w: World, die: int, defender_side: str,
                      defending: Sequence[str], general: str | None) -> None:
    """caldiero §4.4.1-§4.4.2, arrivano §4.5.1-§4.5.2: the assault's natural 6 tests every commander in the defending
    hexes (`defending`, in the order given, `defender_side`'s), a natural 1 the attacking general whose +1 counted
    (`general`, None when none did); each test by the variant's faces (D10), its cause worded alike in both games
    (`LEADER_SIX`/`LEADER_ONE` with the die and hex), a loss citing the test itself as the book's data gives it
    (tables/rules.json `leader_loss.rule`: caldiero §4.4.3, arrivano §4.5.3; Caldiero cited the cause until the
    sixteenth session)."""
    rules = variant.rules
    if die == 6:
        for h in defending:
            for leader in w.leaders_at(h, defender_side):
                leader_test(game, w, leader, f"{rules.LEADER_SIX} a natural 6 against {h}")
    elif die == 1 and general is not None:
        leader_test(game, w, general, f"{rules.LEADER_ONE} a natural 1 with the general's modifier")


# Both games' row of NE_CHOICE (parabellum/steps): test or keep the Ne.
NE_ROW = Row(lambda w, frame: [{"type": "ne_choice", "test": t} for t in (True, False)],
             lambda a, frame, cmd: ne_answered(a, a.variant, cmd.test))
