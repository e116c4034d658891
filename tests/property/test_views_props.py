"""Views hide exactly what a seat cannot see; determinisation fills it in uniformly.

Each test adds what it checked to :data:`CHECKED`, printed at the end of the
module (run pytest with ``-s`` to see the counts).
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import given

from splendor import (
    Card,
    GameState,
    InvalidArgumentError,
    PlayerState,
    ReserveFromDeck,
    Take,
    Tokens,
    apply,
    check_state,
    determinize,
    legal_actions,
    new_game,
    to_json,
    view,
)
from tests.exercised import check_paths
from tests.strategies import RandomGame, random_games, spread

CHECKED: Counter[str] = Counter()
# The paths each test must go down at least once.
PATHS: dict[str, tuple[str, ...]] = {
    "test_a_view_and_its_json_never_show_a_card_the_seat_cannot_see": (
        "views checked for hidden cards",
        "hidden cards looked for",
    ),
    "test_the_view_of_a_determinized_state_is_the_view": ("states determinized",),
    "test_legal_actions_agree_between_the_state_and_the_movers_view": (
        "states whose legal actions agree with the view",
    ),
    "test_determinize_puts_every_unseen_card_in_every_unseen_place_uniformly": (
        "determinizations sampled for uniformity",
        "(card, place) cells checked for uniformity",
    ),
}


@pytest.fixture(scope="module", autouse=True)
def _report_counts(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    print(f"\n{__name__}: " + ", ".join(f"{n} {what}" for what, n in sorted(CHECKED.items())))
    check_paths(request, CHECKED, PATHS)


def _blind(player: PlayerState) -> list[Card]:
    return [c for c, b in zip(player.reserved, player.reserved_blind, strict=True) if b]


def _hidden(state: GameState, seat: int | None) -> set[int]:
    """The ids of the cards ``seat`` cannot see in ``state``."""
    found = {card.id for deck in state.decks for card in deck}
    for other, player in enumerate(state.players):
        if other != seat:
            found |= {card.id for card in _blind(player)}
    return found


def _cards_in(value: object) -> set[int]:
    """The ids of every card anywhere inside an object (attrs fields and tuples)."""
    if isinstance(value, Card):
        return {value.id}
    found: set[int] = set()
    if isinstance(value, tuple):
        for item in value:
            found |= _cards_in(item)
    elif attrs.has(type(value)):
        for field in attrs.fields(type(value)):  # type: ignore[arg-type]  # an attrs class
            found |= _cards_in(getattr(value, field.name))
    return found


# The JSON fields that hold card ids (arrays of ids, or rows of ids for the board).
_CARD_FIELDS = frozenset({"board", "cards", "reserved"})


def _ids_in_json(data: object, holds_cards: bool = False) -> set[int]:
    """The card ids in a view's JSON; also checks no other field is an array of ids."""
    found: set[int] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            found |= _ids_in_json(value, key in _CARD_FIELDS)
    elif isinstance(data, list):
        for item in data:
            if type(item) is int and holds_cards:
                found.add(item)
            else:
                found |= _ids_in_json(item, holds_cards)
    return found


@given(random_games(max_turns=150))
def test_a_view_and_its_json_never_show_a_card_the_seat_cannot_see(game: RandomGame) -> None:
    for state in spread(game.states(), 6):
        for seat in (None, *range(len(state.players))):
            hidden = _hidden(state, seat)
            seen = view(state, seat)
            in_view = _cards_in(seen)
            assert not hidden & in_view
            assert in_view == {card.id for card in seen.visible()}
            assert in_view | hidden == set(range(1, 91))
            in_json = _ids_in_json(json.loads(to_json(seen)))
            assert in_json == in_view
            CHECKED["views checked for hidden cards"] += 1
            CHECKED["hidden cards looked for"] += len(hidden)


@given(random_games(max_turns=150))
def test_the_view_of_a_determinized_state_is_the_view(game: RandomGame) -> None:
    rng = random.Random(game.seed)
    for state in spread(game.states(), 4):
        for seat in (None, *range(len(state.players))):
            seen = view(state, seat)
            guess = determinize(seen, rng)
            check_state(guess)
            assert view(guess, seat) == seen
            assert to_json(view(guess, seat)) == to_json(seen)
            if seat is not None:
                assert guess.players[seat] == state.players[seat]
            CHECKED["states determinized"] += 1


@given(random_games(max_turns=200))
def test_legal_actions_agree_between_the_state_and_the_movers_view(game: RandomGame) -> None:
    for state in game.states():
        mover = state.current_player
        assert legal_actions(view(state, mover)) == legal_actions(state)
        CHECKED["states whose legal actions agree with the view"] += 1
        if not state.is_over:
            other = (mover + 1) % len(state.players)
            with pytest.raises(InvalidArgumentError):
                legal_actions(view(state, other))


def _uniformity_state() -> GameState:
    """Three players; seats 1 and 2 hold blind reserves that seat 0 cannot see."""
    state = new_game(3, seed=21)
    state = apply(state, Take(Tokens(1, 1, 1)))
    state = apply(state, ReserveFromDeck(3))
    state = apply(state, ReserveFromDeck(3))
    state = apply(state, Take(Tokens(0, 1, 1, 1)))
    state = apply(state, ReserveFromDeck(1))
    return apply(state, ReserveFromDeck(2))


SAMPLES = 3000


def test_determinize_puts_every_unseen_card_in_every_unseen_place_uniformly() -> None:
    state = _uniformity_state()
    seen = view(state, 0)
    rng = random.Random(2024)
    counts: dict[int, Counter[tuple[object, ...]]] = {1: Counter(), 2: Counter(), 3: Counter()}
    for _ in range(SAMPLES):
        guess = determinize(seen, rng)
        for tier, deck in enumerate(guess.decks, 1):
            for position, card in enumerate(deck):
                counts[tier][card.id, "deck", position] += 1
        for seat in (1, 2):
            player = guess.players[seat]
            for index, card in enumerate(player.reserved):
                if player.reserved_blind[index]:
                    counts[card.tier][card.id, "reserve", seat, index] += 1
        CHECKED["determinizations sampled for uniformity"] += 1
    for tier in (1, 2, 3):
        pool = seen.unseen(tier)
        places = seen.deck_size(tier) + sum(
            seen.players[seat].blind_reserves.count(tier) for seat in (1, 2)
        )
        assert len(pool) == places
        cells = counts[tier]
        # Every unseen card has been in every unseen place...
        assert len(cells) == len(pool) * places
        # ... about as often as any other: within 6 standard deviations per
        # cell, and a chi-squared statistic far from its tail.
        p = 1 / places
        expected = SAMPLES * p
        spread = 6 * math.sqrt(SAMPLES * p * (1 - p))
        assert all(abs(n - expected) <= spread for n in cells.values())
        chi2 = sum((n - expected) ** 2 / expected for n in cells.values())
        freedom = (len(pool) - 1) * (places - 1)
        assert chi2 < freedom + 6 * math.sqrt(2 * freedom)
        CHECKED["(card, place) cells checked for uniformity"] += len(cells)
    # The places of the blind reserves were sampled for each tier they hold.
    assert any(key[1] == "reserve" for key in counts[3])
    assert any(key[1] == "reserve" for key in counts[1])
