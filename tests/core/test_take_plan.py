"""The plan of the takes of different colours, by the colours in the supply and the room.

:func:`splendor.legal_actions` lists the takes of different colours from a
plan made once for each set of colours in the supply and each room below the
token limit: the colours gained, the gems taken, the fillers given back and
the tokens still to give back. The plans are made at import, so the test
calls the planner (``legal._plan``) again: code run only at import is linked
by mutation testing to the first test alone (docs/testing.md, "Mutation
testing"). The takes listed from the plans are checked against the rules by
``tests/core/test_take.py``, ``test_outcomes.py`` and the property tests.
"""

from __future__ import annotations

import itertools

import pytest

from splendor.core import legal


@pytest.mark.parametrize("room", range(4))
@pytest.mark.parametrize("some", range(32))
def test_the_plan_of_takes_lists_each_gained_set_once_with_its_fillers(
    some: int, room: int
) -> None:
    available = [c for c in range(5) if some & (1 << c)]
    k = min(3, len(available))
    net = min(k, room)
    plan = legal._plan(some, room)
    # Each set of gained colours from net to k of them, largest first, in
    # the order itertools.combinations gives.
    expected_gained = [
        gained
        for size in range(k, net - 1, -1)
        for gained in itertools.combinations(available, size)
    ]
    assert [gained for _, _, gained, _ in plan] == expected_gained
    for gems, back, gained, more in plan:
        # The take brings one gem of k available colours, never gold.
        assert all(n in (0, 1) for n in gems)
        assert sum(gems) == k
        assert {c for c in range(6) if gems[c]} <= set(available)
        # The fillers: the first available colours not gained, given back.
        fillers = [c for c in available if c not in gained][: k - len(gained)]
        assert back == tuple(1 if c in fillers else 0 for c in range(6))
        assert {c for c in range(6) if gems[c]} == set(gained) | set(fillers)
        # The tokens still to give back beyond the fillers.
        assert more == len(gained) - net >= 0
