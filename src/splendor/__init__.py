"""splendor: the board game Splendor, exactly by its rules.

Deal a game with :func:`new_game`, list the moves with :func:`legal_actions`
and play one whole turn with :func:`apply`:

>>> import random, splendor
>>> state = splendor.new_game(2, seed=7)
>>> rng = random.Random(7)
>>> while not state.is_over:
...     state = splendor.apply(state, rng.choice(splendor.legal_actions(state)))
>>> state.winners, [player.points for player in state.players]
((1,), [9, 15])
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

# The engine: imported with the package (it needs nothing but attrs).
from splendor.core.actions import Action, Buy, Pass, Reserve, ReserveFromDeck, Take
from splendor.core.components import CARDS, CARDS_BY_ID, NOBLES, NOBLES_BY_ID, Card, Noble
from splendor.core.deal import new_game
from splendor.core.gems import GEMS, Gem, Tokens
from splendor.core.legal import legal_actions
from splendor.core.play import apply, is_legal
from splendor.core.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from splendor.core.state import GameState, PlayerState
from splendor.errors import (
    IllegalActionError,
    InvalidArgumentError,
    InvalidStateError,
    NotationError,
    SerializationError,
    SplendorError,
    UnknownColourError,
)

if TYPE_CHECKING:
    # Everything else loads on first use (see ``__getattr__`` below); type
    # checkers see the names here.
    from splendor.core.validation import check_state
    from splendor.core.views import PlayerView, PublicPlayer, determinize, view
    from splendor.draw.svg import render_svg
    from splendor.draw.text import format_board
    from splendor.formats.notation import format_action, parse_action
    from splendor.formats.record import GameRecord
    from splendor.formats.record_text import format_record, parse_record
    from splendor.formats.serialization import from_json, to_json
    from splendor.players.bots import Bot, GreedyBot, RandomBot, play_game
    from splendor.players.ismcts import ISMCTSBot
    from splendor.players.search import SearchBot
    from splendor.schema import FORMAT_VERSION, json_schema

__all__ = [
    "CARDS",
    "CARDS_BY_ID",
    "FORMAT_VERSION",
    "GEMS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NOBLES",
    "NOBLES_BY_ID",
    "Action",
    "Bot",
    "Buy",
    "Card",
    "GameRecord",
    "GameState",
    "Gem",
    "GreedyBot",
    "ISMCTSBot",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidStateError",
    "Noble",
    "NotationError",
    "Pass",
    "PlayerState",
    "PlayerView",
    "PublicPlayer",
    "RandomBot",
    "Reserve",
    "ReserveFromDeck",
    "Rules",
    "SearchBot",
    "SerializationError",
    "SplendorError",
    "Take",
    "Tokens",
    "UnknownColourError",
    "apply",
    "check_state",
    "determinize",
    "format_action",
    "format_board",
    "format_record",
    "from_json",
    "is_legal",
    "json_schema",
    "legal_actions",
    "new_game",
    "parse_action",
    "parse_record",
    "play_game",
    "render_svg",
    "to_json",
    "view",
]

__version__ = "0.1.0"

# The names outside the engine, by the module that defines them: each module
# is imported the first time one of its names is used, so ``import splendor``
# pays only for the engine (no cattrs, no rich).
_LAZY: dict[str, str] = {
    "Bot": "splendor.players.bots",
    "GreedyBot": "splendor.players.bots",
    "RandomBot": "splendor.players.bots",
    "play_game": "splendor.players.bots",
    "ISMCTSBot": "splendor.players.ismcts",
    "SearchBot": "splendor.players.search",
    "format_action": "splendor.formats.notation",
    "format_record": "splendor.formats.record_text",
    "parse_action": "splendor.formats.notation",
    "parse_record": "splendor.formats.record_text",
    "GameRecord": "splendor.formats.record",
    "FORMAT_VERSION": "splendor.schema",
    "json_schema": "splendor.schema",
    "from_json": "splendor.formats.serialization",
    "to_json": "splendor.formats.serialization",
    "render_svg": "splendor.draw.svg",
    "format_board": "splendor.draw.text",
    "check_state": "splendor.core.validation",
    "PlayerView": "splendor.core.views",
    "PublicPlayer": "splendor.core.views",
    "determinize": "splendor.core.views",
    "view": "splendor.core.views",
}


def __getattr__(name: str) -> object:
    """Import the module behind a public name on first use (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'splendor' has no attribute {name!r}")
    value: object = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """Every public name, loaded or not, and ``__version__``."""
    return sorted([*__all__, "__version__"])
