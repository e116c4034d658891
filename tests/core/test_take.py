"""Rules: taking gems (RULES.md, "A turn", actions 1 and 2)."""

from __future__ import annotations

import itertools

import pytest

from splendor import GEMS, GameState, Gem, IllegalActionError, Take, Tokens, apply, legal_actions
from tests.builders import deal, toks, with_bank, with_player

COLOURS = GEMS[:5]


def _takes(state: GameState) -> list[Take]:
    return [a for a in legal_actions(state) if isinstance(a, Take)]


def test_take_three_different_colours_moves_them_from_supply_to_player() -> None:
    state = deal(2)
    after = apply(state, Take(toks("W B G")))
    assert after.players[0].tokens == toks("W B G")
    assert after.bank == toks("3W 3B 3G 4R 4K 5Y")
    assert after.players[1] == state.players[1]


def test_take_three_different_lists_every_triple_of_colours() -> None:
    gems = {a.gems for a in _takes(deal(2)) if a.gems.total == 3}
    assert gems == {Tokens.of(*trio) for trio in itertools.combinations(COLOURS, 3)}


def test_take_three_different_ends_the_turn() -> None:
    after = apply(deal(3), Take(toks("R G K")))
    assert after.current_player == 1
    assert after.turn == 1


def test_take_two_needs_four_in_supply() -> None:
    state = with_bank(deal(2), toks("4W 4B 4G 4R 4K 5Y"))
    after = apply(state, Take(toks("2R")))
    assert after.players[0].tokens == toks("2R")
    assert after.bank[Gem.RED] == 2
    assert Take(toks("2R")) in legal_actions(state)


def test_take_two_with_more_than_four_in_supply_is_legal() -> None:
    state = deal(4)
    after = apply(state, Take(toks("2K")))
    assert after.bank[Gem.BLACK] == 5


def test_take_two_with_three_in_supply_is_illegal() -> None:
    state = with_bank(deal(2), toks("4W 4B 4G 3R 4K 5Y"))
    with pytest.raises(
        IllegalActionError, match="take 2 red needs 4 red in the supply, there are 3"
    ):
        apply(state, Take(toks("2R")))
    assert Take(toks("2R")) not in legal_actions(state)
    assert Take(toks("2W")) in legal_actions(state)


def test_take_two_of_a_colour_with_fewer_than_three_colours_available() -> None:
    state = with_bank(deal(2), toks("4R 5Y"))
    assert apply(state, Take(toks("2R"))).players[0].tokens == toks("2R")
    assert apply(state, Take(toks("R"))).players[0].tokens == toks("R")
    assert {a.gems for a in _takes(state)} == {toks("R"), toks("2R")}


def test_take_fewer_colours_only_when_fewer_than_three_are_available() -> None:
    state = with_bank(deal(2), toks("1W 2K 5Y"))
    after = apply(state, Take(toks("W K")))
    assert after.players[0].tokens == toks("W K")
    assert after.bank == toks("K 5Y")
    assert [a.gems for a in _takes(state)] == [toks("W K")]


def test_take_one_colour_when_only_one_is_available() -> None:
    state = with_bank(deal(2), toks("3G 5Y"))
    assert apply(state, Take(toks("G"))).players[0].tokens == toks("G")
    assert [a.gems for a in _takes(state)] == [toks("G")]


def test_take_not_fewer_colours_than_available_when_two_are_available() -> None:
    state = with_bank(deal(2), toks("1W 2K 5Y"))
    for single in (toks("W"), toks("K")):
        with pytest.raises(IllegalActionError, match="one of each of the 2 colours"):
            apply(state, Take(single))


@pytest.mark.parametrize("gems", ["W", "R", "W B", "G K"])
def test_take_fewer_than_three_colours_is_illegal_when_three_are_available(gems: str) -> None:
    state = deal(2)
    with pytest.raises(IllegalActionError, match="take 3 gems of different colours"):
        apply(state, Take(toks(gems)))
    shapes = {tuple(sorted(n for n in a.gems.counts if n)) for a in _takes(state)}
    assert shapes == {(1, 1, 1), (2,)}


def test_take_of_a_colour_missing_from_the_supply_is_illegal() -> None:
    state = with_bank(deal(2), toks("4W 4B 4G 0R 4K 5Y"))
    with pytest.raises(IllegalActionError, match="no red in the supply"):
        apply(state, Take(toks("W B R")))
    assert all(a.gems[Gem.RED] == 0 for a in _takes(state))


@pytest.mark.parametrize("gems", ["Y", "W B Y", "2Y", "W Y"])
def test_take_gold_is_never_allowed(gems: str) -> None:
    state = deal(2)
    with pytest.raises(IllegalActionError, match="gold"):
        apply(state, Take(toks(gems)))
    assert all(a.gems[Gem.GOLD] == 0 for a in _takes(state))


@pytest.mark.parametrize("gems", ["W B G R", "2W B", "3W", "-", "2W 2B", "W B G R K"])
def test_take_other_shapes_are_illegal(gems: str) -> None:
    with pytest.raises(IllegalActionError):
        apply(deal(2), Take(toks(gems)))


def test_take_nothing_listed_when_supply_has_no_gems() -> None:
    state = with_player(with_bank(deal(2), toks("5Y")), tokens=Tokens())
    assert _takes(state) == []


def test_take_listing_from_the_start_is_ten_triples_and_five_doubles() -> None:
    takes = _takes(deal(2))
    assert len(takes) == 15
    assert len(set(takes)) == 15
    assert all(a.returned == Tokens() for a in takes)
