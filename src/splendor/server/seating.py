"""Seating a table: the seats, their secrets, and the request that opens a table, checked.

:func:`read_request` reads the JSON body of ``POST /api/tables`` into a
:class:`TableRequest`: the seats (a person holding a secret, or a bot named
from what the server offers, :mod:`splendor.server.engines`), the house
rules and the seed. A person's secret lives only in the seat's link: a seat
keeps its SHA-256 digest (:func:`digest`).
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from collections.abc import Mapping
from typing import Final

import attrs

from splendor.core.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from splendor.errors import SplendorError
from splendor.server.engines import LEVEL_BOTS, bot_choices, is_offered
from splendor.server.protocol import ServerError

__all__ = [
    "MAX_NAME",
    "MAX_RULE_VALUE",
    "Seat",
    "TableRequest",
    "digest",
    "is_engine_seat",
    "read_request",
]

#: The longest name of a seat.
MAX_NAME: Final = 24
#: The largest number a house rule may set.
MAX_RULE_VALUE: Final = 99

_RULE_PAIRS: Final = ("gems_by_players", "gold_by_players", "nobles_by_players")
_RULE_NUMBERS: Final = ("points_to_win", "token_limit", "reserve_limit")


@attrs.frozen
class Seat:
    """One seat of a table.

    Attributes:
        name: the name shown for the seat.
        kind: ``"person"`` or ``"bot"``.
        bot: for a bot seat, the bot's name: one of
            :data:`splendor.players.bots.BOTS`, a level
            (:data:`~splendor.server.engines.LEVEL_BOTS`), or an engine the
            server's operator configured (see :class:`~splendor.server.hub.Hub`).
        secret_digest: the hex SHA-256 digest of the seat's secret, for a
            person's seat.
    """

    name: str
    kind: str
    bot: str | None = None
    secret_digest: str | None = None


def digest(secret: str) -> str:
    """The hex SHA-256 digest under which a seat's secret is stored."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def is_engine_seat(seat: Seat, engines: Mapping[str, str]) -> bool:
    """Whether one of the operator's ``engines`` plays ``seat``."""
    return seat.kind == "bot" and seat.bot in engines


@attrs.frozen
class TableRequest:
    """A request to open a table, checked.

    Attributes:
        seats: the seats, seat 0 moving first.
        secrets: each seat's secret (``None`` for a bot's seat).
        rules: the rules to play under.
        seed: the seed of the deal: the request's, or a random one.
    """

    seats: tuple[Seat, ...]
    secrets: tuple[str | None, ...]
    rules: Rules
    seed: int


def read_request(request: object, engines: Mapping[str, str], *, allow_seeds: bool) -> TableRequest:
    """Read the JSON body of ``POST /api/tables`` (see :meth:`~splendor.server.hub.Hub.create`).

    Args:
        request: the body, as ``json.loads`` reads it.
        engines: the operator's engines, which seats may name.
        allow_seeds: whether the request may choose the ``seed``.

    Returns:
        The request, with a secret made for each person's seat and a seed
        of 63 random bits unless the request chose one.

    Raises:
        ServerError: ``bad_request`` with the reason.
    """
    if not isinstance(request, dict):
        raise ServerError("bad_request", "the request must be a JSON object")
    unknown = set(request) - {"seats", "rules", "seed"}
    if unknown:
        raise ServerError("bad_request", f"unknown field(s): {', '.join(sorted(unknown))}")
    seats_in = request.get("seats")
    if not isinstance(seats_in, list) or not MIN_PLAYERS <= len(seats_in) <= MAX_PLAYERS:
        raise ServerError(
            "bad_request", f"seats must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} seats"
        )
    seats = [_seat(number, entry, engines) for number, entry in enumerate(seats_in)]
    rules = _rules(request.get("rules", {}))
    seed = request.get("seed")
    if seed is None:
        # 63 random bits: the most a record holds (a signed 64-bit integer).
        seed = secrets.randbits(63)
    elif not allow_seeds:
        raise ServerError("bad_request", "this server deals its own seeds")
    elif type(seed) is not int:
        raise ServerError("bad_request", "seed must be an integer")
    return TableRequest(
        tuple(seat for seat, _ in seats), tuple(secret for _, secret in seats), rules, seed
    )


def _seat(number: int, entry: object, engines: Mapping[str, str]) -> tuple[Seat, str | None]:
    where = f"seat {number + 1}"
    if not isinstance(entry, dict):
        raise ServerError("bad_request", f"{where} must be an object")
    unknown = set(entry) - {"kind", "bot", "name"}
    if unknown:
        raise ServerError("bad_request", f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    kind = entry.get("kind")
    bot = entry.get("bot")
    if kind == "person":
        if bot is not None:
            raise ServerError("bad_request", f"{where}: a person's seat has no bot")
        default = f"Player {number + 1}"
    elif kind == "bot":
        if not isinstance(bot, str) or not is_offered(bot, engines):
            # Only names: a client never gives a command or a spec to run.
            raise ServerError("bad_request", f"{where}: bot must be one of {bot_choices(engines)}")
        default = LEVEL_BOTS.get(bot) or f"{bot} bot"
    else:
        raise ServerError("bad_request", f"{where}: kind must be 'person' or 'bot'")
    name = _name(entry.get("name"), default, where)
    if kind == "bot":
        return Seat(name, "bot", bot), None
    secret = secrets.token_urlsafe(18)
    return Seat(name, "person", None, digest(secret)), secret


def _name(value: object, default: str, where: str) -> str:
    if value is None:
        return default
    if not isinstance(value, str):
        raise ServerError("bad_request", f"{where}: name must be a string")
    name = " ".join(value.split())
    if not name:
        return default
    if len(name) > MAX_NAME or any(unicodedata.category(c).startswith("C") for c in name):
        raise ServerError("bad_request", f"{where}: a name is 1 to {MAX_NAME} printable characters")
    return name


def _rules(value: object) -> Rules:
    if not isinstance(value, dict):
        raise ServerError("bad_request", "rules must be an object")
    fields: dict[str, object] = {}
    for key, setting in value.items():
        if key in _RULE_NUMBERS:
            fields[key] = _rule_number(key, setting)
        elif key in _RULE_PAIRS:
            if not isinstance(setting, list) or len(setting) != 3:
                raise ServerError("bad_request", f"rules.{key} must be 3 numbers (2, 3, 4 players)")
            fields[key] = tuple(_rule_number(key, item) for item in setting)
        else:
            raise ServerError("bad_request", f"unknown rule {key!r}")
    try:
        return Rules(**fields)  # type: ignore[arg-type]  # each value was checked above
    except SplendorError as error:
        raise ServerError("bad_request", str(error)) from None


def _rule_number(key: str, value: object) -> int:
    if type(value) is not int or not 0 <= value <= MAX_RULE_VALUE:
        raise ServerError("bad_request", f"rules.{key}: numbers from 0 to {MAX_RULE_VALUE}")
    return value
