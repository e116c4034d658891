"""The kernel's decisions, observations and masks, proven against the library at every decision.

At every decision of random games (2, 3 and 4 players, every rule set of
:data:`tests.strategies.VARIANTS`), the compiled kernel and the pure
fallback must offer exactly ``splendor.formats.encoding.legal_codes(state, prefix)``,
write exactly ``splendor.rl.observation(view(state, seat), prefix)`` for
every seat and exactly the mask of the legal codes, and a whole turn must
reach ``apply(state, decode(state, codes))``. Bad input gets the library's
errors and changes nothing.
"""

from __future__ import annotations

import random
from types import ModuleType

import pytest

pytest.importorskip("numpy")

import numpy as np
import numpy.typing as npt
from hypothesis import given, settings
from hypothesis import strategies as st

from splendor import (
    GameState,
    InvalidArgumentError,
    Rules,
    apply,
    legal_actions,
    new_game,
    view,
)
from splendor.errors import EncodingError
from splendor.formats import encoding
from splendor.formats.encoding import ACTION_COUNT, decode
from splendor.rl import observation, observation_shape
from tests.builders import cards_of, deal, toks, with_player, with_turn
from tests.fast.conftest import implementation
from tests.strategies import VARIANTS, game_states


def test_the_kernels_code_layout_is_the_encodings() -> None:
    kernel = implementation("kernel")
    assert {
        "ACTION_COUNT": encoding.ACTION_COUNT,
        "RESERVE_BOARD": encoding.RESERVE_CODES.start,
        "RESERVE_DECK": encoding.RESERVE_CODES.start + 12,
        "BUY_BOARD": encoding.BUY_CODES.start,
        "BUY_RESERVED": encoding.BUY_CODES.start + 12,
        "RESERVED_SLOTS": encoding.RESERVED_SLOTS,
        "PASS": encoding.PASS_CODE,
        "RETURN": encoding.RETURN_CODES.start,
        "GOLD": encoding.GOLD_CODES.start,
        "NO_MORE_GOLD": encoding.NO_MORE_GOLD_CODE,
        "NOBLE": encoding.NOBLE_CODES.start,
    } == kernel.CODE_LAYOUT
    assert range(30) == encoding.TAKE_CODES
    assert encoding.MOVE_CODES.stop == encoding.PASS_CODE + 1


def _mask(codes: tuple[int, ...]) -> npt.NDArray[np.int8]:
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    mask[list(codes)] = 1
    return mask


def _check_decision(game: object, state: GameState, prefix: tuple[int, ...]) -> tuple[int, ...]:
    """Compare the game's decision with the library's; the legal codes."""
    legal = encoding.legal_codes(state, prefix)
    assert game.legal_codes() == legal  # type: ignore[attr-defined]  # either Game
    assert game.pending_codes == prefix  # type: ignore[attr-defined]
    mask = np.full(ACTION_COUNT, 7, dtype=np.int8)
    game.mask_into(mask)  # type: ignore[attr-defined]
    np.testing.assert_array_equal(mask, _mask(legal))
    players = len(state.players)
    size = observation_shape(players, state.rules)[0]
    for seat in range(players):
        out = np.full(size, np.nan, dtype=np.float32)
        game.observation_into(out, seat)  # type: ignore[attr-defined]
        to_move = seat == state.current_player and not state.winners
        expected = observation(view(state, seat), prefix if to_move else ())
        np.testing.assert_array_equal(out, expected)
    return legal


def _play(impl: ModuleType, state: GameState, rng: random.Random, turns: int) -> int:
    """Play up to ``turns`` random turns decision by decision, checking each; the decisions."""
    game = impl.Game.from_state(state)
    decisions = 0
    for _ in range(turns):
        prefix: tuple[int, ...] = ()
        legal = _check_decision(game, state, prefix)
        if not legal:
            break
        while True:
            code = legal[rng.randrange(len(legal))]
            decisions += 1
            if game.play_code(code):
                break
            prefix = (*prefix, code)
            legal = _check_decision(game, state, prefix)
            assert legal
        state = apply(state, decode(state, (*prefix, code)))
        assert game.state() == state
    return decisions


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_decision_of_whole_games_in_the_kernel(players: int, variant: str) -> None:
    kernel = implementation("kernel")
    rng = random.Random(f"{players}:{variant}")
    state = new_game(players, seed=players * 101, rules=VARIANTS[variant])
    # To the end (a scarce supply can end a game early, by a round of passes).
    assert _play(kernel, state, rng, turns=400) >= 10


@pytest.mark.parametrize(
    ("players", "seat", "held", "limit"),
    [
        (2, 0, "140W 40B 19G", 200),  # one colour above 127, one short of the limit
        (2, 0, "1W 140G 58R", 200),  # keeping G, R and K leaves one token to give back, not 2
        (2, 0, "130W 129B 1R", 262),  # two colours above 127, two short
        (2, 0, "70W 70B 70G 2Y", 212),  # three above 63: the capped bytes, at the limit
        (2, 0, "3W 2B 1G 1R 1K 2Y", 10),  # the usual numbers, at the limit
        (4, 3, "1W 140G 58R", 200),  # the last seat: its counts are last in the state
        (4, 3, "255K 2Y", 260),  # a byte's largest count
    ],
)
def test_every_decision_with_many_tokens_near_the_limit(
    players: int, seat: int, held: str, limit: int
) -> None:
    """Takes that give tokens back, read from the player's counts a byte per
    colour: counts above a byte's half and up to the kernel's 255 included,
    for the first seat and the last."""
    kernel = implementation("kernel")
    rules = Rules(gems_by_players=(255, 255, 255), gold_by_players=(5, 5, 5), token_limit=limit)
    state = with_player(deal(players, seed=7, rules=rules), seat, tokens=toks(held))
    # Turns enough to have gathered them, the seat to move.
    state = with_turn(state, seat, turn=players * 200 + seat)
    rng = random.Random(held)
    assert _play(kernel, state, rng, turns=60) >= 60


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_decision_on_the_pure_fallback(players: int) -> None:
    pure = implementation("pure")
    state = new_game(players, seed=players, rules=VARIANTS["token-limit-5"])
    assert _play(pure, state, random.Random(players), turns=40) >= 40


@settings(max_examples=60, deadline=None)
@given(game_states(max_turns=200), st.randoms(use_true_random=False))
def test_every_decision_from_random_states(state: GameState, rng: random.Random) -> None:
    # States with returns, gold choices, nobles and house rules come up here.
    _play(implementation("kernel"), state, rng, turns=6)


@pytest.mark.parametrize(("players", "limit"), [(4, 13), (4, 20), (3, 30), (2, 4)])
def test_observations_of_long_reserves(players: int, limit: int) -> None:
    # Long reserves under house rules, blind and face-up, of every tier.
    state = with_turn(deal(players, rules=Rules(reserve_limit=limit)), 0, turn=players * limit)
    held = [min(limit, n) for n in (3, limit, 9, 0)[:players]]  # the player to move: 3
    ids = random.Random(limit).sample(range(1, 91), sum(held))  # of every tier
    for seat, n in enumerate(held):
        mine, ids = ids[:n], ids[n:]
        blind = [k % 3 != 0 for k in range(n)]
        state = with_player(state, seat, reserved=cards_of(*mine), blind=blind)
    kernel = implementation("kernel")
    game = kernel.Game.from_state(state)
    size = observation_shape(players, state.rules)[0]
    for seat in range(players):
        out = np.full(size, np.nan, dtype=np.float32)
        game.observation_into(out, seat)
        np.testing.assert_array_equal(out, observation(view(state, seat), ()))


def test_observations_of_many_blind_reserves_of_one_tier() -> None:
    # 20 hidden tier-1 cards, then 20 of tier 2: counts of one tier past 16.
    state = with_turn(deal(2, rules=Rules(reserve_limit=40)), 0, turn=80)
    state = with_player(
        state, 1, reserved=cards_of(*range(1, 21), *range(41, 61)), blind=[True] * 40
    )
    game = implementation("kernel").Game.from_state(state)
    out = np.full(observation_shape(2, state.rules)[0], np.nan, dtype=np.float32)
    game.observation_into(out, 0)
    np.testing.assert_array_equal(out, observation(view(state, 0), ()))


# -- Bad input ------------------------------------------------------------------


@pytest.fixture(params=("kernel", "pure"))
def impl_name(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


def _bad_rows(size: int, dtype: type[np.generic]) -> list[object]:
    read_only = np.zeros(size, dtype=dtype)
    read_only.setflags(write=False)
    return [
        None,
        [0.0] * size,
        np.zeros(size, dtype=np.float64 if dtype is np.float32 else np.int64),
        np.zeros(size + 1, dtype=dtype),
        np.zeros(size - 1, dtype=dtype),
        np.zeros((1, size), dtype=dtype),
        np.zeros(2 * size, dtype=dtype)[::2],
        read_only,
        "x" * size,
    ]


def test_bad_observation_buffers_and_seats_are_refused(impl_name: str) -> None:
    impl = implementation(impl_name)
    game = impl.Game.new(3, seed=4, rules=Rules(token_limit=4))
    game.play_code(0)
    game.play_code(game.legal_codes()[0])
    game.play_code(0)
    game.play_code(1)  # over the limit of 4: a return is pending
    before, pending = game.state(), game.pending_codes
    assert pending
    size = observation_shape(3)[0]
    for bad in _bad_rows(size, np.float32):
        kept = None if not isinstance(bad, np.ndarray) else bad.copy()
        with pytest.raises(InvalidArgumentError):
            game.observation_into(bad, 0)
        if kept is not None:
            np.testing.assert_array_equal(bad, kept)
    out = np.zeros(size, dtype=np.float32)
    for seat in (-1, 3, True, "0", 1.0, None):
        with pytest.raises(InvalidArgumentError):
            game.observation_into(out, seat)
    assert not out.any()
    for bad in _bad_rows(ACTION_COUNT, np.int8):
        with pytest.raises(InvalidArgumentError):
            game.mask_into(bad)
    assert (game.state(), game.pending_codes) == (before, pending)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-(2**70), 2**70) | st.integers(0, ACTION_COUNT), max_size=40))
def test_any_codes_are_played_or_refused_without_harm(codes: list[int]) -> None:
    kernel = implementation("kernel")
    game = kernel.Game.new(2, seed=len(codes), rules=Rules(token_limit=5))
    state = game.state()
    prefix: tuple[int, ...] = ()
    for code in codes:
        legal = encoding.legal_codes(state, prefix)
        if code not in legal:
            with pytest.raises(EncodingError):
                game.play_code(code)
            assert (game.state(), game.pending_codes) == (state, prefix)
            continue
        if game.play_code(code):
            state, prefix = apply(state, decode(state, (*prefix, code))), ()
        else:
            prefix = (*prefix, code)
        assert (game.state(), game.pending_codes) == (state, prefix)


def test_more_reserved_cards_than_the_encoding_has_codes_for(impl_name: str) -> None:
    impl = implementation(impl_name)
    state = deal(2, rules=Rules(reserve_limit=6))
    state = with_turn(with_player(state, 0, reserved=cards_of(1, 2, 3, 4, 5, 6)), 0, turn=12)
    with pytest.raises(EncodingError, match="at most 5 reserved cards"):
        encoding.legal_codes(state)
    game = impl.Game.from_state(state)
    for call in (game.legal_codes, lambda: game.play_code(0)):
        with pytest.raises(EncodingError, match="at most 5 reserved cards"):
            call()
    assert game.state() == state
    assert game.action_count() == len(legal_actions(state))  # whole actions still play
