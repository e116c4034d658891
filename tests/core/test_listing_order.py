"""The order of :func:`splendor.legal_actions`: the one its documentation gives, in every process.

The takes come first, then the reserves by tier (the face-up cards, then the
deck), then the buys (the face-up cards by tier, then the reserved ones); and
the order depends on nothing that changes between processes, such as the
hash seed.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

from splendor import Action, Buy, Reserve, ReserveFromDeck, Take, legal_actions
from tests.builders import card, deal, toks, with_player

CHEAP = card(1)  # tier 1, costs 2 red and 1 black


def test_legal_actions_order_is_takes_reserves_by_tier_then_buys() -> None:
    state = with_player(deal(4), tokens=toks("3W 3B 1R 1K 1Y"), reserved=[CHEAP])
    listed = legal_actions(state)
    rank = {Take: 0, Reserve: 1, ReserveFromDeck: 1, Buy: 2}
    assert [rank[type(a)] for a in listed] == sorted(rank[type(a)] for a in listed)
    reserves = [a for a in listed if isinstance(a, Reserve | ReserveFromDeck)]
    expected: list[Action] = []
    for tier in (1, 2, 3):
        expected += [Reserve(c) for c in state.face_up(tier) if c is not None]
        expected.append(ReserveFromDeck(tier))
    assert reserves == expected
    bought = [a.card for a in listed if isinstance(a, Buy)]
    assert bought[-1] is CHEAP
    assert CHEAP not in bought[:-1]
    assert bought == sorted(bought, key=lambda c: (c is CHEAP, c.tier))


_LISTING_DIGEST = """
import hashlib, random
from splendor import Rules, apply, legal_actions, new_game
digest = hashlib.sha256()
rng = random.Random(7)
state = new_game(4, seed=7, rules=Rules(nobles_by_players=(10, 10, 10)))
for _ in range(60):
    if state.is_over:
        break
    actions = legal_actions(state)
    digest.update("|".join(map(str, actions)).encode())
    state = apply(state, actions[rng.randrange(len(actions))])
print(digest.hexdigest())
"""


def test_legal_actions_order_is_the_same_in_every_process() -> None:
    digests = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", _LISTING_DIGEST],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
        digests.add(done.stdout.strip())
    assert len(digests) == 1
    assert len(digests.pop()) == len(hashlib.sha256().hexdigest())
