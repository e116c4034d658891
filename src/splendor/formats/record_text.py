"""Game records as text: :func:`format_record` and :func:`parse_record`.

A record is a few ``key: value`` header lines (the players, the seed, the
rules, and the names, result and forfeit when known), a blank line, then one action
per line in the notation of :mod:`splendor.formats.notation`, each read in the state
reached by the lines before it. A record text is at most
:data:`MAX_RECORD_LENGTH` characters long.

The seed of a record gives the order of every deck: keep the record of a
game in progress from its players.

>>> from splendor import GameRecord, Take, Tokens
>>> record = GameRecord.start(2, seed=1).append(Take(Tokens(red=2)))
>>> parse_record(format_record(record)) == record
True
"""

from __future__ import annotations

import json
from typing import Final

import attrs

from splendor.core.actions import Action
from splendor.core.play import apply
from splendor.core.rules import Rules
from splendor.errors import IllegalActionError, InvalidArgumentError, NotationError, SplendorError
from splendor.formats._action_notation import format_action, parse_action
from splendor.formats._notation_parser import excerpt
from splendor.formats.record import Forfeit, GameRecord

__all__ = ["MAX_RECORD_LENGTH", "format_record", "parse_record"]

#: The longest record text :func:`parse_record` reads, in characters: 4 MiB,
#: tens of thousands of turns.
MAX_RECORD_LENGTH: Final = 4 * 1024 * 1024
# The most digits of a number in a header (a 64-bit integer has 19).
_MAX_DIGITS: Final = 19


_RULE_FIELDS: Final = {field.name: field for field in attrs.fields(Rules)}


def format_record(record: GameRecord) -> str:
    """A game record as text: a header, then one action per line.

    The header has a ``key: value`` line for ``players``, ``seed``,
    ``rules`` (``standard``, or each setting that differs from the published
    rules as ``name=value``), and, when the record has them, ``names`` (a
    JSON list), ``result`` (the winning seats) and ``forfeit`` (the seat,
    the reason and the detail: ``forfeit: 1 timeout the move took 0.7 s``).
    Each action is written in the notation, from the state it was played in.

    Args:
        record: the record to write.

    Returns:
        The text, ending with a newline; :func:`parse_record` reads it back.

    Raises:
        IllegalActionError: when the record's actions cannot be replayed.
        InvalidArgumentError: when ``record`` is not a
            :class:`~splendor.GameRecord`.

    >>> from splendor import GameRecord, Gem, Take, Tokens
    >>> record = GameRecord.start(2, seed=1).append(Take(Tokens(red=2)))
    >>> print(format_record(record), end="")
    players: 2
    seed: 1
    rules: standard
    <BLANKLINE>
    +RR
    """
    if type(record) is not GameRecord:
        raise InvalidArgumentError(f"expected a GameRecord, got {type(record).__name__}")
    lines = [f"players: {record.players}", f"seed: {record.seed}", f"rules: {_rules(record.rules)}"]
    if record.names is not None:
        lines.append(f"names: {json.dumps(list(record.names))}")
    if record.result is not None:
        lines.append("result: " + " ".join(str(seat) for seat in record.result))
    if record.forfeit is not None:
        forfeit = record.forfeit
        detail = " ".join(forfeit.detail.split())  # one line
        lines.append(f"forfeit: {forfeit.seat} {forfeit.reason} {detail}".rstrip())
    lines.append("")
    states = record.replay()
    lines += (format_action(a, s) for a, s in zip(record.actions, states, strict=False))
    return "\n".join(lines) + "\n"


def _rules(rules: Rules) -> str:
    changed = []
    for name in _RULE_FIELDS:
        value = getattr(rules, name)
        if value != getattr(Rules(), name):
            text = ",".join(map(str, value)) if isinstance(value, tuple) else str(value)
            changed.append(f"{name}={text}")
    return " ".join(changed) if changed else "standard"


def parse_record(text: str) -> GameRecord:
    """Read a game record written by :func:`format_record`.

    Blank lines are skipped, and on an action line ``;`` starts a comment
    running to the end of the line. A header line has a ``:`` before any
    ``;`` (so a comment may hold a ``:``). The header lines come first;
    ``players`` and ``seed`` are required, ``rules`` defaults to the published
    rules, ``result`` defaults to every other seat when ``forfeit`` is
    given, and a setting of ``rules`` other than the ``..._by_players``
    ones is one number. Each action line is read with
    :func:`~splendor.formats.notation.parse_action` in the state reached so far.

    Args:
        text: the record's text.

    Returns:
        The record, with the actions as :func:`~splendor.legal_actions` lists
        them where the text names listed ones.

    Raises:
        NotationError: when a line cannot be read; the message gives its number.
        IllegalActionError: when an action line is illegal at its turn, the
            result given is not the game's, or a forfeited game is over.
        InvalidArgumentError: when ``text`` is not a ``str``.

    >>> text = "players: 2\\nseed: 1\\n\\n+RR\\n+wbg ; a comment\\n"
    >>> record = parse_record(text)
    >>> [str(action) for action in record.actions]
    ['take 2R', 'take 1W 1B 1G']
    """
    if type(text) is not str:
        raise InvalidArgumentError(f"expected the text of a record, got {type(text).__name__}")
    if len(text) > MAX_RECORD_LENGTH:
        raise NotationError(
            f"a record text is at most {MAX_RECORD_LENGTH:,} characters long, got {len(text):,}"
        )
    header: dict[str, str] = {}
    moves: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        # A ':' before any ';' makes a header line; after a ';' it is part of a comment.
        # The whole line is the header's value: a name in the JSON list may hold a ';'.
        move = line.split(";", 1)[0]
        if ":" in move:
            key, _, value = line.partition(":")
            if moves:
                raise NotationError(f"line {number}: a header line after the first action")
            key = key.strip().lower()
            if key not in _HEADER_KEYS:
                raise NotationError(
                    f"line {number}: unknown header {excerpt(key, 20)}; expected one of "
                    + ", ".join(_HEADER_KEYS)
                )
            if key in header:
                raise NotationError(f"line {number}: the header {key!r} is given twice")
            header[key] = value.strip()
            continue
        move = move.strip()
        if move:
            moves.append((number, move))
    for required in ("players", "seed"):
        if required not in header:
            raise NotationError(f"the record has no {required!r} header line")
    try:
        record = GameRecord(
            players=_header_int(header["players"], "players"),
            seed=_header_int(header["seed"], "seed"),
            rules=_parse_rules(header.get("rules", "standard")),
            names=_parse_names(header["names"]) if "names" in header else None,
            result=_parse_result(header["result"]) if "result" in header else None,
        )
        if "forfeit" in header:
            forfeit = _parse_forfeit(header["forfeit"])
            others = tuple(seat for seat in range(record.players) if seat != forfeit.seat)
            record = GameRecord(
                record.players,
                record.seed,
                record.rules,
                (),
                record.names,
                record.result if "result" in header else others,
                forfeit,
            )
    except InvalidArgumentError as error:
        raise NotationError(f"the record's header: {error}") from error
    state = record.initial_state()
    actions: list[Action] = []
    for number, line in moves:
        try:
            action = parse_action(line, state)
        except SplendorError as error:
            raise type(error)(f"line {number}: {error}") from error
        actions.append(action)
        state = apply(state, action)
    if record.forfeit is not None and state.is_over:
        raise IllegalActionError(
            f"the record says seat {record.forfeit.seat} forfeited, but the game it "
            "describes is over by the rules"
        )
    if record.forfeit is None and record.result is not None and record.result != state.winners:
        raise IllegalActionError(
            f"the record's result {record.result} does not match the winners {state.winners} "
            "of the game it describes"
        )
    return attrs.evolve(record, actions=tuple(actions))


_HEADER_KEYS: Final = ("players", "seed", "rules", "names", "result", "forfeit")


def _header_int(value: str, key: str) -> int:
    digits = value.strip().removeprefix("-")
    if not (digits.isascii() and digits.isdigit() and len(digits) <= _MAX_DIGITS):
        raise NotationError(
            f"the {key!r} header must be an integer of at most {_MAX_DIGITS} digits, "
            f"got {excerpt(value)}"
        )
    return int(value)


def _parse_rules(value: str) -> Rules:
    if value.lower() == "standard":
        return Rules()
    settings: dict[str, int | tuple[int, ...]] = {}
    for part in value.split():
        name, equals, number = part.partition("=")
        if not equals or name not in _RULE_FIELDS:
            raise NotationError(
                f"the 'rules' header is 'standard' or name=value settings of "
                f"{', '.join(_RULE_FIELDS)}; cannot read {excerpt(part)}"
            )
        if name in settings:
            raise NotationError(f"the 'rules' header sets {name} twice")
        numbers = tuple(_header_int(n, f"rules {name}") for n in number.split(","))
        if name.endswith("_by_players"):
            settings[name] = numbers
        elif len(numbers) == 1:
            settings[name] = numbers[0]
        else:
            raise NotationError(f"the rule {name} is one number, got {excerpt(number)}")
    try:
        return Rules(**settings)  # type: ignore[arg-type]  # each value checked by Rules
    except SplendorError as error:
        raise NotationError(f"the 'rules' header: {error}") from error


def _parse_names(value: str) -> tuple[str, ...]:
    try:
        names = json.loads(value)  # the line is at most MAX_RECORD_LENGTH long
    except (ValueError, RecursionError):  # not JSON, a number too long, or nested too deep
        names = None
    if type(names) is not list or not all(type(name) is str for name in names):
        raise NotationError(
            f"the 'names' header must be a JSON list of strings, got {excerpt(value)}"
        )
    return tuple(names)


def _parse_forfeit(value: str) -> Forfeit:
    seat, _, rest = value.strip().partition(" ")
    reason, _, detail = rest.strip().partition(" ")
    if not reason:
        raise NotationError(
            f"the 'forfeit' header is a seat, a reason and a detail, got {excerpt(value)}"
        )
    return Forfeit(_header_int(seat, "forfeit"), reason, detail.strip())


def _parse_result(value: str) -> tuple[int, ...]:
    return tuple(_header_int(seat, "result") for seat in value.split())
