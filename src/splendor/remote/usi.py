"""Bots that run in engine processes speaking csplendor's USI-like text protocol.

`csplendor <https://github.com/kuboyoo/csplendor>`_ defines a text protocol
for two-player Splendor engines after the Universal Shogi Interface: the host
sends ``usi``, ``isready``, ``usinewgame``, ``position <SPN>`` and
``go time <ms>``, and the engine answers ``bestmove <move>``. A position is
written in its Splendor Position Notation (SPN) and a move in its own
notation (``take:WUG``, ``buy:C71/gold:W2U1``...), with card ids 0 to 89 and
noble ids 0 to 11 of its own.

This module translates both ways, so that such an engine plays wherever a bot
does (:func:`splendor.play_game`, tournaments, self-play):

- :func:`view_to_spn` writes the SPN of the view of the seat to move;
- :func:`usi_move` writes an action in the USI notation, and
  :func:`parse_usi_move` matches an engine's move against the legal actions;
- :func:`open_usi_engine` starts an engine process and returns a
  :class:`UsiEngine`, a bot.

SPN carries what a two-player game under the published rules needs to be
played from the seat to move; what it cannot carry (the turn counter, the
passes, house rules, which nobles each player holds, three or four players)
is listed in the documentation's page on engines in any language. A view it
cannot carry is refused with :class:`~splendor.InvalidArgumentError`.

>>> import splendor
>>> state = splendor.new_game(2, seed=1)
>>> view = splendor.view(state, 0)
>>> for section in view_to_spn(view).split(" | "):
...     print(section)
bank:W4U4G4R4K4D5
visible:L1[39,30,1,29]L2[52,59,48,53]L3[76,85,79,75]
decks:36,26,16
nobles:[3,1,6]
P0:gems:W0U0G0R0K0D0;bonuses:W0U0G0R0K0;points:0;reserved:[];bought:[]
P1:gems:W0U0G0R0K0D0;bonuses:W0U0G0R0K0;points:0;reserved:[];bought:[] 0
>>> action = splendor.legal_actions(view)[0]
>>> usi_move(action, view)
'take:WUG'
>>> parse_usi_move("take:GUW", view, splendor.legal_actions(view)) == action
True
"""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import threading
import time as _time
import weakref
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import IO, Final, Literal

import attrs

from splendor.core.actions import Action, Buy, Pass, Reserve, ReserveFromDeck, Take
from splendor.core.components import CARDS, NOBLES, Card, Noble
from splendor.core.gems import GEMS, Gem, Tokens
from splendor.core.rules import Rules
from splendor.core.views import PlayerView
from splendor.errors import (
    EngineCrashedError,
    EngineMoveError,
    EngineProtocolError,
    EngineTimeoutError,
    InvalidArgumentError,
    NotationError,
)
from splendor.remote._transport import check_seconds, command_argv, kill_group
from splendor.remote.host import STDERR_TAIL
from splendor.remote.messages import MAX_LINE

__all__ = [
    "UsiEngine",
    "open_usi_engine",
    "parse_usi_move",
    "spn_card_id",
    "spn_noble_id",
    "usi_move",
    "view_to_spn",
]

MAX_USI_LINE: Final = MAX_LINE
"""The longest line read from a USI engine, in bytes (its newline included):
the bot protocol's :data:`~splendor.remote.MAX_LINE`."""

# The USI letter of each colour: blue is U and gold is D in that notation.
_LETTER = {
    Gem.WHITE: "W",
    Gem.BLUE: "U",
    Gem.GREEN: "G",
    Gem.RED: "R",
    Gem.BLACK: "K",
    Gem.GOLD: "D",
}
_GEM_OF_LETTER = {letter: gem for gem, letter in _LETTER.items()}
_COLOURS = GEMS[:5]

# csplendor numbers the 90 cards from 0, by tier, then by bonus colour in the
# order blue, red, black, white, green, then in an order of its own. Entry i is
# the id here (1 to 90) of its card i; the two lists name the same 90 cards
# (same tier, bonus, points and cost), as a test checks card by card.
_OUR_CARD = (
    9, 12, 10, 15, 11, 13, 14, 16, 31, 25, 28, 29, 26, 27, 30, 32, 35, 34, 38, 39,
    33, 36, 37, 40, 6, 1, 4, 5, 7, 2, 3, 8, 17, 23, 19, 18, 22, 20, 21, 24,
    47, 48, 49, 51, 50, 52, 60, 59, 61, 63, 62, 64, 66, 65, 69, 67, 68, 70, 41, 42,
    43, 44, 45, 46, 53, 54, 55, 56, 57, 58, 75, 77, 76, 78, 83, 84, 85, 86, 87, 88,
    89, 90, 71, 72, 73, 74, 79, 80, 81, 82,
)  # fmt: skip
_THEIR_CARD = {ours: theirs for theirs, ours in enumerate(_OUR_CARD)}

# csplendor has 12 nobles, numbered from 0; ten of them are the game's ten
# (same requirement), and two (4 white and 4 red; 3 blue, 3 green and 3 black)
# are not in the published game. Its nobles by requirement, in its order:
_THEIR_NOBLE_NEEDS = (
    (0, 0, 4, 4, 0),
    (0, 0, 0, 4, 4),
    (0, 4, 4, 0, 0),
    (4, 0, 0, 0, 4),
    (4, 4, 0, 0, 0),
    (4, 0, 0, 4, 0),
    (3, 0, 0, 3, 3),
    (3, 3, 3, 0, 0),
    (0, 0, 3, 3, 3),
    (0, 3, 3, 3, 0),
    (3, 3, 0, 0, 3),
    (0, 3, 3, 0, 3),
)
_THEIR_NOBLE = {
    noble.id: _THEIR_NOBLE_NEEDS.index(tuple(noble.requirement[g] for g in _COLOURS))
    for noble in NOBLES
}
_OUR_NOBLE = {theirs: ours for ours, theirs in _THEIR_NOBLE.items()}

_CARD_BY_ID = {card.id: card for card in CARDS}
_NOBLE_BY_ID = {noble.id: noble for noble in NOBLES}

OwnBlind = Literal["id", "marked", "hidden"]


def spn_card_id(card: Card) -> int:
    """The id (0 to 89) that SPN and the USI notation give to ``card``.

    >>> import splendor
    >>> spn_card_id(splendor.CARDS_BY_ID[1]), spn_card_id(splendor.CARDS_BY_ID[90])
    (25, 81)
    """
    return _THEIR_CARD[card.id]


def spn_noble_id(noble: Noble) -> int:
    """The id (0 to 11) that SPN and the USI notation give to ``noble``.

    >>> import splendor
    >>> [spn_noble_id(noble) for noble in splendor.NOBLES]
    [4, 3, 7, 10, 6, 2, 9, 0, 8, 1]
    """
    return _THEIR_NOBLE[noble.id]


def _counts(tokens: Tokens, gold: bool = True) -> str:
    gems = GEMS if gold else _COLOURS
    return "".join(f"{_LETTER[gem]}{tokens[gem]}" for gem in gems)


def _letters(tokens: Tokens) -> str:
    return "".join(_LETTER[gem] * tokens[gem] for gem in GEMS)


def _ids(values: Sequence[int | str]) -> str:
    return "[" + ",".join(str(v) for v in values) + "]"


def _check_mappable(view: PlayerView) -> None:
    if type(view) is not PlayerView:
        raise InvalidArgumentError(f"expected a PlayerView, got {type(view).__name__}")
    if len(view.players) != 2:
        raise InvalidArgumentError(
            f"SPN engines play two players; this game has {len(view.players)}"
        )
    if view.rules != Rules():
        raise InvalidArgumentError(
            "SPN cannot say which rules a game is played under: only the published rules map"
        )
    if view.seat is None or view.own is None or view.seat != view.current_player:
        raise InvalidArgumentError("only the view of the seat to move can be written as SPN")


def view_to_spn(
    view: PlayerView,
    *,
    own_blind: OwnBlind = "id",
    deck_reserve: int | None = None,
) -> str:
    """The SPN (csplendor's position notation) of the view of the seat to move.

    Args:
        view: the view of the seat to move, in a two-player game under the
            published rules.
        own_blind: how the mover's own blind reserves are written: ``"id"``
            (by card id, as for a face-up reserve: the mover knows them),
            ``"marked"`` (csplendor's ``?C<id>`` extension) or ``"hidden"``
            (``?L<tier>``, as for the opponent's).
        deck_reserve: write the position just after the mover reserved blind
            from this tier (1 to 3), before giving back the token over the
            limit: the deck one card shorter, the gold token taken, and the
            drawn card as ``?L<tier>`` (SPN's return phase; the drawn card is
            not known here, so the engine does not see it).

    Returns:
        One line: bank, face-up cards, deck sizes, nobles, the two players,
        and the seat to move.

    Raises:
        InvalidArgumentError: for a view that SPN cannot carry (three or four
            players, other rules, not the view of the seat to move), or a
            ``deck_reserve`` tier whose deck is empty.
    """
    _check_mappable(view)
    if own_blind not in ("id", "marked", "hidden"):
        raise InvalidArgumentError(
            f"own_blind must be 'id', 'marked' or 'hidden', got {own_blind!r}"
        )
    assert view.own is not None
    assert view.seat is not None
    bank = view.bank
    deck_sizes = list(view.deck_sizes)
    own_tokens = view.own.tokens
    own_extra: list[str] = []
    if deck_reserve is not None:
        if deck_reserve not in (1, 2, 3) or deck_sizes[deck_reserve - 1] == 0:
            raise InvalidArgumentError(f"cannot reserve from the deck of tier {deck_reserve!r}")
        deck_sizes[deck_reserve - 1] -= 1
        own_extra.append(f"?L{deck_reserve}")
        if bank[Gem.GOLD]:
            bank = bank - Tokens(gold=1)
            own_tokens = own_tokens + Tokens(gold=1)
    visible = "".join(
        f"L{tier}" + _ids(["-" if card is None else spn_card_id(card) for card in row])
        for tier, row in enumerate(view.board, start=1)
    )
    sections = [
        f"bank:{_counts(bank)}",
        f"visible:{visible}",
        "decks:" + ",".join(str(n) for n in deck_sizes),
        "nobles:" + _ids([spn_noble_id(noble) for noble in view.nobles]),
    ]
    for seat, player in enumerate(view.players):
        if seat == view.seat:
            tokens = own_tokens
            reserved: list[int | str] = []
            for card, blind in zip(view.own.reserved, view.own.reserved_blind, strict=True):
                if not blind or own_blind == "id":
                    reserved.append(spn_card_id(card))
                elif own_blind == "marked":
                    reserved.append(f"?C{spn_card_id(card)}")
                else:
                    reserved.append(f"?L{card.tier}")
            reserved.extend(own_extra)
        else:
            tokens = player.tokens
            reserved = [spn_card_id(card) for card in player.reserved]
            reserved.extend(f"?L{tier}" for tier in player.blind_reserves)
        sections.append(
            f"P{seat}:gems:{_counts(tokens)};bonuses:{_counts(player.bonuses, gold=False)};"
            f"points:{player.points};reserved:{_ids(reserved)};"
            f"bought:{_ids([spn_card_id(card) for card in player.cards])}"
        )
    return " | ".join(sections) + f" {view.current_player}"


def _price(card: Card, bonuses: Tokens) -> dict[Gem, int]:
    return {gem: max(0, card.cost[gem] - bonuses[gem]) for gem in _COLOURS}


def usi_move(action: Action, view: PlayerView) -> str:
    """An action in csplendor's USI move notation.

    A buy names the gold standing in for each colour (``/gold:W1R2``) unless
    it pays no gold; a return over the token limit follows the move
    (``/return:KK``), a blind reserve's in the one-line form csplendor reads
    (``reserve:L2/return:W``); a noble follows, after a space
    (``buy:C42 noble:N3``).

    Args:
        action: an action of the seat to move (normally one of
            ``legal_actions(view)``).
        view: the view of the seat to move.

    Raises:
        InvalidArgumentError: for a view SPN cannot carry, or an action that
            is not an action.
    """
    _check_mappable(view)
    assert view.own is not None
    if isinstance(action, Take):
        text = "take:" + _letters(action.gems)
        returned = action.returned
    elif isinstance(action, Reserve):
        text = f"reserve:C{spn_card_id(action.card)}"
        returned = action.returned
    elif isinstance(action, ReserveFromDeck):
        text = f"reserve:L{action.tier}"
        returned = action.returned
    elif isinstance(action, Buy):
        text = f"buy:C{spn_card_id(action.card)}"
        returned = Tokens()
        payment = action.payment
        price = _price(action.card, view.own.bonuses)
        if payment is None:
            payment = _default_payment(price, view.own.tokens)
        if payment[Gem.GOLD]:
            gold = "".join(
                f"{_LETTER[gem]}{price[gem] - payment[gem]}"
                for gem in _COLOURS
                if price[gem] > payment[gem]
            )
            text += f"/gold:{gold}"
    elif isinstance(action, Pass):
        text = "pass"
        returned = Tokens()
    else:
        raise InvalidArgumentError(f"expected an action, got {type(action).__name__}")
    if returned:
        text += "/return:" + _letters(returned)
    if action.noble is not None:
        text += f" noble:N{spn_noble_id(action.noble)}"
    return text


def _default_payment(price: Mapping[Gem, int], held: Tokens) -> Tokens:
    """Coloured tokens first, gold for the rest: the least gold."""
    paid: dict[Gem | str, int] = {gem: min(price[gem], held[gem]) for gem in _COLOURS}
    paid[Gem.GOLD] = sum(price[gem] - held[gem] for gem in _COLOURS if price[gem] > held[gem])
    return Tokens.from_mapping(paid)


_NO_TOKENS = Tokens()


@attrs.frozen
class _Move:
    """A USI move read into its parts."""

    kind: str  # take, reserve, reserve_deck, buy, pass, noble, return
    tokens: Tokens = _NO_TOKENS  # taken (take) or returned (return)
    returned: Tokens | None = None
    card: int | None = None  # the id here
    tier: int | None = None
    gold: dict[Gem, int] | None = None
    noble: int | None = None  # the id here


def _read_tokens(text: str, move: str) -> Tokens:
    gems = []
    for letter in text:
        gem = _GEM_OF_LETTER.get(letter)
        if gem is None:
            raise NotationError(f"cannot read USI move {move!r}: {letter!r} is not a colour")
        gems.append(gem)
    if not gems:
        raise NotationError(f"cannot read USI move {move!r}: no colours")
    return Tokens.of(*gems)


def _read_number(text: str, move: str, what: str) -> int:
    if not text.isdigit() or len(text) > 3:
        raise NotationError(f"cannot read USI move {move!r}: expected {what}, got {text!r}")
    return int(text)


def _read_move(text: str) -> _Move:
    """Read one bestmove's text: a move, and optionally ``noble:N<id>`` after it."""
    words = text.split()
    if not words or len(words) > 2:
        raise NotationError(f"cannot read USI move {text!r}: expected a move and at most a noble")
    noble = None
    if len(words) == 2:
        if not words[1].startswith("noble:N"):
            raise NotationError(
                f"cannot read USI move {text!r}: expected noble:N<id> after the move"
            )
        noble = _noble_here(_read_number(words[1][7:], text, "a noble id"), text)
    word = words[0]
    head, _, rest = word.partition("/")
    suffix: dict[str, str] = {}
    for part in rest.split("/") if rest else ():
        key, colon, value = part.partition(":")
        if not colon or key not in ("return", "gold") or key in suffix:
            raise NotationError(f"cannot read USI move {text!r}: unexpected {part!r}")
        suffix[key] = value
    returned = _read_tokens(suffix["return"], text) if "return" in suffix else None
    kind, colon, arg = head.partition(":")
    if kind == "pass" and not colon and not suffix:
        return _Move("pass", noble=noble)
    if kind == "take" and colon and "gold" not in suffix:
        return _Move("take", _read_tokens(arg, text), returned, noble=noble)
    if kind == "reserve" and colon and "gold" not in suffix and arg[:1] == "C":
        card = _card_here(_read_number(arg[1:], text, "a card id"), text)
        return _Move("reserve", returned=returned, card=card, noble=noble)
    if kind == "reserve" and colon and "gold" not in suffix and arg[:1] == "L":
        tier = _read_number(arg[1:], text, "a tier")
        if tier not in (1, 2, 3):
            raise NotationError(f"cannot read USI move {text!r}: no tier {tier}")
        return _Move("reserve_deck", returned=returned, tier=tier, noble=noble)
    if kind == "buy" and colon and "return" not in suffix and arg[:1] == "C":
        card = _card_here(_read_number(arg[1:], text, "a card id"), text)
        gold: dict[Gem, int] | None = None
        if "gold" in suffix:
            gold = {}
            pairs = suffix["gold"]
            if not pairs or len(pairs) % 2:
                raise NotationError(f"cannot read USI move {text!r}: bad gold {pairs!r}")
            for i in range(0, len(pairs), 2):
                gem = _GEM_OF_LETTER.get(pairs[i])
                if gem is None or gem is Gem.GOLD or gem in gold or not pairs[i + 1].isdigit():
                    raise NotationError(f"cannot read USI move {text!r}: bad gold {pairs!r}")
                gold[gem] = int(pairs[i + 1])
        return _Move("buy", card=card, gold=gold, noble=noble)
    if kind == "noble" and colon and not suffix and arg[:1] == "N" and noble is None:
        return _Move("noble", noble=_noble_here(_read_number(arg[1:], text, "a noble id"), text))
    if kind == "return" and colon and not suffix and noble is None:
        return _Move("return", _read_tokens(arg, text))
    raise NotationError(f"cannot read USI move {text!r}")


def _card_here(their_id: int, move: str) -> int:
    if not 0 <= their_id < len(_OUR_CARD):
        raise NotationError(f"cannot read USI move {move!r}: no card C{their_id}")
    return _OUR_CARD[their_id]


def _noble_here(their_id: int, move: str) -> int:
    ours = _OUR_NOBLE.get(their_id)
    if ours is None:
        raise NotationError(
            f"cannot read USI move {move!r}: noble N{their_id} is not one of the game's nobles"
        )
    return ours


def _net(action: Take) -> tuple[int, ...]:
    return tuple(a - b for a, b in zip(action.gems.counts, action.returned.counts, strict=True))


def _matches(move: _Move, action: Action, view: PlayerView) -> bool:
    assert view.own is not None
    if move.noble is not None and (action.noble is None or action.noble.id != move.noble):
        return False
    returned = move.returned if move.returned is not None else Tokens()
    if move.kind == "take" and isinstance(action, Take):
        return _net(action) == tuple(
            a - b for a, b in zip(move.tokens.counts, returned.counts, strict=True)
        )
    if move.kind == "reserve" and isinstance(action, Reserve):
        return action.card.id == move.card and action.returned == returned
    if move.kind == "reserve_deck" and isinstance(action, ReserveFromDeck):
        return action.tier == move.tier and action.returned == returned
    if move.kind == "buy" and isinstance(action, Buy) and action.card.id == move.card:
        price = _price(action.card, view.own.bonuses)
        payment = action.payment or _default_payment(price, view.own.tokens)
        if move.gold is None:
            return payment == _default_payment(price, view.own.tokens)
        gold = {gem: move.gold.get(gem, 0) for gem in _COLOURS}
        return payment[Gem.GOLD] == sum(gold.values()) and all(
            payment[gem] == price[gem] - gold[gem] for gem in _COLOURS
        )
    if move.kind in ("pass", "noble") and isinstance(action, Pass):
        return move.kind == "pass" or action.noble is not None
    return False


def parse_usi_move(text: str, view: PlayerView, actions: Sequence[Action]) -> Action:
    """The one of ``actions`` that a USI move names.

    A take matches the listed take with the same tokens gained once the
    returns are given back (the listing names each outcome once); a buy
    without ``/gold:`` is the one that spends the least gold; a move that
    names no noble, when one must come, gets the first listed. A blind
    reserve whose return comes as a separate ``return:<C>`` move cannot be
    matched alone: :class:`UsiEngine` asks for the return itself.

    Args:
        text: the move, as after ``bestmove`` (``ponder`` and what follows
            already removed).
        view: the view of the seat to move.
        actions: the legal actions of ``view``, in their order.

    Returns:
        The first of ``actions`` that the move names.

    Raises:
        NotationError: for text that is not a USI move, names a card or
            noble that does not exist here, or names none of ``actions``.
        InvalidArgumentError: for a view that SPN cannot carry.
    """
    _check_mappable(view)
    if type(text) is not str:
        raise InvalidArgumentError(f"a USI move is a str, got {type(text).__name__}")
    return _match(_read_move(text), view, actions, text)


def _match(move: _Move, view: PlayerView, actions: Sequence[Action], text: str) -> Action:
    for action in actions:
        if _matches(move, action, view):
            return action
    raise NotationError(f"the USI move {text!r} is not one of the legal actions")


def _needs_return(move: _Move, actions: Sequence[Action]) -> bool:
    """Whether a blind reserve named without its return must still give one back."""
    if move.kind != "reserve_deck" or move.returned is not None:
        return False
    listed = [a for a in actions if isinstance(a, ReserveFromDeck) and a.tier == move.tier]
    return bool(listed) and all(a.returned for a in listed)


class _Process:
    """An engine process: lines in and out, its stderr kept, killed on close."""

    def __init__(self, argv: Sequence[str], cwd: str | os.PathLike[str] | None) -> None:
        try:
            self.popen = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                start_new_session=True,
            )
        except OSError as error:
            raise EngineCrashedError(f"cannot start the engine {argv[0]!r}: {error}") from error
        # Bounded, so that an engine flooding its output waits for the reader.
        self.lines: queue.Queue[bytes | None] = queue.Queue(maxsize=1024)
        self.stderr = bytearray()  # the last STDERR_TAIL bytes
        self.stderr_lock = threading.Lock()
        self.ended = threading.Event()
        self._finalizer = weakref.finalize(self, _kill, self.popen)
        assert self.popen.stdout is not None
        assert self.popen.stderr is not None
        threading.Thread(target=self._read, args=(self.popen.stdout,), daemon=True).start()
        threading.Thread(target=self._drain, args=(self.popen.stderr,), daemon=True).start()

    def _put(self, item: bytes | None) -> bool:
        """Queue a line for the reader; False once the process is ended."""
        while not self.ended.is_set():
            try:
                self.lines.put(item, timeout=0.1)
            except queue.Full:
                continue
            return True
        return False

    def _read(self, stream: IO[bytes]) -> None:
        while True:
            line = stream.readline(MAX_USI_LINE)
            if not line or not self._put(line):
                break
            if not line.endswith(b"\n") and len(line) >= MAX_USI_LINE:
                break  # the reader reports it; nothing after it is read
        self._put(None)
        stream.close()

    def _drain(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError):
            while chunk := os.read(stream.fileno(), 65536):
                with self.stderr_lock:
                    self.stderr += chunk
                    del self.stderr[:-STDERR_TAIL]
        stream.close()

    def stderr_tail(self) -> str:
        with self.stderr_lock:
            return self.stderr.decode(errors="replace")

    def send(self, line: str) -> None:
        assert self.popen.stdin is not None
        try:
            self.popen.stdin.write(line.encode() + b"\n")
            self.popen.stdin.flush()
        except OSError as error:
            self.kill()
            raise EngineCrashedError(f"the engine's input is closed: {error}") from error

    def read(self, deadline: float, waiting_for: str) -> str:
        remaining = deadline - _time.monotonic()
        try:
            line = self.lines.get(timeout=max(remaining, 0.0))
        except queue.Empty:
            self.kill()
            raise EngineTimeoutError(f"no {waiting_for} in time") from None
        if line is None:
            code = self.popen.poll()
            self.kill()
            raise EngineCrashedError(
                f"the engine closed its output while the host waited for {waiting_for}"
                + (f" (exit status {code})" if code is not None else "")
            )
        if not line.endswith(b"\n") and len(line) >= MAX_USI_LINE:
            self.kill()
            raise EngineProtocolError(f"a line over {MAX_USI_LINE} bytes")
        try:
            return line.decode().rstrip("\r\n")
        except UnicodeDecodeError:
            self.kill()
            raise EngineProtocolError("a line that is not UTF-8 text") from None

    def kill(self) -> None:
        self.ended.set()
        self._finalizer()

    def close(self, grace: float) -> None:
        if self.popen.poll() is None:
            try:
                self.send("quit")
                self.popen.wait(timeout=grace)
            except (EngineCrashedError, subprocess.TimeoutExpired):
                pass
        self.kill()


def _kill(popen: subprocess.Popen[bytes]) -> None:
    """End the process group of ``popen`` (it leads one of its own) and reap it."""
    if popen.poll() is None:
        kill_group(popen.pid)
    popen.wait()
    if popen.stdin is not None:  # the readers close the other two at their end
        with contextlib.suppress(OSError):
            popen.stdin.close()


class UsiEngine:
    """A bot played by an engine process over csplendor's USI-like protocol.

    Made by :func:`open_usi_engine`. Call it as any bot,
    ``engine(view, actions, rng) -> action``, for two-player games under the
    published rules; it sends ``usinewgame`` when a new game begins (a view
    whose turn is not later than the last one's), then ``position <SPN>`` and
    ``go time <ms>``, and reads ``bestmove``. After a blind reserve that goes
    over the token limit, it sends the position of the return phase and reads
    ``return:<C>``.

    Any fault of the engine (no answer in time, a line that is not the
    protocol, a move that is none of the legal actions, its end) raises the
    matching :class:`~splendor.errors.EngineError` after the process is
    killed. Use it as a context manager, or call :meth:`close`.

    Attributes:
        name: the bot's name: the one given to :func:`open_usi_engine`, or the
            engine's ``id name``.
        engine_name: the engine's ``id name`` ('' if it gave none).
        author: the engine's ``id author`` ('' if it gave none).
        options: the engine's ``option`` lines, by option name, as sent.
        time: the seconds given for each move (``go time``).
        grace: the seconds allowed beyond ``time`` before a move is late.
        own_blind: how the mover's blind reserves are written
            (see :func:`view_to_spn`).
    """

    def __init__(
        self,
        process: _Process,
        *,
        name: str | None,
        time: float,
        grace: float,
        own_blind: OwnBlind,
    ) -> None:
        self._process = process
        self.engine_name = ""
        self.author = ""
        self.options: dict[str, str] = {}
        self.name = name or ""
        self.time = time
        self.grace = grace
        self.own_blind: OwnBlind = own_blind
        self._last_turn: int | None = None

    @property
    def stderr_tail(self) -> str:
        """The last 64 KiB the engine wrote to its stderr (fewer if it wrote less)."""
        return self._process.stderr_tail()

    def _handshake(self, options: Mapping[str, str | int | float | bool], timeout: float) -> None:
        deadline = _time.monotonic() + timeout
        self._process.send("usi")
        while True:
            line = self._process.read(deadline, "usiok")
            words = line.split()
            if words[:2] == ["id", "name"]:
                self.engine_name = line.split(None, 2)[2] if len(words) > 2 else ""
            elif words[:2] == ["id", "author"]:
                self.author = line.split(None, 2)[2] if len(words) > 2 else ""
            elif words[:2] == ["option", "name"] and len(words) > 2:
                self.options[words[2]] = line
            elif words == ["usiok"]:
                break
        self.name = self.name or self.engine_name or "usi"
        for key, value in options.items():
            self.configure(key, value)
        self._ready(deadline)

    def configure(self, option: str, value: str | int | float | bool) -> None:
        """Send ``setoption name <option> value <value>``.

        Raises:
            InvalidArgumentError: for an option the engine did not declare, or
                a name or value with a line break or space in the name.
        """
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        if type(option) is not str or option not in self.options:
            raise InvalidArgumentError(
                f"the engine has no option {option!r}; it has {sorted(self.options)}"
            )
        if "\n" in text or "\r" in text:
            raise InvalidArgumentError(f"an option's value is one line, got {text!r}")
        self._process.send(f"setoption name {option} value {text}")

    def _ready(self, deadline: float) -> None:
        self._process.send("isready")
        while self._process.read(deadline, "readyok").strip() != "readyok":
            pass

    def _best(self, spn: str) -> str:
        self._process.send(f"position {spn}")
        self._process.send(f"go time {max(1, round(self.time * 1000))}")
        deadline = _time.monotonic() + self.time + self.grace
        while True:
            words = self._process.read(deadline, "bestmove").split()
            if words[:1] == ["bestmove"]:
                if "ponder" in words:
                    words = words[: words.index("ponder")]
                return " ".join(words[1:])

    def __call__(self, view: PlayerView, actions: Sequence[Action], rng: object) -> Action:
        """Ask the engine for its move in ``view``; ``rng`` is not used."""
        _check_mappable(view)
        if self._last_turn is None or view.turn <= self._last_turn:
            self._ready(_time.monotonic() + self.time + self.grace)
            self._process.send("usinewgame")
        self._last_turn = view.turn
        text = self._best(view_to_spn(view, own_blind=self.own_blind))
        try:
            move = _read_move(text)
            if _needs_return(move, actions):
                assert move.tier is not None
                after = view_to_spn(view, own_blind=self.own_blind, deck_reserve=move.tier)
                answer = self._best(after)
                given_back = _read_move(answer)
                if given_back.kind != "return" or given_back.tokens.total != 1:
                    raise NotationError(f"expected return:<colour> after {text!r}, got {answer!r}")
                move = attrs.evolve(move, returned=given_back.tokens)
                text = f"{text} then {answer}"
            return _match(move, view, actions, text)
        except NotationError as error:
            self._process.kill()
            raise EngineMoveError(f"the engine's move is not legal here: {error}") from error

    def close(self) -> None:
        """Send ``quit``, wait ``grace`` seconds, then end the process (its whole group)."""
        self._process.close(self.grace)

    def __enter__(self) -> UsiEngine:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def open_usi_engine(
    command: str | Sequence[str],
    *,
    options: Mapping[str, str | int | float | bool] | None = None,
    timeout: float = 10.0,
    time: float = 1.0,
    grace: float = 0.5,
    name: str | None = None,
    cwd: str | os.PathLike[str] | None = None,
    own_blind: OwnBlind = "id",
) -> UsiEngine:
    """Start an engine that speaks csplendor's USI-like protocol; return it as a bot.

    Args:
        command: the command line, a str (split as a shell would, without
            running a shell) or a sequence of arguments.
        options: ``setoption`` values sent after the handshake.
        timeout: seconds for the engine to answer ``usiok`` and ``readyok``.
        time: seconds per move, sent as ``go time <ms>``.
        grace: seconds allowed beyond ``time`` (and for ``quit``).
        name: the bot's name; the engine's ``id name`` by default.
        cwd: the directory to run it in.
        own_blind: how the mover's blind reserves are written
            (see :func:`view_to_spn`).

    Returns:
        The running engine, a bot.

    Raises:
        InvalidArgumentError: for a bad command, limit or option.
        EngineError: when the engine cannot start, or does not finish the
            handshake within ``timeout`` (its process is ended).
    """
    argv = command_argv(command)
    for what, value in (("timeout", timeout), ("time", time), ("grace", grace)):
        check_seconds(what, value, below=1e9)
    if own_blind not in ("id", "marked", "hidden"):
        raise InvalidArgumentError(
            f"own_blind must be 'id', 'marked' or 'hidden', got {own_blind!r}"
        )
    engine = UsiEngine(_Process(argv, cwd), name=name, time=time, grace=grace, own_blind=own_blind)
    try:
        engine._handshake(options or {}, timeout)
    except BaseException:
        engine._process.kill()
        raise
    return engine
