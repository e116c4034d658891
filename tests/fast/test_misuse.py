"""A :class:`splendor.fast.Game` used wrongly gets the library's error, never a crash.

A state whose fields answer differently at every read, a game called again
while one of its methods runs (from another thread, a signal handler or a
garbage collector's callback), a game that ``Game.__new__`` alone made, and
counts beyond the documented bounds: each gets the library's error, or a
correct result, on the compiled kernel and on the pure fallback alike. The
cases that crashed the kernel run in a child process, so that a crash fails
the test rather than ending the run.
"""

from __future__ import annotations

import copy
import gc
import importlib
import pickle
import random
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pytest

from splendor import (
    Action,
    GameState,
    InvalidArgumentError,
    InvalidStateError,
    Rules,
    SplendorError,
    Tokens,
    apply,
    check_state,
    legal_actions,
    new_game,
)
from splendor.core.components import CARDS, NOBLES, Card
from splendor.errors import ConcurrentUseError
from tests.fast.conftest import implementation, run_in_threads

_ROOT = Path(__file__).resolve().parents[2]

# Nobody can reach 255 points with gems to spare: a game that never ends.
_ENDLESS = Rules(points_to_win=255, gems_by_players=(40, 40, 40))


def _module(name: str) -> ModuleType:
    """The module of an implementation, in a child process (no pytest skip there)."""
    return importlib.import_module(
        "splendor.fast._kernel" if name == "kernel" else "splendor.fast.reference"
    )


def _isolated(case: str, name: str) -> str:
    """Run ``case(name)``, a function of this module, in a child process; its output."""
    implementation(name)  # skipped (or an error) without the compiled kernel
    done = subprocess.run(
        [sys.executable, "-c", f"from tests.fast.test_misuse import {case}; {case}({name!r})"],
        cwd=_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"exit status {done.returncode}:\n{done.stderr[-4000:]}"
    return done.stdout


# -- A state whose fields change between reads ----------------------------------------

_DECKS = GameState.__dict__["decks"]  # the slot of GameState.decks


class Shifting(GameState):
    """A GameState whose ``decks`` answer ``swap`` at read number ``at`` (every
    other read when ``at`` is 0), and the real decks at the others."""

    @property
    def decks(self) -> Any:  # a property over the attrs field, on purpose
        seen = self.__dict__
        seen["reads"] += 1
        at = seen["at"]
        if seen["reads"] == at or (at == 0 and seen["reads"] % 2 == 0):
            return seen["swap"]
        return _DECKS.__get__(self)


def _shifting(state: GameState, swap: object, at: int) -> Shifting:
    shifty = object.__new__(Shifting)
    for field in attrs.fields(GameState):
        GameState.__dict__[field.name].__set__(shifty, getattr(state, field.name))
    shifty.__dict__.update(reads=0, at=at, swap=swap)
    return shifty


class ShiftingRules(Rules):
    """Rules whose ``token_limit`` is 10 at odd reads and 0 at even ones."""

    @property
    def token_limit(self) -> int:  # a property over the attrs field, on purpose
        seen = self.__dict__
        seen["reads"] += 1
        return 10 if seen["reads"] % 2 else 0


def _shifting_rules() -> ShiftingRules:
    rules = object.__new__(ShiftingRules)
    for field in attrs.fields(Rules):
        if field.name != "token_limit":
            Rules.__dict__[field.name].__set__(rules, getattr(Rules(), field.name))
    rules.__dict__["reads"] = 0
    return rules


def _played(players: int, seed: int, turns: int) -> GameState:
    """The state after ``turns`` random turns of a seeded game."""
    state = new_game(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(turns):
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def _loads_or_refuses(make: Callable[[], Any]) -> str:
    """``make()`` (a game or playouts): the library's error, or a result that works."""
    try:
        made = make()
    except (InvalidStateError, InvalidArgumentError):
        return "refused"
    if hasattr(made, "play_random"):
        # Under the published rules (a ShiftingRules answers as it likes).
        check_state(attrs.evolve(made.state(), rules=Rules()))
        made.play_random(1, max_turns=300)
        check_state(attrs.evolve(made.state(), rules=Rules()))
    return "loaded"


def shifting_fields(name: str) -> None:
    """Every kind of field that changes between reads, at every read: no crash."""
    fast = _module(name)
    state = _played(2, 4, 9)
    tier1 = tuple(card for card in CARDS if card.tier == 1)
    swaps: list[object] = [(tuple(CARDS),) * 3, (tier1 * 3,) * 3, (), [[]] * 3, None]
    found = set()
    for swap in swaps:
        for at in range(12):
            found.add(_loads_or_refuses(partial(fast.Game.from_state, _shifting(state, swap, at))))
            playouts = partial(fast.random_playouts, _shifting(state, swap, at), 2, seed=1)
            found.add(_loads_or_refuses(playouts))
    if name == "kernel":
        # Rules whose token limit changes between reads: the kernel reads them once
        # (the attrs engine reads them as it plays, and answers as they do).
        for _ in range(4):
            held = attrs.evolve(state, rules=_shifting_rules())
            found.add(_loads_or_refuses(partial(fast.Game.from_state, held)))
            found.add(_loads_or_refuses(partial(fast.random_playouts, held, 2, seed=1)))
    print(sorted(found))


@pytest.mark.parametrize("name", ["kernel", "pure"])
def test_a_state_whose_fields_change_between_reads_is_read_once(name: str) -> None:
    assert _isolated("shifting_fields", name).split() == ["['loaded',", "'refused']"]


def test_the_state_checked_is_the_state_played() -> None:
    state = new_game(2, seed=1)
    for name in ("kernel", "pure"):
        fast = implementation(name)
        # The decks are read once: the first read is all that counts.
        game = fast.Game.from_state(_shifting(state, (tuple(CARDS),) * 3, 2))
        assert game.state() == state
        assert type(game.state()) is GameState
        with pytest.raises(InvalidStateError, match="cards"):
            fast.Game.from_state(_shifting(state, (tuple(CARDS),) * 3, 1))


def _card_numbered(number: int) -> Card:
    """A copy of a card with another id (which no card has, past 90)."""
    fake = copy.copy(CARDS[0])
    object.__setattr__(fake, "id", number)
    return fake


def unchecked_states(name: str) -> None:
    """The kernel's load checks its bounds itself, even without check_state."""
    fast = _module(name)
    fast.check_state = lambda state: None  # type: ignore[attr-defined]  # as if unchecked
    state = _played(3, 2, 12)
    player = state.players[1]
    broken = [
        attrs.evolve(state, decks=(tuple(CARDS),) * 3),
        attrs.evolve(state, nobles=NOBLES * 2),
        attrs.evolve(state, current_player=7),
        attrs.evolve(state, winners=(9,)),
        attrs.evolve(state, players=state.players * 2),
        attrs.evolve(state, board=state.board[:2]),
        attrs.evolve(state, bank=Tokens(white=300)),
        attrs.evolve(state, decks=(state.decks[0] + (_card_numbered(200),), *state.decks[1:])),
        attrs.evolve(
            state,
            players=(
                state.players[0],
                attrs.evolve(player, tokens=Tokens(white=4, blue=4, green=3)),
                *state.players[2:],
            ),
        ),
        attrs.evolve(
            state,
            players=(
                state.players[0],
                attrs.evolve(player, reserved=(CARDS[0],), reserved_blind=()),
                *state.players[2:],
            ),
        ),
    ]
    for bad in broken:
        with pytest.raises(InvalidStateError, match="cannot hold this state"):
            fast.Game.from_state(bad)
        with pytest.raises(InvalidStateError, match="cannot hold this state"):
            fast.random_playouts(bad, 1, seed=0)
    print("refused")


def test_the_kernel_checks_the_bounds_of_what_it_loads() -> None:
    assert _isolated("unchecked_states", "kernel").strip() == "refused"


# -- A game called again while one of its methods runs ------------------------------


def _inside(game: Any) -> bool:
    """Whether a method of ``game`` runs: a call that changes nothing is refused."""
    try:
        game.greedy_choice(None)  # no generator: refused before anything is listed
    except ConcurrentUseError:
        return True
    except InvalidArgumentError:
        return False
    raise AssertionError("a bot drew without a generator")


def _every_call_refused(game: Any) -> list[str]:
    """Call every method that lists or plays; the outcome of each."""
    calls: list[Callable[[], object]] = [
        game.action_count,
        game.actions,
        lambda: game.action(0),
        lambda: game.play(0),
        lambda: game.play_random(1, max_turns=5),
        game.legal_codes,
        lambda: game.play_code(game.state().current_player),
        lambda: game.greedy_choice(random.Random(0)),
        lambda: game.mask_into(None),
    ]
    outcomes = []
    for call in calls:
        try:
            call()
        except ConcurrentUseError:
            outcomes.append("refused")
        else:
            outcomes.append("ran")
    return outcomes


def test_a_signal_handler_calling_the_game_during_play_random_is_refused(
    both: ModuleType,
) -> None:
    most = 2_000_000 if both.__name__.endswith("_kernel") else 3_000
    game = both.Game.new(2, seed=1, rules=_ENDLESS)
    outcomes: list[str] = []
    states: list[GameState] = []

    def meddle(signum: int, frame: object) -> None:
        if _inside(game):
            outcomes.extend(_every_call_refused(game))
            state = game.state()  # read between two turns: a whole state
            check_state(state)
            states.append(state)

    previous = signal.signal(signal.SIGALRM, meddle)
    signal.setitimer(signal.ITIMER_REAL, 0.002, 0.002)
    try:
        turns = game.play_random(7, max_turns=most)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert outcomes, "no signal came while play_random ran"
    assert set(outcomes) == {"refused"}
    # Nothing was played meanwhile: the game is the one played without signals.
    alone = both.Game.new(2, seed=1, rules=_ENDLESS)
    assert alone.play_random(7, max_turns=most) == turns == most
    assert game.state() == alone.state()
    assert all(0 <= state.turn <= most for state in states)


def test_a_garbage_collector_callback_calling_the_game_is_refused(both: ModuleType) -> None:
    game = both.Game.new(2, seed=3)
    outcomes: list[str] = []

    def meddle(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and _inside(game):
            outcomes.extend(_every_call_refused(game))

    threshold = gc.get_threshold()
    gc.collect()
    gc.set_threshold(1)  # a collection at (nearly) every allocation
    gc.callbacks.append(meddle)
    try:
        actions = game.actions()
        state = game.state()
    finally:
        gc.callbacks.remove(meddle)
        gc.set_threshold(*threshold)
    assert outcomes
    assert set(outcomes) == {"refused"}
    assert actions == legal_actions(new_game(2, seed=3))
    assert state == new_game(2, seed=3)


def test_two_threads_using_one_game_get_the_librarys_error_or_correct_results(
    both: ModuleType,
) -> None:
    game = both.Game.new(2, seed=5, rules=_ENDLESS)
    plays = 1_000 if both.__name__.endswith("_kernel") else 60
    history = [game.state()]  # every state of the game, appended by the player
    listed: set[tuple[Action, ...]] = set()  # every listing the readers were given
    problems: list[str] = []
    done = threading.Event()

    def player() -> None:
        rng = random.Random(1)
        try:
            while len(history) <= plays:
                try:
                    # Only this thread plays: the index stays in range.
                    game.play(rng.randrange(game.action_count()))
                except ConcurrentUseError:
                    continue
                history.append(game.state())
        except BaseException as error:  # reported below
            problems.append(f"player: {error!r}")
        finally:
            done.set()

    def reader() -> None:
        while not done.is_set():
            try:
                listed.add(game.actions())
                assert all(type(code) is int for code in game.legal_codes())
                check_state(game.state())
            except ConcurrentUseError:
                pass
            except BaseException as error:  # reported below
                problems.append(f"reader: {error!r}")
                return

    run_in_threads([player, reader, reader])
    assert problems == []
    # Every listing a reader got is the listing of a state the game was in.
    assert listed <= {legal_actions(state) for state in history}
    assert game.state() == history[-1]
    assert game.turn == plays


def test_a_generator_calling_the_game_it_draws_for_is_refused(both: ModuleType) -> None:
    game = both.Game.new(2, seed=1)

    class Meddling(random.Random):
        def choice(self, seq: Any) -> Any:
            game.action_count()
            return super().choice(seq)

    with pytest.raises(InvalidArgumentError, match="must not play on the game it draws for"):
        game.greedy_choice(Meddling(0))
    with pytest.raises(InvalidArgumentError, match="must not play on the game it draws for"):
        game._play_bots((True, True), (Meddling(0), Meddling(1)), 10)
    assert game.turn == 0
    assert game.action_count() == len(legal_actions(game.state()))


def test_a_game_is_free_again_after_a_method_failed(both: ModuleType) -> None:
    game = both.Game.new(2, seed=1)
    with pytest.raises(InvalidArgumentError):
        game.play(10**6)
    with pytest.raises(SplendorError):
        game.play_code(10**6)
    game.play(0)
    assert game.turn == 1


# -- A game that Game.__new__ alone made ----------------------------------------------


def _every_use(game: Any, fast: ModuleType) -> list[Callable[[], object]]:
    """Every method and property of ``game``, and ``random_playouts`` from it."""
    calls: list[Callable[[], object]] = [
        game.action_count,
        lambda: game.action(0),
        game.actions,
        lambda: game.play(0),
        lambda: game.play_random(1, max_turns=1),
        game.legal_codes,
        lambda: game.play_code(0),
        lambda: game.greedy_choice(random.Random(0)),
        lambda: game._play_bots((True, True), (random.Random(0),) * 2, 1),
        lambda: game.observation_into(None, 0),
        lambda: game.mask_into(None),
        game.state,
        game.copy,
        lambda: copy.copy(game),
        lambda: copy.deepcopy(game),
        lambda: pickle.dumps(game),
        lambda: fast.random_playouts(game, 1, seed=1),
    ]
    for name in ("rules", "current_player", "turn", "is_over", "winners", "points"):
        calls.append(partial(getattr, game, name))
    calls.append(partial(getattr, game, "pending_codes"))
    return calls


def test_a_game_never_made_refuses_every_method(both: ModuleType) -> None:
    for cls in (both.Game, implementation("fast").Game):
        if not issubclass(cls, both.Game):
            continue
        game = cls.__new__(cls)
        for call in _every_use(game, both):
            with pytest.raises(InvalidArgumentError, match="never made"):
                call()
        assert repr(game) == "Game(never made)"


# -- Counts beyond the bounds ---------------------------------------------------------


def too_many_playouts(name: str) -> None:
    fast = _module(name)
    game = fast.Game.new(2, seed=1)
    for games in (2**64, 2**63, 2**62 + 1):
        with pytest.raises(InvalidArgumentError, match=r"at most 2\*\*62"):
            fast.random_playouts(game, games, seed=1, max_turns=0)
    print(fast.random_playouts(game, 3, seed=1, max_turns=0).games)


@pytest.mark.parametrize("name", ["kernel", "pure"])
def test_random_playouts_refuses_more_than_2_to_the_62_games(name: str) -> None:
    # In a child process: beyond the bound, a fallback would play for ever.
    assert _isolated("too_many_playouts", name).strip() == "3"
