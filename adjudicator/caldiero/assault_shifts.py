"""The assault modifiers only Caldiero has, asked by its assault (system_assault.stage_resolve, through `Env.hooks`):
Elan (caldiero §16), weather columns (§17.1), confusion (§17.2), flank attacks (§20.5)."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.caldiero.system_assault import flanked, withdraw_attackers
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.parabellum import efficiency
from arbitro.events import caldiero as ev


class AssaultShifts:
    """The hooks object Caldiero's assault calls (system_procedure.Env.hooks)."""

    def before_odds(self, a: Any, notes: list[str]) -> int:
        """caldiero §16.1 Elan: an unmodified test; passed gives 1d6 columns right, failed disorders the unit
        (which then no longer attacks, §15.1). Returns the columns gained."""
        c = a.combat
        if c is None or c.elan is None or c.elan not in c.attackers:
            return 0
        w = a.w
        (roll,) = a.roll(f"{R.ELAN_TEST} Elan test of {c.elan}", {"test": "efficiency, no modifier", "value": w.efficiency(c.elan)},
                         about=(a.state.units[c.elan].hex,))
        ok = efficiency.passes(CALDIERO_VARIANT, roll, w.efficiency(c.elan))
        columns = 0
        if ok:
            (columns,) = a.roll(f"{R.ELAN_TEST} Elan columns", {"table": "1d6 columns right"})
        a.emit(ev.ElanSpent(unit=c.elan, passed=ok, columns=columns, rule=str(R.ELAN_TEST)))
        if not ok:
            status = "disordered" if a.state.units[c.elan].status == "good" else "routed"
            a.emit(ev.StatusChanged(unit=c.elan, status=status, rule=str(R.ELAN_TEST)))
            withdraw_attackers(a, (c.elan,), R.ELAN_TEST)
            notes.append(f"Elan failed: {c.elan} disordered")
        else:
            notes.append(f"Elan: {columns} columns right")
        return columns

    def column_shifts(self, a: Any, notes: list[str]) -> tuple[int, int]:
        """(columns left, columns right): weather (caldiero §17.1.1-§17.1.3: 1, 2, 3 left), confusion in boxes
        1-3 (§17.2), flank attacks (§20.5.1: 2 right)."""
        w = a.w
        c = a.combat
        left = right = 0
        if w.state.weather:
            left += w.state.weather
            notes.append(f"weather {w.state.weather}L")
            (conf,) = a.roll(f"{R.CONFUSION} confusion", {"table": "1-2 one left, 3-4 none, 5-6 one right", "box": w.state.weather})
            shift = a.env.data.weather.confusion[str(conf)]
            left -= shift
            notes.append(f"confusion {conf}: {shift:+d} column")
        if w.option("flank_attacks") and c is not None and all(flanked(w, h, c) for h in c.defender_hexes):
            right += w.scenario.options["flank_attacks"].shift_right
            notes.append("flank attack 2R")
        return left, right


HOOKS = AssaultShifts()
