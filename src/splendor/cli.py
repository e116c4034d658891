"""The ``splendor`` command line.

``splendor`` with no command plays and prints a seeded game between built-in
bots. The commands:

* ``splendor play``: play in the terminal against bots;
* ``splendor simulate``: run many seeded games between bots and compare them;
* ``splendor replay FILE``: step through a saved game;
* ``splendor show FILE``: show a saved game or state, or draw it as SVG.

Colour, tables and progress bars come from `rich`_ when it is installed
(``pip install "splendor-rules[cli]"``); without it the output is plain text.

.. _rich: https://rich.readthedocs.io
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final, Protocol, TextIO

import attrs

from splendor.actions import Action, Buy, Reserve, ReserveFromDeck, Take
from splendor.bots import BOTS, DEFAULT_MAX_TURNS, Bot, GreedyBot, bot_name, load_bot, play_game
from splendor.components import Card, Noble
from splendor.errors import IllegalActionError, SplendorError
from splendor.gems import GEMS, Gem, Tokens
from splendor.legal import legal_actions
from splendor.notation import (
    NotationError,
    format_action,
    format_record,
    parse_action,
    parse_record,
)
from splendor.record import GameRecord
from splendor.rules import MAX_PLAYERS, MIN_PLAYERS
from splendor.serialization import from_json, to_json
from splendor.state import GameState
from splendor.svg import _Table, _table_of, render_svg
from splendor.views import PlayerView, view

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["main"]

# A piece of output: plain text, or text with a rich style.
Segment = str | tuple[str, str]

_GEM_STYLE: Final[dict[Gem, str]] = {
    Gem.WHITE: "black on grey93",
    Gem.BLUE: "bold white on blue3",
    Gem.GREEN: "bold white on green4",
    Gem.RED: "bold white on red3",
    Gem.BLACK: "bold white on grey23",
    Gem.GOLD: "bold black on gold1",
}
_EXIT_INTERRUPTED: Final = 130
_EXIT_USAGE: Final = 2
_EXIT_FAILED: Final = 1
# The longest error message written (a message can quote a long value from a file).
_MAX_MESSAGE: Final = 1000
# A turn number typed while stepping through a replay: longer ones are past any record.
_MAX_TURN_DIGITS: Final = 9


class Output:
    """Where the command line writes: rich when available, else plain text.

    Args:
        file: the stream to write to; standard output by default.
        color: ``False`` for plain text even when rich is installed.
    """

    def __init__(self, file: TextIO | None = None, *, color: bool = True) -> None:
        self.file = file if file is not None else sys.stdout
        self.console: Console | None = None
        if color:
            try:
                from rich.console import Console
            except ImportError:
                pass
            else:
                self.console = Console(file=self.file, highlight=False, soft_wrap=True)

    @property
    def rich(self) -> bool:
        """Whether rich writes in colour (not when the output is a file or pipe)."""
        return self.console is not None and self.console.color_system is not None

    def line(self, *parts: Segment) -> None:
        """Write one line made of plain and styled pieces."""
        if self.console is None:
            print("".join(p if isinstance(p, str) else p[0] for p in parts), file=self.file)
            return
        from rich.text import Text

        self.console.print(Text.assemble(*parts))

    def table(self, title: str, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        """Write a table; numbers (the columns after the first) are right-aligned."""
        if self.console is not None:
            from rich.table import Table

            table = Table(title=title, title_justify="left")
            for i, name in enumerate(columns):
                table.add_column(name, justify="left" if i == 0 else "right")
            for row in rows:
                table.add_row(*row)
            self.console.print(table)
            return
        widths = [max(len(str(c)) for c in column) for column in zip(columns, *rows, strict=True)]
        print(title, file=self.file)

        def fmt(row: Sequence[str]) -> str:
            return "  ".join(
                cell.ljust(w) if i == 0 else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            )

        print(fmt(columns), file=self.file)
        print("  ".join("-" * w for w in widths), file=self.file)
        for row in rows:
            print(fmt(row), file=self.file)


# Text pictures of the table ---------------------------------------------------


def _chip(gem: Gem, count: int, out: Output) -> Segment:
    text = f"{count}{gem.letter}"
    return (f" {text} ", _GEM_STYLE[gem]) if out.rich else text


def _tokens(
    tokens: Tokens, out: Output, *, gems: Sequence[Gem] = GEMS, zeros: bool = True
) -> list[Segment]:
    parts: list[Segment] = []
    for gem in gems:
        if zeros or tokens[gem]:
            if parts:
                parts.append(" ")
            parts.append(_chip(gem, tokens[gem], out))
    return parts or ["-"]


def _card_line(place: str, card: Card, out: Output, *, blind: bool = False) -> list[Segment]:
    points = f"{card.points}pt" if card.points else "   "
    bonus: Segment = (
        (f" {card.bonus.letter} ", _GEM_STYLE[card.bonus]) if out.rich else f"[{card.bonus.letter}]"
    )
    parts: list[Segment] = [
        (f"{place:>4} ", "bold"),
        bonus,
        f" {points}  cost ",
        *_tokens(card.cost, out, gems=GEMS[:5], zeros=False),
        (f"   #{card.id}", "dim"),
    ]
    if blind:
        parts.append((" (reserved blind)", "dim"))
    return parts


def _noble_text(noble: Noble, out: Output) -> list[Segment]:
    return [
        (f"N{noble.id}", "bold"),
        f" {noble.points}pt for ",
        *_tokens(noble.requirement, out, gems=GEMS[:5], zeros=False),
    ]


def show_table(
    table: GameState | PlayerView,
    out: Output,
    *,
    seat: int | None = None,
    names: Sequence[str] | None = None,
) -> None:
    """Write the nobles, the cards, the supply and every player's holdings.

    Args:
        table: a state or a view.
        out: where to write.
        seat: for a state, draw from this seat's viewpoint (as :func:`~splendor.svg.render_svg`).
        names: a name per seat.
    """
    data = _table_of(table, seat)
    names = list(names) if names is not None else [s.name for s in data.seats]
    nobles: list[Segment] = ["Nobles  "]
    for i, noble in enumerate(data.nobles):
        if i:
            nobles.append("    ")
        nobles += _noble_text(noble, out)
    if not data.nobles:
        nobles.append("none left")
    out.line(*nobles)
    for tier in (3, 2, 1):
        size = data.deck_sizes[tier - 1]
        deck = f"{size} in the deck" + (f", blind reserve r{tier}d" if size else "")
        out.line((f"Tier {tier}", "bold underline"), ("  " + deck, "dim"))
        for slot, card in enumerate(data.board[tier - 1], 1):
            if card is None:
                out.line((f"{tier}{slot:<1}".rjust(4) + "  (empty)", "dim"))
            else:
                out.line(*_card_line(f"{tier}{slot}", card, out))
    out.line("Supply  ", *_tokens(data.bank, out))
    for index in range(len(data.seats)):
        _show_seat(data, index, names[index], out)


def _show_seat(data: _Table, index: int, name: str, out: Output) -> None:
    player = data.seats[index]
    marker = "  "
    if data.winners:
        if index in data.winners:
            marker = "* "
    elif index == data.current:
        marker = "> "
    you = " (you)" if data.viewer == index and name.lower() != "you" else ""
    head: list[Segment] = [
        (marker, "bold yellow"),
        (f"{name}{you}", "bold"),
        f"  {_plural(player.points, 'point')}, {_plural(player.cards, 'card')}, "
        f"{_plural(player.tokens.total, 'token')}",
    ]
    if player.nobles:
        head.append(", nobles " + " ".join(f"N{n.id}" for n in player.nobles))
    out.line(*head)
    out.line("    tokens   ", *_tokens(player.tokens, out))
    out.line("    bonuses  ", *_tokens(player.bonuses, out, gems=GEMS[:5]))
    for i, (item, blind) in enumerate(zip(player.reserved, player.blind, strict=True), 1):
        if isinstance(item, Card):
            out.line("    reserved", *_card_line(f"r{i}", item, out, blind=blind))
        else:
            out.line("    reserved", (f"  a tier {item} card, face down", "dim"))


# Loading and saving records --------------------------------------------------


class FileError(SplendorError):
    """A file given on the command line cannot be read or written."""


# Keys found only in a record's JSON, and only in a state's.
_RECORD_KEYS: Final = frozenset({"actions", "seed", "names", "result"})
_STATE_KEYS: Final = frozenset({"bank", "board", "decks", "current_player", "turn", "winners"})


_NEITHER: Final = 'is not a game record or a game state (a JSON document with "format": 1)'


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def load_file(path: str) -> GameRecord | GameState:
    """Read a record (JSON or the text format) or a state (JSON) from a file.

    Raises:
        FileError: when the file cannot be read or is not a record or state.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise FileError(f"cannot read {path}: {error}") from error
    try:
        if text.lstrip().startswith("[") and _is_json(text):
            raise FileError(f"{path} {_NEITHER}; it holds no JSON object")
        if text.lstrip().startswith("{"):
            try:
                data = json.loads(text)
            except RecursionError as error:
                raise FileError(f"{path} is not valid JSON: nested too deeply") from error
            except ValueError as error:
                raise FileError(f"{path} is not valid JSON: {error}") from error
            if isinstance(data, dict) and _RECORD_KEYS & data.keys():
                return from_json(text, GameRecord)
            if isinstance(data, dict) and _STATE_KEYS & data.keys():
                return from_json(text, GameState)
            if not isinstance(data, dict):
                raise FileError(f"{path} {_NEITHER}; it holds no JSON object")
            try:
                return from_json(text, GameState)
            except SplendorError as error:
                raise FileError(f"{path} {_NEITHER}; read as a state: {error}") from error
        return parse_record(text)
    except FileError:
        raise
    except SplendorError as error:
        raise FileError(f"cannot load {path}: {error}") from error
    except RecursionError as error:
        raise FileError(f"cannot load {path}: nested too deeply") from error
    except ValueError as error:
        # The loaders raise library errors only; this keeps a slip a one-line message.
        raise FileError(f"cannot load {path}: {error}") from error


def save_record(record: GameRecord, path: str) -> None:
    """Write a record to a file, as JSON for ``.json`` files, else as text.

    The file is replaced in one step (written aside, then renamed), so an
    interruption never leaves a half-written record.

    Raises:
        FileError: when the file cannot be written.
    """
    text = to_json(record, indent=1) + "\n" if path.endswith(".json") else format_record(record)
    target = Path(path)
    temporary = target.with_name(f".{target.name}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, target)
    except OSError as error:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise FileError(f"cannot write {path}: {error}") from error


# The demo game (no command) ---------------------------------------------------


def _describe(action: Action, before: GameState) -> str:
    return f"{format_action(action, before):<10} {action}"


def _turn_line(out: Output, before: GameState, action: Action, after: GameState, name: str) -> None:
    seat = before.current_player
    player = after.players[seat]
    out.line(
        (f"{before.turn + 1:4}. ", "dim"),
        (f"{name:<16}", "bold"),
        _describe(action, before),
        (f"  -> {player.points} pts", "cyan"),
    )


def _names_for(bots: Sequence[object], given: Sequence[str] | None) -> list[str]:
    if given:
        return list(given)
    return [f"P{seat} {bot_name(bot)}" for seat, bot in enumerate(bots)]


def _finish_lines(state: GameState, names: Sequence[str], out: Output) -> None:
    rows = [
        [
            ("* " if seat in state.winners else "  ") + names[seat],
            str(player.points),
            str(len(player.cards)),
            str(len(player.nobles)),
        ]
        for seat, player in enumerate(state.players)
    ]
    out.table(
        f"Final scores after {state.round} rounds", ["Player", "Points", "Cards", "Nobles"], rows
    )
    winners = " and ".join(names[s] for s in state.winners)
    verb = "share the win" if len(state.winners) > 1 else "wins"
    out.line((f"{winners} {verb}.", "bold green"))


def run_demo(args: argparse.Namespace, out: Output) -> int:
    """Play and print a seeded game between bots."""
    if args.players is not None:
        players = args.players
    else:
        players = len(args.bots) if len(args.bots) > 1 else 2
    bots = _bots_for(args.bots, players)
    names = _names_for(bots, None)
    record = play_game(bots, seed=args.seed, names=names, max_turns=args.max_turns)
    states = record.replay()
    out.line(
        (f"A {players}-player game of Splendor, seed {args.seed}: ", "bold"),
        ", ".join(names),
    )
    show_table(states[0], out, names=names)
    out.line()
    for before, action, after in zip(states, record.actions, states[1:], strict=False):
        _turn_line(out, before, action, after, names[before.current_player])
    final = states[-1]
    out.line()
    show_table(final, out, names=names)
    out.line()
    if record.result is None:
        out.line((f"The game stopped unfinished after {len(record.actions)} turns.", "bold red"))
        return 1
    _finish_lines(final, names, out)
    return 0


def _bots_for(specs: Sequence[str], players: int) -> list[Bot]:
    if len(specs) == 1:
        specs = list(specs) * players
    if len(specs) != players:
        raise _UsageError(f"give one bot, or one bot per seat ({players}), got {len(specs)}")
    return [_GuardedBot(spec) for spec in specs]


class _UsageError(SplendorError):
    """A command-line argument that does not make sense with the others."""


class BotError(SplendorError):
    """A bot given on the command line raised an exception while choosing its action."""


class _GuardedBot:
    """A bot loaded from its command-line name, whose exceptions become a :class:`BotError`.

    A third-party bot may raise anything; the command line reports it in one
    line naming the bot instead of ending in a traceback.
    """

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.bot = load_bot(spec)
        self.name = bot_name(self.bot)

    def __call__(
        self, view: PlayerView, actions: Sequence[Action], rng: random.Random, /
    ) -> Action:
        try:
            return self.bot(view, actions, rng)
        except Exception as error:  # the bot is the user's code: report whatever it raises
            raise BotError(f"bot {self.spec} raised {type(error).__name__}: {error}") from error


# splendor play ----------------------------------------------------------------

_HELP_TEXT: Final = """\
Type an action in the notation (case and spaces do not matter):
  +WBG      take white, blue and green      +RR     take 2 red
  +WBG-K    take, then return a black token (when over 10 tokens)
  r23       reserve tier 2, slot 3          r1d     reserve the top of the tier 1 deck
  b32       buy tier 3, slot 2              br1     buy your first reserved card
  b32=WWY   buy, paying 2 white and 1 gold  p       pass (only when nothing else is legal)
  ...n4     add n<id> to choose noble 4 when several could come
Letters: W white, B blue, G green, R red, K black, Y gold.
Slots count from the left, 1-4. Cards can also be named by id: b#17.
Words work too, for example:
  take 2 red                  take white, blue and green     + red blue green
  reserve tier 3 slot 1       reserve tier 3 (the deck, blind)
  buy tier 1 slot 2           buy reserved 1                 buy 3 2 = 2 white 1 gold
  take red blue green - black (return a token)               b21 noble 4
Colour names: white blue green red black gold, or the gems' names:
  diamond sapphire emerald ruby onyx, and joker for gold.
Commands: board, moves, hint, save FILE (then saved after every turn), help, quit."""


def _action_groups(
    actions: Sequence[Action], state: GameState | PlayerView
) -> list[tuple[str, list[str]]]:
    """The actions' notation by kind; a buy is shown once per card and noble.

    The other ways to pay for the same card (gold instead of coloured tokens)
    are counted rather than listed.
    """
    takes: list[str] = []
    reserves: list[str] = []
    buys: dict[tuple[Card, Noble | None], list[str]] = {}
    other: list[str] = []
    for action in actions:
        text = format_action(action, state)
        if isinstance(action, Take):
            takes.append(text)
        elif isinstance(action, Reserve | ReserveFromDeck):
            reserves.append(text)
        elif isinstance(action, Buy):
            buys.setdefault((action.card, action.noble), []).append(text)
        else:
            other.append(text)
    bought = [
        texts[0] + (f" (or {len(texts) - 1} other payments)" if len(texts) > 1 else "")
        for texts in buys.values()
    ]
    groups = [("Take", takes), ("Reserve", reserves), ("Buy", bought), ("Other", other)]
    return [(name, items) for name, items in groups if items]


def _show_moves(actions: Sequence[Action], seen: PlayerView, out: Output) -> None:
    for name, items in _action_groups(actions, seen):
        out.line((f"  {name:<8}", "bold"), "  ".join(items) if name == "Buy" else " ".join(items))
    if any(isinstance(a, Buy) and a.payment is not None and a.payment.counts[5] for a in actions):
        out.line(("  (to choose how to pay, add = and the tokens, e.g. b11=RRY)", "dim"))


class _Quit(Exception):
    """The player stopped: ``asked`` with quit, else by the end of the input."""

    def __init__(self, asked: bool) -> None:
        super().__init__()
        self.asked = asked


def _plural(count: int, noun: str) -> str:
    """``"1 card"``, ``"2 cards"``.

    >>> _plural(1, "card"), _plural(0, "point")
    ('1 card', '0 points')
    """
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _offer_to_save(out: Output, read: Callable[[str], str], save: _Save) -> None:
    """Ask for a file to keep the game in before quitting; an empty answer declines."""
    try:
        answer = read("Save the game before quitting? A file name, or Enter to quit: ").strip()
    except (EOFError, KeyboardInterrupt):
        out.line()
        return
    if answer:
        save(answer, quitting=True)


class _Save(Protocol):
    """Save the game to a file (``None``: the file saved to before)."""

    def __call__(self, path: str | None, *, quitting: bool = ...) -> None: ...


def _ask(
    seen: PlayerView,
    actions: Sequence[Action],
    out: Output,
    read: Callable[[str], str],
    save: _Save,
) -> Action:
    """Read the human player's action, asking again until it is a legal one."""
    while True:
        try:
            text = read("Your move: ").strip()
        except EOFError:
            raise _Quit(asked=False) from None
        command = text.lower()
        if not command:
            continue
        if command in ("q", "quit", "exit"):
            raise _Quit(asked=True)
        if command in ("?", "h", "help"):
            out.line(_HELP_TEXT)
            continue
        if command in ("board", "show"):
            show_table(seen, out)
            continue
        if command in ("moves", "actions", "list", "m"):
            _show_moves(actions, seen, out)
            continue
        if command == "hint":
            hint = GreedyBot()(seen, actions, random.Random(seen.turn))
            out.line(
                "The greedy bot would play ", (format_action(hint, seen), "bold"), f"  ({hint})"
            )
            continue
        if command == "save" or command.startswith("save "):
            save(text[len("save") :].strip() or None)
            continue
        try:
            action = parse_action(text, seen)
        except NotationError as error:
            out.line(("Not understood: ", "bold red"), str(error), ("  (type help)", "dim"))
            continue
        except IllegalActionError as error:
            out.line(("Not allowed: ", "bold red"), str(error))
            continue
        except (SplendorError, ValueError) as error:
            # parse_action raises the two errors above; anything else is still not understood.
            out.line(("Not understood: ", "bold red"), str(error), ("  (type help)", "dim"))
            continue
        return action


def run_play(args: argparse.Namespace, out: Output, read: Callable[[str], str]) -> int:
    """Play a game in the terminal: one human seat, bots at the others."""
    if args.resume:
        loaded = load_file(args.resume)
        if not isinstance(loaded, GameRecord):
            raise _UsageError(f"{args.resume} holds a state, not a game record: cannot resume it")
        record = loaded
        players = record.players
    else:
        players = args.players
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        record = GameRecord.start(players, seed=seed)
    if not 0 <= args.seat < players:
        raise _UsageError(f"--seat must be 0 to {players - 1}")
    others = _bots_for(args.bots, players - 1)
    bots: list[Bot | None] = [*others[: args.seat], None, *others[args.seat :]]
    if record.names is not None:
        names = list(record.names)
    else:
        names = [
            args.name if bot is None else f"P{seat} {bot_name(bot)}"
            for seat, bot in enumerate(bots)
        ]
        record = attrs.evolve(record, names=tuple(names))
    save_path: str | None = args.save or args.resume

    def save(path: str | None, *, quitting: bool = False) -> None:
        nonlocal save_path
        if path is None and save_path is None:
            out.line("Give a file to save to: save FILE (.json for JSON, else text).")
            return
        target = path if path is not None else save_path
        assert target is not None  # one of the two is given
        try:
            save_record(record, target)
        except FileError as error:
            out.line(("Not saved: ", "bold red"), str(error))
            return
        save_path = target
        again = "" if quitting else "; saved there again after every turn"
        out.line((f"Saved to {save_path}{again}.", "dim"))

    rngs = [random.Random(f"splendor-bot:{record.seed}:{seat}") for seat in range(players)]
    out.line(
        (f"A {players}-player game, seed {record.seed}. ", "bold"),
        f"You play seat {args.seat} as {names[args.seat]}"
        + (" and move first" if args.seat == 0 else "")
        + ". Type help for the notation, quit to stop.",
    )
    try:
        while True:
            state = record.final_state()
            if state.is_over:
                break
            seat = state.current_player
            actions = legal_actions(state)
            seen = view(state, seat)
            bot = bots[seat]
            if bot is None:
                out.line()
                show_table(view(state, args.seat), out, names=names)
                out.line((f"Turn {state.turn + 1}. Your legal moves:", "bold"))
                _show_moves(actions, seen, out)
                action = _ask(seen, actions, out, read, save)
            else:
                action = bot(seen, actions, rngs[seat])
            try:
                text = format_action(action, state)
                record = record.append(action)
            except SplendorError as error:
                if bot is None:
                    raise
                raise BotError(
                    f"the bot at seat {seat} ({bot_name(bot)}) played {action!r}: {error}"
                ) from error
            if bot is None:
                out.line(("You play ", "bold"), (text, "bold"), f": {action}")
            else:
                out.line((f"{names[seat]}", "bold"), f" plays {text}: {action}")
            if save_path is not None:
                save_record(record, save_path)
    except (_Quit, KeyboardInterrupt) as stop:
        out.line()
        if save_path is None and isinstance(stop, _Quit) and stop.asked and record.actions:
            _offer_to_save(out, read, save)
        turns = _plural(len(record.actions), "turn")
        if save_path is not None:
            save_record(record, save_path)
            out.line((f"Game stopped after {turns}; the game so far is in {save_path}.", "bold"))
            out.line(f"Go on with it: splendor play --resume {save_path}")
        else:
            out.line((f"Game stopped after {turns}, not saved.", "bold"))
            out.line(
                "To keep a game, type save FILE at the prompt before quitting, "
                "or start with splendor play --save FILE."
            )
        return 0
    final = record.final_state()
    out.line()
    show_table(final, out, names=names)
    _finish_lines(final, names, out)
    if save_path is not None:
        out.line((f"The game is saved in {save_path}.", "dim"))
    return 0


# splendor simulate ------------------------------------------------------------


@attrs.frozen
class GameOutcome:
    """What one simulated game gives the statistics.

    Attributes:
        index: the game's number, from 0.
        seed: the game's seed.
        entries: for each seat, the index of the bot (in the bots given) sitting there.
        winners: the winning seats; empty for an unfinished game.
        points: the points of each seat at the end.
        turns: the number of turns played.
    """

    index: int
    seed: int
    entries: tuple[int, ...]
    winners: tuple[int, ...]
    points: tuple[int, ...]
    turns: int


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a simulation with master ``seed``.

    >>> game_seed(0, 5), game_seed(1, 0)
    (5, 1000003)
    """
    return seed * 1_000_003 + index


def seating(index: int, entries: int, rotate: bool) -> tuple[int, ...]:
    """Which bot sits at each seat in game ``index``: rotated one seat per game.

    >>> seating(0, 3, True), seating(1, 3, True), seating(1, 3, False)
    ((0, 1, 2), (1, 2, 0), (0, 1, 2))
    """
    shift = index % entries if rotate else 0
    return tuple((seat + shift) % entries for seat in range(entries))


def simulate_one(job: tuple[tuple[str, ...], int, int, bool, int]) -> GameOutcome:
    """Play game ``index`` of a simulation (the unit of work of each worker)."""
    specs, seed, index, rotate, max_turns = job
    entries = seating(index, len(specs), rotate)
    bots: list[Bot] = [_GuardedBot(specs[e]) for e in entries]
    this_seed = game_seed(seed, index)
    record = play_game(bots, seed=this_seed, max_turns=max_turns)
    final = record.final_state()
    return GameOutcome(
        index=index,
        seed=this_seed,
        entries=entries,
        winners=record.result or (),
        points=tuple(p.points for p in final.players),
        turns=len(record.actions),
    )


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    >>> low, high = wilson(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


@attrs.frozen
class BotStats:
    """How one of the bots given to ``simulate`` did.

    Attributes:
        bot: the bot's name as given.
        wins: games won; a win shared by ``k`` players counts ``1/k``.
        win_rate: ``wins`` over the games played.
        ci95: the 95% Wilson score interval of the win rate.
        mean_points: its mean points at the end of a game.
    """

    bot: str
    wins: float
    win_rate: float
    ci95: tuple[float, float]
    mean_points: float


@attrs.frozen
class Summary:
    """The statistics of a simulation.

    Attributes:
        games: games played.
        finished: games that ended by the rules (the others hit ``max_turns``).
        players: players per game.
        bots: one :class:`BotStats` per bot given, in the order given.
        mean_turns: the mean number of turns of the finished games.
    """

    games: int
    finished: int
    players: int
    bots: tuple[BotStats, ...]
    mean_turns: float | None

    def as_json(self) -> dict[str, object]:
        """The statistics as JSON-ready values."""
        rounds = None if self.mean_turns is None else round(self.mean_turns / self.players, 4)
        return {
            "games": self.games,
            "finished": self.finished,
            "unfinished": self.games - self.finished,
            "players": self.players,
            "bots": [attrs.asdict(bot) for bot in self.bots],
            "mean_turns": self.mean_turns,
            "mean_rounds": rounds,
        }


def summarize(specs: Sequence[str], outcomes: Sequence[GameOutcome]) -> Summary:
    """The statistics of a simulation: per bot wins, win rate, its interval and points.

    A win shared by ``k`` players counts ``1/k`` to each.
    """
    count = len(outcomes)
    wins = [0.0] * len(specs)
    points = [0] * len(specs)
    seats_played = [0] * len(specs)
    for outcome in outcomes:
        for seat, entry in enumerate(outcome.entries):
            points[entry] += outcome.points[seat]
            seats_played[entry] += 1
            if seat in outcome.winners:
                wins[entry] += 1 / len(outcome.winners)
    bots = []
    for entry, spec in enumerate(specs):
        low, high = wilson(wins[entry], count)
        bots.append(
            BotStats(
                bot=spec,
                wins=round(wins[entry], 6),
                win_rate=round(wins[entry] / count, 6) if count else 0.0,
                ci95=(round(low, 6), round(high, 6)),
                mean_points=round(points[entry] / max(1, seats_played[entry]), 4),
            )
        )
    turns = [o.turns for o in outcomes if o.winners]
    return Summary(
        games=count,
        finished=len(turns),
        players=len(specs),
        bots=tuple(bots),
        mean_turns=round(sum(turns) / len(turns), 4) if turns else None,
    )


@contextlib.contextmanager
def _progress(total: int, enabled: bool) -> Iterator[Callable[[], None]]:
    """A progress bar on standard error; ``advance()`` after each game.

    Shown only when standard error is a terminal: a rich bar, or without rich
    a plain line every tenth of the games.
    """
    if not enabled:
        yield lambda: None
        return
    try:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
    except ImportError:
        if not sys.stderr.isatty():
            yield lambda: None
            return
        done = 0
        step = max(1, total // 10)

        def advance_plain() -> None:
            nonlocal done
            done += 1
            if done % step == 0 or done == total:
                print(f"  {done}/{total} games", file=sys.stderr, flush=True)

        yield advance_plain
        return
    console = Console(stderr=True)
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as bar:
        task = bar.add_task("games", total=total)
        yield lambda: bar.advance(task)


def run_simulate(args: argparse.Namespace, out: Output) -> int:
    """Run seeded games between bots and print the statistics."""
    if args.bots is None:
        players = args.players if args.players is not None else MIN_PLAYERS
        specs: tuple[str, ...] = ("greedy",) + ("random",) * (players - 1)
    else:
        specs = tuple(args.bots)
        players = args.players if args.players is not None else len(specs)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise _UsageError(f"give one bot, or one bot per seat ({players}), got {len(specs)}")
    for spec in specs:
        load_bot(spec)  # fail early on an unknown bot
    if args.games < 1:
        raise _UsageError("--games must be at least 1")
    workers = args.workers if args.workers > 0 else (os.cpu_count() or 1)
    workers = min(workers, args.games)
    jobs = [(specs, args.seed, i, not args.no_rotate, args.max_turns) for i in range(args.games)]
    outcomes: list[GameOutcome] = []
    started = time.perf_counter()
    interrupted = False
    show_bar = not args.quiet
    pool = None
    try:
        with _progress(len(jobs), show_bar) as advance:
            if workers == 1:
                for job in jobs:
                    outcomes.append(simulate_one(job))
                    advance()
            else:
                context = multiprocessing.get_context("spawn")
                pool = context.Pool(workers, initializer=_ignore_interrupts)
                chunk = max(1, min(10, len(jobs) // (workers * 4)))
                for outcome in pool.imap(simulate_one, jobs, chunksize=chunk):
                    outcomes.append(outcome)
                    advance()
                pool.close()
                pool.join()
    except KeyboardInterrupt:
        interrupted = True
        if pool is not None:
            pool.terminate()
            pool.join()
    except Exception:
        # A bot that raised in a worker: stop the other workers before reporting it.
        if pool is not None:
            pool.terminate()
            pool.join()
        raise
    elapsed = time.perf_counter() - started
    if not outcomes:
        out.line("Interrupted before any game finished.")
        return _EXIT_INTERRUPTED
    summary = summarize(specs, outcomes)
    title = f"{len(outcomes)} games, {players} players, seed {args.seed}"
    if interrupted:
        title += f" (interrupted: {len(outcomes)} of {args.games} played)"
    repeated = len(set(specs)) < len(specs)
    rows = [
        [
            f"{stats.bot} #{entry + 1}" if repeated else stats.bot,
            f"{stats.wins:g}",
            f"{100 * stats.win_rate:.1f}%",
            f"{100 * stats.ci95[0]:.1f}-{100 * stats.ci95[1]:.1f}%",
            f"{stats.mean_points:.2f}",
        ]
        for entry, stats in enumerate(summary.bots)
    ]
    out.table(title, ["Bot", "Wins", "Win rate", "95% CI", "Mean points"], rows)
    if summary.mean_turns is not None:
        out.line(
            f"Mean game length: {summary.mean_turns:.1f} turns "
            f"({summary.mean_turns / players:.1f} rounds)."
        )
    if summary.finished < summary.games:
        out.line(
            (
                f"{summary.games - summary.finished} game(s) stopped unfinished "
                f"at {args.max_turns} turns.",
                "yellow",
            )
        )
    plural = "s" if workers > 1 else ""
    out.line((f"{elapsed:.1f} s with {workers} worker{plural}.", "dim"))
    if args.json:
        document = {
            **summary.as_json(),
            "seed": args.seed,
            "rotate": not args.no_rotate,
            "max_turns": args.max_turns,
            "interrupted": interrupted,
        }
        try:
            Path(args.json).write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        except OSError as error:
            raise FileError(f"cannot write {args.json}: {error}") from error
        out.line((f"Results written to {args.json}.", "dim"))
    return _EXIT_INTERRUPTED if interrupted else 0


# splendor replay and show -----------------------------------------------------


def _record_names(record: GameRecord) -> list[str]:
    return list(record.names) if record.names else [f"Player {s}" for s in range(record.players)]


def run_replay(args: argparse.Namespace, out: Output, read: Callable[[str], str]) -> int:
    """Step through a saved game record."""
    loaded = load_file(args.file)
    if not isinstance(loaded, GameRecord):
        raise _UsageError(f"{args.file} holds a state, not a game record: use splendor show")
    record = loaded
    names = _record_names(record)
    states = record.replay()
    step = args.step if args.step is not None else sys.stdin.isatty()
    out.line((f"{record.players}-player game, seed {record.seed}: ", "bold"), ", ".join(names))
    show_table(states[0], out, names=names)
    if step:
        out.line(("Enter: next turn, b: board, a number: go to that turn, q: quit.", "dim"))
    index = 0
    try:
        while index < len(record.actions):
            before, action = states[index], record.actions[index]
            _turn_line(out, before, action, states[index + 1], names[before.current_player])
            index += 1
            if args.board:
                show_table(states[index], out, names=names)
            while step and index < len(record.actions):
                try:
                    answer = read("").strip().lower()
                except EOFError:
                    step = False
                    break
                if answer == "q":
                    return 0
                if answer == "b":
                    show_table(states[index], out, names=names)
                    continue
                if answer.isascii() and answer.isdigit():
                    digits = answer.lstrip("0")
                    # A number longer than any record is past the end: go to the end.
                    wanted = (
                        len(record.actions)
                        if len(digits) > _MAX_TURN_DIGITS
                        else min(int(digits or "0"), len(record.actions))
                    )
                    if wanted > index:
                        for i in range(index, wanted - 1):
                            _turn_line(
                                out,
                                states[i],
                                record.actions[i],
                                states[i + 1],
                                names[states[i].current_player],
                            )
                        index = wanted - 1
                    else:
                        index = wanted
                        show_table(states[index], out, names=names)
                        out.line((f"At turn {index}.", "dim"))
                        continue
                break
    except KeyboardInterrupt:
        out.line()
        return 0
    final = states[-1]
    out.line()
    show_table(final, out, names=names)
    if final.is_over:
        _finish_lines(final, names, out)
    else:
        out.line(f"The record stops after {len(record.actions)} turns, before the end of the game.")
    return 0


def run_show(args: argparse.Namespace, out: Output) -> int:
    """Show a saved record's final state (or a state) as text or SVG."""
    loaded = load_file(args.file)
    if isinstance(loaded, GameRecord):
        names: list[str] | None = _record_names(loaded)
        states = loaded.replay()
        turn = len(loaded.actions) if args.turn is None else args.turn
        if not 0 <= turn < len(states):
            raise _UsageError(f"--turn must be 0 to {len(states) - 1}")
        state = states[turn]
    else:
        names = None
        if args.turn is not None:
            raise _UsageError("--turn needs a game record, not a state")
        state = loaded
    if args.seat is not None and not 0 <= args.seat < len(state.players):
        raise _UsageError(f"--seat must be 0 to {len(state.players) - 1}")
    if args.svg:
        picture = render_svg(state, seat=args.seat, names=names)
        try:
            Path(args.svg).write_text(picture, encoding="utf-8")
        except OSError as error:
            raise FileError(f"cannot write {args.svg}: {error}") from error
        out.line(f"Picture written to {args.svg}.")
        return 0
    show_table(state, out, seat=args.seat, names=names)
    if state.is_over and names is not None:
        _finish_lines(state, names, out)
    return 0


# The parser and main ---------------------------------------------------------------


def _add_bot_options(
    parser: argparse.ArgumentParser, default: Sequence[str] | None, what: str, default_text: str
) -> None:
    parser.add_argument(
        "--bots",
        nargs="+",
        default=None if default is None else list(default),
        metavar="BOT",
        help=f"{what}: {', '.join(sorted(BOTS))} or module:name (default: {default_text})",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``splendor`` command."""
    parser = argparse.ArgumentParser(
        prog="splendor",
        description=(
            "Splendor in the terminal. With no command, play and print a seeded game "
            "between built-in bots."
        ),
    )
    parser.add_argument("--no-color", action="store_true", help="plain text, no colour")
    parser.add_argument(
        "--players",
        type=int,
        choices=range(MIN_PLAYERS, MAX_PLAYERS + 1),
        default=None,
        help="number of players (default: one per bot given, at least 2)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the game (default 1)")
    _add_bot_options(
        parser, ["greedy"], "the bots: one bot for all seats, or one per seat", "greedy"
    )
    parser.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS, help=argparse.SUPPRESS)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = commands.add_parser(
        "play",
        help="play against bots in the terminal",
        description="Play a game against bots; type help at the prompt for the notation.",
    )
    play.add_argument("--players", type=int, choices=range(MIN_PLAYERS, MAX_PLAYERS + 1), default=2)
    play.add_argument("--seat", type=int, default=0, help="your seat, 0 moves first (default 0)")
    play.add_argument("--seed", type=int, default=None, help="seed of the deal (default: random)")
    play.add_argument("--name", default="You", help="your name in the record")
    _add_bot_options(
        play,
        ["greedy"],
        "the other players: one bot for all other seats, or one per other seat",
        "greedy",
    )
    play.add_argument(
        "--save",
        metavar="FILE",
        help="save the game to FILE after every turn (.json for JSON, else text)",
    )
    play.add_argument(
        "--resume", metavar="FILE", help="go on with a game saved in FILE (saved back to it)"
    )

    simulate = commands.add_parser(
        "simulate",
        help="run many seeded games between bots",
        description="Play N seeded games between bots and print their win rates.",
    )
    simulate.add_argument(
        "-n", "--games", type=int, default=100, help="number of games (default 100)"
    )
    simulate.add_argument(
        "--players",
        type=int,
        choices=range(MIN_PLAYERS, MAX_PLAYERS + 1),
        default=None,
        help="number of players (default: one per bot given, else 2)",
    )
    _add_bot_options(
        simulate,
        None,
        "the bots: one bot for all seats, or one per seat",
        "greedy in seat 0 and random in the others",
    )
    simulate.add_argument(
        "--seed", type=int, default=0, help="master seed (default 0); game i uses seed*1000003+i"
    )
    simulate.add_argument(
        "--workers", type=int, default=1, help="processes to use; 0 for every core (default 1)"
    )
    simulate.add_argument("--json", metavar="FILE", help="write the results to FILE as JSON")
    simulate.add_argument(
        "--no-rotate",
        action="store_true",
        help="keep each bot in its seat (by default the seats rotate every game)",
    )
    simulate.add_argument(
        "--max-turns",
        type=int,
        default=DEFAULT_MAX_TURNS,
        help=f"stop a game unfinished after this many turns (default {DEFAULT_MAX_TURNS})",
    )
    simulate.add_argument("-q", "--quiet", action="store_true", help="no progress bar")

    replay = commands.add_parser(
        "replay",
        help="step through a saved game",
        description="Step through a saved game record, turn by turn.",
    )
    replay.add_argument("file", metavar="FILE", help="a game record (JSON or text)")
    step = replay.add_mutually_exclusive_group()
    step.add_argument(
        "--step",
        dest="step",
        action="store_true",
        default=None,
        help="wait for Enter after each turn (the default in a terminal)",
    )
    step.add_argument(
        "--no-step", dest="step", action="store_false", help="print every turn at once"
    )
    replay.add_argument("--board", action="store_true", help="show the board after every turn")

    show = commands.add_parser(
        "show",
        help="show a saved game or state",
        description="Show the final state of a saved game, or a saved state, as text or SVG.",
    )
    show.add_argument("file", metavar="FILE", help="a game record (JSON or text) or a state (JSON)")
    show.add_argument(
        "--turn", type=int, default=None, help="show the state after this many turns of a record"
    )
    show.add_argument(
        "--seat",
        type=int,
        default=None,
        help="draw from this seat's viewpoint (hides other seats' blind reserves)",
    )
    show.add_argument("--svg", metavar="OUT", help="write an SVG picture to OUT instead")
    for sub in (play, simulate, replay, show):
        sub.add_argument(
            "--no-color", action="store_true", default=argparse.SUPPRESS, help="plain text"
        )
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    stdout: TextIO | None = None,
    read: Callable[[str], str] | None = None,
) -> int:
    """Run the ``splendor`` command line.

    Args:
        argv: the arguments; ``sys.argv[1:]`` by default.
        stdout: where to write; standard output by default.
        read: how to read a line of input, given a prompt; :func:`input` by default.

    Returns:
        The exit status: 0 on success, 1 for an unfinished game or an
        unexpected error, 2 for a bad argument or file or a bot that raised
        an exception, 130 when interrupted. Every failure is reported in one
        line on standard error, never as a traceback.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    out = Output(stdout, color=not args.no_color)
    reader = read if read is not None else input
    try:
        if args.command == "play":
            return run_play(args, out, reader)
        if args.command == "simulate":
            return run_simulate(args, out)
        if args.command == "replay":
            return run_replay(args, out, reader)
        if args.command == "show":
            return run_show(args, out)
        return run_demo(args, out)
    except SplendorError as error:
        _report(str(error))
        return _EXIT_USAGE
    except KeyboardInterrupt:
        print("\nInterrupted.", file=sys.stderr)
        return _EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader of the output went away (splendor ... | head): stop quietly.
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 0
    except Exception as error:  # the last guard: a one-line message, never a traceback
        _report(f"unexpected error: {type(error).__name__}: {error}")
        return _EXIT_FAILED


def _report(message: str) -> None:
    """Write an error to standard error as one line of bounded length."""
    line = " ".join(message.split())
    if len(line) > _MAX_MESSAGE:
        line = line[: _MAX_MESSAGE - 3] + "..."
    print(f"splendor: {line}", file=sys.stderr)
