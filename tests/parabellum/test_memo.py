"""The kernel's tables kept across positions (memo.Memo; its own tests are tests/foundation/test_memo.py): one data
object read by two variants is kept for each."""

from __future__ import annotations

from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.parabellum import assault
from tests.parabellum.test_data import loaded_tables


def test_one_crt_read_by_two_variants_is_named_by_each() -> None:
    """The kit table records its name in every table read (§12.5 in both): one data object read by two variants
    must not give the second the first one's name."""
    table, _ = loaded_tables(CALDIERO_VARIANT)
    assert assault.crt(CALDIERO_VARIANT, table).name == CALDIERO_VARIANT.crt_name
    assert assault.crt(ARRIVANO_VARIANT, table).name == ARRIVANO_VARIANT.crt_name
    assert assault.crt(CALDIERO_VARIANT, table) is assault.crt(CALDIERO_VARIANT, table)
