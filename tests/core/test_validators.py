"""The validators of :class:`Rules` and of the actions: what each accepts, and its words.

The attrs validators are made by factory functions when the classes are
defined, at import. The tests below that call the factories again
(``rules._count``, ``actions._exactly``) check the validators they make
directly: code that runs only at import is linked by mutation testing to
the first test alone, so a fault in a factory is seen here, by the tests
that call it (docs/testing.md, "Mutation testing"). The others go through
the public constructors.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from splendor import CARDS, NOBLES, Card, InvalidArgumentError, Noble, Rules, Take, Tokens
from splendor.core import actions as actions_module
from splendor.core import rules as rules_module
from splendor.core.gems import MAX_COUNT


def _attribute(cls: type, name: str) -> attrs.Attribute[Any]:
    found: attrs.Attribute[Any] = getattr(attrs.fields(cls), name)
    return found


@pytest.mark.parametrize("minimum", [0, 1])
def test_a_rules_count_validator_takes_ints_from_its_minimum_to_max_count(minimum: int) -> None:
    check = rules_module._count(minimum)
    attribute = _attribute(Rules, "points_to_win")
    for good in (minimum, minimum + 1, MAX_COUNT):
        check(Rules(), attribute, good)
    for bad in (minimum - 1, MAX_COUNT + 1, True, 3.0, "3", None):
        with pytest.raises(InvalidArgumentError) as raised:
            check(Rules(), attribute, bad)
        assert str(raised.value) == (
            f"Rules.points_to_win must be an int from {minimum} to {MAX_COUNT:,}, got {bad!r}"
        )


def test_a_rules_count_out_of_range_names_the_value() -> None:
    with pytest.raises(InvalidArgumentError, match=r"^Rules\.token_limit must be .*, got -1$"):
        Rules(token_limit=-1)
    with pytest.raises(InvalidArgumentError, match=r"^Rules\.points_to_win .*, got 0$"):
        Rules(points_to_win=0)


def test_a_per_player_count_out_of_range_names_the_value() -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        Rules(gems_by_players=(4, 5, -7))
    assert str(raised.value) == (
        f"Rules.gems_by_players must be 3 ints from 0 to {MAX_COUNT:,} "
        "(for 2, 3 and 4 players), got (4, 5, -7)"
    )


def test_more_nobles_than_the_game_has_is_refused_with_the_numbers() -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        Rules(nobles_by_players=(3, 4, 11))
    assert str(raised.value) == "Rules.nobles_by_players: the game has 10 nobles, got (3, 4, 11)"


def test_a_player_count_out_of_range_names_the_range_and_the_value() -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        Rules().gems(5)
    assert str(raised.value) == "Splendor is played by 2 to 4 players, got 5"


def test_an_exact_type_validator_names_the_types_allowed_and_the_value() -> None:
    check = actions_module._exactly(Noble, None)
    attribute = _attribute(Take, "noble")
    take = Take(Tokens(1, 1, 1))
    check(take, attribute, None)
    check(take, attribute, NOBLES[0])
    for bad in ("N1", 1, CARDS[0]):
        with pytest.raises(InvalidArgumentError) as raised:
            check(take, attribute, bad)
        assert str(raised.value) == f"Take.noble must be Noble or None, got {bad!r}"


def test_an_exact_type_validator_refuses_subclasses() -> None:
    check = actions_module._exactly(int)
    attribute = _attribute(Take, "gems")
    check(Take(Tokens(1, 1, 1)), attribute, 1)
    with pytest.raises(InvalidArgumentError, match=r"^Take\.gems must be int, got True$"):
        check(Take(Tokens(1, 1, 1)), attribute, True)
    with pytest.raises(InvalidArgumentError, match=r"^Take\.gems must be Card, got 1$"):
        actions_module._exactly(Card)(Take(Tokens(1, 1, 1)), attribute, 1)
