"""Bad arguments to the engine from a careless or hostile caller.

The rules, tokens, :func:`~splendor.new_game`, :func:`~splendor.apply`,
:func:`~splendor.legal_actions`, :func:`~splendor.view` and
:func:`~splendor.determinize` either give a correct result or raise a
:class:`splendor.SplendorError` subclass with a clear message; no other
exception escapes, nothing hangs and no argument is changed.

The tests come in three groups:

* wrong arguments that are already handled (pinned so they stay handled);
* fixed defects: wrong arguments that once let a foreign exception escape,
  or gave a wrong result; the comment in each test says what went wrong
  before the fix;
* fuzzing with Hypothesis: hand made actions and token counts.
"""

from __future__ import annotations

import random
from functools import partial

import pytest
from hypothesis import given
from hypothesis import strategies as st

from splendor import (
    CARDS,
    NOBLES,
    Buy,
    GameState,
    Gem,
    Pass,
    PublicPlayer,
    Reserve,
    ReserveFromDeck,
    Rules,
    SplendorError,
    Take,
    Tokens,
    apply,
    check_state,
    determinize,
    format_action,
    from_json,
    legal_actions,
    new_game,
    parse_action,
    render_svg,
    to_json,
    view,
)
from tests.builders import unchecked
from tests.hostile import (
    FACE_UP,
    STATE,
    STATES,
    THREE,
    Call,
    copy_card,
    copy_noble,
    evolve_any,
    has_message,
    raises_library_error,
)

# ---------------------------------------------------------------------------
# Wrong arguments that are handled: pinned.


HANDLED: dict[str, Call] = {
    "new_game bool players": lambda: new_game(True),
    "new_game float players": lambda: new_game(2.0),  # type: ignore[arg-type]  # wrong type on purpose
    "new_game huge players": lambda: new_game(10**100),
    "new_game str players": lambda: new_game("2"),  # type: ignore[arg-type]  # wrong type on purpose
    "new_game bool seed": lambda: new_game(2, seed=True),
    "new_game float seed": lambda: new_game(2, seed=1.0),  # type: ignore[arg-type]  # wrong type on purpose
    "new_game str seed": lambda: new_game(2, seed="1"),  # type: ignore[arg-type]  # wrong type on purpose
    "new_game rules dict": lambda: new_game(2, rules={}),  # type: ignore[arg-type]  # wrong type on purpose
    "Rules list": lambda: Rules(gems_by_players=[4, 5, 7]),  # type: ignore[arg-type]  # wrong type on purpose
    "Rules bools": lambda: Rules(gems_by_players=(True, 5, 7)),
    "Rules short": lambda: Rules(gold_by_players=(5, 5)),  # type: ignore[arg-type]  # wrong type on purpose
    "Rules negative": lambda: Rules(token_limit=-1),
    "Rules float": lambda: Rules(points_to_win=15.0),  # type: ignore[arg-type]  # wrong type on purpose
    "Rules zero points": lambda: Rules(points_to_win=0),
    "Rules 11 nobles": lambda: Rules(nobles_by_players=(3, 4, 11)),
    "Rules evolve": lambda: evolve_any(Rules(), reserve_limit=None),
    "Rules.gems bool": lambda: Rules().gems(True),
    "Rules.gold 5": lambda: Rules().gold(5),
    "Tokens bool": lambda: Tokens(red=True),
    "Tokens float": lambda: Tokens(red=1.0),  # type: ignore[arg-type]  # wrong type on purpose
    "Tokens negative": lambda: Tokens(red=-1),
    "Tokens None": lambda: Tokens(gold=None),  # type: ignore[arg-type]  # wrong type on purpose
    "Tokens minus": lambda: Tokens() - Tokens(red=1),
    "Tokens.from_mapping unknown": lambda: Tokens.from_mapping({"purple": 1}),
    "Tokens.from_mapping bad count": lambda: Tokens.from_mapping({"red": "1"}),  # type: ignore[dict-item]  # wrong type on purpose
    "Tokens.of unknown": lambda: Tokens.of("purple"),  # type: ignore[arg-type]  # wrong type on purpose
    "apply to None": lambda: apply(None, Pass()),  # type: ignore[arg-type]  # wrong type on purpose
    "apply None": lambda: apply(STATE, None),  # type: ignore[arg-type]  # wrong type on purpose
    "apply str": lambda: apply(STATE, "+RR"),  # type: ignore[arg-type]  # wrong type on purpose
    "apply Take list": lambda: apply(STATE, Take([1, 1, 1])),  # type: ignore[arg-type]  # wrong type on purpose
    "apply Take subclass": lambda: apply(STATE, Take(type("T", (Tokens,), {})(red=2))),
    "apply Take returned None": lambda: apply(STATE, Take(THREE, None)),  # type: ignore[arg-type]  # wrong type on purpose
    "apply Take gold": lambda: apply(STATE, Take(Tokens(gold=1))),
    "apply Take huge": lambda: apply(STATE, Take(Tokens(red=10**9))),
    "apply Take returned huge": lambda: apply(STATE, Take(THREE, Tokens(red=10**9))),
    "Tokens over the bound": lambda: Tokens(red=10**9 + 1),
    "apply noble str": lambda: apply(STATE, Take(THREE, noble="N1")),  # type: ignore[arg-type]  # wrong type on purpose
    "apply noble hand made": lambda: apply(STATE, Take(THREE, noble=copy_noble(STATE.nobles[0]))),
    "apply Reserve None": lambda: apply(STATE, Reserve(None)),  # type: ignore[arg-type]  # wrong type on purpose
    "apply Reserve int": lambda: apply(STATE, Reserve(24)),  # type: ignore[arg-type]  # wrong type on purpose
    "apply Reserve copy": lambda: apply(STATE, Reserve(copy_card(FACE_UP))),
    "apply Reserve tier 7": lambda: apply(STATE, Reserve(copy_card(FACE_UP, tier=7))),
    "apply Reserve deck card": lambda: apply(STATE, Reserve(STATE.decks[0][0])),
    "apply Reserve returned str": lambda: apply(STATE, Reserve(FACE_UP, "Y")),  # type: ignore[arg-type]  # wrong type on purpose
    "apply ReserveFromDeck bool": lambda: apply(STATE, ReserveFromDeck(True)),
    "apply ReserveFromDeck float": lambda: apply(STATE, ReserveFromDeck(1.0)),  # type: ignore[arg-type]  # wrong type on purpose
    "apply ReserveFromDeck 0": lambda: apply(STATE, ReserveFromDeck(0)),
    "apply ReserveFromDeck huge": lambda: apply(STATE, ReserveFromDeck(-(10**40))),
    "apply Buy None": lambda: apply(STATE, Buy(None)),  # type: ignore[arg-type]  # wrong type on purpose
    "apply Buy copy": lambda: apply(STATE, Buy(copy_card(FACE_UP))),
    "apply Buy payment str": lambda: apply(STATE, Buy(FACE_UP, "4K")),  # type: ignore[arg-type]  # wrong type on purpose
    "apply Pass noble int": lambda: apply(STATE, Pass(3)),  # type: ignore[arg-type]  # wrong type on purpose
    "legal_actions None": lambda: legal_actions(None),  # type: ignore[arg-type]  # wrong type on purpose
    "legal_actions other seat": lambda: legal_actions(view(STATE, 1)),
    "legal_actions spectator": lambda: legal_actions(view(STATE, None)),
    "view None": lambda: view(None, 0),  # type: ignore[arg-type]  # wrong type on purpose
    "view seat bool": lambda: view(STATE, True),
    "view seat -1": lambda: view(STATE, -1),
    "view seat str": lambda: view(STATE, "0"),  # type: ignore[arg-type]  # wrong type on purpose
    "determinize bool rng": lambda: determinize(view(STATE, 0), True),
    "determinize float rng": lambda: determinize(view(STATE, 0), 1.5),  # type: ignore[arg-type]  # wrong type on purpose
    "determinize None rng": lambda: determinize(view(STATE, 0), None),  # type: ignore[arg-type]  # wrong type on purpose
    "determinize a state": lambda: determinize(STATE, 1),  # type: ignore[arg-type]  # wrong type on purpose
    "determinize seat 7": lambda: determinize(evolve_any(view(STATE, 0), seat=7), 1),
    "check_state None": lambda: check_state(None),  # type: ignore[arg-type]  # wrong type on purpose
    "check_state view": lambda: check_state(view(STATE, 0)),  # type: ignore[arg-type]  # wrong type on purpose
}


@pytest.mark.parametrize("call", list(HANDLED.values()), ids=list(HANDLED))
def test_a_wrong_argument_raises_a_library_error(call: Call) -> None:
    raises_library_error(call)


def test_odd_but_valid_arguments_give_results() -> None:
    assert new_game(2, seed=10**100).turn == 0
    assert new_game(2, seed=-1) == new_game(2, seed=-1)
    assert determinize(view(STATE, 0), random.SystemRandom()).turn == 0
    assert determinize(view(STATE, 0), 10**50) == determinize(view(STATE, 0), 10**50)
    assert str(Tokens.of("red")) == "1R"  # type: ignore[arg-type]  # a colour's name stands for the colour
    assert Tokens(red=10**9).total == 10**9
    assert Tokens().get("purple") is None  # type: ignore[call-overload]  # the Mapping contract: a missing key
    assert "purple" not in Tokens()


@pytest.mark.parametrize(
    "rules",
    [
        Rules(token_limit=0),
        Rules(token_limit=1),
        Rules(points_to_win=1),
        Rules(gems_by_players=(0, 0, 0), gold_by_players=(0, 0, 0)),
        Rules(reserve_limit=0),
        Rules(
            gems_by_players=(10**6, 10**6, 10**6),
            gold_by_players=(10**6, 10**6, 10**6),
            token_limit=10**9,
        ),
        Rules(nobles_by_players=(0, 0, 0)),
        Rules(nobles_by_players=(10, 10, 10)),
    ],
    ids=repr,
)
def test_odd_rules_play_whole_valid_games(rules: Rules) -> None:
    rng = random.Random(0)
    state = new_game(3, seed=2, rules=rules)
    for _ in range(200):
        if state.is_over:
            break
        actions = legal_actions(state)
        action = rng.choice(actions)
        assert parse_action(format_action(action, state), state) == action
        state = apply(state, action)
        check_state(state)
    assert render_svg(state).startswith("<svg")
    assert from_json(to_json(state), GameState) == state


# ---------------------------------------------------------------------------
# Fixed defects: wrong arguments that once let a foreign exception escape.


DEFECTS: dict[str, Call] = {
    # gems.py: from_mapping calls counts.items(); of() hashes each argument.
    "Tokens.from_mapping None": lambda: Tokens.from_mapping(None),  # type: ignore[arg-type]  # wrong type on purpose
    "Tokens.from_mapping list": lambda: Tokens.from_mapping([("red", 1)]),  # type: ignore[arg-type]  # wrong type on purpose
    "Tokens.of list": lambda: Tokens.of(["red"]),  # type: ignore[arg-type]  # wrong type on purpose
    # play.py _face_up: `1 <= card.tier <= 3` and board[tier - 1] on a hand-made card.
    "apply Reserve tier str": lambda: apply(STATE, Reserve(copy_card(FACE_UP, tier="1"))),
    "apply Reserve tier None": lambda: apply(STATE, Reserve(copy_card(FACE_UP, tier=None))),
    "apply Reserve tier float": lambda: apply(STATE, Reserve(copy_card(FACE_UP, tier=1.0))),
    "apply Buy tier str": lambda: apply(STATE, Buy(copy_card(FACE_UP, tier="1"))),
    # state.py / views.py: face_up(tier) and deck(tier) index tuples with tier - 1.
    "GameState.face_up 5": lambda: STATE.face_up(5),
    "GameState.face_up str": lambda: STATE.face_up("1"),  # type: ignore[arg-type]  # wrong type on purpose
    "GameState.deck 4": lambda: STATE.deck(4),
    "PlayerView.face_up 9": lambda: view(STATE, 0).face_up(9),
    "PlayerView.deck_size 4": lambda: view(STATE, 0).deck_size(4),
    # views.py PublicPlayer.of: reads player.reserved_blind unchecked.
    "PublicPlayer.of None": lambda: PublicPlayer.of(None),  # type: ignore[arg-type]  # wrong type on purpose
}


@pytest.mark.parametrize("call", list(DEFECTS.values()), ids=list(DEFECTS))
def test_a_wrong_argument_that_once_escaped_raises_a_library_error(call: Call) -> None:
    raises_library_error(call)


@pytest.mark.parametrize(
    "call",
    [
        lambda: Tokens() + 1,  # type: ignore[operator]  # wrong type on purpose
        lambda: Tokens() - None,  # type: ignore[operator]  # wrong type on purpose
        lambda: Tokens() <= 3,  # type: ignore[operator]  # wrong type on purpose
    ],
    ids=["Tokens + int", "Tokens - None", "Tokens <= int"],
)
def test_tokens_arithmetic_with_another_type_follows_the_operator_protocol(call: Call) -> None:
    # Like any Python value, Tokens answer NotImplemented, so Python raises TypeError.
    with pytest.raises(TypeError, match=r"not supported|unsupported operand"):
        call()


@pytest.mark.parametrize("tier", [0, -1, -2])
def test_a_tier_out_of_range_is_refused_not_read_as_another_tier(tier: int) -> None:
    # board[tier - 1] with tier 0 silently answers with tier 3's row.
    raises_library_error(lambda: STATE.face_up(tier))
    raises_library_error(lambda: STATE.deck(tier))
    raises_library_error(lambda: view(STATE, 0).deck_size(tier))


# ---------------------------------------------------------------------------
# Fuzzing.


_ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=5),
    st.floats(allow_nan=False),
    st.text(max_size=3),
    st.lists(st.integers(0, 3), max_size=6),
)
_TOKENS = st.builds(
    Tokens,
    st.integers(0, 4),
    st.integers(0, 4),
    st.integers(0, 4),
    st.integers(0, 4),
    st.integers(0, 4),
    st.integers(0, 2),
)
_CARDS = st.sampled_from(CARDS)
_NOBLE_FIELD = st.one_of(st.none(), st.sampled_from(NOBLES), _ANY)
_ACTIONS = st.one_of(
    # Built without the constructors' checks: apply checks every field again.
    st.builds(
        partial(unchecked, Take), st.one_of(_TOKENS, _ANY), st.one_of(_TOKENS, _ANY), _NOBLE_FIELD
    ),
    st.builds(
        partial(unchecked, Reserve), st.one_of(_CARDS, _ANY), st.one_of(_TOKENS, _ANY), _NOBLE_FIELD
    ),
    st.builds(
        partial(unchecked, ReserveFromDeck),
        st.one_of(st.integers(-2, 5), _ANY),
        st.one_of(_TOKENS, _ANY),
        _NOBLE_FIELD,
    ),
    st.builds(
        partial(unchecked, Buy),
        st.one_of(_CARDS, _ANY),
        st.one_of(st.none(), _TOKENS, _ANY),
        _NOBLE_FIELD,
    ),
    st.builds(partial(unchecked, Pass), _NOBLE_FIELD),
    _ANY,
)


@given(action=_ACTIONS, index=st.sampled_from(range(len(STATES))))
def test_fuzz_apply_of_a_hand_made_action(action: object, index: int) -> None:
    state = STATES[index]
    before = to_json(state)
    try:
        after = apply(state, action)  # type: ignore[arg-type]  # anything on purpose
    except SplendorError as error:
        has_message(error)
    else:
        check_state(after)
    assert to_json(state) == before


@given(values=st.lists(_ANY | st.integers(), min_size=6, max_size=6))
def test_fuzz_tokens_constructor(values: list[object]) -> None:
    try:
        tokens = Tokens(*values)  # type: ignore[arg-type]  # anything on purpose
    except SplendorError as error:
        has_message(error)
    else:
        assert all(type(n) is int and n >= 0 for n in values)
        assert tokens.counts == tuple(values)
        assert Tokens.from_mapping(dict(zip(Gem, tokens.counts, strict=True))) == tokens
