"""The prompt of ``splendor play``: reading the human player's move."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final, Protocol

from splendor.cli.choices import Move, choose, find_move, moves, take_hint
from splendor.cli.output import Output
from splendor.cli.text import show_table
from splendor.core.actions import Action, Buy, Reserve, ReserveFromDeck, Take
from splendor.core.state import GameState
from splendor.core.views import PlayerView
from splendor.errors import IllegalActionError, SplendorError
from splendor.formats.notation import NotationError, format_action, parse_action
from splendor.players.bots import GreedyBot

__all__ = ["HELP_TEXT", "Quit", "Save", "action_groups", "ask", "offer_to_save", "show_moves"]

#: What ``help`` prints at the prompt.
HELP_TEXT: Final = """\
Type an action in the notation (case and spaces do not matter):
  +WBG      take white, blue and green      +RR     take 2 red
  +WBG-K    take, then give back a black token (over 10 tokens; type +WBG
            alone and you are asked which tokens to give back)
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
) -> list[tuple[str, list[str], str]]:
    """The moves by kind, each with a note: ``(kind, moves, note)``.

    A move is listed once, whatever follows it (see
    :mod:`splendor.cli.choices`): the tokens to give back are asked for after
    the move, and a buy says how many ways there are to pay or that a noble
    is to be chosen.
    """
    takes: list[str] = []
    reserves: list[str] = []
    buys: list[str] = []
    other: list[str] = []
    returns = {"Take": False, "Reserve": False}
    for move in moves(actions, state):
        first = move.actions[0]
        if isinstance(first, Take):
            takes.append(move.text)
            returns["Take"] |= move.returns
        elif isinstance(first, Reserve | ReserveFromDeck):
            reserves.append(move.text)
            returns["Reserve"] |= move.returns
        elif isinstance(first, Buy):
            extra = []
            if move.payments > 1:
                extra.append(f"{move.payments} ways to pay")
            if move.nobles > 1:
                extra.append(f"{move.nobles} nobles to choose from")
            buys.append(move.text + (f" ({', '.join(extra)})" if extra else ""))
        else:
            other.append(move.text)
    back = "then you give tokens back: you will be asked which"
    groups = [
        ("Take", takes, back if returns["Take"] else ""),
        ("Reserve", reserves, back if returns["Reserve"] else ""),
        ("Buy", buys, ""),
        ("Other", other, ""),
    ]
    return [(name, items, note) for name, items, note in groups if items]


def show_moves(actions: Sequence[Action], seen: PlayerView, out: Output) -> None:
    """Write the legal moves, grouped by kind."""
    for name, items, note in action_groups(actions, seen):
        out.line((f"  {name:<8}", "bold"), "  ".join(items) if name == "Buy" else " ".join(items))
        if note:
            out.line((f"            ({note})", "dim"))


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
    names: Sequence[str] | None = None,
) -> Action:
    """Read the human player's action, asking again until it is a legal one.

    A move typed without what must follow it (``+WBR`` at the token limit, a
    buy that could be paid several ways, a move bringing one of several
    nobles) is completed by a second question (:func:`~splendor.cli.choices.choose`).
    """
    found = moves(actions, seen)
    try:
        while True:
            action = _read_move(seen, actions, found, out, read, save, names)
            if action is not None:
                return action
    except EOFError:
        raise Quit(asked=False) from None


def _read_move(
    seen: PlayerView,
    actions: Sequence[Action],
    found: Sequence[Move],
    out: Output,
    read: Callable[[str], str],
    save: Save,
    names: Sequence[str] | None,
) -> Action | None:
    """One answer at the prompt: the action, or ``None`` to ask again."""
    text = read("Your move: ").strip()
    command = text.lower()
    if not command:
        return None
    if command in ("q", "quit", "exit"):
        raise Quit(asked=True)
    if command in ("?", "h", "help"):
        out.line(HELP_TEXT)
        return None
    if command in ("board", "show"):
        show_table(seen, out, names=names)
        return None
    if command in ("moves", "actions", "list", "m"):
        show_moves(actions, seen, out)
        return None
    if command == "hint":
        hint = GreedyBot()(seen, actions, random.Random(seen.turn))
        out.line("The greedy bot would play ", (format_action(hint, seen), "bold"), f"  ({hint})")
        return None
    if command == "save" or command.startswith("save "):
        save(text[len("save") :].strip() or None)
        return None
    try:
        action = parse_action(text, seen)
    except NotationError as error:
        out.line(("Not understood: ", "bold red"), str(error), ("  (type help)", "dim"))
        return None
    except IllegalActionError as error:
        return _complete(text, error, seen, found, out, read)
    except (SplendorError, ValueError) as error:
        # parse_action raises the two errors above; anything else is still not understood.
        out.line(("Not understood: ", "bold red"), str(error), ("  (type help)", "dim"))
        return None
    if isinstance(action, Buy) and "=" not in text:
        # A buy without a payment: when it could be paid otherwise, ask (Enter: the default).
        move = next((m for m in found if action in m.actions), None)
        if move is not None and move.payments > 1:
            same = tuple(a for a in move.actions if a.noble == action.noble)
            return choose(Move(move.text, same), seen, out, read)
    return action


def _complete(
    text: str,
    error: IllegalActionError,
    seen: PlayerView,
    found: Sequence[Move],
    out: Output,
    read: Callable[[str], str],
) -> Action | None:
    """Answer a move the rules forbid as typed: ask for what it leaves open, or say why."""
    move = find_move(text, found, seen)
    if move is None:
        # A choice typed wrongly (+WBR-K where 3 must go back): say why, then ask it.
        for mark in ("-", "="):
            if mark in text and move is None:
                move = find_move(text[: text.rindex(mark)], found, seen)
        if move is not None:
            out.line(("Not allowed: ", "bold red"), str(error))
    if move is None:
        out.line(("Not allowed: ", "bold red"), str(error))
        hint = take_hint(text)
        if hint is not None:
            out.line((f"  ({hint})", "dim"))
        return None
    return choose(move, seen, out, read)
