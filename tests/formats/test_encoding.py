"""The action encoding: the code table, follow-up decisions, errors and views."""

from __future__ import annotations

import copy
import json
import pickle
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest

from splendor import (
    CARDS,
    Action,
    Buy,
    GameState,
    IllegalActionError,
    InvalidArgumentError,
    Pass,
    Reserve,
    ReserveFromDeck,
    Rules,
    SplendorError,
    Take,
    Tokens,
    legal_actions,
    new_game,
    view,
)
from splendor.errors import EncodingError
from splendor.formats import encoding as enc
from splendor.formats.encoding import (
    ACTION_COUNT,
    GOLD_CODES,
    NO_MORE_GOLD_CODE,
    NOBLE_CODES,
    PASS_CODE,
    RETURN_CODES,
    action_codes,
    code_sequences,
    decode,
    describe_code,
    is_complete,
    legal_codes,
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
from tests.strategies import RandomGame

WHITE, BLUE, GREEN, RED, BLACK, GOLD = range(6)


def _take(colours: str) -> int:
    """The code of a take pattern, e.g. ``"W G B"`` or ``"2R"``."""
    (code,) = action_codes(deal(4), Take(toks(colours)))
    return code


def _all_sequences(
    state: GameState | object, prefix: tuple[int, ...] = ()
) -> Iterator[tuple[int, ...]]:
    codes = legal_codes(state, prefix)  # type: ignore[arg-type]  # a state or a view
    if not codes:
        yield prefix
    for code in codes:
        yield from _all_sequences(state, (*prefix, code))


# -- The code table -------------------------------------------------------------


def test_the_code_space_is_fixed_and_its_ranges_tile_it() -> None:
    assert ACTION_COUNT == 85
    assert enc.ENCODING_VERSION == 1
    ranges = [
        enc.TAKE_CODES,
        enc.RESERVE_CODES,
        enc.BUY_CODES,
        range(PASS_CODE, PASS_CODE + 1),
        RETURN_CODES,
        GOLD_CODES,
        range(NO_MORE_GOLD_CODE, NO_MORE_GOLD_CODE + 1),
        NOBLE_CODES,
    ]
    assert [code for r in ranges for code in r] == list(range(ACTION_COUNT))
    assert list(enc.MOVE_CODES) == list(range(PASS_CODE + 1))
    assert len(enc.TAKE_CODES) == 30
    assert len(enc.BUY_CODES) == 12 + enc.RESERVED_SLOTS
    assert len(NOBLE_CODES) == enc.NOBLE_SLOTS == 10


def test_every_code_has_its_own_description() -> None:
    names = [describe_code(code) for code in range(ACTION_COUNT)]
    assert len(set(names)) == ACTION_COUNT


@pytest.mark.parametrize(
    ("code", "meaning"),
    [
        (0, "take white, blue, green"),
        (9, "take green, red, black"),
        (10, "take white, blue"),
        (19, "take red, black"),
        (20, "take white"),
        (24, "take black"),
        (25, "take 2 white"),
        (28, "take 2 red"),
        (30, "reserve tier 1 slot 0"),
        (41, "reserve tier 3 slot 3"),
        (42, "reserve from the tier 1 deck"),
        (44, "reserve from the tier 3 deck"),
        (45, "buy tier 1 slot 0"),
        (56, "buy tier 3 slot 3"),
        (57, "buy reserved card 0"),
        (61, "buy reserved card 4"),
        (62, "pass"),
        (63, "return white"),
        (68, "return gold"),
        (69, "pay gold for white"),
        (73, "pay gold for black"),
        (74, "no more gold"),
        (75, "noble 0"),
        (84, "noble 9"),
    ],
)
def test_the_meaning_of_codes_is_pinned(code: int, meaning: str) -> None:
    assert describe_code(code) == meaning


@pytest.mark.parametrize("code", [-1, ACTION_COUNT, 1.0, "3", None, True])
def test_describe_code_refuses_what_is_not_a_code(code: object) -> None:
    with pytest.raises(EncodingError, match="not a code"):
        describe_code(code)  # type: ignore[arg-type]  # deliberately wrong


# -- First decisions ----------------------------------------------------------------


def test_first_decisions_of_a_fresh_game() -> None:
    state = new_game(2, seed=1)
    codes = legal_codes(state)
    # Every take of 3 colours, 2 of each colour (4 in the supply), every
    # face-up reserve and every blind reserve; nothing is affordable.
    assert codes == (*range(10), *range(25, 30), *range(30, 45))
    assert all(is_complete(state, [code]) for code in codes)
    assert {decode(state, [code]) for code in codes} == set(legal_actions(state))


def test_board_codes_follow_the_slots() -> None:
    state = new_game(3, seed=5)
    for tier in (1, 2, 3):
        for slot, face_up in enumerate(state.face_up(tier)):
            assert face_up is not None
            code = 30 + 4 * (tier - 1) + slot
            assert decode(state, [code]) == Reserve(face_up)
            assert action_codes(state, Reserve(face_up)) == (code,)
    assert decode(state, [43]) == ReserveFromDeck(2)


def test_buy_codes_name_board_slots_and_reserved_places() -> None:
    cheap = card(9)  # tier 1, costs 3 black
    state = with_row(deal(2), 1, (card(1), cheap, *deal(2).face_up(1)[2:]))
    state = with_player(state, tokens=toks("3K"), reserved=[card(17), card(2)])
    assert decode(state, [46]) == Buy(cheap, toks("3K"))
    assert describe_code(46) == "buy tier 1 slot 1"
    # Neither reserved card is affordable with 3 black.
    assert not set(legal_codes(state)) & {57, 58}
    rich = with_player(state, tokens=toks("3R 3K 1B 1G"))
    assert decode(rich, [57]) == Buy(card(17), toks("3R"))
    assert action_codes(rich, Buy(card(17))) == (57,)
    # Card 2 (1B 1G 1R 1K) is the second reserved: place 1.
    assert decode(rich, [58]) == Buy(card(2), toks("B G R K"))
    assert describe_code(58) == "buy reserved card 1"


def test_reserved_places_up_to_the_encodings_capacity() -> None:
    rules = Rules(reserve_limit=enc.RESERVED_SLOTS + 1)
    state = deal(2, rules=rules)
    cheap = [c for c in state.deck(1) if c.cost.total == 3 and max(c.cost.counts) == 3][:1]
    held = (*state.deck(2)[: enc.RESERVED_SLOTS - 1], *cheap)
    state = with_player(state, tokens=cheap[0].cost, reserved=held)
    last = 57 + enc.RESERVED_SLOTS - 1
    assert last in legal_codes(state)
    assert decode(state, [last]).card is cheap[0]  # type: ignore[union-attr]  # a Buy
    over = with_player(state, reserved=(*held, *state.deck(3)[:1]))
    with pytest.raises(EncodingError, match=f"at most {enc.RESERVED_SLOTS} reserved"):
        legal_codes(over)


def test_only_pass_is_still_a_decision() -> None:
    state = deadlocked(2)
    assert legal_codes(state) == (PASS_CODE,)
    assert decode(state, [PASS_CODE]) == Pass()
    assert action_codes(state, Pass()) == (PASS_CODE,)


def _finished() -> GameState:
    state = RandomGame(players=2, variant="standard", seed=3, play_seed=4, turns=300, buy_bias=0.9)
    final = state.final_state()
    assert final.is_over
    return final


def test_a_finished_game_has_no_codes() -> None:
    state = _finished()
    assert legal_codes(state) == ()
    with pytest.raises(EncodingError, match="game is over") as caught:
        decode(state, [0])
    assert caught.value.position == 0
    with pytest.raises(IllegalActionError, match="game is over"):
        action_codes(state, Pass())
    assert code_sequences(state) == ()


# -- Returns over the token limit ------------------------------------------------


def _full_hand() -> GameState:
    """Player 0 holds 9 tokens: 3 white, 3 blue, 2 red, 1 gold."""
    return with_player(deal(2), tokens=toks("3W 3B 2R Y"))


def test_returns_are_asked_one_token_at_a_time_in_colour_order() -> None:
    state = _full_hand()
    take = _take("G R K")
    # 12 tokens after the take: 2 go back. Giving back a green, red or black
    # is listed as another take (the same outcome), so this take returns 2 of
    # the white, blue and gold held: WW, WB, WY, BB, BY. First white or blue:
    assert legal_codes(state, [take]) == (RETURN_CODES[WHITE], RETURN_CODES[BLUE])
    # After returning blue, never an earlier colour (white).
    assert legal_codes(state, [take, RETURN_CODES[BLUE]]) == (
        RETURN_CODES[BLUE],
        RETURN_CODES[GOLD],
    )
    assert len(list(_all_sequences(state, (take,)))) == 5
    action = decode(state, [take, RETURN_CODES[BLUE], RETURN_CODES[GOLD]])
    assert action == Take(toks("G R K"), toks("B Y"))
    assert action_codes(state, action) == (take, RETURN_CODES[BLUE], RETURN_CODES[GOLD])


def test_returns_out_of_colour_order_are_refused() -> None:
    state = _full_hand()
    take = _take("G R K")
    with pytest.raises(EncodingError, match="position 2") as caught:
        decode(state, [take, RETURN_CODES[BLUE], RETURN_CODES[WHITE]])
    assert caught.value.position == 2
    assert caught.value.code == RETURN_CODES[WHITE]


def test_a_take_written_another_way_gets_the_listed_codes() -> None:
    # With room for 2 more tokens, "take W G B, return W" and "take G B R,
    # return R" both gain one green and one blue; one of them is listed.
    state = with_player(deal(4), tokens=toks("4K 4R"))
    listed = [a for a in legal_actions(state) if a == Take(toks("W B G"), toks("W"))]
    assert listed
    codes = action_codes(state, listed[0])
    assert action_codes(state, Take(toks("B G R"), toks("R"))) == codes
    assert decode(state, codes) == listed[0]
    # The unlisted form is not reachable through the codes.
    assert RETURN_CODES[RED] not in legal_codes(state, [_take("B G R")])


def test_a_forced_return_is_implied() -> None:
    # Room for 1 more token: a take of 2 red keeps both reds (returning a red
    # is listed as a take of one red elsewhere), so the white goes back.
    state = with_player(deal(4, rules=Rules(token_limit=8)), tokens=toks("7W"))
    assert legal_codes(state, [_take("2R")]) == ()
    assert decode(state, [_take("2R")]) == Take(toks("2R"), toks("W"))
    assert action_codes(state, Take(toks("2R"), toks("W"))) == (_take("2R"),)
    with pytest.raises(EncodingError, match="after the end of the turn"):
        decode(state, [_take("2R"), RETURN_CODES[WHITE]])


# -- Gold payments ----------------------------------------------------------------------


def _gold_buyer() -> tuple[GameState, int]:
    """Player 0 holds 2 black, 1 red and 2 gold; the board's tier 1 slot 0 costs 3 black."""
    cheap = card(9)  # tier 1, blue bonus, costs 3 black
    state = with_row(deal(2), 1, (cheap, *deal(2).face_up(1)[1:]))
    state = with_player(state, tokens=toks("2K 1R 2Y"))
    return state, 45


def test_gold_in_place_of_coloured_tokens_is_a_choice() -> None:
    state, buy = _gold_buyer()
    # The least gold is 1 (for the missing black); up to 2 more can replace
    # held blacks: "pay gold for black" or "no more gold".
    assert legal_codes(state, [buy]) == (GOLD_CODES[BLACK], NO_MORE_GOLD_CODE)
    assert decode(state, [buy, NO_MORE_GOLD_CODE]) == Buy(card(9), toks("2K 1Y"))
    assert decode(state, [buy, GOLD_CODES[BLACK]]) == Buy(card(9), toks("1K 2Y"))
    # After one more gold no gold is left: the end of the payment is implied.
    assert is_complete(state, [buy, GOLD_CODES[BLACK]])
    assert action_codes(state, Buy(card(9))) == (buy, NO_MORE_GOLD_CODE)
    assert action_codes(state, Buy(card(9), toks("1K 2Y"))) == (buy, GOLD_CODES[BLACK])
    payments = {decode(state, codes) for codes in _all_sequences(state, (buy,))}
    assert payments == {a for a in legal_actions(state) if isinstance(a, Buy) and a.card is card(9)}


def test_gold_choices_go_in_colour_order() -> None:
    # A card costing 1W 1B 1G 1R, paid from 1W 1B 1G 1R 3Y: gold may replace
    # any 3 of the colours.
    target = next(c for c in CARDS if c.cost == toks("W B G R"))
    others = [c for c in deal(4).face_up(1) if c is not target]
    state = with_row(deal(4), 1, (target, *others[:3]))
    state = with_player(state, tokens=toks("W B G R 3Y"))
    buy = 45
    assert legal_codes(state, [buy]) == (*GOLD_CODES[:4], NO_MORE_GOLD_CODE)
    after_green = legal_codes(state, [buy, GOLD_CODES[GREEN]])
    assert after_green == (GOLD_CODES[GREEN + 1], NO_MORE_GOLD_CODE)
    # After gold for red no later colour is in the price: the end is implied.
    action = decode(state, [buy, GOLD_CODES[BLUE], GOLD_CODES[RED]])
    assert action == Buy(target, toks("W G 2Y"))
    assert action_codes(state, action) == (buy, GOLD_CODES[BLUE], GOLD_CODES[RED])
    with pytest.raises(EncodingError, match="position 2"):
        decode(state, [buy, GOLD_CODES[RED], GOLD_CODES[BLUE]])
    # 1 + 4 + 6 + 4 = 15 payments: each subset of at most 3 colours by gold.
    assert len(list(_all_sequences(state, (buy,)))) == 15


# -- Nobles -----------------------------------------------------------------------------


def _two_nobles() -> GameState:
    """Buying tier 1 slot 0 (a blue card) meets N1 (4W 4B) and N3 (3W 3B 3G)."""
    blue = card(9)  # tier 1, blue bonus, costs 3 black
    state = deal(2)
    state = with_player(state, tokens=toks("3K"), cards=bonus_cards(toks("4W 3B 3G"), skip=[blue]))
    state = with_row(state, 1, (blue, *state.face_up(1)[1:]))
    return with_nobles(state, [noble(6), noble(1), noble(3)])


def test_the_noble_is_a_choice_by_place_when_several_qualify() -> None:
    state = _two_nobles()
    assert legal_codes(state, [45]) == (NOBLE_CODES[1], NOBLE_CODES[2])
    assert decode(state, [45, NOBLE_CODES[2]]) == Buy(card(9), toks("3K"), noble(3))
    assert action_codes(state, Buy(card(9), noble=noble(1))) == (45, NOBLE_CODES[1])
    with pytest.raises(EncodingError, match=r"code 75 \(noble 0\) at position 1 is not legal"):
        decode(state, [45, NOBLE_CODES[0]])


def test_a_single_qualifying_noble_is_implied() -> None:
    state = with_nobles(_two_nobles(), [noble(6), noble(1)])
    assert is_complete(state, [45])
    assert decode(state, [45]) == Buy(card(9), toks("3K"), noble(1))
    # The form without the noble, which apply accepts, gets the same codes.
    assert action_codes(state, Buy(card(9))) == (45,)


# -- Errors --------------------------------------------------------------------------------


def test_an_illegal_code_is_named_with_its_position() -> None:
    state = new_game(2, seed=1)
    with pytest.raises(EncodingError, match=r"code 45 \(buy tier 1 slot 0\) at position 0") as e:
        decode(state, [45])
    assert (e.value.position, e.value.code) == (0, 45)
    assert isinstance(e.value, SplendorError)
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize("bad", [-1, ACTION_COUNT, 10**9])
def test_a_number_outside_the_code_space_is_refused(bad: int) -> None:
    with pytest.raises(EncodingError, match=f"code {bad} at position 0 is not a code"):
        legal_codes(new_game(2, seed=1), [bad])


def test_codes_of_another_state_are_refused() -> None:
    _, buy = _gold_buyer()
    fresh = new_game(2, seed=1)
    with pytest.raises(EncodingError, match="position 0"):
        decode(fresh, [buy, NO_MORE_GOLD_CODE])
    with pytest.raises(EncodingError, match="position 1"):
        decode(_full_hand(), [_take("G R K"), GOLD_CODES[BLACK]])


def test_too_many_codes_are_refused() -> None:
    state = new_game(2, seed=1)
    with pytest.raises(EncodingError, match="position 1 comes after the end of the turn") as e:
        decode(state, [0, 0])
    assert e.value.position == 1
    with pytest.raises(EncodingError, match="after the end of the turn"):
        legal_codes(state, [0, RETURN_CODES[WHITE]])


def test_an_incomplete_sequence_is_refused() -> None:
    state, buy = _gold_buyer()
    with pytest.raises(EncodingError, match="end at position 1 before the turn is complete") as e:
        decode(state, [buy])
    assert (e.value.position, e.value.code) == (1, None)
    with pytest.raises(EncodingError, match="end at position 0"):
        decode(state, [])
    assert not is_complete(state, [buy])


@pytest.mark.parametrize(
    ("codes", "match"),
    [
        ("0", "must be a sequence of int codes, got str"),
        (b"\x00", "got bytes"),
        ({0}, "got set"),
        ({0: 1}, "got dict"),
        (0, "got int"),
        (None, "got NoneType"),
        ([0.0], r"codes\[0\] is not an int code: 0.0"),
        ([True], r"codes\[0\] is not an int code: True"),
        ((0, "1"), r"codes\[1\] is not an int code"),
    ],
)
def test_codes_of_the_wrong_type_are_refused(codes: object, match: str) -> None:
    with pytest.raises(EncodingError, match=match):
        decode(new_game(2, seed=1), codes)  # type: ignore[arg-type]  # deliberately wrong


class _Index:
    """An integer type other than int, as numpy's are."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


class _Unreadable:
    """Iterable in name only, as a 0-d numpy array is."""

    def __iter__(self) -> Iterator[int]:
        raise TypeError("iteration over a 0-d array")


def test_a_sequence_that_cannot_be_read_is_refused() -> None:
    with pytest.raises(EncodingError, match="cannot be read as a sequence"):
        legal_codes(new_game(2, seed=1), _Unreadable())


def test_integers_of_other_types_are_accepted() -> None:
    state = _full_hand()
    take = _take("G R K")
    codes = (take, RETURN_CODES[BLUE], RETURN_CODES[GOLD])
    action = decode(state, [_Index(code) for code in codes])  # type: ignore[misc]
    assert action == decode(state, codes)
    assert legal_codes(state, iter([_Index(take)])) == legal_codes(state, [take])  # type: ignore[arg-type]


@pytest.mark.parametrize("state", [None, "state", 3, GameState])
def test_a_state_of_the_wrong_type_is_refused(state: object) -> None:
    with pytest.raises(InvalidArgumentError, match="expected a GameState or the PlayerView"):
        legal_codes(state)  # type: ignore[arg-type]  # deliberately wrong


@pytest.mark.parametrize("action", [None, 0, "take", Tokens(red=2)])
def test_an_action_of_the_wrong_type_is_refused(action: object) -> None:
    with pytest.raises(InvalidArgumentError, match="expected an action"):
        action_codes(new_game(2, seed=1), action)  # type: ignore[arg-type]  # deliberately wrong


@pytest.mark.parametrize(
    ("action", "match"),
    [
        (Take(toks("2R 1B")), "cannot take"),
        (Take(toks("W B G"), toks("W")), "nothing may be returned"),
        (Buy(card(9)), "not face up"),
        (Reserve(card(90)), "not face up"),
        (ReserveFromDeck(4), "no tier 4"),
        (Pass(), "pass is legal only"),
        (Take(toks("W B G"), noble=noble(1)), "N1"),
    ],
)
def test_an_illegal_action_gets_the_engines_error(action: object, match: str) -> None:
    state = new_game(2, seed=1)
    with pytest.raises(IllegalActionError, match=match):
        action_codes(state, action)  # type: ignore[arg-type]  # some deliberately odd
    with pytest.raises(IllegalActionError, match=match):
        action_codes(view(state, 0), action)  # type: ignore[arg-type]


def _forged(action: Action, **fields: object) -> Action:
    """A copy of ``action`` with fields its constructor refuses, set behind its back."""
    forged = copy.copy(action)
    for name, value in fields.items():
        object.__setattr__(forged, name, value)
    return forged


def test_a_malformed_action_gets_the_engines_error() -> None:
    with pytest.raises(InvalidArgumentError):
        action_codes(new_game(2, seed=1), _forged(Take(toks("2R")), gems="2R"))


def test_the_error_keeps_its_place_through_pickling() -> None:
    error = EncodingError("bad", position=3, code=12)
    again = pickle.loads(pickle.dumps(error))
    assert (str(again), again.position, again.code) == ("bad", 3, 12)


# -- Views and purity ---------------------------------------------------------------------


def test_the_view_of_the_seat_to_move_gives_the_same_codes() -> None:
    for state in (_full_hand(), _gold_buyer()[0], _two_nobles(), new_game(4, seed=9)):
        seen = view(state, state.current_player)
        assert list(_all_sequences(seen)) == list(_all_sequences(state))
        assert code_sequences(seen) == code_sequences(state)
    # Forms that are not listed are found from a view too.
    state = with_player(deal(4), tokens=toks("4K 4R"))
    seen = view(state, 0)
    odd = Take(toks("B G R"), toks("R"))
    assert action_codes(seen, odd) == action_codes(state, odd)


def test_a_view_of_another_seat_is_refused() -> None:
    state = new_game(3, seed=2)
    for seat in (1, 2, None):
        with pytest.raises(InvalidArgumentError, match="cannot act for seat 0"):
            legal_codes(view(state, seat))


def test_a_finished_games_view_has_no_codes() -> None:
    assert legal_codes(view(_finished(), None)) == ()


def test_nothing_is_changed_by_the_encoding() -> None:
    state = _full_hand()
    before = copy.deepcopy(state)
    prefix = [_take("G R K")]
    legal_codes(state, prefix)
    decode(state, [*prefix, RETURN_CODES[BLUE], RETURN_CODES[GOLD]])
    action_codes(state, Take(toks("G R K"), toks("B Y")))
    action_codes(state, Take(toks("G R K"), toks("G Y")))
    code_sequences(state)
    with pytest.raises(EncodingError):
        decode(state, prefix)
    assert state == before
    assert pickle.dumps(state) == pickle.dumps(before)
    assert prefix == [_take("G R K")]


def test_many_states_in_turn_are_never_confused() -> None:
    # More states than the encoding remembers, each asked twice, in two orders.
    states = [new_game(players, seed=seed) for seed in range(50) for players in (2, 3, 4)]
    first = [code_sequences(state) for state in states]
    again = [code_sequences(state) for state in reversed(states)]
    assert first == again[::-1]
    assert first == [
        tuple((action_codes(copy.deepcopy(s), a), a) for a in legal_actions(s)) for s in states
    ]


def test_a_view_without_its_own_state_is_refused() -> None:
    state = new_game(2, seed=1)
    seen = attrs.evolve(view(state, 0), own=None)
    with pytest.raises(InvalidArgumentError, match="own state"):
        legal_codes(seen)


@pytest.mark.parametrize(
    "board",
    [
        lambda rows: rows[:2],
        lambda rows: (rows[0], rows[1], (*rows[2], None)),
        lambda rows: (rows[0], rows[1], list(rows[2])),
        list,
    ],
)
def test_a_board_of_the_wrong_shape_is_refused(board: Callable[..., Any]) -> None:
    state = new_game(2, seed=1)
    bad = attrs.evolve(state, board=board(state.board))
    with pytest.raises(InvalidArgumentError, match="3 tiers of 4 slots"):
        legal_codes(bad)


def test_more_nobles_than_places_are_refused() -> None:
    state = new_game(4, seed=1)
    crowded = with_nobles(state, [*state.nobles, *state.nobles, state.nobles[0]])
    with pytest.raises(EncodingError, match="at most 10 revealed nobles"):
        legal_codes(crowded)


def test_a_pass_with_a_choice_of_nobles() -> None:
    # No card left to reserve or buy, no gem in the supply: only a pass, and
    # the bonuses meet two nobles.
    state = with_player(deal(2), cards=bonus_cards(toks("4W 4B 3G")))
    empty = ((None,) * 4,) * 3
    state = attrs.evolve(state, board=empty, decks=((), (), ()), bank=toks("5Y"))
    state = with_nobles(state, [noble(1), noble(3)])
    assert set(legal_actions(state)) == {Pass(noble(1)), Pass(noble(3))}
    assert legal_codes(state) == (PASS_CODE,)
    assert legal_codes(state, [PASS_CODE]) == (NOBLE_CODES[0], NOBLE_CODES[1])
    assert decode(state, [PASS_CODE, NOBLE_CODES[1]]) == Pass(noble(3))
    assert action_codes(state, Pass(noble(1))) == (PASS_CODE, NOBLE_CODES[0])
    with pytest.raises(IllegalActionError, match="several nobles qualify"):
        action_codes(state, Pass())


@pytest.mark.parametrize(
    ("action", "fields"),
    [
        (Take(toks("W B G"), toks("W")), {"returned": "1W"}),
        (Reserve(card(1)), {"card": "#1"}),
        (Buy(card(9)), {"card": None}),
        (ReserveFromDeck(1), {"tier": "1"}),
        (Buy(card(9)), {"payment": "3K"}),
        (Pass(), {"noble": "N1"}),
    ],
)
def test_malformed_fields_get_the_engines_error(action: Action, fields: dict[str, object]) -> None:
    state = with_row(_full_hand(), 1, (card(9), *_full_hand().face_up(1)[1:]))
    state = with_player(state, tokens=toks("3W 3B 3K 1Y"))
    with pytest.raises(SplendorError) as caught:
        action_codes(state, _forged(action, **fields))
    assert isinstance(caught.value, InvalidArgumentError | IllegalActionError)


def test_a_noble_that_is_not_revealed_gets_the_engines_error() -> None:
    with pytest.raises(IllegalActionError, match="N10 is not among the revealed nobles"):
        action_codes(_two_nobles(), Buy(card(9), toks("3K"), noble(10)))


def test_the_encoding_loads_only_the_engine() -> None:
    code = """
import json, sys
import splendor.formats.encoding as encoding
import splendor
state = splendor.new_game(2, seed=1)
encoding.action_codes(state, encoding.decode(state, encoding.legal_codes(state)[:1]))
roots = ("splendor", "cattrs", "numpy", "rich")
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in roots)))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    loaded = set(json.loads(done.stdout))
    allowed = {"splendor", "splendor.errors", "splendor.formats", "splendor.formats.encoding"}
    outside = {name for name in loaded if not name.startswith("splendor.core")} - allowed
    assert "splendor.core.legal" in loaded
    assert not outside, sorted(outside)
