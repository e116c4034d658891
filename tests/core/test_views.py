"""Views of a game from one seat or a spectator, and determinisation back to a state."""

from __future__ import annotations

import json
import random

import attrs
import pytest

from splendor import (
    CARDS,
    Card,
    GameState,
    InvalidArgumentError,
    PlayerState,
    PlayerView,
    PublicPlayer,
    Reserve,
    ReserveFromDeck,
    SerializationError,
    Take,
    Tokens,
    apply,
    check_state,
    determinize,
    from_json,
    legal_actions,
    new_game,
    to_json,
    view,
)
from tests.builders import deadlocked, toks


def _with_reserves() -> GameState:
    """Three players: seat 0 reserved blind from tier 2, seat 1 face up then
    blind from tier 3, seat 2 blind from tier 1; seat 0 to move."""
    state = new_game(3, seed=11)
    state = apply(state, ReserveFromDeck(2))
    face_up = state.face_up(1)[0]
    assert face_up is not None
    state = apply(state, Reserve(face_up))
    state = apply(state, ReserveFromDeck(1))
    state = apply(state, Take(toks("1W 1B 1G")))
    state = apply(state, ReserveFromDeck(3))
    return apply(state, Take(toks("1W 1B 1G")))


def _blind(player: PlayerState) -> list[Card]:
    return [c for c, b in zip(player.reserved, player.reserved_blind, strict=True) if b]


def _cards_in(value: object) -> set[int]:
    """The ids of every card anywhere inside a view (attrs fields and tuples)."""
    found: set[int] = set()
    if type(value) in (tuple, list):
        for item in value:  # type: ignore[attr-defined]  # a tuple or list
            found |= _cards_in(item)
    elif isinstance(value, Card):
        found.add(value.id)
    elif attrs.has(type(value)):
        for field in attrs.fields(type(value)):  # type: ignore[arg-type]  # an attrs class
            found |= _cards_in(getattr(value, field.name))
    return found


def test_a_seat_sees_its_own_blind_reserve_but_others_see_only_its_tier() -> None:
    state = _with_reserves()
    secret = state.players[0].reserved[0]
    assert state.players[0].reserved_blind == (True,)
    mine = view(state, 0)
    assert mine.own == state.players[0]
    assert secret.id in _cards_in(mine)
    for seat in (1, 2, None):
        theirs = view(state, seat)
        assert theirs.players[0].reserved == ()
        assert theirs.players[0].blind_reserves == (2,)
        assert theirs.players[0].reserved_count == 1
        assert secret.id not in _cards_in(theirs)


def test_face_up_reserves_are_public_and_blind_ones_are_counted_by_tier() -> None:
    state = _with_reserves()
    shown, hidden = state.players[1].reserved
    spectator = view(state, None)
    assert spectator.players[1].reserved == (shown,)
    assert spectator.players[1].blind_reserves == (3,)
    assert shown.id in _cards_in(spectator)
    assert hidden.id not in _cards_in(spectator)


def test_a_spectator_has_no_seat_and_no_private_card() -> None:
    state = _with_reserves()
    spectator = view(state, None)
    assert spectator.is_spectator
    assert spectator.own is None
    blind = {c.id for player in state.players for c in _blind(player)}
    assert not blind & _cards_in(spectator)


def test_a_view_shows_the_public_board_tokens_and_deck_sizes() -> None:
    state = _with_reserves()
    seen = view(state, 2)
    assert seen.board == state.board
    assert seen.bank == state.bank
    assert seen.nobles == state.nobles
    assert [p.tokens for p in seen.players] == [p.tokens for p in state.players]
    assert seen.deck_sizes == tuple(len(deck) for deck in state.decks)
    assert (seen.current_player, seen.turn, seen.round) == (0, 6, 2)
    assert seen.face_up(3) == state.face_up(3)
    assert seen.deck_size(1) == len(state.deck(1))


def test_the_unseen_cards_are_the_decks_and_the_others_blind_reserves() -> None:
    state = _with_reserves()
    for seat in (0, 1, 2, None):
        hidden = {c for deck in state.decks for c in deck}
        for other, player in enumerate(state.players):
            if other != seat:
                hidden |= set(_blind(player))
        seen = view(state, seat)
        assert set(seen.unseen()) == hidden
        assert set(seen.visible()) == set(CARDS) - hidden
        assert seen.unseen(3) == tuple(c for c in seen.unseen() if c.tier == 3)


def test_states_differing_only_in_hidden_cards_give_equal_views() -> None:
    state = new_game(2, seed=3)
    shuffled = attrs.evolve(state, decks=tuple(deck[::-1] for deck in state.decks))
    assert view(shuffled, 0) == view(state, 0)
    assert view(shuffled, None) == view(state, None)
    assert view(state, 0) != view(state, 1)


def test_a_view_is_frozen_and_hashable() -> None:
    seen = view(_with_reserves(), 1)
    assert hash(seen) == hash(view(_with_reserves(), 1))
    assert len({seen, view(_with_reserves(), 1)}) == 1
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        seen.turn = 3  # type: ignore[misc]  # checking it is refused


@pytest.mark.parametrize("seat", [-1, 3, "0", True, 0.0])
def test_view_rejects_a_seat_that_is_not_one(seat: object) -> None:
    with pytest.raises(InvalidArgumentError, match="seat"):
        view(new_game(3, seed=1), seat)  # type: ignore[arg-type]  # checking it is refused


def test_view_rejects_what_is_not_a_state() -> None:
    with pytest.raises(InvalidArgumentError, match="GameState"):
        view(view(new_game(2, seed=1), 0), 0)  # type: ignore[arg-type]  # checking it is refused


def test_legal_actions_from_the_movers_view_are_those_of_the_state() -> None:
    state = _with_reserves()
    assert legal_actions(view(state, 0)) == legal_actions(state)
    assert legal_actions(view(deadlocked(2), 0)) == legal_actions(deadlocked(2))


@pytest.mark.parametrize("seat", [1, 2, None])
def test_legal_actions_refuses_a_view_of_another_seat(seat: int | None) -> None:
    with pytest.raises(InvalidArgumentError, match="seat to move"):
        legal_actions(view(_with_reserves(), seat))


def test_legal_actions_refuses_what_is_neither_a_state_nor_a_view() -> None:
    with pytest.raises(InvalidArgumentError, match="GameState or a PlayerView"):
        legal_actions("state")  # type: ignore[arg-type]  # checking it is refused


def test_no_legal_action_once_the_game_is_over_from_any_view() -> None:
    state = new_game(2, seed=5)
    rng = random.Random(5)
    while not state.is_over:
        state = apply(state, rng.choice(legal_actions(state)))
    assert legal_actions(view(state, 1)) == ()
    assert legal_actions(view(state, None)) == ()


def test_determinize_keeps_what_the_view_shows() -> None:
    state = _with_reserves()
    for seat in (0, 1, 2, None):
        seen = view(state, seat)
        guess = determinize(seen, random.Random(seat))
        check_state(guess)
        assert view(guess, seat) == seen
        if seat is not None:
            assert guess.players[seat] == state.players[seat]


def test_determinize_deals_each_hidden_blind_reserve_from_its_tier() -> None:
    state = _with_reserves()
    for seed in range(20):
        guess = determinize(view(state, 2), seed)
        assert [c.tier for c in _blind(guess.players[1])] == [3]
        assert guess.players[1].reserved_blind == (False, True)
        assert guess.players[0].reserved[0].tier == 2


def test_determinize_is_seeded() -> None:
    seen = view(_with_reserves(), 1)
    assert determinize(seen, 7) == determinize(seen, random.Random(7))
    assert determinize(seen, 7) == determinize(seen, 7)
    assert determinize(seen, 7) != determinize(seen, 8)


def test_determinize_varies_the_hidden_cards_only() -> None:
    state = _with_reserves()
    seen = view(state, 0)
    guesses = [determinize(seen, seed) for seed in range(10)]
    assert len({guess.decks for guess in guesses}) == 10
    assert len({guess.players[2].reserved for guess in guesses}) > 1
    assert all(guess.board == state.board for guess in guesses)


@pytest.mark.parametrize("rng", [None, 1.5, "seed", True])
def test_determinize_rejects_a_source_of_randomness_that_is_not_one(rng: object) -> None:
    with pytest.raises(InvalidArgumentError, match="rng"):
        determinize(view(new_game(2, seed=1), 0), rng)  # type: ignore[arg-type]  # checking it is refused


def test_determinize_rejects_a_view_no_game_can_show() -> None:
    seen = view(_with_reserves(), 1)
    too_many = attrs.evolve(seen, deck_sizes=(seen.deck_sizes[0] + 1, *seen.deck_sizes[1:]))
    with pytest.raises(InvalidArgumentError, match="hides"):
        determinize(too_many, 0)
    twice = attrs.evolve(seen, board=(seen.board[0], seen.board[0], seen.board[2]))
    with pytest.raises(InvalidArgumentError, match="two places"):
        determinize(twice, 0)
    assert seen.own is not None
    lying = attrs.evolve(seen, own=attrs.evolve(seen.own, tokens=Tokens(red=9)))
    with pytest.raises(InvalidArgumentError, match="own state"):
        determinize(lying, 0)


def test_a_view_round_trips_through_json_in_the_versioned_format() -> None:
    state = _with_reserves()
    for seat in (0, 1, None):
        seen = view(state, seat)
        text = to_json(seen)
        assert json.loads(text)["format"] == 1
        assert from_json(text, PlayerView) == seen


def test_a_view_in_json_names_no_hidden_card() -> None:
    state = _with_reserves()
    secret = state.players[0].reserved[0]
    data = json.loads(to_json(view(state, 1)))
    assert data["players"][0]["reserved"] == []
    assert data["players"][0]["blind_reserves"] == [2]
    assert data["own"]["reserved"] == [c.id for c in state.players[1].reserved]
    mine = json.loads(to_json(view(state, 0)))
    assert mine["own"]["reserved"] == [secret.id]


def test_loading_an_impossible_view_fails_with_the_reason() -> None:
    data = json.loads(to_json(view(_with_reserves(), 1)))
    data["players"][2]["blind_reserves"] = [1, 1]
    with pytest.raises(SerializationError, match="impossible view"):
        from_json(json.dumps(data), PlayerView)
    data = json.loads(to_json(view(_with_reserves(), 1)))
    data["own"]["tokens"] = {"red": 1}
    with pytest.raises(SerializationError, match=r"do not agree|own state"):
        from_json(json.dumps(data), PlayerView)


def test_public_player_of_a_state_hides_blind_reserves() -> None:
    state = _with_reserves()
    public = PublicPlayer.of(state.players[1])
    assert public.reserved == state.players[1].reserved[:1]
    assert public.blind_reserves == (3,)
    assert public.cards == state.players[1].cards
    assert public.points == state.players[1].points


@pytest.mark.parametrize("tier", [0, -1, 4, 9, True, "1", 1.0, None])
def test_a_view_refuses_a_tier_that_is_not_one(tier: object) -> None:
    seen = view(new_game(2, seed=1), 0)
    with pytest.raises(InvalidArgumentError, match="tier"):
        seen.face_up(tier)  # type: ignore[arg-type]  # checking it is refused
    with pytest.raises(InvalidArgumentError, match="tier"):
        seen.deck_size(tier)  # type: ignore[arg-type]  # checking it is refused
    if tier is not None:
        with pytest.raises(InvalidArgumentError, match="tier"):
            seen.unseen(tier)  # type: ignore[arg-type]  # checking it is refused


def test_a_view_answers_for_each_tier() -> None:
    state = new_game(2, seed=1)
    seen = view(state, 0)
    for tier in (1, 2, 3):
        assert seen.face_up(tier) == state.board[tier - 1]
        assert seen.deck_size(tier) == len(state.decks[tier - 1])


@pytest.mark.parametrize(
    "player",
    [None, "player", PlayerState(reserved=(CARDS[0],)), PlayerState(reserved_blind=(True,))],
    ids=["None", "str", "a card without its flag", "a flag without its card"],
)
def test_public_player_of_refuses_what_is_not_a_player(player: object) -> None:
    with pytest.raises(InvalidArgumentError):
        PublicPlayer.of(player)  # type: ignore[arg-type]  # checking it is refused


def _evolve(seen: PlayerView, **changes: object) -> PlayerView:
    """:func:`attrs.evolve` taking fields of any type, to build broken views on purpose."""
    return attrs.evolve(seen, **changes)  # type: ignore[arg-type]  # wrong field types on purpose


@pytest.mark.parametrize(
    "change",
    [
        {"bank": None},
        {"bank": Tokens(red=9)},
        {"players": None},
        {"players": ()},
        {"deck_sizes": (1, "x", 3)},
        {"nobles": None},
        {"turn": "3"},
        {"current_player": 1},
        {"winners": (0,)},
        {"rules": None},
    ],
    ids=repr,
)
def test_determinize_refuses_a_hand_made_view_no_game_shows(change: dict[str, object]) -> None:
    broken = _evolve(view(_with_reserves(), 1), **change)
    with pytest.raises(InvalidArgumentError, match="impossible view"):
        determinize(broken, 1)


def test_determinize_checks_each_view_and_still_deals_at_random() -> None:
    seen = view(_with_reserves(), 1)
    guesses = {determinize(seen, seed) for seed in range(5)}
    assert len(guesses) > 1
    for guess in guesses:
        check_state(guess)
        assert view(guess, 1) == seen
    broken = _evolve(seen, bank=None)
    for _ in range(2):  # a view that failed is checked again, not remembered
        with pytest.raises(InvalidArgumentError, match="impossible view"):
            determinize(broken, 1)
