"""splendor.testing: the check passes on the engine and the kernel, and fails on broken engines.

Each broken engine is the engine with one fault: an action dropped, the
actions reordered, a successor with a token too many, a game that never
ends, wrong winners, a copy that is not one, an exception. The check must
stop at the first state where the fault shows, with a message that says
where (seed, turn, the state as JSON) and what (both answers).
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable, Sequence

import attrs
import pytest

import splendor.fast
from splendor import (
    Action,
    Buy,
    GameState,
    IllegalActionError,
    InvalidArgumentError,
    Pass,
    Rules,
    SplendorError,
    Tokens,
    apply,
    from_json,
    legal_actions,
    new_game,
    play_game,
)
from splendor.fast import reference
from splendor.players.bots import RandomBot
from splendor.testing import (
    ConformanceError,
    ConformanceReport,
    Engine,
    EngineGame,
    Functions,
    Legal,
    Successor,
    check_engine,
    check_game,
    check_replay,
    state_difference,
)

# The engine and the kernel conform.


def test_the_engine_conforms_to_itself() -> None:
    report = check_engine((legal_actions, apply), games=3)
    assert report.games == 3
    assert report.states > 100
    assert report.successors > report.states * 10
    assert report.unfinished == 0
    assert check_engine(Functions(legal_actions, apply), games=3) == report


def test_the_kernel_conforms_as_it_is() -> None:
    engine: Engine = splendor.fast.Game  # the class is an Engine, no adapter
    report = check_engine(engine, games=3, players=(2, 3, 4), seed=40)
    assert report == check_engine((legal_actions, apply), games=3, seed=40)


@pytest.mark.parametrize("implementation", ["kernel", "pure"])
def test_both_implementations_of_the_kernel_conform(implementation: str) -> None:
    if implementation == "kernel":
        kernel = pytest.importorskip("splendor.fast._kernel")
        engine: Engine = kernel.Game
    else:
        engine = reference.Game
    report = check_engine(engine, games=2, seed=7, successors=4)
    assert report.games == 2
    assert report.successors <= 4 * report.states


def test_the_kernel_conforms_under_house_rules() -> None:
    rules = [Rules(token_limit=5), Rules.no_gold_variant(), Rules(points_to_win=5)]
    report = check_engine(splendor.fast.Game, games=6, players=(2, 4), rules=rules, successors=3)
    assert report.games == 6


# What is compared, and how much.


def _seen_rules() -> tuple[list[Rules], Functions]:
    seen: list[Rules] = []

    def legal(state: GameState) -> tuple[Action, ...]:
        if state.turn == 0:
            seen.append(state.rules)
        return legal_actions(state)

    return seen, Functions(legal, apply)


def test_games_cycle_through_the_player_counts_and_the_rules() -> None:
    seen, engine = _seen_rules()
    fast_game = Rules(points_to_win=3)
    check_engine(engine, games=4, players=(2, 3), rules=[Rules(), fast_game], successors=0)
    assert seen == [Rules(), Rules(), fast_game, fast_game]


def test_successors_are_all_of_them_a_sample_or_none() -> None:
    full = check_game((legal_actions, apply), 2, seed=5)
    sample = check_game((legal_actions, apply), 2, seed=5, successors=2)
    none = check_game((legal_actions, apply), 2, seed=5, successors=0)
    assert full.states == sample.states == none.states
    assert full.successors > sample.successors > none.successors == 0
    assert sample.successors <= 2 * sample.states


def test_a_game_stopped_by_max_turns_is_unfinished() -> None:
    report = check_engine((legal_actions, apply), games=2, max_turns=5)
    assert report == ConformanceReport(
        games=2, states=12, successors=report.successors, unfinished=2
    )


def test_reports_add_up() -> None:
    one = ConformanceReport(games=1, states=2, successors=3, unfinished=1)
    assert one + one == ConformanceReport(games=2, states=4, successors=6, unfinished=2)


def test_the_game_is_the_same_whatever_the_engine_lists() -> None:
    # The random moves are drawn from splendor's listing, so an engine listed
    # in another order (accepted with ordered=False) plays the same game.
    def backwards(state: GameState) -> tuple[Action, ...]:
        return legal_actions(state)[::-1]

    assert check_game((backwards, apply), 3, seed=9, ordered=False) == check_game(
        (legal_actions, apply), 3, seed=9
    )


def test_check_replay_follows_a_record() -> None:
    record = play_game([RandomBot(), RandomBot()], seed=12)
    report = check_replay(splendor.fast.Game, record.initial_state(), record.actions)
    assert report.states == len(record.actions) + 1
    assert report.unfinished == 0


def test_check_replay_plays_another_form_of_an_action_as_the_listed_one() -> None:
    def default_buyer(view: object, actions: Sequence[Action], rng: random.Random) -> Action:
        buys = [action for action in actions if isinstance(action, Buy)]
        return attrs.evolve(buys[0], payment=None) if buys else rng.choice(list(actions))

    record = play_game([default_buyer, default_buyer], seed=2, max_turns=60)
    unlisted = [
        action
        for turn, action in enumerate(record.actions)
        if action not in legal_actions(record.state_at(turn))
    ]
    assert unlisted, "the bots bought nothing"
    report = check_replay(splendor.fast.Game, record.initial_state(), record.actions)
    assert report.states == len(record.actions) + 1


def test_check_replay_of_one_position() -> None:
    state = new_game(2, seed=1)
    report = check_replay(splendor.fast.Game, state)
    assert report == ConformanceReport(games=1, states=1, successors=30, unfinished=1)


def test_check_replay_refuses_an_illegal_action() -> None:
    state = new_game(2, seed=1)
    with pytest.raises(IllegalActionError):
        check_replay(splendor.fast.Game, state, [Pass()])


# Broken engines fail, with a message that says where and what.


def _forgetful(state: GameState) -> tuple[Action, ...]:
    """The legal actions, the last one dropped once a player holds 3 tokens or more."""
    actions = legal_actions(state)
    if any(player.tokens.total >= 3 for player in state.players):
        return actions[:-1]
    return actions


def _reordered(state: GameState) -> tuple[Action, ...]:
    """The legal actions, the first two swapped from turn 4 on."""
    actions = legal_actions(state)
    if state.turn >= 4 and len(actions) > 1:
        return (actions[1], actions[0], *actions[2:])
    return actions


def _generous(state: GameState, action: Action) -> GameState:
    """The successor, with a white token more for the mover once the bank has one to spare."""
    after = apply(state, action)
    if state.turn < 6:
        return after
    seat = state.current_player
    player = after.players[seat]
    player = attrs.evolve(player, tokens=player.tokens + Tokens(white=1))
    return attrs.evolve(after, players=(*after.players[:seat], player, *after.players[seat + 1 :]))


def _fails(
    engine: Engine | tuple[Legal, Successor], successors: int | None = None
) -> ConformanceError:
    with pytest.raises(ConformanceError) as info:
        check_game(engine, 2, seed=3, successors=successors)
    error = info.value
    message = str(error)
    # Where: the seed, the turn and the state, which loads back from the message.
    assert error.seed == 3
    assert error.players == 2
    assert f"at turn {error.turn} of a 2-player game (seed 3)" in message
    assert "check_game(engine, 2, seed=3)" in message
    assert from_json(message.splitlines()[-1], GameState) == error.state
    assert error.state.turn == error.turn
    assert isinstance(error, SplendorError)
    assert isinstance(error, AssertionError)
    return error


def test_an_engine_that_drops_a_legal_action_fails() -> None:
    error = _fails((_forgetful, apply))
    missing = legal_actions(error.state)[-1]
    assert f"the engine lists {len(legal_actions(error.state)) - 1} legal actions" in str(error)
    assert f"missing from the engine's: [{missing}]" in str(error)
    assert error.expected == legal_actions(error.state)
    assert error.got == legal_actions(error.state)[:-1]
    # The first state where the fault shows: every earlier one had no tokens held.
    assert error.turn == _first_turn(lambda s: any(p.tokens.total >= 3 for p in s.players))


def test_an_engine_that_reorders_the_actions_fails_unless_order_is_free() -> None:
    error = _fails((_reordered, apply))
    assert error.turn == 4
    first, second = legal_actions(error.state)[:2]
    assert (
        f"the same actions in another order: at index 0 the engine lists {second}, splendor {first}"
    ) in str(error)
    listed = len(legal_actions(error.state))
    assert f"the engine lists splendor's {listed} legal actions in another order" in str(error)
    assert check_game((_reordered, apply), 2, seed=3, ordered=False).games == 1


def test_an_action_listed_twice_is_no_other_order() -> None:
    def repeating(state: GameState) -> tuple[Action, ...]:
        actions = legal_actions(state)
        return (actions[0], *actions[:-1]) if state.turn == 1 else actions

    with pytest.raises(ConformanceError) as info:
        check_game((repeating, apply), 2, seed=3, ordered=False)
    message = str(info.value)
    assert "legal actions, not all of them splendor's" in message
    assert f"listed more than once by the engine: [{legal_actions(info.value.state)[0]}]" in message
    assert "missing from the engine's: [" in message


def test_an_engine_that_gives_a_token_too_many_fails() -> None:
    error = _fails((legal_actions, _generous))
    assert error.turn == 6
    assert error.action is not None
    assert error.action in legal_actions(error.state)
    assert f"after {error.action}, the engine's state differs" in str(error)
    seat = error.state.current_player
    assert f"players[{seat}].tokens:" in str(error)
    assert isinstance(error.got, GameState)
    assert isinstance(error.expected, GameState)
    assert error.got.players[seat].tokens == error.expected.players[seat].tokens + Tokens(white=1)
    assert f"check_replay(engine, STATE, [{error.action}])" in str(error)


def test_an_engine_that_gives_a_token_too_many_fails_on_the_line_played_too() -> None:
    # Without successors the state the game goes on to is compared all the same.
    error = _fails((legal_actions, _generous), successors=0)
    assert error.turn == 6
    assert "tokens" in str(error)


@attrs.define
class Endless:
    """The kernel's game, except that it is never over."""

    game: splendor.fast.Game

    @property
    def is_over(self) -> bool:
        return False

    @property
    def winners(self) -> tuple[int, ...]:
        return ()

    def state(self) -> GameState:
        return self.game.state()

    def actions(self) -> tuple[Action, ...]:
        return self.game.actions() or (Pass(),)

    def play(self, index: int, /) -> None:
        self.game.play(index)

    def copy(self) -> EngineGame:
        return Endless(self.game.copy())


@attrs.frozen
class Wrapped:
    """An engine of games made by ``make`` around the kernel's."""

    make: Callable[[splendor.fast.Game], EngineGame]

    def from_state(self, state: GameState, /) -> EngineGame:
        return self.make(splendor.fast.Game.from_state(state))


def test_an_engine_that_never_ends_the_game_fails() -> None:
    error = _fails(Wrapped(Endless))
    assert error.state.is_over
    assert "the engine says the game goes on, splendor that it is over, won by" in str(error)
    assert error.expected is True
    assert error.got is False


def test_an_engine_whose_successors_never_end_the_game_fails() -> None:
    def endless(state: GameState, action: Action) -> GameState:
        return attrs.evolve(apply(state, action), winners=())

    error = _fails((legal_actions, endless))
    assert error.action is not None
    assert apply(error.state, error.action).is_over
    assert f"winners: () instead of {apply(error.state, error.action).winners}" in str(error)


class Winnerless(Endless):
    """The kernel's game, but nobody wins it."""

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    def actions(self) -> tuple[Action, ...]:
        return self.game.actions()

    def copy(self) -> EngineGame:
        return Winnerless(self.game.copy())


def test_an_engine_with_the_wrong_winners_fails() -> None:
    error = _fails(Wrapped(Winnerless))
    assert error.state.is_over
    assert f"the engine's winners are (), splendor's {error.state.winners}" in str(error)


class Shared(Winnerless):
    """The kernel's game, whose copy is the game itself."""

    @property
    def winners(self) -> tuple[int, ...]:
        return self.game.winners

    def copy(self) -> EngineGame:
        return self


def test_an_engine_whose_copies_are_not_copies_fails() -> None:
    error = _fails(Wrapped(Shared), successors=1)
    assert error.turn == 0
    assert "playing on a copy of the engine's game changed the game" in str(error)


def test_an_engine_that_raises_fails_with_the_cause() -> None:
    def crashing(state: GameState) -> Sequence[Action]:
        if state.turn == 2:
            raise ZeroDivisionError("division by zero")
        return legal_actions(state)

    error = _fails((crashing, apply))
    assert error.turn == 2
    assert "the engine raised ZeroDivisionError listing the legal actions" in str(error)
    assert isinstance(error.__cause__, ZeroDivisionError)


def test_an_engine_that_starts_at_another_state_fails() -> None:
    error = _fails(Wrapped(lambda game: Winnerless(splendor.fast.Game.new(2, seed=4))))
    assert error.turn == 0
    assert "the engine's state differs from the state it was given" in str(error)


def test_a_failure_of_check_replay_says_how_to_run_it_again() -> None:
    state = new_game(2, seed=3)
    line = legal_actions(state)[:1]
    with pytest.raises(ConformanceError) as info:
        check_replay((legal_actions, _always_generous), state, line, successors=0)
    error = info.value
    assert error.seed is None
    assert f"check_replay(engine, STATE, [{line[0]}])" in str(error)
    assert from_json(str(error).splitlines()[-1], GameState) == state


def _always_generous(state: GameState, action: Action) -> GameState:
    return _generous(attrs.evolve(state, turn=max(state.turn, 6)), action)


def _first_turn(condition: Callable[[GameState], bool]) -> int:
    """The first turn of the game of ``check_game(..., 2, seed=3)`` where ``condition`` holds."""
    state = new_game(2, seed=3)
    rng = random.Random(3)
    while not condition(state):
        actions = legal_actions(state)
        state = apply(state, actions[rng.randrange(len(actions))])
    return state.turn


# The differences, in words.


def test_state_difference_names_the_first_field_that_differs() -> None:
    state = new_game(3, seed=2)
    assert state_difference(state, state) is None
    later = apply(state, legal_actions(state)[0])
    assert state_difference(later, state) == (
        f"players[0].tokens: {later.players[0].tokens!r} instead of Tokens()"
    )
    fewer = attrs.evolve(state, nobles=state.nobles[:1])
    assert state_difference(fewer, state) == (
        f"nobles: {fewer.nobles!r} instead of {state.nobles!r} (length 1, not 4)"
    )
    other = attrs.evolve(state, rules=Rules(points_to_win=3))
    assert (
        state_difference(other, state)
        == f"rules: {Rules(points_to_win=3)!r} instead of {Rules()!r}"
    )


def test_state_difference_of_things_that_are_no_states() -> None:
    state = new_game(2, seed=2)
    assert state_difference(None, state) == f"the state: None instead of {state!r}"


# Arguments.


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"games": -1}, "games must be a non-negative int"),
        ({"players": (2, 5)}, "players must be a sequence of player counts"),
        ({"players": ()}, "players must be a sequence of player counts"),
        ({"successors": -1}, "successors must be a non-negative int or None"),
        ({"max_turns": 1.5}, "max_turns must be a non-negative int"),
        ({"rules": []}, "rules must not be an empty sequence"),
        ({"seed": "0"}, "seed must be an int"),
    ],
)
def test_bad_arguments_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        check_engine((legal_actions, apply), **options)  # type: ignore[arg-type]  # wrong on purpose


@pytest.mark.parametrize("engine", [42, (legal_actions,), legal_actions])
def test_what_is_no_engine_is_refused(engine: object) -> None:
    with pytest.raises(InvalidArgumentError, match="from_state"):
        check_engine(engine, games=1)  # type: ignore[arg-type]  # wrong on purpose


def test_importing_the_check_loads_no_kernel_and_no_numpy() -> None:
    code = (
        "import sys, splendor.testing; "
        "print(sorted(m for m in ('splendor.fast', 'numpy', 'cattrs') if m in sys.modules))"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    assert found.strip() == "[]"
