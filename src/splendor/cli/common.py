"""What several commands share: seating bots, naming seats, printing a turn."""

from __future__ import annotations

import argparse
import contextlib
import random
import traceback
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol, TypeAlias

from splendor.cli.errors import BotError, UsageError
from splendor.cli.output import Output
from splendor.core.actions import Action
from splendor.core.messages import short_repr
from splendor.core.rules import MAX_PLAYERS, MIN_PLAYERS
from splendor.core.state import GameState
from splendor.core.views import PlayerView
from splendor.core.wording import plural
from splendor.formats.notation import format_action
from splendor.formats.record import GameRecord
from splendor.players.bots import BOT_KINDS, Bot, bot_name, load_bot
from splendor.players.seats import BotFailedError

__all__ = [
    "BOT_KINDS",
    "GuardedBot",
    "Handler",
    "Subcommands",
    "add_bot_options",
    "add_players_option",
    "bot_failures_as_raised",
    "bots_for",
    "names_for",
    "record_names",
    "turn_line",
]


class GuardedBot:
    """A bot loaded from its command-line name; what it raises becomes a ``BotError``.

    A third-party bot may raise anything; the command line reports it in one
    line naming the bot, its seat, the turn and the game's seed instead of
    ending in a traceback (``--traceback`` shows the bot's own).

    Args:
        spec: the bot's spec on the command line (see :func:`~splendor.players.bots.load_bot`).
        seed: the seed of the game it plays, for the message.
    """

    def __init__(self, spec: str, seed: int | None = None) -> None:
        self.spec = spec
        self.seed = seed
        self.bot = load_bot(spec)
        self.name = bot_name(self.bot)

    def __call__(
        self, view: PlayerView, actions: Sequence[Action], rng: random.Random, /
    ) -> Action:
        try:
            return self.bot(view, actions, rng)
        except Exception as error:  # the bot is the user's code: report whatever it raises
            game = "" if self.seed is None else f" of the game with seed {self.seed}"
            raise BotError(
                f"bot {self.spec} (seat {view.seat}) raised {type(error).__name__}: "
                f"{short_repr(error, write=str)} "
                f"on turn {view.turn + 1}{game}",
                trace="".join(traceback.format_exception(error)),
            ) from error


def bots_for(specs: Sequence[str], players: int, seed: int | None = None) -> list[Bot]:
    """The bots named on the command line: one for every seat, or one per seat."""
    if len(specs) == 1:
        specs = list(specs) * players
    if len(specs) != players:
        raise UsageError(f"give one bot, or one bot per seat ({players}), got {len(specs)}")
    return [GuardedBot(spec, seed) for spec in specs]


def names_for(bots: Sequence[object], given: Sequence[str] | None) -> list[str]:
    """The seats' names: those given, else ``P0 greedy``, ``P1 random``..."""
    if given:
        return list(given)
    return [f"P{seat} {bot_name(bot)}" for seat, bot in enumerate(bots)]


def record_names(record: GameRecord) -> list[str]:
    """The names a record gives its seats, else ``Player 0``, ``Player 1``..."""
    return list(record.names) if record.names else [f"Player {s}" for s in range(record.players)]


def turn_line(out: Output, before: GameState, action: Action, after: GameState, name: str) -> None:
    """Write one turn: its number, the player, the action in notation and words, the points."""
    seat = before.current_player
    player = after.players[seat]
    out.line(
        (f"{before.turn + 1:4}. ", "dim"),
        (f"{name:<16}", "bold"),
        f"{format_action(action, before):<10} {action}",
        (f"  -> {plural(player.points, 'point')}", "cyan"),
    )


#: What ``argparse.ArgumentParser.add_subparsers`` returns, given to each
#: command module's ``add_parser``.
Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


class Handler(Protocol):
    """What runs a command: the parsed arguments, where to write, how to read a line.

    It returns the exit status. A :class:`~splendor.errors.SplendorError` it
    raises is reported by :func:`splendor.cli.main` in one line, with status 2.
    """

    def __call__(
        self, args: argparse.Namespace, out: Output, read: Callable[[str], str], /
    ) -> int: ...


def add_players_option(
    parser: argparse.ArgumentParser, default: int | None, default_text: str
) -> None:
    """Add ``--players``: how many play, 2 to 4."""
    parser.add_argument(
        "--players",
        type=int,
        choices=range(MIN_PLAYERS, MAX_PLAYERS + 1),
        default=default,
        metavar="N",
        help=f"number of players, {MIN_PLAYERS} to {MAX_PLAYERS} (default: {default_text})",
    )


def add_bot_options(
    parser: argparse.ArgumentParser, default: Sequence[str] | None, what: str, default_text: str
) -> None:
    """Add ``--bots``: bot specs, read by :func:`~splendor.players.bots.load_bot`."""
    parser.add_argument(
        "--bots",
        nargs="+",
        default=None if default is None else list(default),
        metavar="BOT",
        help=(
            f"{what}: {BOT_KINDS} (default: {default_text}); "
            "each may take options after a colon (ismcts:iterations=200,seed=3)"
        ),
    )


@contextlib.contextmanager
def bot_failures_as_raised() -> Iterator[None]:
    """Report a guarded bot's failure as the :class:`~splendor.cli.errors.BotError` it raised.

    :func:`splendor.play_game` turns whatever a bot raises into a
    :class:`~splendor.players.seats.BotFailedError`; when a
    :class:`GuardedBot` raised it, the command reports the guard's
    :class:`~splendor.cli.errors.BotError` (its seat, turn and seed, and the bot's own traceback),
    here or across a worker process.
    """
    try:
        yield
    except BotFailedError as error:
        if isinstance(error.__cause__, BotError):
            raise error.__cause__ from None
        raise
