"""The built-in bots played by :mod:`splendor.fast`: move for move the games of ``play_game``.

The compiled kernel weighs a :class:`~splendor.GreedyBot` seat's moves in C;
these tests hold it (and the pure fallback) to the real bot: the same action
at every turn, the same final state, and the same calls on the bot's
generator, ties included.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import splendor
from splendor import (
    GameState,
    GreedyBot,
    IllegalActionError,
    InvalidArgumentError,
    ISMCTSBot,
    RandomBot,
    Rules,
    fast,
    legal_actions,
    view,
)
from splendor.arena.selfplay import generate_records
from splendor.arena.tournament import GameResult, play_result
from splendor.core.actions import Buy, Reserve, ReserveFromDeck, Take
from splendor.fast import bot_games
from splendor.formats.serialization import to_json
from splendor.players.bots import bot_rngs, kernel_plays
from tests.builders import (
    bonus_cards,
    card,
    deal,
    toks,
    with_player,
    with_row,
    with_turn,
)
from tests.fast.conftest import implementation
from tests.strategies import VARIANTS, game_states
from tools.bot_diff import SETTINGS, check_bot_game, on_the_engine, run, seats

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

_T = TypeVar("_T")


class Recording(random.Random):
    """A generator that notes every ``choice`` and ``randrange`` made on it."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.calls: list[tuple[str, tuple[object, ...]]] = []

    def choice(self, seq: SupportsLenAndGetItem[_T]) -> _T:
        self.calls.append(("choice", tuple(seq[i] for i in range(len(seq)))))
        return super().choice(seq)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        self.calls.append(("randrange", (start, stop, step)))
        return super().randrange(start, stop, step)


def bot_choice(state: GameState, rng: random.Random) -> int:
    """The index of the action the real GreedyBot plays at ``state``."""
    actions = legal_actions(state)
    return actions.index(GreedyBot()(view(state, state.current_player), actions, rng))


def same_choice(impl: ModuleType, state: GameState, seed: int) -> tuple[int, Recording]:
    """Check that ``impl``'s greedy_choice is the bot's, draws included.

    Returns:
        The index the bot chose and its generator, with the calls made on it.
    """
    expected, theirs = Recording(seed), Recording(seed)
    index = bot_choice(state, expected)
    assert impl.Game.from_state(state).greedy_choice(theirs) == index
    assert theirs.calls == expected.calls
    assert theirs.getstate() == expected.getstate()
    return index, expected


# -- Whole games ----------------------------------------------------------------------


@pytest.mark.parametrize(("players", "variant"), SETTINGS)
def test_the_kernel_plays_the_games_of_play_game(players: int, variant: str) -> None:
    new = implementation("kernel").Game.new
    for mix in range(1 << players):
        for seed in (mix, 100 + mix):
            # Every game to its end, and the same game cut short.
            turns = check_bot_game(new, players, VARIANTS[variant], seed, seats(players, mix))
            check_bot_game(new, players, VARIANTS[variant], seed, seats(players, mix), turns // 3)


def test_a_sample_of_the_differential_run() -> None:
    games, turns = run(implementation("kernel").Game.new, 120, first_seed=10_000)
    assert games == 120
    assert turns > 5000


def test_the_pure_fallback_plays_the_games_of_play_game() -> None:
    games, turns = run(implementation("pure").Game.new, 30, first_seed=20_000)
    assert games == 30
    assert turns > 1000


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    variant=st.sampled_from(tuple(VARIANTS)),
    seed=st.integers(0, 2**40),
    mix=st.integers(0, 15),
    max_turns=st.one_of(st.just(1000), st.integers(0, 200)),
)
def test_any_seeded_game(players: int, variant: str, seed: int, mix: int, max_turns: int) -> None:
    new = implementation("kernel").Game.new
    check_bot_game(
        new, players, VARIANTS[variant], seed, seats(players, mix % (1 << players)), max_turns
    )


# -- One choice at a time ---------------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=game_states(), seed=st.integers(0, 2**32))
def test_greedy_choice_is_the_bots_at_any_state(state: GameState, seed: int) -> None:
    if state.is_over:
        return
    for name in ("kernel", "pure"):
        same_choice(implementation(name), state, seed)


def test_every_tie_break_is_exercised_and_the_same() -> None:
    """Along greedy games, every kind of tie GreedyBot breaks with its generator
    comes up, and the kernel draws exactly as the bot does."""
    kernel = implementation("kernel")
    seen = {"target": 0, "buy": 0, "take": 0}
    for players in (2, 3, 4):
        for seed in range(12):
            state = splendor.new_game(players, seed=seed)
            turn = 0
            while not state.is_over and turn < 300:
                index, rng = same_choice(kernel, state, seed * 1000 + turn)
                action = legal_actions(state)[index]
                names = [name for name, _ in rng.calls]
                if names and names[0] == "choice" and len(rng.calls[0][1]) > 1:
                    seen["target"] += 1
                if "randrange" in names:
                    seen["buy" if isinstance(action, Buy) else "take"] += 1
                state = splendor.apply(state, action)
                turn += 1
    assert all(count >= 5 for count in seen.values()), seen


def _stuck_with_a_reserve() -> GameState:
    """Seat 0 holds a reserved card it needs one blue for, and cannot take a gem:
    seat 1 holds every gem of a scarce supply, and nothing is affordable."""
    rules = Rules(gems_by_players=(2, 3, 3), gold_by_players=(1, 1, 2))
    state = with_player(deal(2, seed=0, rules=rules), 1, tokens=toks("2W 2B 2G 2R 2K"))
    state = with_player(state, 0, reserved=[card(6)], cards=bonus_cards(toks("2B")))
    return with_turn(state, 0, turn=10)


def test_a_tie_among_the_targets_is_drawn_with_choice() -> None:
    state = splendor.new_game(2, seed=13)  # two tier-1 cards 3 tokens away
    targets = set()
    for seed in range(20):
        _, rng = same_choice(implementation("kernel"), state, seed)
        name, tied = rng.calls[0]
        assert name == "choice"
        assert len(tied) > 1
        targets.add(random.Random(seed).choice(tied))
    assert len(targets) > 1


def test_no_take_and_a_reserved_target_draws_a_reservation() -> None:
    state = _stuck_with_a_reserve()
    actions = legal_actions(state)
    assert not any(isinstance(a, Take | Buy) for a in actions)
    reserves = [a for a in actions if isinstance(a, Reserve | ReserveFromDeck)]
    assert len(reserves) > 1
    played = set()
    for seed in range(30):
        index, rng = same_choice(implementation("kernel"), state, seed)
        assert rng.calls[-1] == ("randrange", (len(reserves), None, 1))
        played.add(index)
    assert len(played) > 3  # the draw decides


def test_a_tie_between_cards_to_buy_is_drawn_with_randrange() -> None:
    # Two tier-1 cards costing 3 of one colour, no points, no nobles: the same value.
    three_white, three_blue = card(31), card(6)
    assert (three_white.cost, three_blue.cost) == (toks("3W"), toks("3B"))
    state = deal(2, seed=6, rules=Rules(nobles_by_players=(0, 0, 0)))
    row = [
        three_white,
        three_blue,
        *(c for c in state.board[0] if c not in (three_white, three_blue)),
    ]
    state = with_player(with_row(state, 1, row[:4]), 0, tokens=toks("3W 3B"))
    state = with_turn(state, 0, turn=4)
    buys = [a for a in legal_actions(state) if isinstance(a, Buy)]
    assert {a.card for a in buys} == {three_white, three_blue}
    bought = set()
    for seed in range(20):
        index, rng = same_choice(implementation("kernel"), state, seed)
        assert rng.calls == [("randrange", (2, None, 1))]
        bought.add(index)
    assert len(bought) == 2


# -- The drivers ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["kernel", "pure"])
def test_play_bots_of_each_implementation(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    impl = implementation(name)
    monkeypatch.setattr(bot_games, "Game", impl.Game)
    bots: list[splendor.Bot] = [GreedyBot(), RandomBot(), GreedyBot()]
    game, indices = fast.play_bots(
        ("greedy", "random", "greedy"),
        bot_rngs(8, 3),
        seed=8,
        rules=VARIANTS["token-limit-5"],
        max_turns=60,
    )
    record = splendor.play_game(
        on_the_engine(bots), seed=8, rules=VARIANTS["token-limit-5"], max_turns=60
    )
    assert game.state() == record.final_state()
    assert len(indices) == len(record.actions) == 60


def test_kernel_plays() -> None:
    if not fast.COMPILED:
        pytest.skip("the compiled kernel is not in use")

    class Greedier(GreedyBot):
        pass

    assert kernel_plays([GreedyBot(), RandomBot(), RandomBot()])
    assert not kernel_plays([GreedyBot(), Greedier()])
    # A greedy bot that sometimes plays at random is not the kernel's greedy bot.
    assert not kernel_plays([GreedyBot(randomness=0.5), RandomBot()])
    assert kernel_plays([GreedyBot(randomness=0), RandomBot()])
    assert not kernel_plays([RandomBot(), ISMCTSBot()])
    assert not kernel_plays([RandomBot(), lambda view, actions, rng: actions[0]])
    # Only sequences of 2 to 4 seats; anything else is False, not an error.
    assert not kernel_plays([])
    assert not kernel_plays([GreedyBot()])
    assert not kernel_plays([GreedyBot()] * 5)
    assert not kernel_plays(None)
    assert not kernel_plays(iter([GreedyBot(), RandomBot()]))  # left unread


def test_play_game_in_the_kernel_takes_the_bots_and_names_it_takes() -> None:
    bots: list[splendor.Bot] = [GreedyBot(), RandomBot()]
    # Iterators, as play_game reads them (its annotation asks for sequences).
    record = splendor.play_game(iter(bots), seed=3)  # type: ignore[arg-type]  # on purpose
    assert record.final_state() == splendor.play_game(on_the_engine(bots), seed=3).final_state()
    names = iter(["Ann", "Bo"])
    record = splendor.play_game(iter(bots), seed=3, names=names)  # type: ignore[arg-type]  # on purpose
    assert record == splendor.play_game(on_the_engine(bots), seed=3, names=["Ann", "Bo"])


@pytest.mark.parametrize("seed", [2**63, -(2**80)])
def test_play_bots_refuses_the_seeds_a_record_refuses(seed: int) -> None:
    bots: list[splendor.Bot] = [GreedyBot(), RandomBot()]
    with pytest.raises(InvalidArgumentError, match=r"seed must be an int from -\(2\*\*63 - 1\)"):
        fast.play_bots(("greedy", "random"), bot_rngs(0, 2), seed=seed)
    with pytest.raises(InvalidArgumentError):
        splendor.play_game(bots, seed=seed)
    largest = 2**63 - 1
    game, _ = fast.play_bots(("greedy", "random"), bot_rngs(largest, 2), seed=largest, max_turns=10)
    engine = splendor.play_game(on_the_engine(bots), seed=largest, max_turns=10)
    assert game.state() == engine.final_state()


def test_play_bots_names_the_kinds_of_seat_it_cannot_play() -> None:
    with pytest.raises(InvalidArgumentError) as raised:
        fast.play_bots(("greedier", "random"), bot_rngs(1, 2), seed=1)
    assert "a seat is one of random, greedy, got 'greedier'" in str(raised.value)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"seats": "greedy"},
        {"seats": ["greedy"]},
        {"seats": ["greedy"] * 5},
        {"seats": ["greedy", "ismcts"]},
        {"seats": None},
        {"rngs": [random.Random(0)]},
        {"rngs": [random.Random(0), 3]},
        {"seed": "1"},
        {"seed": True},
        {"max_turns": -1},
        {"max_turns": True},
        {"max_turns": None},
        {"rules": "standard"},
    ],
)
def test_play_bots_refuses_bad_arguments(kwargs: dict[str, object]) -> None:
    arguments: dict[str, object] = {
        "seats": ["greedy", "random"],
        "rngs": bot_rngs(1, 2),
        "seed": 1,
        **kwargs,
    }
    with pytest.raises(InvalidArgumentError):
        fast.play_bots(**arguments)  # type: ignore[arg-type]  # wrong on purpose


@pytest.mark.parametrize("name", ["kernel", "pure"])
def test_greedy_choice_refuses_bad_input(name: str) -> None:
    impl = implementation(name)
    game = impl.Game.new(2, seed=1)
    with pytest.raises(InvalidArgumentError, match=r"random\.Random"):
        game.greedy_choice(1)
    game.play_random(seed=1)
    with pytest.raises(IllegalActionError):
        game.greedy_choice(random.Random(0))
    rngs: Sequence[object]
    for greedy, rngs in (((True,), [random.Random(0)] * 2), ((True, False), [random.Random(0), 3])):
        with pytest.raises(InvalidArgumentError):
            impl.Game.new(2, seed=1)._play_bots(greedy, rngs, 10)


def test_with_no_card_left_to_aim_at_greedy_plays_the_first_legal_action() -> None:
    # Every card bought by seat 1 (in a game to 255 points): seat 0 has no
    # card to aim at, face up, in a deck or reserved.
    state = deal(2, seed=1, rules=Rules(points_to_win=255))
    state = with_player(state, 1, cards=splendor.CARDS, nobles=state.nobles)
    state = with_turn(state, 0, turn=400)
    actions = legal_actions(state)
    assert len(actions) > 1
    assert bot_choice(state, random.Random(0)) == 0
    for name in ("kernel", "pure"):
        game = implementation(name).Game.from_state(state)
        assert game.greedy_choice(random.Random(0)) == 0


class Wayward(random.Random):
    """A generator whose choice returns what it was not offered."""

    def choice(self, seq: SupportsLenAndGetItem[_T]) -> _T:
        return 10**6  # type: ignore[return-value]  # wrong on purpose


def test_a_generator_choosing_outside_the_candidates_is_refused() -> None:
    game = implementation("kernel").Game.new(2, seed=1)
    with pytest.raises(InvalidArgumentError, match="not one of the candidates"):
        game.greedy_choice(Wayward(0))
    assert game.turn == 0


class Drawing(random.Random):
    """A generator whose randrange returns ``value`` (or raises it)."""

    def __init__(self, seed: int, value: object) -> None:
        super().__init__(seed)
        self.value = value

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if isinstance(self.value, Exception):
            raise self.value
        return self.value  # type: ignore[return-value]  # wrong on purpose


@pytest.mark.parametrize("value", [-1, 99, 2**70, 0.0, "0", None])
def test_a_draw_outside_the_range_asked_for_is_refused_by_the_kernel(value: object) -> None:
    state = _stuck_with_a_reserve()  # GreedyBot draws one of its reservations
    game = implementation("kernel").Game.from_state(state)
    with pytest.raises(InvalidArgumentError, match=r"drew .* from randrange\(\d+\)"):
        game.greedy_choice(Drawing(0, value))
    assert game.state() == state
    # A random seat's draw too.
    game = implementation("kernel").Game.new(2, seed=1)
    with pytest.raises(InvalidArgumentError, match="from randrange"):
        game._play_bots((False, False), (Drawing(0, value), Drawing(0, value)), 10)


def test_the_generators_own_error_comes_through_and_an_index_type_is_accepted() -> None:
    state = _stuck_with_a_reserve()
    game = implementation("kernel").Game.from_state(state)
    with pytest.raises(ZeroDivisionError):
        game.greedy_choice(Drawing(0, ZeroDivisionError()))
    # An int subclass in range is the draw it stands for, as for the bot.
    assert game.greedy_choice(Drawing(0, True)) == bot_choice(state, Drawing(0, True))


class Meddling(random.Random):
    """A generator that plays on the game it draws for."""

    def __init__(self, seed: int, game: object) -> None:
        super().__init__(seed)
        self.game = game

    def choice(self, seq: SupportsLenAndGetItem[_T]) -> _T:
        game = self.game
        for _ in range(40):  # enough listings to make the game's buffer grow
            if game.is_over:  # type: ignore[attr-defined]
                break
            game.play(game.action_count() - 1)  # type: ignore[attr-defined]
        return super().choice(seq)


def test_a_generator_that_plays_on_the_game_is_refused() -> None:
    kernel = implementation("kernel")
    game = kernel.Game.new(2, seed=1)
    with pytest.raises(InvalidArgumentError, match="must not play on the game"):
        game.greedy_choice(Meddling(0, game))
    game = kernel.Game.new(2, seed=1)
    with pytest.raises(InvalidArgumentError, match="must not play on the game"):
        game._play_bots((True, True), (Meddling(0, game), Meddling(1, game)), 10)


def test_a_game_between_bots_that_never_ends_can_be_interrupted() -> None:
    import signal

    class Stop(Exception):
        pass

    def stop(signum: int, frame: object) -> None:
        raise Stop

    # Nobody can reach 255 points with gems to spare: the game never ends.
    rules = Rules(points_to_win=255, gems_by_players=(40, 40, 40))
    game = implementation("kernel").Game.new(2, seed=1, rules=rules)
    rngs = (random.Random(0), random.Random(1))
    most = 10**7
    previous = signal.signal(signal.SIGALRM, stop)
    # Again every 0.2 s: an alarm that lands where Python cannot raise (in a
    # garbage collector's callback) is reported and dropped.
    signal.setitimer(signal.ITIMER_REAL, 0.2, 0.2)
    try:
        with pytest.raises(Stop):
            game._play_bots((True, True), rngs, most)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    # Stopped in the middle of the loop, not after it had played every turn.
    assert 0 < game.turn < most
    assert not game.is_over


def test_play_result_plays_greedy_tables_in_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    if not fast.COMPILED:
        pytest.skip("the compiled kernel is not in use")
    calls: list[int] = []
    real = fast.play_bots

    def counted(
        seats: Sequence[str], rngs: Sequence[random.Random], *, seed: int, **options: object
    ) -> tuple[fast.Game, tuple[int, ...]]:
        calls.append(seed)
        return real(seats, rngs, seed=seed, **options)  # type: ignore[arg-type]  # passed on

    monkeypatch.setattr(fast, "play_bots", counted)
    tables: list[list[splendor.Bot]] = [
        [GreedyBot(), GreedyBot()],
        [RandomBot(), GreedyBot(), GreedyBot(), RandomBot()],
    ]

    def results() -> list[GameResult]:
        return [
            play_result(bots, index=i, seed=seed, entrants=tuple(range(len(bots))), max_turns=turns)
            for i, bots in enumerate(tables)
            for seed in (3, 4)
            for turns in (1000, 30)
        ]

    in_kernel = results()
    assert len(calls) == len(in_kernel)
    monkeypatch.setattr(fast, "COMPILED", False)
    in_engine = results()
    assert len(calls) == len(in_kernel)
    assert in_kernel == in_engine


@pytest.mark.parametrize("name", ["kernel", "pure"])
def test_the_kernels_record_is_the_record_of_the_engine(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not fast.COMPILED:
        pytest.skip("the compiled kernel is not in use")
    monkeypatch.setattr(fast, "Game", implementation(name).Game)
    monkeypatch.setattr(bot_games, "Game", implementation(name).Game)
    tables: list[list[splendor.Bot]] = [
        [GreedyBot(), RandomBot()],
        [RandomBot(), GreedyBot(), GreedyBot()],
        [GreedyBot(), GreedyBot(), RandomBot(), GreedyBot()],
    ]
    for bots in tables:
        for seed, rules, max_turns in (
            (1, None, 1000),
            (2, VARIANTS["points-10"], 1000),
            (3, None, 20),
        ):
            record = splendor.play_game(bots, seed=seed, rules=rules, max_turns=max_turns)
            expected = splendor.play_game(
                on_the_engine(bots), seed=seed, rules=rules, max_turns=max_turns
            )
            assert record == expected
            assert to_json(record) == to_json(expected)
            assert record.final_state() == expected.final_state()
    names = ("Ann", "Bo")
    record = splendor.play_game(tables[0], seed=5, names=names)
    assert record == splendor.play_game(on_the_engine(tables[0]), seed=5, names=names)
    for bad in ("Ann", ("Ann",), ("Ann", 2)):
        with pytest.raises(InvalidArgumentError):
            splendor.play_game(tables[0], seed=5, names=bad)  # type: ignore[arg-type]  # wrong on purpose


def test_self_play_records_greedy_tables_in_the_kernel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not fast.COMPILED:
        pytest.skip("the compiled kernel is not in use")
    calls: list[int] = []
    real = fast.play_bots

    def counted(
        seats: Sequence[str], rngs: Sequence[random.Random], *, seed: int, **options: object
    ) -> tuple[fast.Game, tuple[int, ...]]:
        calls.append(seed)
        return real(seats, rngs, seed=seed, **options)  # type: ignore[arg-type]  # passed on

    monkeypatch.setattr(fast, "play_bots", counted)
    generate_records(tmp_path / "kernel.jsonl", ["greedy", "random", "greedy"], games=6, seed=3)
    assert len(calls) == 6
    monkeypatch.setattr(fast, "COMPILED", False)
    generate_records(tmp_path / "engine.jsonl", ["greedy", "random", "greedy"], games=6, seed=3)
    assert len(calls) == 6
    kernel = (tmp_path / "kernel.jsonl").read_text(encoding="utf-8")
    assert kernel == (tmp_path / "engine.jsonl").read_text(encoding="utf-8")
    assert kernel.count("\n") == 6


class BrokenIndex:
    """An object whose ``__index__`` returns no int."""

    def __index__(self) -> int:
        return "0"  # type: ignore[return-value]  # noqa: PLE0305  # wrong on purpose


@pytest.mark.parametrize("name", ["kernel", "pure"])
def test_an_index_or_code_whose_index_is_broken_gets_the_librarys_error(name: str) -> None:
    from splendor.errors import EncodingError
    from splendor.formats.encoding import legal_codes

    game = implementation(name).Game.new(2, seed=1)
    with pytest.raises(InvalidArgumentError, match="must be an int"):
        game.play(BrokenIndex())
    with pytest.raises(EncodingError, match="not an int code"):
        game.play_code(BrokenIndex())
    assert game.turn == 0
    assert game.pending_codes == ()
    with pytest.raises(EncodingError, match=r"prefix\[0\] is not an int code"):
        legal_codes(game.state(), [BrokenIndex()])  # type: ignore[list-item]  # on purpose


def test_play_bots_without_a_seed_deals_from_a_fresh_one() -> None:
    games = [fast.play_bots(("greedy", "greedy"), bot_rngs(0, 2), max_turns=0)[0] for _ in range(2)]
    assert games[0].state() != games[1].state()
