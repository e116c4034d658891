"""Rules of play that the rule tests left unchecked, found by mutation testing.

Each test states the rule it pins (RULES.md); docs/testing.md lists the
mutants they kill.
"""

from __future__ import annotations

from splendor import legal_actions, new_game


def test_a_new_two_player_game_lists_30_actions() -> None:
    # 10 takes of 3 colours, 5 takes of 2, 12 reserves of face-up cards and
    # 3 blind reserves; nothing can be bought yet.
    assert len(legal_actions(new_game(2, seed=1))) == 30
