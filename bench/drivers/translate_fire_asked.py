"""The command translator of Caldiero's defensive fire asked again only where a gun may still fire, for
`bench.drivers.relog --translate`.

    python -m bench.drivers.relog --translate bench.drivers.translate_fire_asked:translate logs/caldiero-*.jsonl

After one gun's defensive fire, Caldiero asked the assaulted hex's other guns again whatever they could hit; since
the twentieth session it asks them only where a ready gun may bombard an attacker still in the assault (caldiero
§11.4.5, the kernel's assault_stages.fire_asked, as the first question). A recorded `decline` of the question this
build no longer asks (the attackers had all been put out of the assault by the fire) is dropped: the same game, the
guns held their fire. Every other command is kept (translate_cavalry_retreat.CavalryRetreatTranslator reads which
question each recorded command answered).
"""

from __future__ import annotations

from bench.drivers.translate_cavalry_retreat import CavalryRetreatTranslator

translate = CavalryRetreatTranslator("defensive_fire", "caldiero §11.4.5")
