"""Bad input from a careless or hostile caller, across the whole public API.

The standard: every call either gives a correct result or raises a
:class:`splendor.SplendorError` subclass with a clear message; no other
exception escapes, nothing hangs and no argument is changed.

The tests come in four groups:

* wrong arguments that are already handled (pinned so they stay handled);
* fixed defects: wrong arguments or malformed text that once let a foreign
  exception escape, or gave a wrong result; the comment in each test says
  what went wrong before the fix;
* states built by hand that break an invariant: :func:`splendor.check_state`
  is the guard for those, so it must reject them with its own error;
* fuzzing with Hypothesis: notation text, record text, JSON documents, hand
  made actions and token counts.
"""

from __future__ import annotations

import io
import json
import random
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import TypeVar

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import splendor
from splendor import (
    CARDS,
    NOBLES,
    Action,
    Buy,
    Card,
    GameRecord,
    GameState,
    Gem,
    GreedyBot,
    InvalidStateError,
    Noble,
    Pass,
    PlayerState,
    PlayerView,
    PublicPlayer,
    RandomBot,
    Reserve,
    ReserveFromDeck,
    Rules,
    SerializationError,
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
    parse_record,
    play_game,
    render_svg,
    to_json,
    view,
)
from splendor.cli import main
from splendor.players.bots import load_bot
from tests.builders import unchecked

Call = Callable[[], object]
_T = TypeVar("_T")

STATE = new_game(2, seed=1)


def _first_face_up() -> Card:
    card = STATE.board[0][0]
    assert card is not None
    return card


FACE_UP = _first_face_up()
THREE = Tokens(red=1, blue=1, green=1)


def _copy(card: Card, **changes: object) -> Card:
    """A hand-made card with the fields of ``card``, some changed."""
    fields: dict[str, object] = {
        "id": card.id,
        "tier": card.tier,
        "bonus": card.bonus,
        "points": card.points,
        "cost": card.cost,
    }
    fields.update(changes)
    return Card(**fields)  # type: ignore[arg-type]  # wrong field types on purpose


def _noble_copy(noble: Noble, **changes: object) -> Noble:
    """A hand-made noble with the fields of ``noble``, some changed."""
    fields: dict[str, object] = {
        "id": noble.id,
        "points": noble.points,
        "requirement": noble.requirement,
    }
    fields.update(changes)
    return Noble(**fields)  # type: ignore[arg-type]  # wrong field types on purpose


def _evolve(value: _T, **changes: object) -> _T:
    """:func:`attrs.evolve` taking fields of any type, to build broken values on purpose."""
    return attrs.evolve(value, **changes)  # type: ignore[misc]  # any attrs instance


def _has_message(error: Exception) -> None:
    assert str(error), f"{type(error).__name__} without a message"


def _raises_library_error(call: Call) -> SplendorError:
    """Run ``call``; it must raise a library error with a message, nothing else."""
    with pytest.raises(SplendorError) as caught:
        call()
    assert str(caught.value)
    return caught.value


def _bad_take_gems() -> Take:
    return Take("x")  # type: ignore[arg-type]  # wrong type on purpose


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
    "Rules evolve": lambda: _evolve(Rules(), reserve_limit=None),
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
    "apply noble hand made": lambda: apply(STATE, Take(THREE, noble=_noble_copy(STATE.nobles[0]))),
    "apply Reserve None": lambda: apply(STATE, Reserve(None)),  # type: ignore[arg-type]  # wrong type on purpose
    "apply Reserve int": lambda: apply(STATE, Reserve(24)),  # type: ignore[arg-type]  # wrong type on purpose
    "apply Reserve copy": lambda: apply(STATE, Reserve(_copy(FACE_UP))),
    "apply Reserve tier 7": lambda: apply(STATE, Reserve(_copy(FACE_UP, tier=7))),
    "apply Reserve deck card": lambda: apply(STATE, Reserve(STATE.decks[0][0])),
    "apply Reserve returned str": lambda: apply(STATE, Reserve(FACE_UP, "Y")),  # type: ignore[arg-type]  # wrong type on purpose
    "apply ReserveFromDeck bool": lambda: apply(STATE, ReserveFromDeck(True)),
    "apply ReserveFromDeck float": lambda: apply(STATE, ReserveFromDeck(1.0)),  # type: ignore[arg-type]  # wrong type on purpose
    "apply ReserveFromDeck 0": lambda: apply(STATE, ReserveFromDeck(0)),
    "apply ReserveFromDeck huge": lambda: apply(STATE, ReserveFromDeck(-(10**40))),
    "apply Buy None": lambda: apply(STATE, Buy(None)),  # type: ignore[arg-type]  # wrong type on purpose
    "apply Buy copy": lambda: apply(STATE, Buy(_copy(FACE_UP))),
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
    "determinize seat 7": lambda: determinize(_evolve(view(STATE, 0), seat=7), 1),
    "check_state None": lambda: check_state(None),  # type: ignore[arg-type]  # wrong type on purpose
    "check_state view": lambda: check_state(view(STATE, 0)),  # type: ignore[arg-type]  # wrong type on purpose
    "parse_action bytes": lambda: parse_action(b"+RR", STATE),  # type: ignore[arg-type]  # wrong type on purpose
    "parse_action None state": lambda: parse_action("p", None),  # type: ignore[arg-type]  # wrong type on purpose
    "parse_action empty": lambda: parse_action("", STATE),
    "parse_action blank": lambda: parse_action(" \t\n", STATE),
    "parse_action nul": lambda: parse_action("\x00", STATE),
    "parse_action control": lambda: parse_action("+\x1bRR", STATE),
    "parse_action emoji": lambda: parse_action("+\N{GEM STONE}", STATE),
    "parse_action rtl": lambda: parse_action("\u202e+RR", STATE),
    "parse_action long": lambda: parse_action("+" + "w" * 100_000, STATE),
    "parse_action long digits": lambda: parse_action("b#" + "9" * 10_000, STATE),
    "parse_action zero count": lambda: parse_action("+0R", STATE),
    "parse_action card 0": lambda: parse_action("b#0", STATE),
    "parse_action noble 11": lambda: parse_action("pn11", STATE),
    "parse_action spectator": lambda: parse_action("+RR", view(STATE, None)),
    "format_action None": lambda: format_action(None, STATE),  # type: ignore[arg-type]  # wrong type on purpose
    "format_action state None": lambda: format_action(Pass(), None),  # type: ignore[arg-type]  # wrong type on purpose
    "format_action Reserve None": lambda: format_action(Reserve(None), STATE),  # type: ignore[arg-type]  # wrong type on purpose
    "format_action payment str": lambda: format_action(Buy(FACE_UP, "x"), STATE),  # type: ignore[arg-type]  # wrong type on purpose
    "format_action tier 4": lambda: format_action(ReserveFromDeck(4), STATE),
    "format_action noble str": lambda: format_action(Pass("n1"), STATE),  # type: ignore[arg-type]  # wrong type on purpose
    "format_record None": lambda: splendor.format_record(None),  # type: ignore[arg-type]  # wrong type on purpose
    "parse_record None": lambda: parse_record(None),  # type: ignore[arg-type]  # wrong type on purpose
    "parse_record empty": lambda: parse_record(""),
    "parse_record players 9": lambda: parse_record("players: 9\nseed: 1\n"),
    "parse_record players sup": lambda: parse_record("players: \u00b2\nseed: 1\n"),
    "parse_record seed long": lambda: parse_record("players: 2\nseed: " + "9" * 5000),
    "parse_record unknown rule": lambda: parse_record("players: 2\nseed: 1\nrules: x=1\n"),
    "parse_record bad rule": lambda: parse_record("players: 2\nseed: 1\nrules: token_limit=-4\n"),
    "parse_record names": lambda: parse_record('players: 2\nseed: 1\nnames: ["a"]\n'),
    "parse_record result": lambda: parse_record("players: 2\nseed: 1\nresult: 1 0\n"),
    "parse_record twice": lambda: parse_record("players: 2\nplayers: 2\nseed: 1\n"),
    "parse_record late header": lambda: parse_record("players: 2\nseed: 1\n+RR\nseed: 2\n"),
    "GameRecord seed None": lambda: GameRecord(2, None),  # type: ignore[arg-type]  # wrong type on purpose
    "GameRecord players bool": lambda: GameRecord(True, 1),
    "GameRecord actions list": lambda: GameRecord(2, 1, actions=[Pass()]),  # type: ignore[arg-type]  # wrong type on purpose
    "GameRecord names list": lambda: GameRecord.start(2, seed=1, names=["a", "b"]),  # type: ignore[arg-type]  # wrong type on purpose
    "GameRecord result bool": lambda: GameRecord(2, 1, result=(True,)),
    "GameRecord result unsorted": lambda: GameRecord(2, 1, result=(1, 0)),
    "GameRecord.append str": lambda: GameRecord.start(2, seed=1).append("x"),  # type: ignore[arg-type]  # wrong type on purpose
    "GameRecord replay bad action": lambda: GameRecord(2, 1, actions=(_bad_take_gems(),)).replay(),
    "to_json object": lambda: to_json(object()),
    "to_json nan": lambda: to_json(float("nan")),
    "from_json int": lambda: from_json(5, GameState),  # type: ignore[call-overload]  # wrong type on purpose
    "from_json None": lambda: from_json(None, GameState),  # type: ignore[call-overload]  # wrong type on purpose
    "from_json bad utf8": lambda: from_json(b"\xff\xfe\xfd", GameState),
    "from_json NaN": lambda: from_json('{"type":"take","gems":{"red":NaN}}', Take),
    "from_json deep": lambda: from_json("[" * 100_000, GameState),
    "from_json long int": lambda: from_json("9" * 5000, Rules),
    "from_json duplicate key": lambda: from_json('{"type":"pass","type":"pass"}', Pass),
    "from_json wrong tag": lambda: from_json('{"type":"pass"}', Take),
    "from_json union": lambda: from_json('{"type":"pass"}', Take | Pass),
    "from_json object": lambda: from_json("{}", object),
    "render_svg None": lambda: render_svg(None),
    "render_svg seat bool": lambda: render_svg(STATE, seat=True),
    "render_svg seat 2": lambda: render_svg(STATE, seat=2),
    "render_svg names str": lambda: render_svg(STATE, names="ab"),
    "render_svg names short": lambda: render_svg(STATE, names=["a"]),
    "render_svg view other seat": lambda: render_svg(view(STATE, 0), seat=1),
    "play_game one bot": lambda: play_game([RandomBot()], seed=1),
    "play_game not callable": lambda: play_game([RandomBot(), 5], seed=1),  # type: ignore[list-item]  # wrong type on purpose
    "play_game str bots": lambda: play_game("ab", seed=1),  # type: ignore[arg-type]  # wrong type on purpose
    "play_game seed float": lambda: play_game([RandomBot(), RandomBot()], seed=1.0),  # type: ignore[arg-type]  # wrong type on purpose
    "play_game rules str": lambda: play_game([RandomBot(), RandomBot()], seed=1, rules="x"),  # type: ignore[arg-type]  # wrong type on purpose
    "play_game names str": lambda: play_game([RandomBot(), RandomBot()], seed=1, names="ab"),
    "play_game names ints": lambda: play_game([RandomBot(), RandomBot()], seed=1, names=[1, 2]),  # type: ignore[list-item]  # wrong type on purpose
    "play_game max_turns bool": lambda: play_game([RandomBot()] * 2, seed=1, max_turns=True),
    "play_game max_turns -1": lambda: play_game([RandomBot()] * 2, seed=1, max_turns=-1),
    "play_game bot returns str": lambda: play_game([lambda v, a, r: "p", RandomBot()], seed=1),  # type: ignore[list-item]  # wrong type on purpose
    "play_game bot returns None": lambda: play_game([lambda v, a, r: None, RandomBot()], seed=1),  # type: ignore[list-item]  # wrong type on purpose
    "play_game bot bad Take": lambda: play_game(
        [lambda v, a, r: _bad_take_gems(), RandomBot()], seed=1
    ),
    "play_game bot illegal": lambda: play_game([lambda v, a, r: Pass(), RandomBot()], seed=1),
    "play_game bot copy card": lambda: play_game(
        [lambda v, a, r: Reserve(_copy(FACE_UP)), RandomBot()], seed=1
    ),
    "GreedyBot spectator": lambda: GreedyBot()(
        view(STATE, None), legal_actions(STATE), random.Random(1)
    ),
    "load_bot unknown": lambda: load_bot("chess"),
    "load_bot missing module": lambda: load_bot("no_such_module_zz:bot"),
    "load_bot nul": lambda: load_bot("\x00:bot"),
    "load_bot not callable": lambda: load_bot("splendor:CARDS"),
    "load_bot empty": lambda: load_bot(""),
}


@pytest.mark.parametrize("call", list(HANDLED.values()), ids=list(HANDLED))
def test_a_wrong_argument_raises_a_library_error(call: Call) -> None:
    _raises_library_error(call)


def test_odd_but_valid_arguments_give_results() -> None:
    assert new_game(2, seed=10**100).turn == 0
    assert new_game(2, seed=-1) == new_game(2, seed=-1)
    assert determinize(view(STATE, 0), random.SystemRandom()).turn == 0
    assert determinize(view(STATE, 0), 10**50) == determinize(view(STATE, 0), 10**50)
    assert str(Tokens.of("red")) == "1R"  # type: ignore[arg-type]  # a colour's name stands for the colour
    assert Tokens(red=10**9).total == 10**9
    assert Tokens().get("purple") is None  # type: ignore[call-overload]  # the Mapping contract: a missing key
    assert "purple" not in Tokens()


def test_a_bot_that_raises_passes_its_own_error_on() -> None:
    """The bot's own exception reaches the caller unchanged (it is the caller's code)."""

    def broken(view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
        raise ZeroDivisionError("the bot's own bug")

    with pytest.raises(ZeroDivisionError, match="the bot's own bug"):
        play_game([broken, RandomBot()], seed=1)


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
    "apply Reserve tier str": lambda: apply(STATE, Reserve(_copy(FACE_UP, tier="1"))),
    "apply Reserve tier None": lambda: apply(STATE, Reserve(_copy(FACE_UP, tier=None))),
    "apply Reserve tier float": lambda: apply(STATE, Reserve(_copy(FACE_UP, tier=1.0))),
    "apply Buy tier str": lambda: apply(STATE, Buy(_copy(FACE_UP, tier="1"))),
    # notation.py format_action: Take.gems is not checked; _place indexes board[tier - 1].
    "format_action Take str": lambda: format_action(_bad_take_gems(), STATE),
    "format_action Take None": lambda: format_action(Take(None), STATE),  # type: ignore[arg-type]  # wrong type on purpose
    "format_action tier str": lambda: format_action(Reserve(_copy(CARDS[0], tier="x")), STATE),
    "format_action tier 9": lambda: format_action(Reserve(_copy(CARDS[0], tier=9)), STATE),
    "format_action tier -7": lambda: format_action(Buy(_copy(CARDS[0], tier=-7)), STATE),
    # notation.py _Reader: str.isdigit() accepts superscripts that int() refuses.
    "parse_action r superscript": lambda: parse_action("r\u00b21", STATE),
    "parse_action + superscript": lambda: parse_action("+\u00b2r", STATE),
    "parse_action b# superscript": lambda: parse_action("b#\u00b9", STATE),
    "parse_action circled digit": lambda: parse_action("b\u2460\u2460", STATE),
    # notation.py _parse_names: json.loads of a deeply nested list -> RecursionError.
    "parse_record deep names": lambda: parse_record(
        "players: 2\nseed: 1\nnames: " + "[" * 100_000 + "\n"
    ),
    # serialization.py from_json: `cls in ACTION_TAGS` hashes cls.
    "from_json cls list": lambda: from_json("1", []),  # type: ignore[call-overload]  # wrong type on purpose
    # serialization.py to_json: the hooks read .counts / .id of unchecked fields.
    "to_json Take str": lambda: to_json(_bad_take_gems()),
    "to_json Buy None": lambda: to_json(Buy(None)),  # type: ignore[arg-type]  # wrong type on purpose
    "to_json Pass noble str": lambda: to_json(Pass("n1")),  # type: ignore[arg-type]  # wrong type on purpose
    # svg.py render_svg: len(names) on a non-sequence.
    "render_svg names int": lambda: render_svg(STATE, names=5),  # type: ignore[arg-type]  # wrong type on purpose
    "render_svg names iterator": lambda: render_svg(STATE, names=iter(["a", "b"])),  # type: ignore[arg-type]  # wrong type on purpose
    # bots.py play_game: tuple(bots), tuple(names) unchecked.
    "play_game bots None": lambda: play_game(None, seed=1),  # type: ignore[arg-type]  # wrong type on purpose
    "play_game bots int": lambda: play_game(5, seed=1),  # type: ignore[arg-type]  # wrong type on purpose
    "play_game names int": lambda: play_game([RandomBot()] * 2, seed=1, names=5),  # type: ignore[arg-type]  # wrong type on purpose
    # bots.py load_bot: spec.partition, import_module of a relative name, found().
    "load_bot None": lambda: load_bot(None),  # type: ignore[arg-type]  # wrong type on purpose
    "load_bot relative module": lambda: load_bot("..x:y"),
    "load_bot class with arguments": lambda: load_bot("splendor.core.state:GameState"),
    # bots.py: the built-in bots called directly with no actions or no view.
    "RandomBot no actions": lambda: RandomBot()(view(STATE, 0), [], random.Random(1)),
    "GreedyBot no actions": lambda: GreedyBot()(view(STATE, 0), [], random.Random(1)),
    "GreedyBot view None": lambda: GreedyBot()(None, legal_actions(STATE), random.Random(1)),  # type: ignore[arg-type]  # wrong type on purpose
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
    _raises_library_error(call)


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
    _raises_library_error(lambda: STATE.face_up(tier))
    _raises_library_error(lambda: STATE.deck(tier))
    _raises_library_error(lambda: view(STATE, 0).deck_size(tier))


def test_a_comment_with_a_colon_is_not_read_as_a_header() -> None:
    # parse_record treats any line with a ':' as a header before cutting the comment.
    record = parse_record("players: 2\nseed: 1\n\n+RR ; note: two red\n")
    assert record.actions == (Take(Tokens(red=2)),)


def test_a_rule_with_several_numbers_is_refused_not_cut_short() -> None:
    # "token_limit=5,7" is read as 5 and the 7 is silently dropped.
    _raises_library_error(lambda: parse_record("players: 2\nseed: 1\nrules: token_limit=5,7\n"))


def test_from_json_with_none_for_the_class_is_refused() -> None:
    # from_json("[1, 2]", None) hands back the raw JSON value.
    _raises_library_error(lambda: from_json("[1, 2]", None))  # type: ignore[call-overload]  # wrong type on purpose


def test_from_json_of_an_impossible_player_state_is_refused() -> None:
    # A PlayerState with a reserved card and no blind flag, negative points and
    # gold bonuses loads; PublicPlayer.of then fails with a ValueError from zip.
    text = (
        '{"tokens":{},"cards":[],"reserved":[1],"reserved_blind":[],"nobles":[],'
        '"points":-5,"bonuses":{"gold":3}}'
    )
    with pytest.raises(SerializationError):
        from_json(text, PlayerState)


def test_svg_names_with_control_characters_stay_well_formed() -> None:
    picture = render_svg(STATE, names=["\x00Ann\x1b", "Bo\x08"])
    ET.fromstring(picture)  # raises ParseError on characters XML 1.0 forbids


def _with_long_reserve() -> tuple[GameState, Action]:
    """A state where a listed action buys the 10th or later reserved card."""
    rules = Rules(reserve_limit=50, token_limit=3)
    rng = random.Random(0)
    state = new_game(2, seed=0, rules=rules)
    for _ in range(400):
        actions = legal_actions(state)
        for action in actions:
            reserved = state.player.reserved
            if type(action) is Buy and action.card in reserved[9:]:
                return state, action
        reserves = [a for a in actions if type(a) is ReserveFromDeck]
        state = apply(state, reserves[0] if reserves else rng.choice(actions))
    raise AssertionError("no buy of a 10th reserved card came up")


def test_the_notation_of_a_reserve_index_of_two_digits_round_trips() -> None:
    # format_action writes "br10" but the reader takes one digit after "br".
    state, action = _with_long_reserve()
    text = format_action(action, state)
    assert text.startswith("br1")
    assert parse_action(text, state) == action


# ---------------------------------------------------------------------------
# Fixed defects of check_state: it is the guard for hand-made states, and it
# once let hand-made cards and nobles through, or crashed on them.


def _with_board_card(card: Card) -> GameState:
    row = (card, *STATE.board[0][1:])
    return _evolve(STATE, board=(row, *STATE.board[1:]))


def test_check_state_refuses_a_copy_of_a_card() -> None:
    # The copy has the id and fields of the real card but is another object:
    # check_state passes it, then legal_actions raises KeyError (legal.py _RESERVE).
    state = _with_board_card(_copy(FACE_UP))
    with pytest.raises(InvalidStateError):
        check_state(state)


def test_check_state_refuses_a_card_with_a_bad_cost() -> None:
    state = _with_board_card(_copy(FACE_UP, cost="x"))
    with pytest.raises(InvalidStateError):
        check_state(state)


def test_check_state_refuses_a_91st_card() -> None:
    extra = _copy(STATE.decks[0][0], id=91)
    state = _evolve(STATE, decks=((extra, *STATE.decks[0]), *STATE.decks[1:]))
    with pytest.raises(InvalidStateError):
        check_state(state)


def test_check_state_refuses_a_noble_worth_100_points() -> None:
    noble = _noble_copy(STATE.nobles[0], points=100)
    state = _evolve(STATE, nobles=(noble, *STATE.nobles[1:]))
    with pytest.raises(InvalidStateError):
        check_state(state)


def test_check_state_refuses_a_card_without_a_colour() -> None:
    # validation.py _check_player: GEMS.index(card.bonus) -> ValueError.
    card = _copy(STATE.decks[0][0], bonus=None)
    player = PlayerState(cards=(card,))
    state = _evolve(
        STATE,
        players=(player, STATE.players[1]),
        decks=(STATE.decks[0][1:], *STATE.decks[1:]),
    )
    with pytest.raises(InvalidStateError):
        check_state(state)


def test_check_state_refuses_a_noble_without_a_requirement() -> None:
    # validation.py _check_player: noble.requirement <= bonuses -> TypeError.
    noble = _noble_copy(STATE.nobles[0], points=0, requirement="x")
    state = _evolve(
        STATE, nobles=STATE.nobles[1:], players=(PlayerState(nobles=(noble,)), STATE.players[1])
    )
    with pytest.raises(InvalidStateError):
        check_state(state)


def test_determinize_refuses_a_view_without_a_supply() -> None:
    # A hand-made view with no supply: determinize returns a state without one.
    broken = _evolve(view(STATE, 0), bank=None)
    with pytest.raises(SplendorError):
        determinize(broken, 1)


# ---------------------------------------------------------------------------
# Invalid states built by hand: legal_actions, apply, view and render_svg may
# assume a valid state, and check_state rejects each of these with its error.

INVALID: dict[str, Callable[[GameState], GameState]] = {
    "players None": lambda s: _evolve(s, players=None),
    "no players": lambda s: _evolve(s, players=()),
    "board None": lambda s: _evolve(s, board=None),
    "decks a list": lambda s: _evolve(s, decks=list(s.decks)),
    "nobles None": lambda s: _evolve(s, nobles=None),
    "rules None": lambda s: _evolve(s, rules=None),
    "bank None": lambda s: _evolve(s, bank=None),
    "current_player 5": lambda s: _evolve(s, current_player=5),
    "current_player -1": lambda s: _evolve(s, current_player=-1),
    "turn a str": lambda s: _evolve(s, turn="1"),
    "winners (7,)": lambda s: _evolve(s, winners=(7,)),
    "blind flag without a card": lambda s: _evolve(
        s, players=(PlayerState(reserved_blind=(True,)), s.players[1])
    ),
}


@pytest.mark.parametrize("change", list(INVALID.values()), ids=list(INVALID))
def test_check_state_rejects_a_hand_made_invalid_state(
    change: Callable[[GameState], GameState],
) -> None:
    with pytest.raises(InvalidStateError):
        check_state(change(STATE))


# ---------------------------------------------------------------------------
# The command line: a bad file or argument is a message and exit status 2.


def _run_cli(argv: list[str], lines: Sequence[str] = ()) -> tuple[int, str]:
    answers: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    status = main(argv, stdout=out, read=read)
    return status, out.getvalue()


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("cli")
    record = play_game([RandomBot(), RandomBot()], seed=3, max_turns=4)
    (folder / "record.json").write_text(to_json(record), encoding="utf-8")
    (folder / "state.json").write_text(to_json(record.final_state()), encoding="utf-8")
    (folder / "binary.txt").write_bytes(b"\xff\xfe\x00garbage")
    (folder / "empty.txt").write_text("", encoding="utf-8")
    (folder / "format.json").write_text('{"format": 1}', encoding="utf-8")
    (folder / "actions.json").write_text('{"actions": 5}', encoding="utf-8")
    (folder / "array.json").write_text("[1, 2]", encoding="utf-8")
    (folder / "broken.json").write_text('{"format": ', encoding="utf-8")
    (folder / "illegal.txt").write_text("players: 2\nseed: 1\n\n+RR\n+RR\n", encoding="utf-8")
    (folder / "deep.json").write_text('{"a": ' + "[" * 100_000, encoding="utf-8")
    (folder / "deep_names.txt").write_text(
        "players: 2\nseed: 1\nnames: " + "[" * 100_000 + "\n", encoding="utf-8"
    )
    (folder / "superscript.txt").write_text("players: 2\nseed: 1\n\nr\u00b21\n", encoding="utf-8")
    return folder


HANDLED_CLI: dict[str, list[str]] = {
    "missing file": ["show", "{}/no_such_file"],
    "a directory": ["show", "{}"],
    "binary": ["show", "{}/binary.txt"],
    "empty": ["show", "{}/empty.txt"],
    "format only": ["show", "{}/format.json"],
    "actions not a list": ["show", "{}/actions.json"],
    "array": ["show", "{}/array.json"],
    "broken json": ["show", "{}/broken.json"],
    "illegal record": ["show", "{}/illegal.txt"],
    "turn out of range": ["show", "{}/record.json", "--turn", "99"],
    "turn negative": ["show", "{}/record.json", "--turn", "-1"],
    "turn of a state": ["show", "{}/state.json", "--turn", "1"],
    "seat out of range": ["show", "{}/record.json", "--seat", "7"],
    "svg unwritable": ["show", "{}/record.json", "--svg", "{}/no/such/dir/x.svg"],
    "replay a state": ["replay", "{}/state.json", "--no-step"],
    "resume a state": ["play", "--resume", "{}/state.json"],
    "play seat": ["play", "--seat", "5"],
    "unknown bot": ["--bots", "chess"],
    "too many bots": ["--players", "3", "--bots", "greedy", "random"],
    "negative max turns": ["--max-turns", "-1"],
    "no games": ["simulate", "--games", "0"],
    "simulate unknown bot": ["simulate", "-n", "1", "--bots", "nope_zz:x"],
}


@pytest.mark.parametrize("argv", list(HANDLED_CLI.values()), ids=list(HANDLED_CLI))
def test_cli_a_bad_file_or_argument_is_a_message(
    argv: list[str], files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _ = _run_cli([arg.replace("{}", str(files)) for arg in argv])
    assert status == 2
    assert capsys.readouterr().err.startswith("splendor: ")


def test_cli_argparse_errors_exit_cleanly(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--seed", "abc"])
    assert caught.value.code == 2
    assert "invalid int value" in capsys.readouterr().err


def test_cli_garbage_at_the_prompt_is_asked_again() -> None:
    lines = ["\x00", "+" + "w" * 50, "r5", "b11", "hint", "moves", "quit"]
    status, text = _run_cli(["play", "--seed", "1", "--no-color"], lines)
    assert status == 0
    assert text.count("Not understood") == 2
    assert text.count("Not allowed") == 2


DEFECT_CLI: dict[str, tuple[list[str], list[str]]] = {
    # cli.py load_file: json.loads catches ValueError only, not RecursionError.
    "deeply nested json": (["show", "{}/deep.json"], []),
    # notation.py _parse_names, through load_file.
    "deeply nested names": (["show", "{}/deep_names.txt"], []),
    # notation.py _Reader.number, through load_file.
    "superscript in a record": (["show", "{}/superscript.txt"], []),
    # bots.py load_bot: import_module("..x") raises TypeError.
    "relative bot module": (["--bots", "..x:y"], []),
    "relative bot module in simulate": (["simulate", "-n", "1", "--bots", "..x:y"], []),
    # bots.py load_bot: a class that needs arguments.
    "bot class with arguments": (["--bots", "splendor.core.state:GameState"], []),
    # play_game calls a callable that is not a bot: TypeError from the call.
    "bot that is no bot": (["--bots", "os:getcwd"], []),
    # cli.py _ask -> parse_action: ValueError from int("\u00b2").
    "superscript at the prompt": (["play", "--seed", "1"], ["r\u00b21", "quit"]),
    # cli.py run_replay: answer.isdigit() then int(answer).
    "superscript when stepping": (["replay", "{}/record.json", "--step"], ["\u00b2", "q"]),
    "5000 digits when stepping": (["replay", "{}/record.json", "--step"], ["9" * 5000, "q"]),
}


@pytest.mark.parametrize("case", list(DEFECT_CLI.values()), ids=list(DEFECT_CLI))
def test_cli_input_that_once_ended_in_a_traceback_is_handled(
    case: tuple[list[str], list[str]], files: Path
) -> None:
    argv, lines = case
    status, _ = _run_cli([arg.replace("{}", str(files)) for arg in argv], lines)
    assert status in (0, 2)


# ---------------------------------------------------------------------------
# Fuzzing.

_NOTATION = "+-=#rbpdnRBGWKY*YwgkyRrBbd0123456789 ;:\t\n"


def _not_a_foreign_digit(char: str) -> bool:
    # Digits that int() refuses are pinned by the defect tests above.
    return not (char.isdigit() and not char.isdecimal())


_TEXT = st.text(
    st.one_of(st.sampled_from(_NOTATION), st.characters().filter(_not_a_foreign_digit)),
    max_size=30,
)
_STATES = [
    new_game(2, seed=1),
    play_game([GreedyBot(), GreedyBot()], seed=2, max_turns=40).final_state(),
    play_game([RandomBot()] * 3, seed=4, max_turns=60).final_state(),
]


@given(text=_TEXT, index=st.sampled_from(range(len(_STATES))))
def test_fuzz_parse_action(text: str, index: int) -> None:
    state = _STATES[index]
    before = to_json(state)
    try:
        action = parse_action(text, state)
    except SplendorError as error:
        _has_message(error)
    else:
        assert action in legal_actions(state) or apply(state, action).turn == state.turn + 1
    assert to_json(state) == before


_RECORD_LINES = st.sampled_from(
    [
        "players: 2",
        "players: 3",
        "seed: 1",
        "seed: -7",
        "rules: standard",
        "rules: token_limit=3",
        'names: ["a", "b"]',
        "result: 0",
        "",
        "; comment",
    ]
)


@given(lines=st.lists(st.one_of(_RECORD_LINES, _TEXT), max_size=8))
def test_fuzz_parse_record(lines: list[str]) -> None:
    try:
        record = parse_record("\n".join(lines))
    except SplendorError as error:
        _has_message(error)
    else:
        assert record.final_state().turn == len(record.actions)


_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=95),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    st.sampled_from(["red", "gold", "take", "pass", "buy", "reserve_deck", "format"]),
)
_JSON = st.recursive(
    _LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)

_RECORD = play_game([RandomBot()] * 2, seed=6, max_turns=12)
_DOCUMENTS: list[tuple[type[object], object]] = [
    (GameState, json.loads(to_json(_STATES[2]))),
    (GameRecord, json.loads(to_json(_RECORD))),
    (PlayerView, json.loads(to_json(view(_STATES[1], 1)))),
    (Rules, json.loads(to_json(Rules()))),
    (Buy, json.loads(to_json(Buy(CARDS[3], Tokens(red=1), NOBLES[0])))),
    (Take, json.loads(to_json(Take(THREE, Tokens(blue=1))))),
    (ReserveFromDeck, json.loads(to_json(ReserveFromDeck(2, Tokens(gold=1))))),
]


def _replace_somewhere(document: object, path: list[int], leaf: object) -> object:
    """``document`` with the value found by following ``path`` replaced by ``leaf``."""
    if not path:
        return leaf
    step, rest = path[0], path[1:]
    if isinstance(document, dict) and document:
        keys = sorted(document)
        key = keys[step % len(keys)]
        changed = dict(document)
        if step % 7 == 6:
            del changed[key]
            return changed
        changed[key] = _replace_somewhere(document[key], rest, leaf)
        return changed
    if isinstance(document, list) and document:
        items = list(document)
        items[step % len(items)] = _replace_somewhere(items[step % len(items)], rest, leaf)
        return items
    return leaf


@given(
    index=st.sampled_from(range(len(_DOCUMENTS))),
    path=st.lists(st.integers(min_value=0, max_value=50), max_size=6),
    leaf=_JSON,
)
def test_fuzz_from_json_of_a_changed_document(index: int, path: list[int], leaf: object) -> None:
    cls, document = _DOCUMENTS[index]
    text = json.dumps(_replace_somewhere(document, path, leaf))
    try:
        value = from_json(text, cls)
    except SplendorError as error:
        _has_message(error)
    else:
        assert from_json(to_json(value), cls) == value
        if isinstance(value, GameState):
            check_state(value)


@given(document=_JSON, index=st.sampled_from(range(len(_DOCUMENTS))))
def test_fuzz_from_json_of_any_document(document: object, index: int) -> None:
    cls = _DOCUMENTS[index][0]
    try:
        from_json(json.dumps(document), cls)
    except SplendorError as error:
        _has_message(error)


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


@given(action=_ACTIONS, index=st.sampled_from(range(len(_STATES))))
def test_fuzz_apply_of_a_hand_made_action(action: object, index: int) -> None:
    state = _STATES[index]
    before = to_json(state)
    try:
        after = apply(state, action)  # type: ignore[arg-type]  # anything on purpose
    except SplendorError as error:
        _has_message(error)
    else:
        check_state(after)
    assert to_json(state) == before


@given(values=st.lists(_ANY | st.integers(), min_size=6, max_size=6))
def test_fuzz_tokens_constructor(values: list[object]) -> None:
    try:
        tokens = Tokens(*values)  # type: ignore[arg-type]  # anything on purpose
    except SplendorError as error:
        _has_message(error)
    else:
        assert all(type(n) is int and n >= 0 for n in values)
        assert tokens.counts == tuple(values)
        assert Tokens.from_mapping(dict(zip(Gem, tokens.counts, strict=True))) == tokens
