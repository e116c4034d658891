"""The observation rows: what one seat sees, as a flat vector of fixed layout.

The one writer of the rows that :mod:`splendor.rl.observations` describes
and :mod:`splendor.rl` offers (:func:`splendor.rl.observation` and the
rest): :func:`observation` and :func:`observe_state`, on the layout of
:mod:`splendor.fast.layout` (re-exported here). It sits below the kernel,
which writes the same rows in C (``_observations.pxi``) for
:class:`splendor.fast.VectorEnv <splendor.fast.vector.VectorEnv>` and
:meth:`Game.observation_into <splendor.fast.reference.Game.observation_into>`.
It needs ``numpy`` (the ``[rl]`` extra); the layout does not.
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Callable, Sequence
from typing import Any, Final

from splendor.core.components import Card, Noble
from splendor.core.gems import Tokens
from splendor.core.rules import Rules
from splendor.core.state import GameState, PlayerState
from splendor.core.views import PlayerView, PublicPlayer
from splendor.errors import InvalidArgumentError
from splendor.extras import require
from splendor.fast.layout import (
    CARD_FEATURES,
    CARD_ROWS,
    CARD_SIZE,
    HIDDEN_ROW,
    NOBLE_FEATURES,
    NOBLE_ROWS,
    NOBLE_SIZE,
    ObservationField,
    observation_high,
    observation_layout,
    observation_shape,
)
from splendor.formats.encoding import ACTION_COUNT

require("numpy", "rl", "splendor.fast.observations")

import numpy as np  # noqa: E402  (after the check that names the extra)
import numpy.typing as npt  # noqa: E402

__all__ = [
    "CARD_FEATURES",
    "NOBLE_FEATURES",
    "ObservationField",
    "observation",
    "observation_high",
    "observation_layout",
    "observation_shape",
    "observe_state",
]


def _packer_of(row: tuple[float, ...]) -> bytes:
    """A row as the bytes of its ``float32`` entries (the machine's byte order)."""
    return struct.pack(f"={len(row)}f", *row)


_CARD_BYTES: Final = tuple(_packer_of(row) for row in CARD_ROWS)
_NOBLE_BYTES: Final = tuple(_packer_of(row) for row in NOBLE_ROWS)


@functools.cache
def _packer(count: int) -> struct.Struct:
    return struct.Struct(f"={count}f")


@functools.cache
def _zeros(count: int) -> bytes:
    return bytes(4 * count)


def observation(view: PlayerView, prefix: Sequence[int] = ()) -> npt.NDArray[np.float32]:
    """The observation of a seat's view, as a new ``float32`` vector.

    Args:
        view: the view of a seat (not a spectator's), from
            :func:`splendor.view`.
        prefix: the codes already chosen in the current turn (see
            :func:`splendor.formats.encoding.legal_codes`); empty between turns and
            for a seat that is not to move.

    Returns:
        A vector of :func:`observation_shape` ``(players, view.rules)``,
        laid out as :func:`observation_layout` says.

    Raises:
        InvalidArgumentError: for something that is not a seat's view, or a
            prefix that is not a sequence of codes in ``range(ACTION_COUNT)``.
    """
    if type(view) is not PlayerView:
        raise InvalidArgumentError(f"expected a PlayerView, got {type(view).__name__}")
    seat = view.seat
    own = view.own
    if seat is None or own is None:
        raise InvalidArgumentError("a spectator's view has no observer: view a seat instead")
    codes = ACTION_COUNT
    if type(prefix) is not tuple and (isinstance(prefix, str) or not isinstance(prefix, Sequence)):
        raise InvalidArgumentError(f"prefix must be a sequence of codes, got {prefix!r}")
    for code in prefix:
        if type(code) is not int or not 0 <= code < codes:
            raise InvalidArgumentError(
                f"a code is an int from 0 to {codes - 1}, got {code!r} in the prefix {prefix!r}"
            )
    return _vector(
        view.rules,
        seat,
        view.players,
        own.reserved,
        _public_reserve,
        view.bank,
        view.deck_sizes,
        view.board,
        view.nobles,
        view.passes,
        view.winners,
        view.current_player,
        prefix,
    )


def _public_reserve(player: PublicPlayer) -> list[int]:
    """The card-table rows of another player's reserves, as its public part shows them."""
    ids = [card.id for card in player.reserved]
    ids += [HIDDEN_ROW + tier for tier in player.blind_reserves]
    return ids


def _state_reserve(player: PlayerState) -> list[int]:
    """The same rows from a player's full state: its blind reserves as tiers, in order."""
    reserved = player.reserved
    if not reserved:
        return []
    flags = player.reserved_blind
    if True not in flags:
        return [card.id for card in reserved]
    ids = [card.id for card, blind in zip(reserved, flags, strict=True) if not blind]
    tiers = sorted(card.tier for card, blind in zip(reserved, flags, strict=True) if blind)
    ids += [HIDDEN_ROW + tier for tier in tiers]
    return ids


def observe_state(
    state: GameState, seat: int, prefix: tuple[int, ...] = ()
) -> npt.NDArray[np.float32]:
    """``observation(view(state, seat), prefix)``, without making the view.

    For the environments, which hold whole states: the result is the same
    (a test compares both), only quicker. ``state``, ``seat`` and ``prefix``
    are trusted to be well formed.
    """
    players: Sequence[PlayerState] = state.players
    return _vector(
        state.rules,
        seat,
        players,
        players[seat].reserved,
        _state_reserve,
        state.bank,
        tuple(len(deck) for deck in state.decks),
        state.board,
        state.nobles,
        state.passes,
        state.winners,
        state.current_player,
        prefix,
    )


def _vector(
    rules: Rules,
    seat: int,
    public: Sequence[PublicPlayer] | Sequence[PlayerState],
    own_reserved: tuple[Card, ...],
    reserve_of: Callable[[Any], list[int]],
    bank: Tokens,
    deck_sizes: tuple[int, ...],
    board: tuple[tuple[Card | None, ...], ...],
    shown_nobles: tuple[Noble, ...],
    passes: int,
    winners: tuple[int, ...],
    current_player: int,
    prefix: Sequence[int],
) -> npt.NDArray[np.float32]:
    codes = ACTION_COUNT
    players = len(public)
    nobles = rules.nobles(players)
    slots = rules.reserve_limit
    if len(shown_nobles) > nobles:
        raise InvalidArgumentError(
            f"the view shows {len(shown_nobles)} nobles, more than the rules reveal ({nobles})"
        )
    # The scalars (bank, decks, status, players) first, then every card slot
    # (board, then reserves), then the nobles, then the decision.
    scalars: list[float] = [*bank.counts, *deck_sizes, passes, bool(winners)]
    cards = [0 if card is None else card.id for row in board for card in row]
    current = -1 if winners else current_player
    for i in range(players):
        index = (seat + i) % players
        player = public[index]
        scalars += player.tokens.counts
        scalars += player.bonuses.counts[:5]
        scalars += (player.points, len(player.cards), len(player.nobles), index == current)
    for i in range(players):
        index = (seat + i) % players
        if index == seat:
            ids = [card.id for card in own_reserved]
        else:
            ids = reserve_of(public[index])
        if len(ids) > slots:
            raise InvalidArgumentError(
                f"player {index} holds {len(ids)} reserved cards, more than the rules "
                f"allow ({slots})"
            )
        cards += ids
        cards += [0] * (slots - len(ids))
    # Each part as float32 bytes, joined once: far quicker than numpy on many
    # small pieces.
    parts = [_packer(len(scalars)).pack(*scalars)]
    parts += [_CARD_BYTES[card] for card in cards]
    parts += [_NOBLE_BYTES[noble.id] for noble in shown_nobles]
    parts.append(_NOBLE_BYTES[0] * (nobles - len(shown_nobles)))
    noble_stop = len(scalars) + len(cards) * CARD_SIZE + nobles * NOBLE_SIZE
    parts.append(_zeros(1 + 2 * codes))
    out = np.frombuffer(bytearray(b"".join(parts)), dtype=np.float32)
    if prefix:
        out[noble_stop] = len(prefix)
        out[noble_stop + 1 + prefix[0]] = 1.0
        later = noble_stop + 1 + codes
        for code in prefix[1:]:
            out[later + code] += 1.0
    return out
