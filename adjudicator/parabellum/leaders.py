"""A commander's loss test (caldiero §4.4.1-§4.4.4, arrivano §4.5.1-§4.5.4): whatever calls for it (a natural 6 of
the attacker against his hex, a natural 1 using his modifier, his hex emptied of friends), one die decides; which
faces lose him is the book's data (D10, tables/rules.json `leader_loss`). The die is recorded as each game words its
rolls, and what follows a loss is the game's (arrivano §17.2.12: a lost Maggiore's flag), both through parabellum/act.Act."""

from __future__ import annotations

from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.parabellum.world import World
from arbitro.events.parabellum import LeaderLost


def leader_test(game: Act, world: World, leader: str, cause: str) -> bool:
    """caldiero §4.4.3, arrivano §4.5.3: roll for `leader`; lost when the book's `leader_loss` says so of the die, his
    role and printed initiative (D10), the loss citing where that file says the book prints the faces
    (`leader_loss.rule`). True when he survives."""
    die = game.leader_die(leader, cause)
    loss = world.book_rules.leader_loss
    if not loss.lost(die, world.leader_role(leader), world.leader_initiative(leader)):
        return True
    game.emit(LeaderLost(leader=leader, rule=loss.rule))
    game.after_leader_lost(leader)
    return False
