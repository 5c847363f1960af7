"""Efficiency tests (arrivano §13, caldiero §13): one die for a stack (§13.1.2 in both) against each unit's value,
with natural results; what a commander adds is the variant's (D9: caldiero §13.2 his initiative to the value,
arrivano §13.2 -1 to the die)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import product

from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World


def passes(variant: Variant, die: int, efficiency: int, die_modifier: int = 0) -> bool:
    """A test passes when the modified die is at most the efficiency; the natural results override
    (arrivano §13.1.1, caldiero §13.1.1: 1 always passes, 6 always fails)."""
    if die == variant.natural_pass:
        return True
    if die == variant.natural_fail:
        return False
    return die + die_modifier <= efficiency


def most_sp_values(units: Iterable[tuple[int, int]]) -> list[int]:
    """The efficiency values carrying the most strength points among (efficiency, strength) pairs, ascending
    (arrivano §12.3.1, caldiero §12.3.1); several on a tie, among which the owner chooses."""
    by_value: dict[int, int] = {}
    for value, strength in units:
        by_value[value] = by_value.get(value, 0) + strength
    if not by_value:
        return []
    top = max(by_value.values())
    return sorted(v for v, sp in by_value.items() if sp == top)


def side_values(world: World, units: Iterable[str]) -> list[int]:
    """A side's efficiency values in an assault (caldiero §12.3.1, arrivano §12.3.1): those carrying the most SP of
    its units, each unit's value as a test reads it (`World.test_efficiency`); artillery never counts (caldiero
    §11.0.1, arrivano §11.0.2). Several on a tie, the owner choosing."""
    return most_sp_values((world.test_efficiency(u), world.strength(u)) for u in units if not world.is_artillery(u))


def may_tie(world: World, units: Iterable[str], bonus: int) -> bool:
    """Whether the units' values could tie for most SP (§12.3.1 in both) with `bonus` added to the value of any of
    them, as it is to a unit in Defence in the weather that gives it (arrivano §17.2.7): whatever their orders are.
    The units alike in printed value and SP are counted together: each count of them given the bonus is tried."""
    alike: dict[tuple[int, int], int] = {}
    for u in units:
        if not world.is_artillery(u):
            key = (world.efficiency(u), world.strength(u))
            alike[key] = alike.get(key, 0) + 1
    groups = sorted(alike.items())
    for given in product(*(range(n + 1) for _, n in groups)):
        pairs = [(value + bonus, sp * k) for ((value, sp), _), k in zip(groups, given)]
        pairs += [(value, sp * (n - k)) for ((value, sp), n), k in zip(groups, given)]
        if len(most_sp_values(p for p in pairs if p[1])) > 1:
            return True
    return False


def choices(world: World, attackers: Iterable[str], defenders: Iterable[str]) -> dict[str, list[int]]:
    """Each side's `side_values` by role ("attack", "defence"), worked out once an assault (both §12.3.1)."""
    return {"attack": side_values(world, attackers), "defence": side_values(world, defenders)}


def in_use(values: Mapping[str, list[int]], chosen: Mapping[str, int]) -> tuple[int, int]:
    """The attacker's and the defender's values an assault is read with (caldiero §12.3.1, arrivano §12.3.1): each
    side's `chosen` one (by role, "attack" / "defence": picked on a tie, assault_stages.efficiency_values) while it
    is still one of its `values` (`choices`), else the best of them (0 for a side with none)."""
    pick = [(v if (v := chosen.get(role)) in values[role] else (values[role] or [0])[-1]) for role in ("attack", "defence")]
    return pick[0], pick[1]


def test_values(variant: Variant, world: World, units: Sequence[str]) -> dict[str, int]:
    """Each unit's value for a test (`World.test_efficiency`, arrivano §17.2.7 adding its weather bonus), with what
    its commander adds to it (D9, caldiero §13.2)."""
    return {u: world.test_efficiency(u) + variant.commander_value_bonus(world, u) for u in units}


def die_modifier(variant: Variant, world: World, units: Sequence[str]) -> int:
    """The modifier to a stack's die from its commanders (D9, arrivano §13.2: -1, only one counts): the best any
    unit of the stack has."""
    return min((variant.commander_die_modifier(world, u) for u in units), default=0)



# A game's die for one stack's test: (hex, its units, each unit's value, the die modifier) -> the die rolled. The
# game words the roll as its record has it; the kernel decides who tests together and who passes.
StackRoll = Callable[[str, list[str], dict[str, int], int], int]


def stacks(world: World, units: Iterable[str]) -> list[tuple[str, list[str]]]:
    """The units grouped by the hex they stand in (one die a stack, §13.1.2 in both), hexes in order, units in the
    order given ("" for a unit off the map)."""
    by_hex: dict[str, list[str]] = {}
    for u in units:
        by_hex.setdefault(world.hex_of(u) or "", []).append(u)
    return sorted(by_hex.items())


def stack_test(variant: Variant, world: World, h: str, units: list[str], roll: StackRoll,
               extra: int = 0) -> dict[str, bool]:
    """One die for the units at `h` (§13.1.2 in both) against each one's value, the commanders' modifier on it
    (D9); whether each passed. `extra`: a modifier the calling rule adds to the die (arrivano §16.3.3)."""
    values = test_values(variant, world, units)
    modifier = die_modifier(variant, world, units) + extra
    die = roll(h, units, values, modifier)
    return {u: passes(variant, die, values[u], modifier) for u in units}


def stack_tests(variant: Variant, world: World, units: Iterable[str], roll: StackRoll) -> Iterator[dict[str, bool]]:
    """Each stack of `units` tests on one die, in hex order: whether each unit passed, one mapping a stack. Lazy:
    the caller applies a stack's results before the next die is rolled (the order the record keeps)."""
    for h, stack in stacks(world, units):
        yield stack_test(variant, world, h, stack, roll)


def failed(results: Iterable[dict[str, bool]]) -> list[str]:
    """The units that failed their stack's test, stack by stack."""
    return [u for stack in results for u, ok in stack.items() if not ok]
