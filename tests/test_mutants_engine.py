"""Engine behaviour that the rule tests left unchecked, found by mutation testing.

Each test states the behaviour it pins; docs/testing.md lists the mutants
they kill.
"""

from __future__ import annotations

import pytest

from splendor import (
    GEMS,
    Gem,
    InvalidArgumentError,
    Take,
    Tokens,
    legal_actions,
    new_game,
    view,
)

# ---------------------------------------------------------------------------
# Tokens as a mapping.


def test_tokens_have_the_six_colours_as_keys() -> None:
    tokens = Tokens(red=2)
    assert len(tokens) == 6
    assert len(Tokens()) == len(GEMS)
    assert "red" in tokens
    assert Gem.GOLD in tokens
    assert "purple" not in tokens
    not_colours: list[object] = [1, None]
    assert not any(value in tokens for value in not_colours)


def test_tokens_from_a_mapping_refuse_what_is_no_mapping_and_name_it() -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        Tokens.from_mapping([("red", 1)])  # type: ignore[arg-type]  # a list, on purpose
    assert str(raised.value) == "expected a mapping of colour to count, got [('red', 1)]"


def test_tokens_from_a_mapping_name_an_unknown_colour() -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        Tokens.from_mapping({"purple": 1})
    assert str(raised.value) == "unknown colour 'purple'"
    with pytest.raises(InvalidArgumentError, match=r"^unknown colour 3$"):
        Tokens.from_mapping({3: 1})  # type: ignore[dict-item]  # not a colour, on purpose


# ---------------------------------------------------------------------------
# legal_actions of what is not a GameState.


def test_legal_actions_of_the_view_of_the_seat_to_move_are_the_states() -> None:
    state = new_game(3, seed=5)
    assert legal_actions(view(state, state.current_player)) == legal_actions(state)


class _ListsAList:
    def legal_actions(self) -> list[Take]:
        return [Take(Tokens(1, 1, 1))]


class _ListsItself:
    def __init__(self, actions: tuple[Take, ...] = ()) -> None:
        self.actions = actions

    def legal_actions(self) -> tuple[Take, ...]:
        return self.actions


def test_legal_actions_ask_any_object_with_the_method_for_its_own_tuple() -> None:
    actions = (Take(Tokens(1, 1, 1)),)
    assert legal_actions(_ListsItself(actions)) is actions


def test_legal_actions_refuse_a_listing_that_is_not_a_tuple() -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        legal_actions(_ListsAList())  # type: ignore[arg-type]  # returns a list, on purpose
    assert str(raised.value) == "_ListsAList.legal_actions() must return a tuple of actions"


@pytest.mark.parametrize("value", [None, 3, "state", _ListsItself])
def test_legal_actions_of_something_else_name_its_type(value: object) -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        legal_actions(value)  # type: ignore[arg-type]  # on purpose
    assert str(raised.value) == (
        f"expected a GameState or a PlayerView, got {type(value).__name__}"
    )
