"""The named interpretations of Monferrato's ambiguous rules, each with the Italian phrase it rests on; an umpire's
ruling switches one in a game (docs/rulesets/monferrato.md, "Interpretations"). The state keeps the readings in
force (note_interpretations), so `legal` and `decide` read the same one."""

from __future__ import annotations

from arbitro.adjudicator.ruleset import Interpretation
from arbitro.projections.monferrato import DISCARD_PILE, FACE_DOWN, MonferratoState

INTERPRETATIONS: dict[str, Interpretation] = {i.name: i for i in (
    Interpretation(
        name="mandatory_blocks_draw", default="when_playable", choices=("when_playable", "always"),
        rule="monferrato §16.1", phrase="Se un giocatore ha in mano un chit Obbligatorio, non può pescare altri chit",
        explanation="when_playable: a mandatory chit stops drawing only once it may be played (its date reached), "
                    "as it 'must be played at the first occasion'; always: any mandatory chit in hand stops it"),
    Interpretation(
        name="arrival_roll", default="as_written", choices=("as_written", "at_most"),
        rule="monferrato §16.3",
        phrase="Se il risultato è maggiore o uguale della differenza, in turni di gioco, tra il turno corrente e il "
               "turno di posizionamento",
        explanation="as_written: a group on an earlier box enters when the die less one is at least the turns "
                    "passed (so it grows less likely); at_most: when it is at most that (more likely each turn)"),
    Interpretation(
        name="river_crossing", default="whole_allowance", choices=("whole_allowance", "rest_of_allowance"),
        rule="monferrato §6", phrase="un'unità impiega tutta la sua capacità di movimento per farlo",
        explanation="whole_allowance: an unbridged river (or a long passage, §2.3.1) is crossed only as the one "
                    "step of a move; rest_of_allowance: it may be crossed after other steps, and ends the move"),
    Interpretation(
        name="raid_goes_on", default="unless_six", choices=("unless_six", "after_no_effect"),
        rule="monferrato §11", phrase="L'unico caso in cui devono fermarsi è quando si tira un 6",
        explanation="unless_six: after any attempt but a natural six (a success too) the raiders may go on moving "
                    "and raiding with the points left; after_no_effect: only after an attempt that neither failed nor "
                    "succeeded (\"Se la Razzia non fallisce ... ma non ha successo, le unità possono continuare\")"),
    Interpretation(
        name="stacking_choice", default="weakest_first", choices=("weakest_first", "strongest_first"),
        rule="monferrato §12",
        phrase="il numero di Fanterie e/o Cavallerie oltre le sei (6) corrisponde al numero di unità in buon ordine "
               "che vengono \"Disorganizzate\"",
        explanation="the rule does not say who picks the units: weakest_first disorganises those of the lowest "
                    "fire first; strongest_first those of the highest"),
    Interpretation(
        name="scelta_3_o_4", default="one_of_each", choices=("one_of_each", "value_each"),
        rule="monferrato §4 (scenario, Setup iniziale)", phrase="1 Artiglieria (a scelta: 3 o 4); 1 Guastatore (a scelta: 3 o 4)",
        explanation="one_of_each: the counter mix holds one artillery and one sapper of each value, and the player "
                    "chooses which of each stays in Mantova (the other going with Nevers); value_each: the player "
                    "chooses the value, 3 or 4, of each of the four counters (one of each kind in Mantova, one with "
                    "Nevers)"),
    Interpretation(
        name="mantova_inset_fort", default="inset", choices=("inset", "duchy"),
        rule="monferrato §4 (scenario, Setup iniziale)", phrase="Ovunque nel riquadro di Mantova: 1 Forte",
        explanation="inset: Gonzaga's second fort sets up in any zone of the Mantova inset (the 'riquadro') that is no "
                    "fortress, holds no enemy and is not in the closed Republic of Venice; duchy: only in a zone of the "
                    "Duchy of Mantova within it"),
    Interpretation(
        name=DISCARD_PILE, default="public", choices=("public", FACE_DOWN),
        rule="monferrato §5.1", phrase="I chit giocati vengono messi nella pila degli scarti",
        explanation="public: the pile lies face up, as the book says nothing hides it where it says what is hidden "
                    "(the hands dealt \"coperti\", §4; the \"contenitore opaco\", §5.1): a chit discarded at five (§5 "
                    "2) is shown, and at March 1629 the blue chits left in the cup go to it shown (§16.4), so each "
                    "seat then knows the other's blue chits by complement; face_down: the pile lies face down, each "
                    "seat served its size, the chit the other discards at five and the cup's blue chits unnamed (a "
                    "played chit still shows as it is played)"),
)}


def reading(s: MonferratoState, name: str) -> str:
    return s.interpretations.get(name, INTERPRETATIONS[name].default)
