"""Players that choose their own actions: the :class:`Bot` protocol and two bots.

A bot is any callable that takes a seat's :class:`~splendor.core.views.PlayerView`,
the legal actions of that seat and a :class:`random.Random`, and returns one
of the actions. A plain function does; so does an object with a
``__call__`` method. A bot sees only the view, never the whole state: the
order of the decks and the other players' blind reserves stay hidden from it.

:func:`play_game` seats bots at a table, plays a whole seeded game and
returns its :class:`~splendor.formats.record.GameRecord`.

>>> import splendor
>>> record = splendor.play_game([splendor.GreedyBot(), splendor.RandomBot()], seed=1)
>>> record.result
(0,)
>>> record.final_state().players[0].points >= 15
True
"""

from __future__ import annotations

import importlib
import inspect
import os
import random
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Final, TypeVar, cast

from splendor.core.actions import Action
from splendor.core.legal import legal_actions
from splendor.core.messages import short_repr
from splendor.core.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from splendor.core.state import GameState
from splendor.core.views import PlayerView
from splendor.errors import InvalidArgumentError
from splendor.fast.heuristics import greedy_action
from splendor.formats.record import GameRecord
from splendor.players._level_table import LEVEL_PREFIX, LEVELS, level_spec
from splendor.players.ismcts import ISMCTSBot
from splendor.players.protocol import Bot, check_turn
from splendor.players.seats import ask_bot

if TYPE_CHECKING:
    from splendor.fast import Game

__all__ = [
    "BOTS",
    "BOT_KINDS",
    "DEFAULT_MAX_TURNS",
    "ENGINE_PREFIX",
    "Bot",
    "GreedyBot",
    "RandomBot",
    "bot_name",
    "bot_rngs",
    "kernel_plays",
    "load_bot",
    "parse_bot_spec",
    "play_final_state",
    "play_game",
]

#: The start of a bot spec naming an engine command (see :func:`load_bot`).
ENGINE_PREFIX: Final = "engine:"
#: The default bound on the number of turns :func:`play_game` plays.
DEFAULT_MAX_TURNS: Final = 1000
# play_game(seed=None) draws its seed below this bound.
_SEED_BOUND: Final = 10**9


class RandomBot:
    """A bot that plays a legal action chosen uniformly at random.

    >>> import random
    >>> from splendor import legal_actions, new_game, view
    >>> state = new_game(2, seed=1)
    >>> actions = legal_actions(state)
    >>> RandomBot()(view(state, 0), actions, random.Random(0)) in actions
    True
    """

    #: The name the command line knows this bot by.
    name: Final = "random"

    def __call__(
        self, view: PlayerView, actions: Sequence[Action], rng: random.Random, /
    ) -> Action:
        """Choose one of ``actions`` at random with ``rng``.

        Raises:
            InvalidArgumentError: when ``view`` is not a view, ``actions`` is
                not a non-empty sequence of actions or ``rng`` is not a
                :class:`random.Random`.
        """
        check_turn(view, actions, rng)
        return actions[rng.randrange(len(actions))]

    def __repr__(self) -> str:
        return "RandomBot()"


class GreedyBot:
    """A bot that buys what it can and otherwise works toward the cheapest card.

    The heuristic, one turn at a time, looking one move ahead only:

    1. **Buy** when any card is affordable. Of the affordable cards it buys
       the one worth most: points first (a noble received with it counts
       too), then how much its bonus colour brings it nearer to a revealed
       noble, then how many visible cards that colour makes cheaper. It pays
       with as little gold as it can.
    2. Otherwise it picks a **target**: of the face-up cards and its own
       reserved cards, the one that is cheapest to reach, counting the tokens
       still missing after its bonuses, tokens and gold. Points and noble
       colours make a card a little more attractive; ties are broken at
       random.
    3. It **takes** the gems that bring the target nearest (then the other
       cards, returning the least useful tokens when over the limit).
    4. If no take brings the target nearer (its colours have run out of the
       supply), it **reserves** the target when the target is face up and
       it may still reserve; the gold that comes with it helps pay. Failing
       that it plays the best take, any reserve, or passes.

    With no card left to aim at (face up, in a deck or reserved by it:
    possible only under rules that let a game outlast its cards), it plays
    the first legal action.

    It reads only its own view. Against :class:`RandomBot` in 2-player games
    it wins nearly every game (see the docs for the measured rate).

    Args:
        randomness: the probability, 0 to 1, that a turn is played as
            :class:`RandomBot` plays it (a legal action chosen uniformly with
            the bot's ``rng``) instead of by the heuristic: a weaker player
            for the lower levels of :mod:`splendor.players.levels`. At 0 (the
            default) the bot draws nothing for it, and plays exactly as
            before; ``greedy:randomness=0.5`` names it in a bot spec.

    Raises:
        InvalidArgumentError: for a ``randomness`` that is not a number from
            0 to 1.

    >>> import random
    >>> from splendor import legal_actions, new_game, view
    >>> state = new_game(2, seed=1)
    >>> action = GreedyBot()(view(state, 0), legal_actions(state), random.Random(0))
    >>> print(action)
    take 1W 1G 1K
    """

    #: The name the command line knows this bot by.
    name: Final = "greedy"

    def __init__(self, randomness: float = 0.0) -> None:
        if type(randomness) not in (int, float) or not 0 <= randomness <= 1:
            raise InvalidArgumentError(
                f"randomness must be a number from 0 to 1, got {short_repr(randomness)}"
            )
        #: The probability that a turn is played at random (see above).
        self.randomness: Final = float(randomness)

    def __call__(
        self, view: PlayerView, actions: Sequence[Action], rng: random.Random, /
    ) -> Action:
        """Choose an action by the heuristic above (or at random, see ``randomness``).

        Raises:
            InvalidArgumentError: for a spectator's view (it has no holdings),
                something that is not a view, ``actions`` that are not a
                non-empty sequence of actions, or an ``rng`` that is not a
                :class:`random.Random`.
        """
        check_turn(view, actions, rng)
        if (
            self.randomness
            and view.own is not None
            and len(actions) > 1
            and rng.random() < self.randomness
        ):
            return actions[rng.randrange(len(actions))]
        return greedy_action(view, actions, rng)

    def __repr__(self) -> str:
        return f"GreedyBot(randomness={self.randomness!r})" if self.randomness else "GreedyBot()"


_Seat = TypeVar("_Seat")


def check_table(bots: Iterable[_Seat]) -> tuple[_Seat, ...]:
    """The bots of a table, one per seat, read once; refused unless 2 to 4 of them."""
    if isinstance(bots, str) or not isinstance(bots, Iterable):
        raise InvalidArgumentError(
            f"bots must be a sequence of bots, one per seat, got {type(bots).__name__}"
        )
    table = tuple(bots)
    if not MIN_PLAYERS <= len(table) <= MAX_PLAYERS:
        raise InvalidArgumentError(
            f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} bots, one per seat, got {len(table)}"
        )
    return table


def table_names(bots: Sequence[Bot], names: Iterable[str] | None) -> tuple[str, ...]:
    """The names of a table's seats for its record: ``names``, or the bots' own names."""
    if names is None:
        return tuple(bot_name(bot) for bot in bots)
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise InvalidArgumentError(f"names must be a sequence of str, got {short_repr(names)}")
    names = tuple(names)
    if not all(isinstance(name, str) for name in names):
        raise InvalidArgumentError(f"names must be a sequence of str, got {short_repr(names)}")
    return names


def _search_bot(**options: object) -> Bot:
    """A :class:`~splendor.players.search.SearchBot` with ``options``.

    Its module, which loads the compiled kernel, is imported on first use.
    """
    from splendor.players.search import SearchBot

    # SearchBot checks its options itself, with the library's error.
    return cast(Callable[..., Bot], SearchBot)(**options)


_search_bot.__name__ = "SearchBot"

#: The built-in bots by the names the command line knows them by.
BOTS: Final[Mapping[str, Callable[..., Bot]]] = MappingProxyType(
    {"greedy": GreedyBot, "random": RandomBot, "ismcts": ISMCTSBot, "search": _search_bot}
)
#: Every kind of bot spec :func:`load_bot` reads, in words for messages and help texts.
BOT_KINDS: Final = (
    f"{', '.join(sorted(BOTS))}, level:N (1 to {len(LEVELS)}), engine:COMMAND or module:name"
)

_Options = dict[str, int | float | bool | str]


def parse_bot_spec(spec: str) -> tuple[str, _Options]:
    """Split a bot spec into the bot's name and its options.

    The options follow the last ``:`` as comma-separated ``key=value``
    pairs; values are read as ``int``, ``float``, ``true``/``false``
    (as ``bool``), or else kept as text.

    >>> parse_bot_spec("ismcts:iterations=200,seed=3")
    ('ismcts', {'iterations': 200, 'seed': 3})
    >>> parse_bot_spec("mybots.strong:Bot:depth=2,greedy=true")
    ('mybots.strong:Bot', {'depth': 2, 'greedy': True})
    >>> parse_bot_spec("mybots.strong:Bot")
    ('mybots.strong:Bot', {})

    Raises:
        InvalidArgumentError: for a spec that is not a non-empty str, or
            options that are not ``key=value`` pairs with distinct keys.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise InvalidArgumentError(f"a bot spec is a non-empty str, got {short_repr(spec)}")
    name, colon, tail = spec.rpartition(":")
    if not colon or "=" not in tail:
        return spec, {}
    if not name:
        raise InvalidArgumentError(f"bot spec {short_repr(spec)} has options but no bot name")
    options: _Options = {}
    for item in tail.split(","):
        key, equals, text = item.partition("=")
        key = key.strip()
        if not equals or not key.isidentifier():
            raise InvalidArgumentError(
                f"bot spec {short_repr(spec)}: {short_repr(item)} is not key=value"
            )
        if key in options:
            raise InvalidArgumentError(f"bot spec {short_repr(spec)} gives {short_repr(key)} twice")
        options[key] = _option_value(text.strip())
    return name, options


def _option_value(text: str) -> int | float | bool | str:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def load_bot(spec: str) -> Bot:
    """The bot a spec names: a built-in one or ``module:attribute``, with its options.

    This is the one reader of bot specs: :func:`splendor.arena.tournament.round_robin`,
    :func:`splendor.arena.selfplay.generate_records` and the command line's
    ``--bots`` all name bots this way.

    Args:
        spec: ``"random"``, ``"greedy"`` or ``"ismcts"`` (see :data:`~splendor.players.bots.BOTS`),
            or ``"package.module:name"`` for a third-party bot: a class (made
            with no arguments) or a function. The module is looked for on
            the Python path (``sys.path``) and then in the current directory, so
            ``"mybots:Hoarder"`` finds ``mybots.py`` where the command runs.
            Options may follow a further ``:`` as ``key=value`` pairs (see
            :func:`parse_bot_spec`); the bot's class is then made with them
            as keyword arguments: ``"ismcts:iterations=200,seed=3"``.
            ``"engine:COMMAND"`` starts a bot engine in another process
            and returns it as an :class:`~splendor.remote.host.Engine` (see
            :func:`~splendor.remote.host.open_engine`; the command is split as a
            shell would): ``"engine:./mybot --fast"``.
            ``"level:N"`` is the bot of level ``N`` of
            :mod:`splendor.players.levels` (``"level:5"``).

    Returns:
        The bot.

    Raises:
        InvalidArgumentError: for a ``spec`` that is not a non-empty str,
            an unknown name or level, a module that cannot be imported (or fails while
            being imported), an attribute that is not callable, a class that
            cannot be made with no arguments (or with the options given),
            malformed options, or a callable that cannot be called with the
            three arguments of a bot.
        EngineError: when an engine's process cannot be started or fails
            its handshake.

    >>> load_bot("greedy")
    GreedyBot()
    >>> load_bot("ismcts:iterations=50,seed=1")
    ISMCTSBot(iterations=50, seed=1)
    >>> load_bot("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    splendor.errors.InvalidArgumentError: unknown bot 'chess': use greedy, ... or module:name
    """
    if not isinstance(spec, str):
        raise InvalidArgumentError(f"a bot is named by a str, got {type(spec).__name__}")
    if spec in BOTS:
        return BOTS[spec]()
    if spec.startswith(ENGINE_PREFIX):
        from splendor.remote.host import open_engine

        return open_engine(spec[len(ENGINE_PREFIX) :])
    if spec.startswith(LEVEL_PREFIX):
        return load_bot(level_spec(spec))
    name, options = parse_bot_spec(spec)
    factory = _factory(name, spec)
    # A function named without options is the bot itself; a class is made.
    made = (
        factory if not options and not isinstance(factory, type) else _make(factory, spec, options)
    )
    if not _takes_three_arguments(cast(Callable[..., object], made)):
        raise InvalidArgumentError(
            f"{short_repr(spec)} is not a bot: it cannot be called with (view, actions, rng)"
        )
    return cast(Bot, made)


def _factory(name: str, spec: str) -> Callable[..., object]:
    """What ``name`` (a spec without its options) names: a built-in bot or an attribute."""
    if name in BOTS:
        return BOTS[name]
    module_name, colon, attribute = name.partition(":")
    if not colon or not module_name or not attribute:
        raise InvalidArgumentError(f"unknown bot {short_repr(name)}: use {BOT_KINDS}")
    if module_name.startswith("."):
        raise InvalidArgumentError(
            f"cannot import {short_repr(module_name)} for bot {short_repr(spec)}: "
            "give an absolute module name"
        )
    try:
        module = _import_here(module_name)
    except Exception as error:  # the module's own code may raise anything while importing
        raise InvalidArgumentError(
            f"cannot import {short_repr(module_name)} for bot {short_repr(spec)}: "
            f"{type(error).__name__}: {short_repr(error, 300, write=str)}"
        ) from error
    found = getattr(module, attribute, None)
    if found is None or not callable(found):
        raise InvalidArgumentError(f"{short_repr(name)} is not a callable bot")
    return cast(Callable[..., object], found)


def _make(factory: Callable[..., object], spec: str, options: _Options) -> object:
    """Call a bot's class (or another factory) with the spec's options; refuse what it raises."""
    try:
        made = factory(**options)
    except Exception as error:  # a third-party class's constructor may raise anything
        if options and isinstance(error, TypeError | ValueError):
            raise InvalidArgumentError(
                f"bad options for bot {short_repr(spec)}: {error}"
            ) from error
        called = getattr(factory, "__name__", type(factory).__name__)
        raise InvalidArgumentError(
            f"cannot make bot {short_repr(spec)}: {called}({'...' if options else ''}) raised "
            f"{type(error).__name__}: {error}"
        ) from error
    if not callable(made):
        raise InvalidArgumentError(
            f"{short_repr(spec)} is not a bot: a {type(made).__name__} instance is not callable"
        )
    return made


def _import_here(module_name: str) -> ModuleType:
    """Import a module from ``sys.path``, else from the current directory.

    The current directory is on :data:`sys.path` under ``python -m`` but not
    when a console script runs; it is added for this import only.
    """
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        here = os.getcwd()
        if error.name != module_name.partition(".")[0] or here in sys.path or "" in sys.path:
            raise
    sys.path.insert(0, here)
    try:
        return importlib.import_module(module_name)
    finally:
        sys.path.remove(here)


def _takes_three_arguments(function: Callable[..., object]) -> bool:
    """Whether ``function`` can be called with three positional arguments.

    A callable whose signature Python cannot tell (some built-ins) gets the
    benefit of the doubt.
    """
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return True
    try:
        signature.bind(None, None, None)
    except TypeError:
        return False
    return True


def bot_name(bot: object) -> str:
    """A short name for a bot: its ``name`` attribute, else its function or class name.

    >>> bot_name(GreedyBot()), bot_name(lambda view, actions, rng: actions[0])
    ('greedy', '<lambda>')
    """
    name = getattr(bot, "name", None)
    if isinstance(name, str) and name:
        return name
    name = getattr(bot, "__name__", None)
    if isinstance(name, str) and name:
        return name
    return type(bot).__name__


def bot_rngs(seed: int, players: int) -> list[random.Random]:
    """The random generators :func:`play_game` gives the bots of a game of ``seed``, one a seat.

    Every player of games (the referee, the compiled kernel, ``splendor
    play``) gives its bots these, so that a game of a seed is the same game
    whoever plays it.

    >>> [rng.random() == again.random() for rng, again in zip(bot_rngs(1, 2), bot_rngs(1, 2))]
    [True, True]
    """
    return [random.Random(f"splendor-bot:{seed}:{seat}") for seat in range(players)]


def play_game(
    bots: Sequence[Bot],
    *,
    seed: int | None = None,
    rules: Rules | None = None,
    names: Sequence[str] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> GameRecord:
    """Play a whole seeded game between bots, one per seat.

    Each turn the bot of the seat to move gets that seat's view, the legal
    actions and its own :class:`random.Random`, seeded from ``seed`` and the
    seat; so the same bots, seed and rules always play the same game. When
    :func:`kernel_plays` the table, the whole game is played inside the
    compiled kernel (:func:`splendor.fast.play_bots`), move for move the
    same game, many times faster; the record's
    :meth:`~splendor.formats.record.GameRecord.final_state` is then replayed
    on the engine the first time it is asked for.

    Args:
        bots: one bot per seat, 2 to 4 of them; seat 0 moves first.
        seed: the seed of the deal and of the bots' generators; ``None``
            draws a random one (0 to 999,999,999), kept in the record's
            ``seed`` so that the game can be played again.
        rules: the rules to play under; the published rules by default.
        names: a name per seat for the record; the bots' names by default.
        max_turns: a safety bound: after this many turns an unfinished game
            stops and its record is returned with ``result`` ``None``. Games
            where nobody ever buys (two bots that only take gems) never end
            by the rules.

    Returns:
        The game's record. ``record.result`` holds the winners, or ``None``
        when the game stopped at ``max_turns``.

    Raises:
        InvalidArgumentError: for ``bots`` or ``names`` that are not
            sequences, a wrong number of bots or names, a name that is not a
            str, a bad seed, rules or ``max_turns``.
        BotFailedError: when a bot fails: it raises, returns something other
            than an action, or plays an action the rules forbid (the error
            names the seat, the bot and the reason, as
            :func:`splendor.players.seats.ask_bot` decides for every host).

    >>> record = play_game([GreedyBot(), GreedyBot()], seed=7, names=["Ann", "Bo"])
    >>> record.names, record.result is not None
    (('Ann', 'Bo'), True)
    >>> again = play_game([GreedyBot(), GreedyBot()])
    >>> play_game([GreedyBot(), GreedyBot()], seed=again.seed) == again
    True
    """
    bots = _check_game(bots, max_turns)
    names = table_names(bots, names)
    if seed is None:
        seed = random.SystemRandom().randrange(_SEED_BOUND)
    rngs = bot_rngs(seed, len(bots))
    kinds = _seat_kinds(bots)
    if kinds is not None and _compiled():
        # The record's fields checked as GameRecord.start checks them, with no deal.
        start = GameRecord(len(bots), seed, Rules() if rules is None else rules, (), names)
        game, played = _kernel_game(start, kinds, rngs, max_turns)
        return _kernel_record(start, game, played)
    record = GameRecord.start(len(bots), seed=seed, rules=rules, names=names)
    for _ in range(max_turns):
        state = record.final_state()
        if state.is_over:
            break
        seat = state.current_player
        actions = legal_actions(state)
        answer = ask_bot(bots[seat], state, actions, rngs[seat], name=bot_name(bots[seat]))
        record = record.append(answer.action)
    return record


def kernel_plays(bots: object) -> bool:
    """Whether :func:`play_game` plays a table of ``bots`` inside the compiled kernel.

    True when the compiled kernel is in use (:data:`splendor.fast.COMPILED`)
    and ``bots`` is a sequence of 2 to 4 seats, each a plain
    :class:`RandomBot` or :class:`GreedyBot` instance (not a subclass,
    which may choose differently, nor a GreedyBot with some
    ``randomness``); False for anything else.

    >>> from splendor import ISMCTSBot, fast
    >>> kernel_plays([GreedyBot(), RandomBot()]) == fast.COMPILED
    True
    >>> kernel_plays([GreedyBot(), ISMCTSBot()])
    False
    """
    return _seat_kinds(bots) is not None and _compiled()


def _compiled() -> bool:
    from splendor import fast  # the kernel is loaded on first use

    return fast.COMPILED


def _seat_kinds(bots: object) -> tuple[str, ...] | None:
    """The kind of each seat as :func:`splendor.fast.play_bots` names it, or None."""
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        return None
    if not MIN_PLAYERS <= len(bots) <= MAX_PLAYERS:
        return None
    kinds = []
    for bot in bots:
        if type(bot) is GreedyBot and not bot.randomness:
            kinds.append("greedy")
        elif type(bot) is RandomBot:
            kinds.append("random")
        else:
            return None
    return tuple(kinds)


def play_final_state(
    bots: Sequence[Bot],
    *,
    seed: int,
    rules: Rules | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> GameState:
    """The last state of the game ``play_game(bots, seed=seed, rules=rules, max_turns=max_turns)``.

    When :func:`kernel_plays` the table, the game is played inside the
    compiled kernel and no record is made: the fastest way to a game's
    result. Otherwise it is the
    :meth:`~splendor.formats.record.GameRecord.final_state` of
    :func:`play_game`'s record.

    Raises:
        InvalidArgumentError: as :func:`play_game` does.
        BotFailedError: as :func:`play_game` does.

    >>> state = play_final_state([GreedyBot(), RandomBot()], seed=1)
    >>> state == play_game([GreedyBot(), RandomBot()], seed=1).final_state()
    True
    """
    table = _check_game(bots, max_turns)
    kinds = _seat_kinds(table)
    if kinds is None or not _compiled():
        return play_game(table, seed=seed, rules=rules, max_turns=max_turns).final_state()
    # The record's fields checked as play_game checks them.
    start = GameRecord(len(table), seed, Rules() if rules is None else rules)
    game, _ = _kernel_game(start, kinds, bot_rngs(seed, len(table)), max_turns)
    return game.state()


def _check_game(bots: Iterable[Bot], max_turns: object) -> tuple[Bot, ...]:
    """The table of a game, checked with its bound on turns."""
    table = check_table(bots)
    for bot in table:
        if not callable(bot):
            raise InvalidArgumentError(f"a bot must be callable, got {short_repr(bot)}")
    if type(max_turns) is not int or max_turns < 0:
        raise InvalidArgumentError(
            f"max_turns must be a non-negative int, got {short_repr(max_turns)}"
        )
    return table


def _kernel_game(
    start: GameRecord, kinds: tuple[str, ...], rngs: Sequence[random.Random], max_turns: int
) -> tuple[Game, tuple[int, ...]]:
    """The game from ``start`` played inside the kernel, seats of ``kinds``, and its moves."""
    from splendor.fast import play_bots

    return play_bots(kinds, rngs, seed=start.seed, rules=start.rules, max_turns=max_turns)


def _kernel_record(start: GameRecord, game: Game, played: Sequence[int]) -> GameRecord:
    """The record of the game from ``start`` that the kernel played as ``game``."""
    from splendor.fast import Game

    replay = Game.new(start.players, seed=start.seed, rules=start.rules)
    actions = []
    for index in played:
        actions.append(replay.action(index))
        replay.play(index)
    return GameRecord(
        players=start.players,
        seed=start.seed,
        rules=start.rules,
        actions=tuple(actions),
        names=start.names,
        result=game.winners or None,
    )
