"""``splendor play``: a game in the terminal, one human seat against bots."""

from __future__ import annotations

import argparse
import secrets
from collections import deque
from collections.abc import Callable, Sequence

import attrs

from splendor.cli.common import Subcommands, add_bot_options, add_players_option, bots_for
from splendor.cli.errors import BotError, FileError, UsageError
from splendor.cli.files import describe, load_file, save_record
from splendor.cli.output import Output
from splendor.cli.prompt import Quit, action_groups, ask, offer_to_save, show_moves
from splendor.cli.text import compact_lines, finish_lines, show_legend, show_table
from splendor.core.actions import Action
from splendor.core.legal import legal_actions
from splendor.core.messages import short_repr
from splendor.core.views import PlayerView, view
from splendor.core.wording import plural
from splendor.draw.text import Segment, board_lines
from splendor.errors import SplendorError
from splendor.formats.notation import format_action
from splendor.formats.record import GameRecord
from splendor.players.bots import Bot, bot_name, bot_rngs
from splendor.players.levels import LEVEL_PREFIX, LEVELS

__all__ = ["add_parser", "run_play"]


def add_parser(commands: Subcommands) -> None:
    """Add ``splendor play`` to the command line."""
    play = commands.add_parser(
        "play",
        help="play against bots in the terminal",
        description="Play a game against bots; type help at the prompt for the notation.",
    )
    add_players_option(play, 2, "2")
    play.add_argument("--seat", type=int, default=0, help="your seat, 0 moves first (default 0)")
    play.add_argument("--seed", type=int, default=None, help="seed of the deal (default: random)")
    play.add_argument("--name", default="You", help="your name in the record")
    add_bot_options(
        play,
        None,
        "the other players: one bot for all other seats, or one per other seat",
        "greedy",
    )
    play.add_argument(
        "--level",
        metavar="N",
        help=f"the other players' level instead of --bots: 1 (a beginner) to {len(LEVELS)}",
    )
    play.add_argument(
        "--save",
        metavar="FILE",
        help="save the game to FILE after every turn (.json for JSON, else text)",
    )
    play.add_argument(
        "--resume", metavar="FILE", help="go on with a game saved in FILE (saved back to it)"
    )
    play.set_defaults(run=run_play)


def run_play(args: argparse.Namespace, out: Output, read: Callable[[str], str]) -> int:
    """Play a game in the terminal: one human seat, bots at the others."""
    if args.resume:
        loaded = load_file(args.resume)
        if not isinstance(loaded, GameRecord):
            raise UsageError(
                f"{args.resume} holds {describe(loaded)}, not a game record: cannot resume it"
            )
        record = loaded
        players = record.players
    else:
        players = args.players
        # Unguessable, as a live game's must be (63 bits: a record's seed is a signed 64-bit int).
        seed = args.seed if args.seed is not None else secrets.randbits(63)
        record = GameRecord.start(players, seed=seed)
    if not 0 <= args.seat < players:
        raise UsageError(f"--seat must be 0 to {players - 1}")
    if args.level is not None and args.bots is not None:
        raise UsageError("give the other players as --bots or as --level, not both")
    specs = [LEVEL_PREFIX + args.level] if args.level is not None else args.bots or ["greedy"]
    others = bots_for(specs, players - 1, record.seed)
    bots: list[Bot | None] = [*others[: args.seat], None, *others[args.seat :]]
    if record.names is not None:
        names = list(record.names)
    else:
        label = None if args.level is None else f"level {int(args.level)}"
        names = [
            args.name if bot is None else f"P{seat} {label or bot_name(bot)}"
            for seat, bot in enumerate(bots)
        ]
        record = attrs.evolve(record, names=tuple(names))
    files = _Files(out, args.save or args.resume)

    def save(path: str | None, *, quitting: bool = False) -> None:
        files.save(record, path, quitting=quitting)

    rngs = bot_rngs(record.seed, players)
    if record.actions:
        start = f"; the game goes on after {plural(len(record.actions), 'turn')}"
    else:
        start = " and move first" if args.seat == 0 else ""
    out.line(
        (f"A {players}-player game, seed {record.seed}. ", "bold"),
        f"You play seat {args.seat} as {names[args.seat]}{start}. "
        "Type help for the notation, quit to stop.",
    )
    if args.level is not None:
        level = LEVELS[int(args.level) - 1]
        out.line(f"The other players play at level {level.number}, {level.name}: {level.about}.")
    show_legend(out)
    # The last round of turns, shown right above the prompt.
    recent: deque[tuple[Segment, ...]] = deque(maxlen=players)
    states = record.replay()
    for turn, action in list(enumerate(record.actions))[-players:]:
        before = states[turn]
        mover = before.current_player
        text = format_action(action, before)
        named = None if mover == args.seat else names[mover]
        recent.append((f"turn {turn + 1}: ", *_played(named, text, action)))
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
                _show_board(seen, actions, out, names, len(recent))
                out.line((f"Turn {state.turn + 1}. Your legal moves:", "bold"))
                show_moves(actions, seen, out)
                if recent:
                    out.line(("Last moves:", "bold"))
                    for line in recent:
                        out.line("  ", *line)
                action = ask(seen, actions, out, read, save, names)
            else:
                action = bot(seen, actions, rngs[seat])
            try:
                text = format_action(action, state)
                record = record.append(action)
            except SplendorError as error:
                if bot is None:
                    raise
                raise BotError(
                    f"the bot at seat {seat} ({bot_name(bot)}) played {short_repr(action)}: {error}"
                ) from error
            played = _played(None if bot is None else names[seat], text, action)
            out.line(*played)
            recent.append((f"turn {state.turn + 1}: ", *played))
            files.after_turn(record)
    except (Quit, KeyboardInterrupt) as stop:
        out.line()
        if not files.paths and isinstance(stop, Quit) and stop.asked and record.actions:
            offer_to_save(out, read, save)
        turns = plural(len(record.actions), "turn")
        if files.paths:
            files.after_turn(record)
            out.line((f"Game stopped after {turns}; the game so far is in {files}.", "bold"))
            out.line(f"Go on with it: splendor play --resume {files.paths[0]}")
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
    finish_lines(final, names, out)
    if files.paths:
        out.line((f"The game is saved in {files}.", "dim"))
    return 0


def _played(name: str | None, text: str, action: Action) -> tuple[Segment, ...]:
    """The line of a move: ``You play +WBG: take ...`` (``name`` ``None``) or a bot's."""
    if name is None:
        return ("You play ", "bold"), (text, "bold"), f": {action}"
    return (name, "bold"), f" plays {text}: {action}"


def _show_board(
    seen: PlayerView, actions: Sequence[Action], out: Output, names: Sequence[str], recent: int
) -> None:
    """The board before the player's move: compact when the full one leaves the prompt no room."""
    height = out.height
    # Below the board: the turn's line, the moves, the last moves and the prompt.
    below = 3 + len(action_groups(actions, seen)) * 2 + recent
    full = board_lines(seen, names=names, styled=out.rich)
    if height is None or len(full) + below <= height:
        for line in full:
            out.line(*line)
        return
    for text in compact_lines(seen, names):
        out.line(text)


class _Files:
    """The files a game is saved to, after every turn: those given, all of them.

    Args:
        out: where to say what was saved.
        first: the file given when starting (``--save`` or ``--resume``), if any.
    """

    def __init__(self, out: Output, first: str | None) -> None:
        self.out = out
        self.paths: list[str] = [first] if first else []

    def __str__(self) -> str:
        return " and ".join(self.paths)

    def save(self, record: GameRecord, path: str | None, *, quitting: bool = False) -> None:
        """Save to ``path`` (``None``: to the files saved to before), and keep saving there."""
        if path is None and not self.paths:
            self.out.line("Give a file to save to: save FILE (.json for JSON, else text).")
            return
        targets = self.paths if path is None else [path]
        try:
            for target in targets:
                save_record(record, target)
        except FileError as error:
            self.out.line(("Not saved: ", "bold red"), str(error))
            return
        if path is not None and path not in self.paths:
            self.paths.append(path)
        if quitting:
            self.out.line((f"Saved to {', '.join(targets)}.", "dim"))
            return
        again = "it is" if len(self.paths) == 1 else f"{self} are"
        self.out.line(
            (f"Saved to {', '.join(targets)}; {again} saved again after every turn.", "dim")
        )

    def after_turn(self, record: GameRecord) -> None:
        """Save to every file."""
        for path in self.paths:
            save_record(record, path)
