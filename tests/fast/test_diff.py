"""The compiled kernel and the pure fallback play exactly the engine's game.

A sample of the differential check of ``tools/diff.py`` (``nox -s
kernel-diff`` runs it over a million states): seeded random games of 2, 3 and
4 players under every rule variant of the tests, and Hypothesis games with a
bias towards buying, compared at every state with the attrs engine.
"""

from __future__ import annotations

from typing import Any, cast

import attrs
import pytest
from hypothesis import given

from splendor import GameState, Rules
from splendor.testing import ConformanceError, check_replay
from tests.strategies import VARIANTS, RandomGame, random_games
from tools.diff import (
    SETTINGS,
    CountedEngine,
    CountError,
    FastGame,
    GameMaker,
    check_game,
)


@pytest.mark.parametrize(("players", "variant"), SETTINGS)
def test_every_setting_plays_the_engine_game(
    from_state: GameMaker, players: int, variant: str
) -> None:
    tally = check_game(from_state, players, VARIANTS[variant], seed=players * 1000 + 7)
    assert tally.games == 1
    assert tally.states > 1
    assert tally.successors >= tally.states - 1


def test_long_sample_without_successors(from_state: GameMaker) -> None:
    # Whole games: the listing at every state and the state after every turn.
    states = 0
    for seed in range(12):
        players, variant = SETTINGS[seed * 5 % len(SETTINGS)]
        states += check_game(from_state, players, VARIANTS[variant], seed, successors=False).states
    assert states > 1000


@given(random_games(max_turns=120))
def test_hypothesis_games_play_the_engine_game(from_state: GameMaker, game: RandomGame) -> None:
    # The listing, the end and the state at every state of the game, the last included.
    report = check_replay(
        CountedEngine(from_state), game.first_state(), game.actions(), successors=0
    )
    assert report.states == len(game.actions()) + 1


def test_a_mismatch_is_reported(from_state: GameMaker) -> None:
    # The check itself can fail: a game told to play other rules than the
    # engine's disagrees at once.
    def wrong(state: GameState) -> FastGame:
        return from_state(attrs.evolve(state, rules=Rules(points_to_win=3)))

    with pytest.raises(ConformanceError, match="state differs from the state it was given"):
        check_game(wrong, 2, Rules(), seed=1)


def test_a_count_that_is_not_the_listing_is_reported(from_state: GameMaker) -> None:
    class Miscounted:
        """A game that counts one action more than it lists."""

        def __init__(self, game: FastGame) -> None:
            self.game = game

        def __getattr__(self, name: str) -> Any:
            return getattr(self.game, name)

        def action_count(self) -> int:
            return self.game.action_count() + 1

    counts = r"action_count\(\) counts 31, actions\(\) lists 30"
    with pytest.raises(ConformanceError, match=counts) as info:
        check_game(lambda state: cast(FastGame, Miscounted(from_state(state))), 2, Rules(), seed=1)
    assert isinstance(info.value.__cause__, CountError)
