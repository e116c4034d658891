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

from typing import TYPE_CHECKING

from splendor.actions import Action, Buy, Pass, Reserve, ReserveFromDeck, Take
from splendor.bots import Bot, GreedyBot, RandomBot, play_game
from splendor.components import CARDS, CARDS_BY_ID, NOBLES, NOBLES_BY_ID, Card, Noble
from splendor.deal import new_game
from splendor.errors import (
    IllegalActionError,
    InvalidArgumentError,
    InvalidStateError,
    SplendorError,
    UnknownColourError,
)
from splendor.gems import GEMS, Gem, Tokens
from splendor.ismcts import ISMCTSBot
from splendor.legal import legal_actions
from splendor.notation import (
    NotationError,
    format_action,
    format_record,
    parse_action,
    parse_record,
)
from splendor.play import apply
from splendor.record import GameRecord
from splendor.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from splendor.serialization import SerializationError, from_json, to_json
from splendor.state import GameState, PlayerState
from splendor.validation import check_state
from splendor.views import PlayerView, PublicPlayer, determinize, view

__all__ = [
    "CARDS",
    "CARDS_BY_ID",
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
    "SerializationError",
    "SplendorError",
    "Take",
    "Tokens",
    "UnknownColourError",
    "apply",
    "check_state",
    "determinize",
    "format_action",
    "format_record",
    "from_json",
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

if TYPE_CHECKING:
    from splendor.svg import render_svg


def __getattr__(name: str) -> object:
    # The SVG drawing is imported on first use, so ``import splendor`` does
    # not pay for it.
    if name == "render_svg":
        from splendor.svg import render_svg

        return render_svg
    raise AttributeError(f"module 'splendor' has no attribute {name!r}")
