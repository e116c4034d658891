"""Games whose every move Hypothesis chooses, checked turn by turn by the soak's checks.

Hypothesis deals a game (players, one of the soak's rule sets, a seed) and
then chooses each move among the :func:`splendor.legal_actions` of the seat
to move (in whole games, its first choices, then random ones to the end);
:class:`tools.soak.Replay` plays it and checks the turn as the soak does (in
Python, and in C as well when the soak's compiled checker is built). A
failure shrinks to a few small move indices and is reported as the call to
keep as a regression test, ``assert soak.replay(players, rules, seed, picks)
== []``: the form the soak prints for a violation it finds.
"""

from __future__ import annotations

import random
import re

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import splendor
from splendor import Action, GameState, Reserve, ReserveFromDeck, Tokens
from tools import soak

_DEALS = {
    "players": st.integers(2, 4),
    "rules": st.integers(0, len(soak.RULE_SETS) - 1),
    "seed": st.integers(0, 2**32 - 1),
}


def _play(
    players: int, rules: int, seed: int, data: st.DataObject, chosen: int, finish: bool = False
) -> None:
    """Play ``chosen`` moves Hypothesis chooses, then with ``finish`` random moves to the end."""
    game = soak.Replay(players, rules, seed)
    assert game.problems == []
    rng = random.Random(seed)
    picks: list[int] = []
    while not game.state.is_over and len(picks) < (soak.MAX_TURNS if finish else chosen):
        assert game.actions, f"no legal action: soak.replay({players}, {rules}, {seed}, {picks})"
        if len(picks) < chosen:
            picks.append(data.draw(st.integers(0, len(game.actions) - 1), label="move"))
        else:
            picks.append(rng.randrange(len(game.actions)))
        problems = game.play(picks[-1])
        assert problems == [], f"{problems}: soak.replay({players}, {rules}, {seed}, {picks})"


@given(**_DEALS, data=st.data(), chosen=st.integers(1, 40))
def test_the_first_moves_of_a_game_break_no_rule(
    players: int, rules: int, seed: int, data: st.DataObject, chosen: int
) -> None:
    _play(players, rules, seed, data, chosen)


# A whole game is a few hundred turns: a fifth of the profile's examples. Moves
# chosen by Hypothesis favour the first actions listed (takes), which makes
# long games: after its choices, random moves finish the game.
@settings(max_examples=max(5, settings().max_examples // 5))
@given(**_DEALS, data=st.data(), chosen=st.integers(0, 100))
def test_whole_games_break_no_rule(
    players: int, rules: int, seed: int, data: st.DataObject, chosen: int
) -> None:
    _play(players, rules, seed, data, chosen, finish=True)


def test_a_broken_rule_shrinks_to_the_shortest_game_that_shows_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # An apply with a bug: a reserve hands out one gem too many.
    real = splendor.apply

    def broken(state: GameState, action: Action) -> GameState:
        after = real(state, action)
        if not isinstance(action, Reserve | ReserveFromDeck):
            return after
        players = list(after.players)
        seat = state.current_player
        players[seat] = attrs.evolve(players[seat], tokens=players[seat].tokens + Tokens(red=1))
        return attrs.evolve(after, players=tuple(players))

    monkeypatch.setattr(splendor, "apply", broken)
    search = settings(database=None, derandomize=True)(test_the_first_moves_of_a_game_break_no_rule)
    with pytest.raises(AssertionError, match=r"soak\.replay\(") as failure:
        search()
    # The first turn can reserve: the game shrinks to a move or two.
    call = re.findall(r"soak\.replay\((\d+), (\d+), (\d+), \[([\d, ]*)\]\)", str(failure.value))
    players, rules, seed, listed = call[-1]
    picks = [int(pick) for pick in listed.split(",")]
    assert len(picks) <= 2, call
    assert soak.replay(int(players), int(rules), int(seed), picks) != []
    monkeypatch.undo()
    assert soak.replay(int(players), int(rules), int(seed), picks) == []
