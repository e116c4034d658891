"""Engine behaviour that the rule tests left unchecked, found by mutation testing.

Each test states the behaviour it pins; docs/testing.md lists the mutants
they kill.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator, Mapping
from typing import Any

import attrs
import pytest

from splendor import (
    GEMS,
    NOBLES,
    Action,
    Buy,
    GameState,
    Gem,
    InvalidArgumentError,
    Noble,
    Pass,
    Reserve,
    ReserveFromDeck,
    Rules,
    Take,
    Tokens,
    UnknownColourError,
    apply,
    legal_actions,
    new_game,
    view,
)
from splendor.core import _count_tuples as cnt
from splendor.core import legal
from splendor.core.components import is_game_noble
from tests.builders import card, deal, noble, toks, with_player, with_turn

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


class _ListKeyed(Mapping[object, int]):
    """A mapping whose one key is a list (unhashable)."""

    def __getitem__(self, key: object) -> int:
        return 1

    def __iter__(self) -> Iterator[object]:
        return iter([["red"]])

    def __len__(self) -> int:
        return 1


def test_tokens_from_a_mapping_refuse_an_unhashable_key_with_the_librarys_error() -> None:
    with pytest.raises(InvalidArgumentError, match=r"^unknown colour \['red'\]$"):
        Tokens.from_mapping(_ListKeyed())  # type: ignore[arg-type]  # on purpose


def test_tokens_of_gems_refuse_what_is_no_colour_and_name_it() -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        Tokens.of(Gem.RED, "purple")  # type: ignore[arg-type]  # not a colour, on purpose
    assert str(raised.value) == "unknown colour 'purple'"
    with pytest.raises(InvalidArgumentError, match=r"^unknown colour \['red'\]$"):
        Tokens.of(["red"])  # type: ignore[arg-type]  # unhashable, on purpose


def test_a_missing_colour_of_tokens_is_the_librarys_key_error_with_its_name() -> None:
    tokens = Tokens(red=1)
    with pytest.raises(UnknownColourError) as raised:
        tokens["purple"]
    assert raised.value.args == ("not a colour: 'purple'",)
    with pytest.raises(UnknownColourError) as raised:
        tokens[["red"]]  # type: ignore[index]  # unhashable, on purpose
    assert raised.value.args == ("not a colour: ['red']",)
    assert tokens.get(["red"], -1) == -1  # type: ignore[call-overload]  # on purpose


def test_taking_more_tokens_than_there_are_names_both() -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        Tokens(red=1) - Tokens(red=2, blue=1)
    assert str(raised.value) == "cannot take 1B 2R from 1R"


def test_no_tokens_read_as_a_dash() -> None:
    assert str(Tokens()) == "-"
    assert str(Tokens(gold=1)) == "1Y"


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


# ---------------------------------------------------------------------------
# The memo tables of legal_actions: results equal to an engine with empty
# tables, keys within the stated key spaces, sizes within the stated bounds.


def _empty_memo_tables() -> None:
    for parts, _ in legal.MEMO_TABLES.values():
        for part in parts:
            part.clear()


def _fresh_listing(state: GameState) -> tuple[Action, ...]:
    """legal_actions with every memo table empty: nothing remembered from before."""
    _empty_memo_tables()
    return legal_actions(state)


def _random_states(games: int, seed: int, rules: Rules | None = None) -> Iterator[GameState]:
    """The states of random games of 2 and 4 players (many near the token limit),
    at most 200 of each game."""
    rng = random.Random(seed)
    for game in range(games):
        state = new_game(2 + 2 * (game % 2), seed=seed + game, rules=rules)
        while not state.is_over and state.turn < 200:
            yield state
            state = apply(state, rng.choice(legal_actions(state)))


def test_listings_with_filled_tables_equal_those_with_empty_tables() -> None:
    # Each table filled by earlier positions must give what the position's
    # own computation gives, in the same order: a key that leaves out what
    # the entry depends on would hand one position another's actions.
    _empty_memo_tables()
    seen = [(state, legal_actions(state)) for state in _random_states(12, seed=7)]
    # Under smaller token limits, holdings of other sizes meet the same keys.
    for limit in (3, 4, 6):
        rules = Rules(token_limit=limit)
        seen += [(state, legal_actions(state)) for state in _random_states(2, 7, rules)]
    filled = sum(len(part) for parts, _ in legal.MEMO_TABLES.values() for part in parts)
    assert filled > 5_000
    # The same from the older generation of the bounded tables.
    for parts, _ in legal.MEMO_TABLES.values():
        if len(parts) == 2:
            table, before = parts
            before.update(table)
            table.clear()
    assert [legal_actions(state) for state, _ in seen] == [listed for _, listed in seen]
    for state, listed in seen[::7]:
        assert _fresh_listing(state) == listed


def test_listings_of_positions_near_the_limit_equal_those_with_empty_tables() -> None:
    # The takes, reserves and blind reserves that give tokens back, listed
    # after other holdings at the limit filled the tables.
    holdings = ["2W 2B 2G 2R 2K", "3W 2B 2G 1R 2K", "2W 2B 2G 2R 1K", "3W 3B 3G 1Y", "4W 4B 1G"]
    states = [with_player(deal(2), tokens=toks(held)) for held in holdings]
    warm = [legal_actions(state) for state in states]
    again = [legal_actions(with_turn(s, s.current_player, turn=s.turn + 2)) for s in states]
    assert warm == again
    returning = {
        type(action)
        for action in warm[0]
        if isinstance(action, Take | Reserve | ReserveFromDeck) and action.returned
    }
    assert returning == {Take, Reserve, ReserveFromDeck}
    assert [_fresh_listing(state) for state in states] == warm


def test_a_reserve_that_gives_nothing_back_is_listed_alike_at_any_holding() -> None:
    # With room for the gold (9 tokens held) or plenty of room (none held).
    near_limit = legal_actions(with_player(deal(2), tokens=toks("2W 2B 2G 2R 1K")))
    roomy = legal_actions(deal(2))
    reserves = [action for action in roomy if isinstance(action, Reserve | ReserveFromDeck)]
    assert len(reserves) == 15
    assert not any(action.returned for action in reserves)
    assert [action for action in near_limit if action in reserves] == reserves


def _key_spaces() -> dict[str, set[Any]]:
    """Every key each table with a stated key space may hold, counted here afresh."""
    takes = {
        tuple(1 if c in chosen else 0 for c in range(6))
        for size in (1, 2, 3)
        for chosen in itertools.combinations(range(5), size)
    } | {tuple(2 if c == colour else 0 for c in range(6)) for colour in range(5)}
    returns = [r for r in itertools.product(range(4), repeat=6) if sum(r) <= 3]
    plans = {
        (gems, back, gained, size)
        for plan in legal._PLANS.values()
        for gems, back, gained, size in plan
    }
    chunks = {
        (gems, back, rest, size)
        for gems, back, gained, size in plans
        for rest in itertools.product(*(range(size + 1) for _ in range(6)))
        if not any(rest[c] for c in gained)
    }
    return {
        "_TAKE_ACTIONS": {(gems, r) for gems in takes for r in returns},
        "_CHUNKS": chunks,
        "_DOUBLES": {
            (held, colour, back)
            for back in (0, 1, 2)
            for held in itertools.product(range(back + 1), repeat=6)
            for colour in range(5)
        },
        "_SUB_MULTISETS": {
            (held, size)
            for size in range(4)
            for held in itertools.product(range(size + 1), repeat=6)
        },
    }


def test_the_stated_key_spaces_hold_every_key_the_tables_fill() -> None:
    spaces = _key_spaces()
    for name, space in spaces.items():
        assert legal.MEMO_TABLES[name][1] == len(space), name
    assert cnt.SUB_MULTISETS_KEYS == 1 + 2**6 + 3**6 + 4**6
    _empty_memo_tables()
    for state in _random_states(20, seed=11):
        legal_actions(state)
    for name, space in spaces.items():
        (table,) = legal.MEMO_TABLES[name][0]
        assert table, name
        assert set(table) <= space, name


def test_the_bounded_tables_keep_two_generations_of_their_bound() -> None:
    _empty_memo_tables()
    for state in _random_states(30, seed=3):
        legal_actions(state)
    # The three tables with large key spaces, each within twice its bound.
    for name, bound in (
        ("_TAKES_NEAR_LIMIT", legal.TAKES_NEAR_LIMIT_BOUND),
        ("_PAYMENTS", legal.PAYMENTS_BOUND),
        ("_BUYS", legal.BUYS_BOUND),
    ):
        parts, most = legal.MEMO_TABLES[name]
        assert most == 2 * bound
        assert all(len(part) <= bound for part in parts), name
    assert (legal.TAKES_NEAR_LIMIT_BOUND, legal.PAYMENTS_BOUND, legal.BUYS_BOUND) == (
        32_768,
        8_192,
        16_384,
    )


@pytest.mark.parametrize("bound", [1, 7])
def test_a_full_table_becomes_the_older_generation_and_results_stay_alike(
    monkeypatch: pytest.MonkeyPatch, bound: int
) -> None:
    names = {
        "_TAKES_NEAR_LIMIT": "TAKES_NEAR_LIMIT_BOUND",
        "_PAYMENTS": "PAYMENTS_BOUND",
        "_BUYS": "BUYS_BOUND",
    }
    for constant in names.values():
        monkeypatch.setattr(legal, constant, bound)
    _empty_memo_tables()
    rotated = set()
    small_limits = [_random_states(2, 5, Rules(token_limit=limit)) for limit in (3, 4, 6)]
    for state in itertools.chain(_random_states(4, seed=5), *small_limits):
        listed = legal_actions(state)
        for name in names:
            table, before = legal.MEMO_TABLES[name][0]
            assert len(table) <= bound
            assert len(before) in (0, bound)
            if before:
                rotated.add(name)
        assert legal_actions(state) == listed
    assert rotated == set(names)
    monkeypatch.undo()
    states = list(_random_states(2, seed=5))
    assert [_fresh_listing(state) for state in states[::5]] == [
        legal_actions(state) for state in states[::5]
    ]


def test_a_state_shows_in_a_notebook_as_its_svg_picture() -> None:
    from splendor.draw.svg import render_svg

    state = new_game(2, seed=3)
    picture = state._repr_svg_()
    assert picture == render_svg(state)
    assert picture.startswith("<svg")


# ---------------------------------------------------------------------------
# Actions as text, and which nobles are the game's.

_ACTION_TEXTS: list[tuple[Action, str]] = [
    (Take(toks("R W B"), toks("R")), "take 1W 1B 1R, return 1R"),
    (Take(toks("2G"), noble=noble(3)), "take 2G, noble N3"),
    (Reserve(card(1)), "reserve #1 (T1 W 0pt: 2R 1K)"),
    (Reserve(card(1), toks("W"), noble(1)), "reserve #1 (T1 W 0pt: 2R 1K), return 1W, noble N1"),
    (ReserveFromDeck(3), "reserve from tier 3 deck"),
    (ReserveFromDeck(2, toks("W"), noble(2)), "reserve from tier 2 deck, return 1W, noble N2"),
    (Buy(card(1)), "buy #1 (T1 W 0pt: 2R 1K)"),
    (Buy(card(1), Tokens()), "buy #1 (T1 W 0pt: 2R 1K), pay nothing"),
    (Buy(card(1), toks("2R 1K"), noble(1)), "buy #1 (T1 W 0pt: 2R 1K), pay 2R 1K, noble N1"),
    (Pass(), "pass"),
    (Pass(noble(1)), "pass, noble N1"),
]


@pytest.mark.parametrize(("action", "text"), _ACTION_TEXTS, ids=[t for _, t in _ACTION_TEXTS])
def test_an_action_as_text_names_what_it_returns_and_the_noble(action: Action, text: str) -> None:
    assert str(action) == text


def test_a_copy_of_a_noble_is_not_one_of_the_games_nobles() -> None:
    assert is_game_noble(NOBLES[0])
    copy = Noble(NOBLES[0].id, NOBLES[0].points, NOBLES[0].requirement)
    assert not is_game_noble(copy)
    assert not is_game_noble(card(1))


def test_the_constructor_bounds_the_turn_at_max_turn_either_side_of_zero() -> None:
    # The constructor refuses only a turn beyond MAX_TURN, naming it; any other
    # wrong turn is for check_state.
    from splendor.core.state import MAX_TURN

    start = new_game(2, seed=1)
    for turn in (-MAX_TURN, MAX_TURN):
        assert attrs.evolve(start, turn=turn).turn == turn
    for turn in (-MAX_TURN - 1, MAX_TURN + 1):
        with pytest.raises(InvalidArgumentError, match=f"got {turn}$"):
            attrs.evolve(start, turn=turn)


@pytest.mark.parametrize("tier", [0, 4, -1, 2.0, True, "2"])
def test_tier_index_takes_only_the_int_tiers_1_to_3(tier: object) -> None:
    from splendor.core.components import tier_index

    expected = re.escape(f"the tiers are 1, 2 and 3, got {tier!r}")
    with pytest.raises(InvalidArgumentError, match=expected):
        tier_index(tier)
    assert [tier_index(t) for t in (1, 2, 3)] == [0, 1, 2]


def test_new_game_names_a_bad_rules_or_seed_argument() -> None:
    with pytest.raises(InvalidArgumentError, match=r"rules must be a splendor\.Rules, got 'house'"):
        new_game(2, seed=1, rules="house")  # type: ignore[arg-type]  # the wrong type on purpose
    with pytest.raises(InvalidArgumentError, match=r"seed must be an int or None, got 1\.5"):
        new_game(2, seed=1.5)  # type: ignore[arg-type]  # the wrong type on purpose


def test_the_repr_of_tokens_is_the_call_that_makes_them() -> None:
    assert repr(Tokens()) == "Tokens()"
    assert repr(Tokens(red=2)) == "Tokens(red=2)"
    assert repr(Tokens(white=1, black=3, gold=1)) == "Tokens(white=1, black=3, gold=1)"
    tokens = Tokens(blue=4, green=1)
    assert eval(repr(tokens), {"Tokens": Tokens}) == tokens
