"""Rules of the API: errors, immutability, and listed actions being accepted.

RULES.md, "Actions and outcomes": ``apply`` plays one whole turn on a state it
never changes, and accepts every action :func:`legal_actions` lists.
"""

from __future__ import annotations

import copy
import pickle
import random
import re

import attrs
import pytest

from splendor import (
    Action,
    Buy,
    GameState,
    Gem,
    IllegalActionError,
    InvalidArgumentError,
    InvalidStateError,
    Pass,
    Reserve,
    ReserveFromDeck,
    SplendorError,
    Take,
    Tokens,
    apply,
    legal_actions,
    new_game,
)
from tests.builders import (
    bonus_cards,
    card,
    deadlocked,
    deal,
    noble,
    toks,
    with_nobles,
    with_player,
    with_row,
)


def _states() -> list[GameState]:
    """Hand-built states that exercise every kind of action and choice."""
    near_limit = with_player(deal(4), tokens=toks("3W 2B 2G 1R 1Y"))
    rich = with_player(deal(4), tokens=toks("3W 3B 2R 1K 1Y"), reserved=[card(1)])
    nobles = with_player(
        deal(2), tokens=toks("3K"), cards=bonus_cards(toks("4W 3B 3G"), skip=[card(9)])
    )
    nobles = with_nobles(
        with_row(nobles, 1, (card(9), *nobles.face_up(1)[1:])), [noble(1), noble(3)]
    )
    return [
        deal(2),
        deal(3, seed=4),
        deal(4, seed=9),
        near_limit,
        rich,
        nobles,
        deadlocked(2),
    ]


def _random_game_states(players: int, seed: int, every: int) -> list[GameState]:
    """Every ``every``-th state of a seeded random game, the final one included."""
    rng = random.Random(seed)
    state = new_game(players, seed=seed)
    found = []
    while not state.is_over:
        if state.turn % every == 0:
            found.append(state)
        state = apply(state, rng.choice(legal_actions(state)))
    return [*found, state]


def _total_tokens(state: GameState) -> Tokens:
    total = state.bank
    for player in state.players:
        total = total + player.tokens
    return total


def test_apply_never_mutates_its_input() -> None:
    for state in _states():
        snapshot = copy.deepcopy(state)
        pickled = pickle.dumps(state)
        for action in legal_actions(state):
            apply(state, action)
        assert state == snapshot
        assert state == pickle.loads(pickled)


def test_apply_never_mutates_its_input_when_it_raises() -> None:
    state = with_player(deal(2), tokens=toks("3W 3B 3G"))
    snapshot = copy.deepcopy(state)
    for action in (Take(toks("R K W")), Buy(card(90)), Take(toks("2R"), returned=toks("2R"))):
        with pytest.raises(IllegalActionError):
            apply(state, action)
    assert state == snapshot


def test_state_and_actions_are_frozen() -> None:
    state = deal(2)
    with pytest.raises(AttributeError):
        state.turn = 3  # type: ignore[misc]  # frozen on purpose
    with pytest.raises(AttributeError):
        state.players[0].points = 3  # type: ignore[misc]  # frozen on purpose
    with pytest.raises(AttributeError):
        Take(toks("W B G")).gems = toks("R")  # type: ignore[misc]  # frozen on purpose


def test_every_listed_action_is_accepted_by_apply() -> None:
    states = _states()
    for players, seed in ((2, 11), (3, 12), (4, 13)):
        states += _random_game_states(players, seed, every=7)
    for state in states:
        total = _total_tokens(state)
        for action in legal_actions(state):
            after = apply(state, action)
            assert after.turn == state.turn + 1
            assert _total_tokens(after) == total
            assert all(p.tokens.total <= state.rules.token_limit for p in after.players)
            assert all(len(p.reserved) <= state.rules.reserve_limit for p in after.players)


def test_legal_actions_are_deterministic() -> None:
    for state in _states():
        assert legal_actions(state) == legal_actions(copy.deepcopy(state))
    assert legal_actions(new_game(3, seed=5)) == legal_actions(new_game(3, seed=5))


def test_legal_actions_of_a_finished_game_are_empty() -> None:
    final = _random_game_states(2, 21, every=1000)[-1]
    assert final.is_over
    assert legal_actions(final) == ()
    with pytest.raises(IllegalActionError, match="the game is over"):
        apply(final, Pass())


@pytest.mark.parametrize("state", ["state", None, 3, (), {}], ids=repr)
def test_apply_to_something_not_a_state_raises(state: object) -> None:
    with pytest.raises(InvalidArgumentError):
        apply(state, Take(toks("W B G")))  # type: ignore[arg-type]  # wrong type on purpose


@pytest.mark.parametrize(
    "action",
    ["take W B G", None, 3, toks("W B G"), card(1), noble(1)],
    # Written out, not the values' repr, so that the test names stay the same
    # when the repr of tokens changes (mutation testing changes it).
    ids=["text", "None", "int", "tokens", "card", "noble"],
)
def test_apply_of_something_not_an_action_raises(action: object) -> None:
    with pytest.raises(InvalidArgumentError):
        apply(deal(2), action)  # type: ignore[arg-type]  # wrong type on purpose


@pytest.mark.parametrize("state", ["state", None, 3], ids=repr)
def test_legal_actions_of_something_not_a_state_raises(state: object) -> None:
    with pytest.raises(InvalidArgumentError):
        legal_actions(state)  # type: ignore[arg-type]  # wrong type on purpose


def _face_up_card() -> object:
    first = deal(2).face_up(1)[0]
    assert first is not None
    return first


WRONG_FIELDS: list[tuple[str, type, dict[str, object]]] = [
    ("Take.gems str", Take, {"gems": "W B G"}),
    ("Take.gems dict", Take, {"gems": {Gem.WHITE: 1, Gem.BLUE: 1, Gem.GREEN: 1}}),
    ("Take.returned tuple", Take, {"gems": toks("W B G"), "returned": (0, 0, 0, 0, 0, 0)}),
    ("Take.noble str", Take, {"gems": toks("W B G"), "noble": "N1"}),
    ("Take.noble int", Take, {"gems": toks("W B G"), "noble": 1}),
    ("Reserve.card int", Reserve, {"card": 1}),
    ("Reserve.card None", Reserve, {"card": None}),
    ("Reserve.returned str", Reserve, {"card": _face_up_card(), "returned": "W"}),
    ("ReserveFromDeck.tier str", ReserveFromDeck, {"tier": "1"}),
    ("ReserveFromDeck.tier float", ReserveFromDeck, {"tier": 1.0}),
    ("ReserveFromDeck.tier bool", ReserveFromDeck, {"tier": True}),
    ("ReserveFromDeck.returned int", ReserveFromDeck, {"tier": 1, "returned": 1}),
    ("Buy.card int", Buy, {"card": 1}),
    ("Buy.card noble", Buy, {"card": noble(1)}),
    ("Buy.payment dict", Buy, {"card": _face_up_card(), "payment": {"red": 2}}),
    ("Pass.noble str", Pass, {"noble": "N1"}),
]


@pytest.mark.parametrize(("name", "kind", "fields"), WRONG_FIELDS, ids=[w[0] for w in WRONG_FIELDS])
def test_action_fields_of_the_wrong_type_raise_invalid_argument(
    name: str, kind: type, fields: dict[str, object]
) -> None:
    field = re.escape(name.split(maxsplit=1)[0])
    with pytest.raises(InvalidArgumentError, match=rf"^{field} must be "):
        kind(**fields)
    # Built past the constructor's checks, it is still refused by apply.
    with attrs.validators.disabled():
        action: Action = kind(**fields)
    # A stuck player, so that a pass is legal and only the wrong field is at fault.
    state = deadlocked(2) if kind is Pass else deal(2)
    with pytest.raises(InvalidArgumentError):
        apply(state, action)


def test_a_blind_reserve_of_tier_true_is_not_one_of_tier_1() -> None:
    # bool is an int, but True is no tier: it would equal ReserveFromDeck(1).
    with pytest.raises(InvalidArgumentError, match=r"ReserveFromDeck\.tier must be int, got True"):
        ReserveFromDeck(True)
    assert ReserveFromDeck(1) in legal_actions(deal(2))


def test_errors_are_splendor_errors_and_value_errors() -> None:
    for error in (IllegalActionError, InvalidArgumentError, InvalidStateError):
        assert issubclass(error, SplendorError)
        assert issubclass(error, ValueError)
    assert not issubclass(IllegalActionError, InvalidArgumentError)
    assert not issubclass(InvalidArgumentError, IllegalActionError)


def test_illegal_actions_say_why() -> None:
    state = deal(2)
    with pytest.raises(IllegalActionError) as caught:
        apply(state, Take(toks("W B")))
    assert "3 gems of different colours" in str(caught.value)
