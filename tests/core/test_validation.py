"""check_state: every reachable state passes, and each broken invariant is named."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from splendor import (
    CARDS_BY_ID,
    NOBLES_BY_ID,
    Card,
    GameState,
    GreedyBot,
    InvalidArgumentError,
    InvalidStateError,
    PlayerState,
    Rules,
    Tokens,
    apply,
    check_state,
    legal_actions,
    new_game,
    view,
)
from tests.builders import with_player


def _play(players: int, seed: int, turns: int, rules: Rules | None = None) -> GameState:
    state = new_game(players, seed=seed, rules=rules)
    rng = random.Random(seed)
    while not state.is_over and state.turn < turns:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def _finished(players: int, seed: int) -> GameState:
    state = _play(players, seed, 10_000)
    assert state.is_over
    return state


MID: Final = _play(3, seed=11, turns=40)


def _with_player(state: GameState, seat: int, **changes: Any) -> GameState:
    player = attrs.evolve(state.players[seat], **changes)
    players = (*state.players[:seat], player, *state.players[seat + 1 :])
    return attrs.evolve(state, players=players)


def _broken(state: GameState, invariant: str, text: str) -> None:
    with pytest.raises(InvalidStateError) as info:
        check_state(state)
    message = str(info.value)
    assert message.startswith(f"{invariant}: "), message
    assert text in message, message


@given(st.integers(2, 4), st.integers(0, 10_000), st.booleans())
def test_every_state_of_a_random_game_passes(players: int, seed: int, variant: bool) -> None:
    rules = Rules.no_gold_variant() if variant else Rules(points_to_win=8)
    state = new_game(players, seed=seed, rules=rules)
    rng = random.Random(seed)
    check_state(state)
    while not state.is_over:
        state = apply(state, rng.choice(legal_actions(state)))
        check_state(state)


def test_the_fixtures_are_what_the_tests_assume() -> None:
    assert not MID.is_over
    assert any(p.cards for p in MID.players)
    assert any(p.tokens for p in MID.players)


def test_not_a_state_is_an_invalid_argument() -> None:
    with pytest.raises(InvalidArgumentError):
        check_state("state")  # type: ignore[arg-type]  # the wrong type on purpose


@pytest.mark.parametrize(
    ("change", "text"),
    [
        (lambda s: attrs.evolve(s, players=s.players[:1]), "players must be a tuple of 2 to 4"),
        (lambda s: attrs.evolve(s, board=s.board[:2]), "board must be a tuple of 3 rows"),
        (
            lambda s: attrs.evolve(s, board=(s.board[0][:3], *s.board[1:])),
            "must be a tuple of 4 slots",
        ),
        (lambda s: attrs.evolve(s, decks=s.decks[:2]), "decks must be a tuple of 3 decks"),
        (
            lambda s: attrs.evolve(s, nobles=list(s.nobles)),
            "nobles must be a tuple of the game's nobles",
        ),
        (lambda s: attrs.evolve(s, turn=True), "turn must be an int"),
        (
            lambda s: _with_player(s, 0, reserved=s.decks[0][:1], reserved_blind=(1,)),
            "tuple of bool",
        ),
    ],
)
def test_shape(change: Callable[[GameState], GameState], text: str) -> None:
    _broken(change(new_game(2, seed=1)), "shape", text)


def test_a_card_in_two_places() -> None:
    state = new_game(2, seed=1)
    card = state.decks[0][0]
    _broken(
        _with_player(state, 1, reserved=(card,), reserved_blind=(True,)),
        "cards",
        f"card #{card.id} is in two places",
    )


def test_a_missing_card() -> None:
    state = new_game(2, seed=1)
    card = state.decks[1][-1]
    _broken(
        attrs.evolve(state, decks=(state.decks[0], state.decks[1][:-1], state.decks[2])),
        "cards",
        f"missing #{card.id}",
    )


def test_a_card_in_the_wrong_tier() -> None:
    state = new_game(2, seed=1)
    decks = (state.decks[1], state.decks[0], state.decks[2])
    _broken(attrs.evolve(state, decks=decks), "cards", "of tier 2 is in a tier 1 row or deck")


def test_an_empty_slot_while_the_deck_has_cards() -> None:
    state = new_game(2, seed=1)
    row = state.board[2]
    card = row[0]
    assert card is not None
    board = (state.board[0], state.board[1], (None, *row[1:]))
    decks = (state.decks[0], state.decks[1], (*state.decks[2], card))
    _broken(attrs.evolve(state, board=board, decks=decks), "cards", "empty slot while its deck")


def test_tokens_must_add_up_to_the_rules_totals() -> None:
    state = new_game(4, seed=1)
    _broken(
        attrs.evolve(state, bank=state.bank + Tokens(red=1)), "tokens", "red tokens add up to 8"
    )
    _broken(
        attrs.evolve(state, bank=state.bank - Tokens(gold=1)), "tokens", "gold tokens add up to 4"
    )


def test_tokens_must_match_a_variant_for_the_player_count() -> None:
    state = new_game(2, seed=1)
    _broken(
        attrs.evolve(state, rules=Rules.no_gold_variant()),
        "tokens",
        "the rules have 0 for 2 players",
    )


def test_no_negative_token_count() -> None:
    state = new_game(2, seed=1)
    negative = Tokens._of((5, 4, 4, 4, 4, 5))
    player = Tokens._of((-1, 0, 0, 0, 0, 0))
    _broken(
        _with_player(attrs.evolve(state, bank=negative), 0, tokens=player), "tokens", "negative"
    )


def test_nobody_above_the_token_limit() -> None:
    state = new_game(2, seed=1)
    taken = Tokens(2, 2, 2, 2, 2, 1)
    state = _with_player(attrs.evolve(state, bank=state.bank - taken), 1, tokens=taken)
    _broken(state, "tokens", "player 1 holds 11 tokens, over the limit of 10")


def test_reserved_cards_within_the_limit() -> None:
    state = new_game(2, seed=1)
    cards = state.decks[0][:4]
    state = attrs.evolve(state, decks=(state.decks[0][4:], *state.decks[1:]))
    _broken(
        _with_player(state, 0, reserved=cards, reserved_blind=(True,) * 4),
        "reserved",
        "4 reserved cards",
    )


def test_one_blind_flag_per_reserved_card() -> None:
    state = new_game(2, seed=1)
    card = state.decks[0][0]
    state = attrs.evolve(state, decks=(state.decks[0][1:], *state.decks[1:]))
    _broken(_with_player(state, 0, reserved=(card,)), "reserved", "0 reserved_blind flag(s) for 1")


def _bought(state: GameState, seat: int, count: int) -> GameState:
    """The state with the player given the last cards of the tier 1 deck, fully accounted,
    after as many rounds as cards (one card a turn)."""
    deck = state.decks[0]
    cards = deck[len(deck) - count :]
    bonuses = Tokens.of(*(c.bonus for c in cards))
    points = sum(c.points for c in cards)
    turn = count * len(state.players)
    state = attrs.evolve(state, decks=(deck[: len(deck) - count], *state.decks[1:]), turn=turn)
    return _with_player(state, seat, cards=cards, bonuses=bonuses, points=points)


def test_the_helper_gives_a_valid_state() -> None:
    check_state(_bought(new_game(2, seed=1), 0, 5))


def test_bonuses_match_the_cards() -> None:
    state = _bought(new_game(2, seed=1), 0, 5)
    _broken(_with_player(state, 0, bonuses=Tokens()), "bonuses", "but the purchased cards give")


def test_points_match_cards_and_nobles() -> None:
    state = _bought(new_game(2, seed=1), 0, 5)
    wrong = state.players[0].points + 1
    _broken(_with_player(state, 0, points=wrong), "points", f"has {wrong} points")


def test_a_held_noble_is_met_by_the_bonuses() -> None:
    state = new_game(2, seed=1)
    noble = state.nobles[0]
    state = _with_player(attrs.evolve(state, nobles=state.nobles[1:]), 0, nobles=(noble,), points=3)
    _broken(state, "nobles", f"holds noble N{noble.id} but their bonuses")


def test_a_noble_in_two_places() -> None:
    state = new_game(2, seed=1)
    noble = state.nobles[0]
    everyone = Tokens(5, 5, 5, 5, 5)
    state = _with_player(state, 0, nobles=(noble,), points=3, bonuses=everyone)
    _broken(state, "nobles", f"noble N{noble.id} is in two places")


def test_revealed_and_received_nobles_make_the_rules_number() -> None:
    state = new_game(3, seed=1)
    _broken(
        attrs.evolve(state, nobles=state.nobles[:-1]), "nobles", "the rules reveal 4 for 3 players"
    )
    extra = next(n for n in NOBLES_BY_ID.values() if n not in state.nobles)
    _broken(attrs.evolve(state, nobles=(*state.nobles, extra)), "nobles", "make 5 nobles")


@pytest.mark.parametrize(
    ("changes", "text"),
    [
        ({"turn": -3, "current_player": 0}, "turn must not be negative"),
        ({"current_player": 3}, "is not a seat of the 3 players"),
        ({"current_player": -1}, "is not a seat"),
        ({"turn": MID.turn + 1}, f"but turn {MID.turn + 1} makes it seat"),
        ({"passes": -1}, "passes is -1"),
        ({"passes": MID.turn + 1}, "passes is"),
    ],
)
def test_turns(changes: dict[str, int], text: str) -> None:
    _broken(attrs.evolve(MID, **changes), "turns", text)  # type: ignore[arg-type]  # test data


def test_passes_that_would_have_ended_the_game() -> None:
    state = _play(3, seed=3, turns=10)
    assert state.current_player == 1
    _broken(attrs.evolve(state, passes=4), "turns", "passes is 4, it must be between 0 and 3")
    check_state(attrs.evolve(state, passes=3))


def test_a_finished_game_needs_winners() -> None:
    state = _finished(2, seed=4)
    _broken(attrs.evolve(state, winners=()), "end", "but there are no winners")


def test_winners_only_at_the_end() -> None:
    _broken(attrs.evolve(MID, winners=(0,)), "end", "the game has not ended")
    state = _play(3, seed=2, turns=3)
    assert state.current_player == 0
    _broken(attrs.evolve(state, winners=(0,)), "end", "the game has not ended")


def test_winners_are_the_rules_winners() -> None:
    state = _finished(3, seed=6)
    others = tuple(seat for seat in range(3) if seat not in state.winners)
    _broken(attrs.evolve(state, winners=others), "end", f"they are {state.winners}")


def test_a_whole_round_of_passes_ends_the_game() -> None:
    state = new_game(2, seed=1, rules=Rules(points_to_win=1))
    state = attrs.evolve(state, turn=4, passes=2)
    _broken(state, "end", "a whole round of passes (2)")
    winners = attrs.evolve(state, winners=(0, 1))
    check_state(winners)


def test_a_card_by_its_id_is_the_shared_instance() -> None:
    state = new_game(2, seed=1)
    card = state.board[0][0]
    assert card is not None
    assert card is CARDS_BY_ID[card.id]
    assert isinstance(state.players[0], PlayerState)


# What each player holds must fit in the turns it has played.


def _holding(turn: int, seat: int = 0, **changes: Any) -> GameState:
    """A 2-player deal at ``turn`` with ``changes`` to a player, tokens and cards accounted."""
    state = attrs.evolve(new_game(2, seed=1), turn=turn, current_player=turn % 2)
    taken = changes.get("tokens", Tokens())
    state = attrs.evolve(state, bank=state.bank - taken)
    held = (*changes.get("cards", ()), *changes.get("reserved", ()))
    decks = tuple(tuple(c for c in deck if c not in held) for deck in state.decks)
    state = attrs.evolve(state, decks=decks)
    if "cards" in changes:
        changes["bonuses"] = Tokens.of(*(c.bonus for c in changes["cards"]))
        changes["points"] = sum(c.points for c in changes["cards"])
    if "reserved" in changes:
        changes["reserved_blind"] = (True,) * len(changes["reserved"])
    return _with_player(state, seat, **changes)


def _deck_cards(tier: int, count: int) -> tuple[Card, ...]:
    deck = new_game(2, seed=1).decks[tier - 1]
    return deck[len(deck) - count :]


def test_cards_bought_at_turn_0_are_refused() -> None:
    _broken(_holding(0, cards=_deck_cards(3, 3)), "history", "player 0 has played 0 turn(s)")


def test_gold_held_without_reserves_needs_as_many_turns() -> None:
    _broken(_holding(0, tokens=Tokens(gold=5)), "history", "holdings need 5")
    _broken(_holding(8, tokens=Tokens(gold=5)), "history", "player 0 has played 4 turn(s)")
    check_state(_holding(10, tokens=Tokens(gold=5)))


def test_tokens_come_at_most_three_a_turn() -> None:
    ten = Tokens(white=2, blue=2, green=2, red=2, black=2)
    _broken(_holding(2, tokens=ten), "history", "token gains of at most 3 a turn")
    _broken(_holding(7, seat=1, tokens=ten), "history", "player 1 has played 3 turn(s)")
    check_state(_holding(8, seat=1, tokens=ten))


def test_cards_and_reserves_share_the_turns() -> None:
    bought, reserved = _deck_cards(1, 2), _deck_cards(2, 2)
    _broken(_holding(6, cards=bought, reserved=reserved), "history", "holdings need 4")
    check_state(_holding(7, cards=bought, reserved=reserved))


def test_a_state_reached_by_play_passes_the_history_check() -> None:
    check_state(MID)


def _with_points(state: GameState, seat: int, target: int) -> GameState:
    """``state`` with the highest-point cards of the tier-3 and tier-2 decks moved to ``seat``."""
    deck_cards = sorted(
        (card for tier in (2, 1) for card in state.decks[tier]),
        key=lambda card: -card.points,
    )
    cards = list(state.players[seat].cards)
    for card in deck_cards:
        if sum(c.points for c in cards) >= target:
            break
        cards.append(card)
    return with_player(state, seat, cards=cards)


def test_a_seat_yet_to_play_this_round_at_the_points_to_win_would_have_ended_the_game() -> None:
    # Seat 2 has not played since the last round ended: had it held 15 points
    # then, that round's end would have ended the game.
    state = new_game(3, seed=5)
    bot, rng = GreedyBot(), random.Random(1)
    while state.turn < 40:
        state = apply(state, bot(view(state, state.current_player), legal_actions(state), rng))
    assert state.current_player == 1
    assert not state.is_over
    reached = _with_points(state, 2, 15)
    assert reached.players[2].points >= 15
    _broken(
        reached,
        "end",
        "player 2 has 15 points but has not played since the round that ended at turn 39",
    )
    # So for the seat to move: its last turn was in the last round too.
    _broken(_with_points(state, 1, 15), "end", "player 1 has")
    # A seat that has played in this round may: the round is not over yet.
    check_state(_with_points(state, 0, 15))
