"""The soak's compiled checker: clean games pass, and every kind of corruption is caught.

The checker (``tools/_soak_kernel.pyx``) is built by ``nox -s soak``, which
runs these tests; where it is not built they are skipped.
"""

from __future__ import annotations

import attrs
import pytest

import splendor
from splendor import Gem, Take, Tokens
from tools import soak

checker = pytest.importorskip(
    "tools._soak_kernel",
    reason="the soak's checker is not built (python -m tools.build_soak_kernel)",
)


def _names(mask: int) -> list[str]:
    names: list[str] = checker.describe(mask)
    return names


def _violation(number: int) -> str:
    name: str = checker.VIOLATIONS[number]
    return name


def test_every_violation_has_its_own_bit() -> None:
    assert len(set(checker.VIOLATIONS)) == len(checker.VIOLATIONS)
    assert _names(0) == []
    assert _names(0b101) == [_violation(0), _violation(2)]


@pytest.mark.parametrize("rules", range(len(soak.RULE_SETS)))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_kernel_games_pass_every_check(players: int, rules: int) -> None:
    for seed in range(5):
        state = splendor.new_game(players, seed=seed, rules=soak.RULE_SETS[rules])
        walker = checker.Walker(state, seed)
        turns = walker.run(soak.MAX_TURNS)
        assert walker.violations == 0, _names(walker.violations)
        assert walker.is_over
        assert turns == walker.turn == len(walker.picks)


def test_the_picks_replay_on_the_engine_to_the_same_end() -> None:
    state = splendor.new_game(3, seed=11, rules=soak.RULE_SETS[4])
    walker = checker.Walker(state, 11)
    walker.run(soak.MAX_TURNS)
    for index in walker.picks:
        state = splendor.apply(state, splendor.legal_actions(state)[index])
    assert state == walker.state()
    assert state.is_over


def test_a_game_stops_at_the_turn_limit() -> None:
    walker = checker.Walker(splendor.new_game(2, seed=1), 1)
    assert walker.run(7) == 7
    assert walker.turn == 7
    assert not walker.is_over


_MISPLACED = "a card is in a deck or row of another tier, or blind outside a reserve"

# What each corruption of the state after a legal turn must be reported as.
EXPECTED = {
    "bank gem underflow": "a token count is negative (or above the colour's total)",
    "gold from nowhere": "tokens of a colour do not add up to the setup total",
    "card duplicated": "a card is missing, duplicated or unknown",
    "blind card in a deck": _MISPLACED,
    "card of another tier in a row": _MISPLACED,
    "noble lost": "a dealt noble is missing or duplicated, or held by no seat",
    "other seat scores": "a seat other than the mover changed",
    "turn stays": "the turn counter did not move on by one",
    "winners too early": "the game did not end exactly when the rules say",
    "points without a card": "a seat's points are not its cards' and nobles' points",
    "empty slot over a full deck": "a face-up slot is empty while its deck has cards",
}


def test_every_corruption_has_an_expected_report() -> None:
    assert set(EXPECTED) == set(checker.CORRUPTIONS)


@pytest.mark.parametrize("corruption", sorted(EXPECTED))
def test_a_corrupted_state_is_reported(corruption: str) -> None:
    walker = checker.Walker(splendor.new_game(3, seed=5), 5)
    assert walker.step(0) == 0
    assert EXPECTED[corruption] in _names(walker.step(0, corruption))
    assert walker.violations != 0


def test_an_unknown_corruption_is_refused() -> None:
    walker = checker.Walker(splendor.new_game(2, seed=5), 5)
    with pytest.raises(ValueError, match="no corruption"):
        walker.step(0, "a typo")


def _first_take(state: splendor.GameState) -> tuple[int, splendor.GameState]:
    action = Take(Tokens.of(Gem.WHITE, Gem.BLUE, Gem.GREEN))
    return splendor.legal_actions(state).index(action), splendor.apply(state, action)


def test_a_legal_turn_passes() -> None:
    state = splendor.new_game(2, seed=3)
    index, after = _first_take(state)
    assert checker.check_turn_of(state, index, after) == 0


def test_tokens_out_of_thin_air_are_caught() -> None:
    state = splendor.new_game(2, seed=3)
    index, after = _first_take(state)
    mover = attrs.evolve(after.players[0], tokens=after.players[0].tokens + Tokens(red=1))
    forged = attrs.evolve(after, players=(mover, after.players[1]))
    names = _names(checker.check_turn_of(state, index, forged))
    assert "tokens of a colour do not add up to the setup total" in names
    assert "the state changed otherwise than the move says" in names


def test_a_successor_of_another_move_is_caught() -> None:
    state = splendor.new_game(2, seed=3)
    index, after = _first_take(state)
    names = _names(checker.check_turn_of(state, index + 1, after))
    assert names == ["the state changed otherwise than the move says"]


def test_a_wrong_seat_to_move_is_caught() -> None:
    state = splendor.new_game(3, seed=3)
    index, after = _first_take(state)
    forged = attrs.evolve(after, current_player=2)
    assert _names(checker.check_turn_of(state, index, forged)) == ["the wrong seat is to move"]


def test_a_noble_due_but_not_received_is_caught() -> None:
    state = splendor.new_game(2, seed=3)
    index, after = _first_take(state)
    # Bonuses that meet every noble's requirement, and yet no noble received.
    mover = attrs.evolve(after.players[0], bonuses=Tokens(4, 4, 4, 4, 4))
    forged = attrs.evolve(after, players=(mover, after.players[1]))
    names = _names(checker.check_turn_of(state, index, forged))
    assert "a noble that qualifies was not received, or one received does not qualify" in names
    assert "a seat's bonuses are not its cards' colours" in names


def test_a_noble_the_move_gives_but_the_state_lacks_is_caught() -> None:
    # Play random games until a turn receives a noble, then take the noble away
    # (back among the revealed ones, points and all).
    for seed in range(50):
        state = splendor.new_game(2, seed=seed)
        walker = checker.Walker(state, seed)
        while not walker.is_over:
            before = walker.state()
            index = walker.pick()
            assert walker.step(index) == 0
            after = walker.state()
            seat = before.current_player
            if len(after.players[seat].nobles) > len(before.players[seat].nobles):
                noble = after.players[seat].nobles[-1]
                mover = attrs.evolve(
                    after.players[seat],
                    nobles=after.players[seat].nobles[:-1],
                    points=after.players[seat].points - noble.points,
                )
                players = list(after.players)
                players[seat] = mover
                forged = attrs.evolve(
                    after, players=tuple(players), nobles=(*after.nobles, noble), winners=()
                )
                mask = checker.check_turn_of(before, index, forged)
                assert _names(mask) == ["the state changed otherwise than the move says"]
                return
    pytest.fail("no noble received in 50 random games")
