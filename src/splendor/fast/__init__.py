"""Games at C speed for playouts and search: :class:`Game` and :func:`random_playouts`.

:class:`Game` holds one game in a small flat C structure (the compiled kernel
``splendor.fast._kernel``, written in Cython) and plays it in place. It lists
exactly :func:`splendor.legal_actions` in the same order, and reaches exactly
the states :func:`splendor.apply` reaches; it converts from and to
:class:`~splendor.GameState` at the edges, so everything else in the library
keeps working on states. :func:`random_playouts` plays whole random games
inside the kernel, and :func:`bot_game` plays the games
:func:`splendor.play_game` plays between the built-in
:class:`~splendor.RandomBot` and :class:`~splendor.GreedyBot`, move for
move, inside it too.

When the kernel is not compiled (the package was built without a C
compiler, or with ``SPLENDOR_PURE=1`` in the build's environment), or when
``SPLENDOR_PURE=1`` is set in the environment when this module is first
imported, the same interface runs in pure Python on the attrs engine
(:mod:`splendor.fast.reference`), with the same results, only slower.
:data:`COMPILED` says which one is in use.

>>> from splendor.fast import Game
>>> game = Game.new(2, seed=1)
>>> game.moves(), str(game.action(0))
(30, 'take 1W 1B 1G')
>>> game.play(0)
>>> game.current_player, game.state().players[0].tokens
(1, Tokens(white=1, blue=1, green=1))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from splendor.core._messages import short_repr
from splendor.core.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from splendor.errors import InvalidArgumentError
from splendor.fast.game import COMPILED, STATE_SIZE, Game, random_playouts
from splendor.fast.reference import Playouts

if TYPE_CHECKING:
    from splendor.fast.vector import VectorEnv as VectorEnv
    from splendor.fast.vector import random_codes as random_codes
    from splendor.formats.record import GameRecord
    from splendor.players.bots import Bot

# Defined in splendor.fast.game (which implementation is in use) and
# re-exported here, their documented place. No global of this module is
# named like one of its submodules (game, reference, vector, observations):
# ``from splendor.fast import game`` would find the global first.
__all__ = [
    "COMPILED",
    "STATE_SIZE",
    "Game",
    "Playouts",
    "bot_game",
    "bot_game_can_play",
    "bot_record",
    "random_bot_game",
    "random_playouts",
]


def random_bot_game(
    players: int, *, seed: int, rules: Rules | None = None, max_turns: int = 1000
) -> tuple[Game, tuple[int, ...]]:
    """Play the game :func:`splendor.play_game` plays between :class:`~splendor.RandomBot` s.

    The same as :func:`bot_game` with a :class:`~splendor.RandomBot` in every
    seat: move for move the game ``play_game([RandomBot()] * players,
    seed=seed, rules=rules, max_turns=max_turns)`` plays. ``players`` is
    the number of players, 2 to 4; the other arguments, the result and the
    errors are those of :func:`bot_game`.

    >>> game, indices = random_bot_game(2, seed=3)
    >>> game.is_over, len(indices) == game.turn
    (True, True)
    """
    from splendor.players.bots import RandomBot

    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidArgumentError(f"players must be an int, got {players!r}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidArgumentError(
            f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}"
        )
    return bot_game([RandomBot()] * players, seed=seed, rules=rules, max_turns=max_turns)


def bot_game_can_play(bots: object) -> bool:
    """Whether :func:`bot_game` can play a table: every seat a built-in bot it knows.

    True for a sequence of 2 to 4 seats, each a plain
    :class:`~splendor.RandomBot` or :class:`~splendor.GreedyBot` instance
    (not a subclass, which may choose differently, nor a GreedyBot with some
    ``randomness``); False for anything else.

    >>> from splendor import GreedyBot, ISMCTSBot, RandomBot
    >>> bot_game_can_play([GreedyBot(), RandomBot()]), bot_game_can_play([GreedyBot(), ISMCTSBot()])
    (True, False)
    """
    from splendor.players.bots import GreedyBot, RandomBot

    if isinstance(bots, str) or not isinstance(bots, Sequence):
        return False
    return MIN_PLAYERS <= len(bots) <= MAX_PLAYERS and all(
        (type(bot) is GreedyBot and not bot.randomness) or type(bot) is RandomBot for bot in bots
    )


def bot_game(
    bots: Sequence[Bot], *, seed: int, rules: Rules | None = None, max_turns: int = 1000
) -> tuple[Game, tuple[int, ...]]:
    """Play the game :func:`splendor.play_game` plays between built-in bots, at kernel speed.

    Every seat is a :class:`~splendor.RandomBot` or a
    :class:`~splendor.GreedyBot` (see :func:`bot_game_can_play`). Each seat
    chooses as its bot does, drawing from the same per-seat
    :class:`random.Random` that :func:`~splendor.play_game` gives it, so the
    game is move for move the one ``play_game(bots, seed=seed, rules=rules,
    max_turns=max_turns)`` plays. With the compiled kernel the whole game is
    played in C: the moves are listed, a greedy seat weighs them (the same
    values, compared the same way, as :class:`~splendor.GreedyBot`) and the
    turn is played without making an action or a view; only the bots' draws
    on their generators call back into Python: a draw that is not an int in
    the range asked for (from a subclass of :class:`random.Random` that
    misbehaves) is refused with :class:`~splendor.errors.InvalidArgumentError`,
    and so is a generator that plays on the game. The loop checks for
    signals, so a game that never ends (under rules where nobody can win)
    can be interrupted. The pure fallback plays the bots themselves on the
    attrs engine. ``splendor simulate`` and
    :func:`splendor.arena.tournament.round_robin` play such tables this way when
    the kernel is compiled (see :func:`splendor.arena.tournament.play_result`).

    Args:
        bots: one bot per seat, 2 to 4 of them; seat 0 moves first.
        seed: the seed of the deal and of the bots' generators, from
            ``-(2**63 - 1)`` to ``2**63 - 1`` as for a game record.
        rules: the rules to play under; the published rules by default.
        max_turns: stop after this many turns (the game is then not over).

    Returns:
        The game at its end (or after ``max_turns`` turns) and the index of
        the action played each turn, among the legal actions of its state.

    Raises:
        InvalidArgumentError: for ``bots`` that are not 2 to 4 built-in bots,
            or a bad seed, rules or ``max_turns``.

    >>> from splendor import GreedyBot, RandomBot, play_game
    >>> bots = [GreedyBot(), RandomBot(), GreedyBot()]
    >>> game, indices = bot_game(bots, seed=11)
    >>> game.state() == play_game(bots, seed=11).final_state()
    True
    >>> game.winners, len(indices) == game.turn
    ((0,), True)
    """
    from splendor.players.bots import GreedyBot, bot_rngs, check_table

    bots = check_table(bots)
    if not bot_game_can_play(bots):
        kinds = ", ".join(type(bot).__name__ for bot in bots)
        raise InvalidArgumentError(
            f"bot_game plays RandomBot and GreedyBot seats only, got {kinds}: "
            "play other bots with splendor.play_game"
        )
    if type(max_turns) is not int or max_turns < 0:
        raise InvalidArgumentError(f"max_turns must be a non-negative int, got {max_turns!r}")
    from splendor.formats.record import MAX_SEED

    if type(seed) is not int or not -MAX_SEED <= seed <= MAX_SEED:
        raise InvalidArgumentError(
            f"seed must be an int from -(2**63 - 1) to 2**63 - 1, got {short_repr(seed)}"
        )
    game = Game.new(len(bots), seed=seed, rules=rules)
    rngs = bot_rngs(seed, len(bots))
    played = game._play_bots([type(bot) is GreedyBot for bot in bots], rngs, max_turns)
    return game, played


def bot_record(
    bots: Sequence[Bot],
    *,
    seed: int,
    rules: Rules | None = None,
    names: Sequence[str] | None = None,
    max_turns: int = 1000,
) -> GameRecord:
    """The record :func:`splendor.play_game` returns, of a game played by :func:`bot_game`.

    Equal to ``play_game(bots, seed=seed, rules=rules, names=names,
    max_turns=max_turns)`` for a table of :class:`~splendor.RandomBot` and
    :class:`~splendor.GreedyBot` seats: the same actions, names and result.
    The actions are read off the kernel's game as it is replayed, so the
    record costs a fraction of the bots' time; its
    :meth:`~splendor.formats.record.GameRecord.final_state` is replayed on the engine
    the first time it is asked for.

    Args:
        bots: as for :func:`bot_game`.
        seed: the seed of the deal and of the bots' generators.
        rules: the rules to play under; the published rules by default.
        names: a name per seat; the bots' names by default.
        max_turns: stop after this many turns (the record's ``result`` is then ``None``).

    Raises:
        InvalidArgumentError: as :func:`bot_game` does, or for names that are
            not one str per seat.

    >>> from splendor import GreedyBot, RandomBot, play_game
    >>> bots = [RandomBot(), GreedyBot()]
    >>> record = bot_record(bots, seed=4)
    >>> record == play_game(bots, seed=4), record.names, record.result
    (True, ('random', 'greedy'), (1,))
    """
    from splendor.formats.record import GameRecord
    from splendor.players.bots import check_table, table_names

    bots = check_table(bots)  # an iterator is read once, here
    names = table_names(bots, names)
    game, played = bot_game(bots, seed=seed, rules=rules, max_turns=max_turns)
    replay = Game.new(len(bots), seed=seed, rules=rules)
    actions = []
    for index in played:
        actions.append(replay.action(index))
        replay.play(index)
    return GameRecord(
        players=len(bots),
        seed=seed,
        rules=game.rules,
        actions=tuple(actions),
        names=tuple(names),
        result=game.winners or None,
    )


def __getattr__(name: str) -> object:
    # VectorEnv and random_codes need numpy (the [rl] extra): loaded on first use.
    if name in ("VectorEnv", "random_codes"):
        from splendor.fast import vector

        return getattr(vector, name)
    raise AttributeError(f"module 'splendor.fast' has no attribute {name!r}")
