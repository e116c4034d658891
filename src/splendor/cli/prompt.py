"""The prompt of ``splendor play``: reading the human player's move."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final, Protocol

from splendor.actions import Action, Buy, Reserve, ReserveFromDeck, Take
from splendor.bots import GreedyBot
from splendor.cli.output import Output
from splendor.cli.text import show_table
from splendor.components import Card, Noble
from splendor.errors import IllegalActionError, SplendorError
from splendor.notation import NotationError, format_action, parse_action
from splendor.state import GameState
from splendor.views import PlayerView

__all__ = ["HELP_TEXT", "Quit", "Save", "action_groups", "ask", "offer_to_save", "show_moves"]

#: What ``help`` prints at the prompt.
HELP_TEXT: Final = """\
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


def action_groups(
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


def show_moves(actions: Sequence[Action], seen: PlayerView, out: Output) -> None:
    """Write the legal moves, grouped by kind."""
    for name, items in action_groups(actions, seen):
        out.line((f"  {name:<8}", "bold"), "  ".join(items) if name == "Buy" else " ".join(items))
    if any(isinstance(a, Buy) and a.payment is not None and a.payment.counts[5] for a in actions):
        out.line(("  (to choose how to pay, add = and the tokens, e.g. b11=RRY)", "dim"))


class Quit(Exception):
    """The player stopped: ``asked`` with quit, else by the end of the input."""

    def __init__(self, asked: bool) -> None:
        super().__init__()
        self.asked = asked


class Save(Protocol):
    """Save the game to a file (``None``: the file saved to before)."""

    def __call__(self, path: str | None, *, quitting: bool = ...) -> None: ...


def offer_to_save(out: Output, read: Callable[[str], str], save: Save) -> None:
    """Ask for a file to keep the game in before quitting; an empty answer declines."""
    try:
        answer = read("Save the game before quitting? A file name, or Enter to quit: ").strip()
    except (EOFError, KeyboardInterrupt):
        out.line()
        return
    if answer:
        save(answer, quitting=True)


def ask(
    seen: PlayerView,
    actions: Sequence[Action],
    out: Output,
    read: Callable[[str], str],
    save: Save,
) -> Action:
    """Read the human player's action, asking again until it is a legal one."""
    while True:
        try:
            text = read("Your move: ").strip()
        except EOFError:
            raise Quit(asked=False) from None
        command = text.lower()
        if not command:
            continue
        if command in ("q", "quit", "exit"):
            raise Quit(asked=True)
        if command in ("?", "h", "help"):
            out.line(HELP_TEXT)
            continue
        if command in ("board", "show"):
            show_table(seen, out)
            continue
        if command in ("moves", "actions", "list", "m"):
            show_moves(actions, seen, out)
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
