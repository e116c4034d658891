"""Engine values: the Tokens mapping contract, bounded numbers, seeds, fast constructors."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping
from types import MappingProxyType

import attrs
import pytest

import splendor
from splendor import (
    GEMS,
    NOBLES,
    Buy,
    GameState,
    Gem,
    InvalidArgumentError,
    Pass,
    PlayerState,
    Reserve,
    ReserveFromDeck,
    Rules,
    Take,
    Tokens,
    apply,
    legal_actions,
    new_game,
)
from splendor.core._unchecked import ATTRS_HASH_SLOT
from splendor.core._unchecked import blind as _blind
from splendor.core._unchecked import buy as _buy
from splendor.core._unchecked import pass_ as _pass
from splendor.core._unchecked import player as _player
from splendor.core._unchecked import reserve as _reserve
from splendor.core._unchecked import state as _state
from splendor.core._unchecked import take as _take
from splendor.core._unchecked import with_noble as _with_noble
from splendor.core.gems import MAX_COUNT
from splendor.core.messages import short_repr
from splendor.core.state import MAX_TURN

# Tokens: a Mapping, equal to any mapping with the same items.


def test_tokens_equal_a_mapping_with_the_same_six_items() -> None:
    tokens = Tokens(red=1, gold=2)
    assert tokens == dict(tokens)
    assert dict(tokens) == tokens
    assert tokens == {gem.value: tokens[gem] for gem in GEMS}
    assert tokens == MappingProxyType(dict(tokens))
    assert isinstance(tokens, Mapping)


@pytest.mark.parametrize(
    "other",
    [
        {"red": 1, "gold": 2},  # the zeros left out: other items
        {**{gem.value: 0 for gem in GEMS}, "red": 1},  # another count
        {**{gem.value: 0 for gem in GEMS}, "red": 1, "gold": 2, "purple": 0},  # a key more
        {"w": 0, "b": 0, "g": 0, "r": 1, "k": 0, "y": 2},  # not colours
        (0, 0, 0, 1, 0, 2),  # not a mapping
        "1R 2Y",
    ],
    ids=repr,
)
def test_tokens_differ_from_other_items(other: object) -> None:
    tokens = Tokens(red=1, gold=2)
    assert tokens != other
    assert not tokens == other  # noqa: SIM201  # both operators, on purpose


def test_equal_tokens_hash_alike_and_compare_by_counts() -> None:
    assert Tokens(red=1) == Tokens.from_mapping({Gem.RED: 1})
    assert hash(Tokens(red=1)) == hash(Tokens.from_mapping({"red": 1}))
    assert Tokens(red=1) != Tokens(blue=1)
    assert len({Tokens(red=1), Tokens(red=1), Tokens()}) == 2


# Bounded numbers.


def test_each_colour_reads_as_an_attribute_as_it_is_written() -> None:
    tokens = Tokens(white=1, blue=2, green=3, red=4, black=5, gold=6)
    read = (tokens.white, tokens.blue, tokens.green, tokens.red, tokens.black, tokens.gold)
    assert read == (1, 2, 3, 4, 5, 6) == tuple(tokens[gem] for gem in GEMS)
    assert (Tokens().white, Tokens.of(Gem.GOLD).gold) == (0, 1)


def test_the_colour_attributes_are_read_only() -> None:
    tokens = Tokens(red=1)
    with pytest.raises(AttributeError):
        tokens.red = 2  # type: ignore[misc]  # the point: a property has no setter
    assert tokens == Tokens(red=1)
    assert hash(tokens) == hash(Tokens(red=1))


def test_token_counts_are_bounded() -> None:
    assert Tokens(red=MAX_COUNT)[Gem.RED] == MAX_COUNT
    with pytest.raises(InvalidArgumentError, match=r"from 0 to 1,000,000,000, got red=1000000001"):
        Tokens(red=MAX_COUNT + 1)
    # A huge number gets a short message, not Python's int-to-string error.
    with pytest.raises(InvalidArgumentError, match=r"got red=an int of 16610 bits$"):
        Tokens(red=10**5000)


@pytest.mark.parametrize(
    "settings",
    [
        {"points_to_win": MAX_COUNT + 1},
        {"token_limit": 10**5000},
        {"reserve_limit": MAX_COUNT + 1},
        {"gems_by_players": (4, 5, MAX_COUNT + 1)},
        {"gold_by_players": (10**5000, 5, 5)},
    ],
    ids=short_repr,
)
def test_rules_numbers_are_bounded(settings: dict[str, object]) -> None:
    with pytest.raises(InvalidArgumentError, match=r"1,000,000,000") as error:
        Rules(**settings)  # type: ignore[arg-type]  # out of range on purpose
    assert len(str(error.value)) < 200


def test_rules_at_the_bound_are_accepted() -> None:
    rules = Rules(points_to_win=MAX_COUNT, gems_by_players=(MAX_COUNT, MAX_COUNT, MAX_COUNT))
    assert new_game(2, seed=1, rules=rules).bank[Gem.RED] == MAX_COUNT


def test_the_turn_number_is_bounded() -> None:
    state = new_game(2, seed=1)
    assert attrs.evolve(state, turn=MAX_TURN).turn == MAX_TURN
    for turn in (MAX_TURN + 1, 10**4300 - 2, -(10**5000)):
        with pytest.raises(InvalidArgumentError, match=r"GameState\.turn must be at most"):
            attrs.evolve(state, turn=turn)


def test_short_repr_cuts_long_values() -> None:
    assert short_repr(10**5000) == "an int of 16610 bits"
    assert short_repr(-(10**5000)) == "a negative int of 16610 bits"
    assert short_repr((10**5000,)) == "a tuple too large to print"
    assert short_repr("x" * 1000) == "'" + "x" * 56 + "..."
    assert short_repr(12) == "12"


# Seeds.


def test_a_game_without_a_seed_draws_one_from_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[int] = []

    def randbits(bits: int) -> int:
        drawn.append(bits)
        return 7

    monkeypatch.setattr(secrets, "randbits", randbits)
    assert new_game(2) == new_game(2, seed=7)
    assert drawn == [128]


def test_games_without_a_seed_differ() -> None:
    deals = {new_game(2).decks for _ in range(5)}
    assert len(deals) == 5


# The engine's fast constructors give the same values as the attrs ones.


@pytest.mark.parametrize("seed", [1, 2])
def test_fast_state_constructors_equal_the_attrs_ones(seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(3, seed=seed)
    while not state.is_over:
        # apply builds every state and player with the fast constructors.
        for player in state.players:
            slow = PlayerState(**attrs.asdict(player, recurse=False))
            fast = _player(*attrs.astuple(player, recurse=False))
            assert fast == slow == player
            assert hash(fast) == hash(slow) == hash(player)
        slow_state = GameState(**attrs.asdict(state, recurse=False))
        fast_state = _state(*attrs.astuple(state, recurse=False))
        assert fast_state == slow_state == state
        assert hash(fast_state) == hash(slow_state) == hash(state)
        state = apply(state, rng.choice(legal_actions(state)))


@pytest.mark.parametrize(
    ("fast", "slow"),
    [
        (lambda: _take(Tokens(red=2), Tokens(), None), lambda: Take(Tokens(red=2))),
        (
            lambda: _reserve(splendor.CARDS[0], Tokens(gold=1), NOBLES[1]),
            lambda: Reserve(splendor.CARDS[0], Tokens(gold=1), NOBLES[1]),
        ),
        (lambda: _blind(2, Tokens(), None), lambda: ReserveFromDeck(2)),
        (lambda: _buy(splendor.CARDS[5], None, None), lambda: Buy(splendor.CARDS[5])),
        (lambda: _pass(NOBLES[0]), lambda: Pass(NOBLES[0])),
        (
            lambda: _with_noble(Take(Tokens(red=2)), NOBLES[2]),
            lambda: Take(Tokens(red=2), noble=NOBLES[2]),
        ),
        (
            lambda: _with_noble(Buy(splendor.CARDS[5], Tokens()), NOBLES[2]),
            lambda: Buy(splendor.CARDS[5], Tokens(), NOBLES[2]),
        ),
        (
            lambda: _with_noble(ReserveFromDeck(3), NOBLES[2]),
            lambda: ReserveFromDeck(3, noble=NOBLES[2]),
        ),
        (lambda: _with_noble(Pass(), NOBLES[2]), lambda: Pass(NOBLES[2])),
    ],
)
def test_fast_action_constructors_equal_the_attrs_ones(fast: object, slow: object) -> None:
    assert callable(fast)
    assert callable(slow)
    made, expected = fast(), slow()
    assert type(made) is type(expected)
    assert made == expected
    assert hash(made) == hash(expected)
    assert repr(made) == repr(expected)


def _slots(cls: type) -> list[str]:
    return [name for c in cls.__mro__ for name in c.__dict__.get("__slots__", ())]


_FAST_AND_ATTRS: list[tuple[Callable[[], object], Callable[[], object]]] = [
    (
        lambda: _player(Tokens(red=1), (), (), (), (), 0, Tokens()),
        lambda: PlayerState(Tokens(red=1)),
    ),
    (
        lambda: _state(*attrs.astuple(new_game(2, seed=1), recurse=False)),
        lambda: GameState(**attrs.asdict(new_game(2, seed=1), recurse=False)),
    ),
    (lambda: _take(Tokens(red=2), Tokens(), None), lambda: Take(Tokens(red=2))),
    (
        lambda: _reserve(splendor.CARDS[0], Tokens(gold=1), None),
        lambda: Reserve(splendor.CARDS[0], Tokens(gold=1)),
    ),
    (lambda: _blind(2, Tokens(), None), lambda: ReserveFromDeck(2)),
    (lambda: _buy(splendor.CARDS[5], None, None), lambda: Buy(splendor.CARDS[5])),
    (lambda: _pass(NOBLES[0]), lambda: Pass(NOBLES[0])),
]


@pytest.mark.parametrize(("fast", "slow"), _FAST_AND_ATTRS)
def test_the_fast_constructors_fill_every_slot_as_attrs_does(
    fast: Callable[[], object], slow: Callable[[], object]
) -> None:
    # The guard of the attrs internal splendor.core._unchecked relies on: the
    # classes' slots are their fields and one cached-hash slot of that name,
    # which attrs' __init__ leaves None and its __hash__ fills. It fails when
    # a new attrs changes any of it (then the fast constructors must follow).
    made, expected = fast(), slow()
    cls = type(expected)
    assert attrs.has(cls)
    fields = [field.name for field in attrs.fields(cls)]
    assert sorted(set(_slots(cls)) - {"__weakref__"}) == sorted([*fields, ATTRS_HASH_SLOT])
    for name in (*fields, ATTRS_HASH_SLOT):
        assert getattr(made, name) == getattr(expected, name), name
    assert getattr(expected, ATTRS_HASH_SLOT) is None
    assert getattr(made, ATTRS_HASH_SLOT) is None
    assert hash(made) == hash(expected)
    assert getattr(made, ATTRS_HASH_SLOT) == getattr(expected, ATTRS_HASH_SLOT) == hash(made)


def test_listed_actions_equal_the_attrs_ones() -> None:
    # Every action legal_actions lists (built the fast way) equals its attrs twin.
    state = new_game(2, seed=3)
    rng = random.Random(3)
    while not state.is_over:
        for action in legal_actions(state):
            twin = type(action)(*attrs.astuple(action, recurse=False))
            assert twin == action
            assert hash(twin) == hash(action)
        state = apply(state, rng.choice(legal_actions(state)))


def test_the_thorough_profile_tries_more_random_examples() -> None:
    from hypothesis import settings

    thorough, ci = settings.get_profile("thorough"), settings.get_profile("ci")
    assert thorough.max_examples > 10 * ci.max_examples
    assert not thorough.derandomize
    assert ci.derandomize
