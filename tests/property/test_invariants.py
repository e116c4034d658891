"""Invariants that hold in every state between turns of random games."""

from __future__ import annotations

from hypothesis import given

from splendor import (
    CARDS,
    CARDS_BY_ID,
    GEMS,
    NOBLES_BY_ID,
    Buy,
    GameState,
    Pass,
    Reserve,
    ReserveFromDeck,
    Take,
    Tokens,
    apply,
)
from tests.strategies import RandomGame, random_games, setup_tokens


def _all_tokens(state: GameState) -> Tokens:
    total = state.bank
    for player in state.players:
        total = total + player.tokens
    return total


@given(random_games())
def test_tokens_are_conserved(game: RandomGame) -> None:
    expected = setup_tokens(game.rules, game.players)
    for state in game.states():
        assert _all_tokens(state) == expected


@given(random_games())
def test_no_count_is_ever_negative(game: RandomGame) -> None:
    for state in game.states():
        assert min(state.bank.counts) >= 0
        for player in state.players:
            assert min(player.tokens.counts) >= 0
            assert min(player.bonuses.counts) >= 0


@given(random_games())
def test_nobody_holds_more_than_the_token_limit_between_turns(game: RandomGame) -> None:
    limit = game.rules.token_limit
    for state in game.states():
        for player in state.players:
            assert player.tokens.total <= limit


def _card_ids(state: GameState) -> list[int]:
    ids = [card.id for row in state.board for card in row if card is not None]
    ids += [card.id for deck in state.decks for card in deck]
    for player in state.players:
        ids += [card.id for card in player.cards]
        ids += [card.id for card in player.reserved]
    return ids


@given(random_games())
def test_every_card_is_in_exactly_one_place(game: RandomGame) -> None:
    every_id = sorted(card.id for card in CARDS)
    assert every_id == list(range(1, 91))
    for state in game.states():
        assert sorted(_card_ids(state)) == every_id
        places = [*state.board, *state.decks]
        for player in state.players:
            places += [player.cards, player.reserved]
        for place in places:
            for card in place:
                assert card is None or card is CARDS_BY_ID[card.id]


@given(random_games())
def test_board_rows_and_decks_hold_their_tier(game: RandomGame) -> None:
    for state in game.states():
        assert len(state.board) == len(state.decks) == 3
        for tier in (1, 2, 3):
            row = state.face_up(tier)
            assert len(row) == 4
            assert all(card is None or card.tier == tier for card in row)
            assert all(card.tier == tier for card in state.deck(tier))
            if state.deck(tier):
                # An empty slot is only left once the deck has run out.
                assert None not in row


@given(random_games())
def test_nobles_revealed_plus_received_are_those_revealed_at_setup(game: RandomGame) -> None:
    states = game.states()
    revealed = [noble.id for noble in states[0].nobles]
    assert len(revealed) == len(set(revealed)) == game.rules.nobles(game.players)
    for state in states:
        ids = [noble.id for noble in state.nobles]
        for player in state.players:
            ids += [noble.id for noble in player.nobles]
        assert sorted(ids) == sorted(revealed)
        for noble in state.nobles:
            assert noble is NOBLES_BY_ID[noble.id]


@given(random_games())
def test_points_and_bonuses_are_the_sums_of_cards_and_nobles(game: RandomGame) -> None:
    for state in game.states():
        for player in state.players:
            card_points = sum(card.points for card in player.cards)
            noble_points = sum(noble.points for noble in player.nobles)
            assert player.points == card_points + noble_points
            assert player.bonuses == Tokens.of(*(card.bonus for card in player.cards))
            assert player.bonuses[GEMS[5]] == 0
            for noble in player.nobles:
                assert noble.requirement <= player.bonuses


@given(random_games())
def test_reserves_stay_within_the_limit_with_parallel_blind_flags(game: RandomGame) -> None:
    for state in game.states():
        for player in state.players:
            assert len(player.reserved) <= game.rules.reserve_limit
            assert len(player.reserved_blind) == len(player.reserved)
            assert all(type(flag) is bool for flag in player.reserved_blind)


@given(random_games())
def test_turn_order_and_end_of_game(game: RandomGame) -> None:
    n = game.players
    target = game.rules.points_to_win
    for state in game.states():
        assert state.current_player == state.turn % n
        assert 0 <= state.passes <= state.turn
        best = max(player.points for player in state.players)
        if state.is_over:
            assert state.turn % n == 0
            assert best >= target or state.passes >= n
            key = max((p.points, -len(p.cards)) for p in state.players)
            expected = tuple(
                seat for seat, p in enumerate(state.players) if (p.points, -len(p.cards)) == key
            )
            assert state.winners == expected
        elif state.turn and state.turn % n == 0:
            # At the end of a round that did not end the game.
            assert best < target
            assert state.passes < n


def _check_turn(before: GameState, action: object, after: GameState) -> None:
    """The turn changed exactly what the action says."""
    seat = before.current_player
    n = len(before.players)
    mover, moved = before.players[seat], after.players[seat]
    assert after.turn == before.turn + 1
    assert after.current_player == (seat + 1) % n
    assert all(after.players[i] == before.players[i] for i in range(n) if i != seat)
    assert after.passes == (before.passes + 1 if type(action) is Pass else 0)
    gold_in = Tokens(gold=1) if before.bank[GEMS[5]] else Tokens()
    if isinstance(action, Take):
        assert moved.tokens + action.returned == mover.tokens + action.gems
        assert after.bank + action.gems == before.bank + action.returned
        assert (moved.cards, moved.reserved, after.board) == (
            mover.cards,
            mover.reserved,
            before.board,
        )
    elif isinstance(action, Reserve | ReserveFromDeck):
        if isinstance(action, Reserve):
            card = action.card
            tier: int = card.tier
            row = before.face_up(tier)
            slot = row.index(card)
            deck = before.deck(tier)
            assert after.face_up(tier)[slot] is (deck[0] if deck else None)
            assert moved.reserved_blind[-1] is False
        else:
            tier = action.tier
            card = before.deck(tier)[0]
            assert after.board == before.board
            assert moved.reserved_blind[-1] is True
        assert after.deck(tier) == before.deck(tier)[1:]
        assert moved.reserved == (*mover.reserved, card)
        assert moved.tokens + action.returned == mover.tokens + gold_in
        assert after.bank + gold_in == before.bank + action.returned
    elif isinstance(action, Buy):
        card = action.card
        assert moved.cards == (*mover.cards, card)
        assert action.payment is not None
        assert moved.tokens + action.payment == mover.tokens
        assert after.bank == before.bank + action.payment
        if card in mover.reserved:
            index = mover.reserved.index(card)
            assert moved.reserved == mover.reserved[:index] + mover.reserved[index + 1 :]
            assert (
                moved.reserved_blind
                == mover.reserved_blind[:index] + mover.reserved_blind[index + 1 :]
            )
            assert after.board == before.board
        else:
            row = before.face_up(card.tier)
            deck = before.deck(card.tier)
            assert after.face_up(card.tier)[row.index(card)] is (deck[0] if deck else None)
    else:
        assert (moved.tokens, moved.cards, moved.reserved) == (
            mover.tokens,
            mover.cards,
            mover.reserved,
        )
        assert (after.bank, after.board) == (before.bank, before.board)
    noble = getattr(action, "noble", None)
    if noble is None:
        assert moved.nobles == mover.nobles
        assert after.nobles == before.nobles
    else:
        assert moved.nobles == (*mover.nobles, noble)
        assert after.nobles == tuple(n for n in before.nobles if n is not noble)


@given(random_games())
def test_each_turn_changes_exactly_what_its_action_says(game: RandomGame) -> None:
    states = game.states()
    for before, action, after in zip(states[:-1], game.actions(), states[1:], strict=True):
        assert apply(before, action) == after
        _check_turn(before, action, after)
