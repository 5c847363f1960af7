"""The scenarios' own rules (caricat §13 Pastrengo, §14 Montebello): optional rules and their VP costs, automatic
levels, the march on Pastrengo, the Ponton bridge, objectives and victory."""

from __future__ import annotations

from arbitro.adjudicator.caricat import rules as R
from arbitro.adjudicator.caricat.flow import Game
from arbitro.adjudicator.caricat.world import World
from arbitro.adjudicator.maps.hexgrid import HexId
from arbitro.events import caricat as ev
from arbitro.projections.caricat import SIDES, CaricatState, other


def game_starts(g: Game) -> None:
    """Optional rules announced at the start cost their VP now (caricat §13.3.1, §13.3.4)."""
    for option in g.file.options:
        if option.announce == "start" and option.name in g.state.options:
            g.emit(ev.OptionUsed(option=option.name, side=option.side, vp=option.vp, rule=option.rule))


def turn_starts(g: Game) -> None:
    """Levels that change by themselves at the start of a turn (caricat §14.1.2)."""
    for spec in g.file.locks:
        auto = spec.automatic
        if auto is not None and auto.turn == g.state.turn and g.state.leaders[spec.leader].level != auto.level:
            g.emit(ev.LevelChanged(leader=spec.leader, level=auto.level, reason="automatic", rule=spec.rule))


# --- optional brigades (caricat §13.3.2, §13.3.3) -------------------------------------------------------------
def callable_brigades(g_state, file, side: str) -> list[str]:  # type: ignore[no-untyped-def]
    out = []
    for o in file.options:
        if not o.leader or o.side != side or o.name not in g_state.options or o.name in g_state.used:
            continue
        if g_state.leaders[o.leader].tried:  # once a turn; a brigade called in (used) is never called again
            continue
        if (o.turn and g_state.turn != o.turn) or (o.from_turn and g_state.turn < o.from_turn):
            continue
        out.append(o.leader)
    return out


def call_brigade(g: Game, leader: str) -> None:
    state = g.state
    if state.phase != "commitment":
        g.reject(R.OPTIONS, "brigades are called in the commitment phase")
    if leader not in callable_brigades(state, g.file, g.ctx.seat):
        g.reject(R.OPTIONS, f"{leader!r} cannot be called into play now (its optional rule, its turn, once a turn)")
    option = next(o for o in g.file.options if o.leader == leader)
    g.emit(ev.LevelAttempted(leader=leader, wanted=option.level or "advance", total=0, needed=0, success=True,
                             rule=option.rule))
    success, roll = True, 0
    if option.from_turn:  # a roll below the turn's number (caricat §13.3.3)
        roll = sum(g.roll(2, R.TAXIS, f"{leader} arrival", {"needed": f"< {state.turn}"}))
        success = roll < state.turn
    g.emit(ev.BrigadeArrives(leader=leader, roll=roll, success=success, rule=option.rule))
    if success:
        g.emit(ev.OptionUsed(option=option.name, side=option.side, vp=option.vp, rule=option.rule))
        if option.level is not None and g.state.leaders[leader].level != option.level:
            g.emit(ev.LevelChanged(leader=leader, level=option.level, reason="arrival", rule=option.rule))


# --- the march on Pastrengo (caricat §13.2.1) ----------------------------------------------------------------
def march_target(g_state, file, leader: str | None) -> str | None:  # type: ignore[no-untyped-def]
    for spec in file.march:
        if leader == spec.leader and not g_state.leaders[leader].marched:
            return spec.place
    return None


def after_placement(g: Game, unit: str) -> None:
    """A unit came to stand on a hex: objectives change hands, a marching leader reaches his place."""
    u = g.state.units[unit]
    if u.hex is None:
        return
    for o in g.file.objectives:
        if o.hex == u.hex and g.state.control.get(o.hex) != u.side:
            g.emit(ev.ObjectiveTaken(hex=o.hex, side=u.side, rule=g.file.rule))
    for spec in g.file.march:
        if u.leader == spec.leader and u.hex == spec.place and not g.state.leaders[spec.leader].marched:
            g.emit(ev.LevelChanged(leader=spec.leader, level=spec.then, reason="objective", rule=spec.rule))


# --- the Ponton bridge (caricat §13.2.2) ------------------------------------------------------------------------
def bridge_question(g: Game) -> bool:
    bridge = g.file.bridge
    return bridge is not None and not g.state.bridge_destroyed and g.state.turn <= g.state.last_turn


def destroy_bridge(g: Game) -> None:
    bridge = g.file.bridge
    if g.state.phase != "recovery" or bridge is None or g.state.bridge_destroyed or g.ctx.seat != bridge.owner:
        g.reject(R.BRIDGE, "the Austrian may destroy the Ponton bridge in the recovery phase, once")
    g.emit(ev.BridgeDestroyed(hex=bridge.hex, rule=str(R.BRIDGE)))


def west_bank(w: World) -> frozenset[HexId]:
    """The hexes on the bridge's side of the river: reached from it without crossing a river hexside."""
    bridge = w.scenario.file.bridge
    assert bridge is not None
    start = w.grid.require(bridge.hex)
    seen = {start}
    frontier = [start]
    while frontier:
        nxt = []
        for h in frontier:
            for n in w.grid.neighbours(h):
                if n not in seen and "fiume" not in w.map.hexside_features(h, n):
                    seen.add(n)
                    nxt.append(n)
        frontier = sorted(nxt)
    return frozenset(seen)


# --- victory (caricat §13.4, §14.2) -------------------------------------------------------------------------------
def end_game(g: Game) -> None:
    w = g.world()
    bridge = g.file.bridge
    if bridge is not None and g.state.bridge_destroyed:
        west = west_bank(w)
        for unit, u in w.on_map(bridge.owner).items():
            if u.hex in west:
                eliminate(g, unit, R.BRIDGE)
    vp = score(g)
    victory = g.file.victory
    if victory.kind == "difference":
        diff = vp["italian"] - vp["austrian"]
        band = next(b for b in victory.bands if diff <= b.high)
        g.emit(ev.GameEnded(vp=vp, winner=band.winner, result=f"{band.result} (difference {diff})", rule=victory.rule))
        return
    winner = None if vp["italian"] == vp["austrian"] else max(SIDES, key=lambda s: vp[s])
    g.emit(ev.GameEnded(vp=vp, winner=winner, result="more victory points" if winner else "equal victory points",
                        rule=victory.rule))


def score(g: Game) -> dict[str, int]:
    state = g.state
    vp = {s: state.vp.get(s, 0) - state.costs.get(s, 0) for s in SIDES}
    for o in g.file.objectives:
        holder = state.control.get(o.hex, o.controller)
        vp[holder] += o.vp.get(holder, 0)
    return vp


def eliminate(g: Game, unit: str, rule: R.Rule) -> None:
    """A unit leaves the game: its enemy scores it (caricat §13.4, §14.2); its leader moves to another of his
    units or leaves the game with no VP (caricat §7.3)."""
    u = g.state.units[unit]
    vp = getattr(g.file.elimination_vp, u.kind)
    g.emit(ev.UnitEliminated(unit=unit, vp_to=other(u.side), vp=vp, rule=str(rule)))
    for k, le in sorted(g.state.leaders.items()):
        if le.unit == unit and not le.gone:
            choices = transfer_choices(g.state, k)
            if len(choices) <= 1:  # no choice to make: he joins his one unit left, or leaves the game
                g.emit(ev.LeaderTransferred(leader=k, unit=choices[0] if choices else None, rule=str(R.LEADER_LOSS)))
            # several: his owner chooses (offer_transfer), once the procedure under way reaches a decision point


def transfer_choices(state: CaricatState, leader: str) -> list[str]:
    """The units a leader whose unit was eliminated may join: "qualsiasi altra unità che lui comanda" (caricat
    §7.3), those on the map, or while none is, those still to arrive."""
    mine = {x: v for x, v in sorted(state.units.items()) if v.leader == leader and x != state.leaders[leader].unit}
    on_map = [x for x, v in mine.items() if v.where == "map"]
    return on_map or [x for x, v in mine.items() if v.where == "off"]


def orphaned(state: CaricatState) -> list[str]:
    """Leaders still standing with an eliminated unit and a choice of units to join: each awaits his owner's choice
    (caricat §7.3; with one unit or none, eliminate() settled it at once)."""
    return [k for k, le in sorted(state.leaders.items()) if not le.gone and le.unit is not None
            and state.units[le.unit].where == "gone" and len(transfer_choices(state, k)) > 1]


def offer_transfer(g: Game) -> bool:
    """Open the choice of a leader's new unit if one is due (or already open); True while it waits. Called between
    a procedure's stages (steps.proceed, combat.run), never inside one, so that no frame is opened mid-stage."""
    top = g.top()
    if top is not None and top.kind == "leader_transfer":
        return True
    if g.state.phase == "over":
        return False
    for leader in orphaned(g.state):
        choices = transfer_choices(g.state, leader)
        le = g.state.leaders[leader]
        g.push("leader_transfer", (le.side,), R.LEADER_LOSS, f"choose the unit {leader} joins",
               ev.TransferAwaited(leader=leader, units=tuple(choices)))
        return True
    return False


def transfer(g: Game, leader: str, unit: str) -> None:
    g.pop()
    g.emit(ev.LeaderTransferred(leader=leader, unit=unit, rule=str(R.LEADER_LOSS)))
