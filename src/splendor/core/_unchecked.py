"""Fast constructors for the engine's own values (private to the package).

The engine builds states and actions from values it has already checked, on
the hot path of :func:`splendor.apply` and :func:`splendor.legal_actions`.
These functions make the very objects the attrs constructors make (equal,
with the same hash: ``tests/core/test_engine_values.py`` checks it), without the
per-field frozen-attribute calls and the validators. Never use them on
values that were not checked.

They write each field through its slot's descriptor (attrs makes frozen
classes slotted, one slot per field), and the one attrs internal they rely
on is in :func:`_slot_setters`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeVar

import attrs

from splendor.core.actions import Action, Buy, Pass, Reserve, ReserveFromDeck, Take
from splendor.core.components import Card, Noble
from splendor.core.gems import Tokens
from splendor.core.rules import Rules
from splendor.core.state import GameState, PlayerState

__all__ = ["blind", "buy", "pass_", "player", "reserve", "state", "take", "with_noble"]

_new = object.__new__
_Setter = Callable[[object, object], None]

# The one attrs internal the module relies on. A class made with
# ``cache_hash=True`` (the states and the actions) keeps its hash in one more
# slot, attrs' private ``_attrs_cached_hash`` (``attr._make._HASH_CACHE_FIELD``
# in attrs 23.1 to 26.x, the versions pyproject.toml allows), which its
# __init__ sets to None ("not computed yet") and its __hash__ fills. If attrs
# renames that slot, this module fails at import (a KeyError here); if it adds
# another slot or changes what the slot holds,
# tests/core/test_engine_values.py::test_the_fast_constructors_fill_every_slot_as_attrs_does
# fails.
ATTRS_HASH_SLOT: Final = "_attrs_cached_hash"


def _slot_setters(cls: type) -> tuple[tuple[_Setter, ...], _Setter]:
    """The setters of ``cls``'s field slots, in field order, and of its cached-hash slot."""
    fields = tuple(cls.__dict__[field.name].__set__ for field in attrs.fields(cls))
    return fields, cls.__dict__[ATTRS_HASH_SLOT].__set__


# States: without the per-field frozen-attribute calls of the attrs __init__.
(
    (
        _set_tokens,
        _set_cards,
        _set_reserved,
        _set_blind,
        _set_nobles,
        _set_points,
        _set_bonuses,
    ),
    _set_player_hash,
) = _slot_setters(PlayerState)
(
    (
        _set_rules,
        _set_players,
        _set_bank,
        _set_board,
        _set_decks,
        _set_state_nobles,
        _set_current,
        _set_turn,
        _set_passes,
        _set_winners,
    ),
    _set_state_hash,
) = _slot_setters(GameState)


def player(
    tokens: Tokens,
    cards: tuple[Card, ...],
    reserved: tuple[Card, ...],
    reserved_blind: tuple[bool, ...],
    nobles: tuple[Noble, ...],
    points: int,
    bonuses: Tokens,
) -> PlayerState:
    """A :class:`PlayerState`, unchecked."""
    made: PlayerState = _new(PlayerState)
    _set_tokens(made, tokens)
    _set_cards(made, cards)
    _set_reserved(made, reserved)
    _set_blind(made, reserved_blind)
    _set_nobles(made, nobles)
    _set_points(made, points)
    _set_bonuses(made, bonuses)
    _set_player_hash(made, None)
    return made


def state(
    rules: Rules,
    players: tuple[PlayerState, ...],
    bank: Tokens,
    board: tuple[tuple[Card | None, ...], ...],
    decks: tuple[tuple[Card, ...], ...],
    nobles: tuple[Noble, ...],
    current_player: int,
    turn: int,
    passes: int,
    winners: tuple[int, ...],
) -> GameState:
    """A :class:`GameState`, unchecked."""
    made: GameState = _new(GameState)
    _set_rules(made, rules)
    _set_players(made, players)
    _set_bank(made, bank)
    _set_board(made, board)
    _set_decks(made, decks)
    _set_state_nobles(made, nobles)
    _set_current(made, current_player)
    _set_turn(made, turn)
    _set_passes(made, passes)
    _set_winners(made, winners)
    _set_state_hash(made, None)
    return made


# Actions: without the validators of the attrs __init__ (which cost more than
# the rest of the construction).
_A = TypeVar("_A", Take, Reserve, ReserveFromDeck, Buy, Pass)


def _builder(cls: type[_A]) -> Callable[..., _A]:
    setters, set_hash = _slot_setters(cls)

    def build(*values: object) -> _A:
        action: _A = _new(cls)
        for setter, value in zip(setters, values, strict=True):
            setter(action, value)
        set_hash(action, None)
        return action

    return build


take: Callable[[Tokens, Tokens, Noble | None], Take] = _builder(Take)
reserve: Callable[[Card, Tokens, Noble | None], Reserve] = _builder(Reserve)
blind: Callable[[int, Tokens, Noble | None], ReserveFromDeck] = _builder(ReserveFromDeck)
buy: Callable[[Card, Tokens | None, Noble | None], Buy] = _builder(Buy)
pass_: Callable[[Noble | None], Pass] = _builder(Pass)


def with_noble(action: Action, noble: Noble) -> Action:
    """``action`` receiving ``noble`` (the engine's fast ``attrs.evolve``)."""
    if type(action) is Take:
        return take(action.gems, action.returned, noble)
    if type(action) is Reserve:
        return reserve(action.card, action.returned, noble)
    if type(action) is ReserveFromDeck:
        return blind(action.tier, action.returned, noble)
    if type(action) is Buy:
        return buy(action.card, action.payment, noble)
    return pass_(noble)
