"""The rule sets the differential harnesses and the tests play games under."""

from __future__ import annotations

from typing import Final

from splendor import Rules

__all__ = ["VARIANTS"]

#: The rule sets games are played under: the published rules, the no-gold
#: variant and a few house rules that push the engine to its edges (returns
#: over a low token limit, a full reserve, a short game, a supply that runs
#: dry, every noble on the table).
VARIANTS: Final[dict[str, Rules]] = {
    "standard": Rules.standard(),
    "no-gold": Rules.no_gold_variant(),
    "token-limit-8": Rules(token_limit=8),
    "token-limit-5": Rules(token_limit=5),
    "reserve-limit-2": Rules(reserve_limit=2),
    "points-10": Rules(points_to_win=10),
    "scarce-supply": Rules(gems_by_players=(2, 3, 3), gold_by_players=(1, 1, 2)),
    "all-nobles": Rules(nobles_by_players=(10, 10, 10)),
}
