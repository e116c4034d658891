"""``splendor play``: a game in the terminal, one human seat against bots."""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

import attrs

from splendor._table import plural
from splendor.bots import Bot, bot_name
from splendor.cli.common import (
    Subcommands,
    UsageError,
    add_bot_options,
    add_players_option,
    bots_for,
)
from splendor.cli.files import load_file, save_record
from splendor.cli.output import Output
from splendor.cli.prompt import Quit, ask, offer_to_save, show_moves
from splendor.cli.text import finish_lines, show_table
from splendor.errors import BotError, FileError, SplendorError
from splendor.legal import legal_actions
from splendor.notation import format_action
from splendor.record import GameRecord
from splendor.views import view

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
    play.set_defaults(run=run_play)


def run_play(args: argparse.Namespace, out: Output, read: Callable[[str], str]) -> int:
    """Play a game in the terminal: one human seat, bots at the others."""
    if args.resume:
        loaded = load_file(args.resume)
        if not isinstance(loaded, GameRecord):
            raise UsageError(f"{args.resume} holds a state, not a game record: cannot resume it")
        record = loaded
        players = record.players
    else:
        players = args.players
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        record = GameRecord.start(players, seed=seed)
    if not 0 <= args.seat < players:
        raise UsageError(f"--seat must be 0 to {players - 1}")
    others = bots_for(args.bots, players - 1, record.seed)
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
                show_moves(actions, seen, out)
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
                    f"the bot at seat {seat} ({bot_name(bot)}) played {action!r}: {error}"
                ) from error
            if bot is None:
                out.line(("You play ", "bold"), (text, "bold"), f": {action}")
            else:
                out.line((f"{names[seat]}", "bold"), f" plays {text}: {action}")
            if save_path is not None:
                save_record(record, save_path)
    except (Quit, KeyboardInterrupt) as stop:
        out.line()
        if save_path is None and isinstance(stop, Quit) and stop.asked and record.actions:
            offer_to_save(out, read, save)
        turns = plural(len(record.actions), "turn")
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
    finish_lines(final, names, out)
    if save_path is not None:
        out.line((f"The game is saved in {save_path}.", "dim"))
    return 0
