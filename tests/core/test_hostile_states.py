"""States built by hand that break an invariant.

:func:`~splendor.legal_actions`, :func:`~splendor.apply`,
:func:`~splendor.view` and :func:`~splendor.render_svg` may assume a valid
state; :func:`~splendor.check_state` is the guard for hand-made ones, so it
must reject each of these with its own error, never crash on it. The first
group are fixed defects: the comment in each test says what went wrong
before the fix.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from splendor import (
    Card,
    GameState,
    InvalidStateError,
    PlayerState,
    SplendorError,
    check_state,
    determinize,
    view,
)
from tests.hostile import (
    FACE_UP,
    STATE,
    copy_card,
    copy_noble,
    evolve_any,
)

# ---------------------------------------------------------------------------
# Fixed defects of check_state: it once let hand-made cards and nobles
# through, or crashed on them.


def _with_board_card(card: Card) -> GameState:
    row = (card, *STATE.board[0][1:])
    return evolve_any(STATE, board=(row, *STATE.board[1:]))


def test_check_state_refuses_a_copy_of_a_card() -> None:
    # The copy has the id and fields of the real card but is another object:
    # check_state passes it, then legal_actions raises KeyError (legal.py _RESERVE).
    state = _with_board_card(copy_card(FACE_UP))
    with pytest.raises(InvalidStateError):
        check_state(state)


def test_check_state_refuses_a_card_with_a_bad_cost() -> None:
    state = _with_board_card(copy_card(FACE_UP, cost="x"))
    with pytest.raises(InvalidStateError):
        check_state(state)


def test_check_state_refuses_a_91st_card() -> None:
    extra = copy_card(STATE.decks[0][0], id=91)
    state = evolve_any(STATE, decks=((extra, *STATE.decks[0]), *STATE.decks[1:]))
    with pytest.raises(InvalidStateError):
        check_state(state)


def test_check_state_refuses_a_noble_worth_100_points() -> None:
    noble = copy_noble(STATE.nobles[0], points=100)
    state = evolve_any(STATE, nobles=(noble, *STATE.nobles[1:]))
    with pytest.raises(InvalidStateError):
        check_state(state)


def test_check_state_refuses_a_card_without_a_colour() -> None:
    # validation.py _check_player: GEMS.index(card.bonus) -> ValueError.
    card = copy_card(STATE.decks[0][0], bonus=None)
    player = PlayerState(cards=(card,))
    state = evolve_any(
        STATE,
        players=(player, STATE.players[1]),
        decks=(STATE.decks[0][1:], *STATE.decks[1:]),
    )
    with pytest.raises(InvalidStateError):
        check_state(state)


def test_check_state_refuses_a_noble_without_a_requirement() -> None:
    # validation.py _check_player: noble.requirement <= bonuses -> TypeError.
    noble = copy_noble(STATE.nobles[0], points=0, requirement="x")
    state = evolve_any(
        STATE, nobles=STATE.nobles[1:], players=(PlayerState(nobles=(noble,)), STATE.players[1])
    )
    with pytest.raises(InvalidStateError):
        check_state(state)


def test_determinize_refuses_a_view_without_a_supply() -> None:
    # A hand-made view with no supply: determinize returns a state without one.
    broken = evolve_any(view(STATE, 0), bank=None)
    with pytest.raises(SplendorError):
        determinize(broken, 1)


# ---------------------------------------------------------------------------
# Invalid states built by hand: check_state rejects each with its error.


INVALID: dict[str, Callable[[GameState], GameState]] = {
    "players None": lambda s: evolve_any(s, players=None),
    "no players": lambda s: evolve_any(s, players=()),
    "board None": lambda s: evolve_any(s, board=None),
    "decks a list": lambda s: evolve_any(s, decks=list(s.decks)),
    "nobles None": lambda s: evolve_any(s, nobles=None),
    "rules None": lambda s: evolve_any(s, rules=None),
    "bank None": lambda s: evolve_any(s, bank=None),
    "current_player 5": lambda s: evolve_any(s, current_player=5),
    "current_player -1": lambda s: evolve_any(s, current_player=-1),
    "turn a str": lambda s: evolve_any(s, turn="1"),
    "winners (7,)": lambda s: evolve_any(s, winners=(7,)),
    "blind flag without a card": lambda s: evolve_any(
        s, players=(PlayerState(reserved_blind=(True,)), s.players[1])
    ),
}


@pytest.mark.parametrize("change", list(INVALID.values()), ids=list(INVALID))
def test_check_state_rejects_a_hand_made_invalid_state(
    change: Callable[[GameState], GameState],
) -> None:
    with pytest.raises(InvalidStateError):
        check_state(change(STATE))
