"""Rules: variants and house rules through :class:`Rules` (RULES.md, "Variants")."""

from __future__ import annotations

import pytest

from splendor import (
    Gem,
    InvalidArgumentError,
    Reserve,
    ReserveFromDeck,
    Rules,
    Take,
    Tokens,
    apply,
    legal_actions,
    new_game,
)
from tests.builders import cards_of, deal, toks, with_player, with_turn


def test_rules_default_is_the_published_rules() -> None:
    rules = Rules()
    assert rules == Rules.standard()
    assert (rules.gems(2), rules.gems(3), rules.gems(4)) == (4, 5, 7)
    assert (rules.gold(2), rules.gold(3), rules.gold(4)) == (5, 5, 5)
    assert (rules.nobles(2), rules.nobles(3), rules.nobles(4)) == (3, 4, 5)
    assert (rules.points_to_win, rules.token_limit, rules.reserve_limit) == (15, 10, 3)


@pytest.mark.parametrize(("players", "gold"), [(2, 0), (3, 0), (4, 5)])
def test_no_gold_variant_has_no_gold_for_two_and_three_players(players: int, gold: int) -> None:
    state = new_game(players, seed=1, rules=Rules.no_gold_variant())
    assert state.bank[Gem.GOLD] == gold
    standard = new_game(players, seed=1)
    assert state.bank - Tokens(gold=gold) == standard.bank - Tokens(gold=5)
    assert state.board == standard.board
    assert state.nobles == standard.nobles


def test_no_gold_variant_still_allows_reserving_without_gold() -> None:
    state = new_game(2, seed=1, rules=Rules.no_gold_variant())
    reserves = [a for a in legal_actions(state) if isinstance(a, Reserve | ReserveFromDeck)]
    assert len(reserves) == 15
    after = apply(state, ReserveFromDeck(1))
    assert after.players[0].tokens == Tokens()
    assert len(after.players[0].reserved) == 1


def test_variant_tokens_per_colour_changes_the_supply() -> None:
    rules = Rules(gems_by_players=(3, 6, 8))
    assert new_game(2, seed=1, rules=rules).bank == toks("3W 3B 3G 3R 3K 5Y")
    assert new_game(3, seed=1, rules=rules).bank == toks("6W 6B 6G 6R 6K 5Y")
    assert new_game(4, seed=1, rules=rules).bank == toks("8W 8B 8G 8R 8K 5Y")


def test_variant_take_two_still_needs_four_in_supply() -> None:
    state = new_game(2, seed=1, rules=Rules(gems_by_players=(3, 5, 7)))
    takes = [a for a in legal_actions(state) if isinstance(a, Take)]
    assert all(a.gems.total == 3 for a in takes)
    assert len(takes) == 10


def test_variant_gold_count_changes_the_supply() -> None:
    rules = Rules(gold_by_players=(1, 2, 3))
    assert [new_game(n, seed=1, rules=rules).bank[Gem.GOLD] for n in (2, 3, 4)] == [1, 2, 3]


def test_variant_nobles_revealed_changes_the_setup() -> None:
    rules = Rules(nobles_by_players=(1, 0, 10))
    assert [len(new_game(n, seed=1, rules=rules).nobles) for n in (2, 3, 4)] == [1, 0, 10]


def test_variant_points_to_win_raises_the_target() -> None:
    rules = Rules(points_to_win=21)
    state = with_turn(with_player(deal(2, rules=rules), 0, cards=cards_of(74, 78, 82)), 1)
    assert state.players[0].points == 15
    assert not apply(state, Take(toks("W B G"))).is_over
    state = with_player(state, 0, cards=cards_of(74, 78, 82, 86, 90))
    assert apply(state, Take(toks("W B G"))).winners == (0,)


def test_variant_token_limit_raises_the_limit() -> None:
    state = with_player(deal(4, rules=Rules(token_limit=12)), tokens=toks("3W 3B 3G"))
    after = apply(state, Take(toks("R K W")))
    assert after.players[0].tokens.total == 12


def test_variant_reserve_limit_raises_the_limit() -> None:
    state = deal(2, rules=Rules(reserve_limit=4))
    state = with_player(state, reserved=state.deck(3)[:3])
    after = apply(state, ReserveFromDeck(2))
    assert len(after.players[0].reserved) == 4


@pytest.mark.parametrize(
    "settings",
    [
        {"gems_by_players": (4, 5)},
        {"gems_by_players": (4, 5, -1)},
        {"gems_by_players": [4, 5, 7]},
        {"gems_by_players": (4.0, 5, 7)},
        {"gold_by_players": (5, 5, "5")},
        {"nobles_by_players": (3, 4, 11)},
        {"nobles_by_players": (True, 4, 5)},
        {"points_to_win": 0},
        {"points_to_win": 15.0},
        {"token_limit": -1},
        {"reserve_limit": "3"},
        {"reserve_limit": -1},
    ],
    ids=str,
)
def test_rules_out_of_range_settings_raise(settings: dict[str, object]) -> None:
    with pytest.raises(InvalidArgumentError):
        Rules(**settings)  # type: ignore[arg-type]  # wrong values on purpose
