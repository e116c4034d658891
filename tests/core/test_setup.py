"""Rules: components and setup by player count (RULES.md, "Components" and "Setup")."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from splendor import (
    CARDS,
    GEMS,
    NOBLES,
    Gem,
    InvalidArgumentError,
    PlayerState,
    Rules,
    Tokens,
    apply,
    legal_actions,
    new_game,
)

PLAYER_COUNTS = (2, 3, 4)


def test_components_are_90_cards_40_30_20_by_tier() -> None:
    assert len(CARDS) == 90
    assert Counter(c.tier for c in CARDS) == {1: 40, 2: 30, 3: 20}
    assert len({c.id for c in CARDS}) == 90


def test_components_cards_give_a_gem_bonus_and_cost_no_gold() -> None:
    for c in CARDS:
        assert c.bonus in GEMS[:5]
        assert c.cost[Gem.GOLD] == 0
        assert 0 <= c.points <= 5


def test_components_are_10_nobles_of_3_points() -> None:
    assert len(NOBLES) == 10
    assert {n.points for n in NOBLES} == {3}
    assert all(n.requirement[Gem.GOLD] == 0 for n in NOBLES)


@pytest.mark.parametrize(("players", "gems"), [(2, 4), (3, 5), (4, 7)])
def test_setup_tokens_per_gem_colour_by_player_count(players: int, gems: int) -> None:
    bank = new_game(players, seed=1).bank
    assert bank == Tokens(gems, gems, gems, gems, gems, 5)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_setup_five_gold_for_every_player_count(players: int) -> None:
    assert new_game(players, seed=2).bank[Gem.GOLD] == 5


def test_setup_four_players_use_all_40_tokens() -> None:
    assert new_game(4, seed=3).bank.total == 40


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_setup_reveals_players_plus_one_distinct_nobles(players: int) -> None:
    nobles = new_game(players, seed=4).nobles
    assert len(nobles) == players + 1
    assert len(set(nobles)) == players + 1
    assert set(nobles) <= set(NOBLES)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_setup_deals_four_face_up_cards_of_each_tier(players: int) -> None:
    state = new_game(players, seed=5)
    for tier in (1, 2, 3):
        row = state.face_up(tier)
        assert len(row) == 4
        assert all(c is not None and c.tier == tier for c in row)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_setup_deck_sizes_are_36_26_16(players: int) -> None:
    state = new_game(players, seed=6)
    assert [len(state.deck(tier)) for tier in (1, 2, 3)] == [36, 26, 16]
    for tier in (1, 2, 3):
        assert all(c.tier == tier for c in state.deck(tier))


def test_setup_every_card_is_dealt_exactly_once() -> None:
    state = new_game(2, seed=7)
    laid = [c for row in state.board for c in row if c is not None]
    dealt = laid + [c for deck in state.decks for c in deck]
    assert len(dealt) == 90
    assert set(dealt) == set(CARDS)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_setup_players_start_with_nothing(players: int) -> None:
    state = new_game(players, seed=8)
    assert len(state.players) == players
    assert all(p == PlayerState() for p in state.players)
    assert all(p.points == 0 and p.tokens.total == 0 for p in state.players)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_setup_player_zero_starts(players: int) -> None:
    state = new_game(players, seed=9)
    assert state.current_player == 0
    assert state.turn == 0
    assert state.passes == 0
    assert state.winners == ()
    assert not state.is_over


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_setup_same_seed_deals_the_same_game(players: int) -> None:
    assert new_game(players, seed=123) == new_game(players, seed=123)


def test_setup_same_seed_and_rules_deal_the_same_game() -> None:
    rules = Rules(points_to_win=20)
    assert new_game(3, seed=5, rules=rules) == new_game(3, seed=5, rules=rules)


def test_setup_ignores_the_global_random_state() -> None:
    random.seed(1)
    first = new_game(4, seed=77)
    random.seed(2)
    random.random()
    assert new_game(4, seed=77) == first


def test_setup_different_seeds_deal_different_games() -> None:
    games = [new_game(2, seed=seed) for seed in range(10)]
    boards = {tuple(c.id for row in g.board for c in row if c is not None) for g in games}
    assert len(boards) == 10
    assert len({tuple(n.id for n in g.nobles) for g in games}) > 1


def test_setup_turns_go_in_seat_order() -> None:
    state = new_game(3, seed=1)
    seats = []
    for _ in range(7):
        seats.append(state.current_player)
        state = apply(state, legal_actions(state)[0])
    assert seats == [0, 1, 2, 0, 1, 2, 0]
    assert state.turn == 7


@pytest.mark.parametrize("players", [0, 1, 5, -2, 2.0, "2", None, True])
def test_setup_bad_player_count_raises(players: object) -> None:
    with pytest.raises(InvalidArgumentError):
        new_game(players, seed=1)  # type: ignore[arg-type]  # wrong type on purpose


@pytest.mark.parametrize("seed", ["1", 1.5, b"1", (1,), True])
def test_setup_bad_seed_raises(seed: object) -> None:
    with pytest.raises(InvalidArgumentError):
        new_game(2, seed=seed)  # type: ignore[arg-type]  # wrong type on purpose


@pytest.mark.parametrize("rules", ["standard", {"points_to_win": 15}, 15, Rules])
def test_setup_bad_rules_raises(rules: object) -> None:
    with pytest.raises(InvalidArgumentError):
        new_game(2, seed=1, rules=rules)  # type: ignore[arg-type]  # wrong type on purpose


def test_setup_without_a_seed_deals_a_valid_game() -> None:
    state = new_game(2)
    assert state.bank == Tokens(4, 4, 4, 4, 4, 5)
    assert len(state.nobles) == 3
