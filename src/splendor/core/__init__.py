"""The engine: the rules of the game, and what one seat may see of it.

The bottom layer. Its modules import only each other, the standard library
and ``attrs`` (even inside functions; ``GameState._repr_svg_`` is the one
documented hook upwards). ``import splendor`` loads this package and nothing
else.

The names below are the package's public API, each defined in one of its
modules and imported from it on first use (``from splendor.core import
Rules``); ``splendor`` itself re-exports the ones a player of the game uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from splendor.core.lazy import lazy_names

if TYPE_CHECKING:
    from splendor.core.actions import Action as Action
    from splendor.core.actions import Buy as Buy
    from splendor.core.actions import Pass as Pass
    from splendor.core.actions import Reserve as Reserve
    from splendor.core.actions import ReserveFromDeck as ReserveFromDeck
    from splendor.core.actions import Take as Take
    from splendor.core.checks import LARGEST as LARGEST
    from splendor.core.checks import TIERS as TIERS
    from splendor.core.checks import is_int as is_int
    from splendor.core.checks import tuple_of as tuple_of
    from splendor.core.components import CARDS as CARDS
    from splendor.core.components import CARDS_BY_ID as CARDS_BY_ID
    from splendor.core.components import NOBLES as NOBLES
    from splendor.core.components import NOBLES_BY_ID as NOBLES_BY_ID
    from splendor.core.components import Card as Card
    from splendor.core.components import Noble as Noble
    from splendor.core.components import Tier as Tier
    from splendor.core.components import is_game_card as is_game_card
    from splendor.core.components import is_game_noble as is_game_noble
    from splendor.core.components import tier_index as tier_index
    from splendor.core.deal import new_game as new_game
    from splendor.core.gems import GEMS as GEMS
    from splendor.core.gems import MAX_COUNT as MAX_COUNT
    from splendor.core.gems import Gem as Gem
    from splendor.core.gems import Tokens as Tokens
    from splendor.core.legal import ListsActions as ListsActions
    from splendor.core.legal import legal_actions as legal_actions
    from splendor.core.messages import short_repr as short_repr
    from splendor.core.play import apply as apply
    from splendor.core.play import is_legal as is_legal
    from splendor.core.rules import MAX_PLAYERS as MAX_PLAYERS
    from splendor.core.rules import MIN_PLAYERS as MIN_PLAYERS
    from splendor.core.rules import Rules as Rules
    from splendor.core.state import MAX_TURN as MAX_TURN
    from splendor.core.state import GameState as GameState
    from splendor.core.state import PlayerState as PlayerState
    from splendor.core.validation import check_player as check_player
    from splendor.core.validation import check_state as check_state
    from splendor.core.views import PlayerView as PlayerView
    from splendor.core.views import PublicPlayer as PublicPlayer
    from splendor.core.views import check_view as check_view
    from splendor.core.views import determinize as determinize
    from splendor.core.views import view as view
    from splendor.core.wording import describe as describe
    from splendor.core.wording import plural as plural

__all__ = [
    "CARDS",
    "CARDS_BY_ID",
    "GEMS",
    "LARGEST",
    "MAX_COUNT",
    "MAX_PLAYERS",
    "MAX_TURN",
    "MIN_PLAYERS",
    "NOBLES",
    "NOBLES_BY_ID",
    "TIERS",
    "Action",
    "Buy",
    "Card",
    "GameState",
    "Gem",
    "ListsActions",
    "Noble",
    "Pass",
    "PlayerState",
    "PlayerView",
    "PublicPlayer",
    "Reserve",
    "ReserveFromDeck",
    "Rules",
    "Take",
    "Tier",
    "Tokens",
    "apply",
    "check_player",
    "check_state",
    "check_view",
    "describe",
    "determinize",
    "is_game_card",
    "is_game_noble",
    "is_int",
    "is_legal",
    "legal_actions",
    "new_game",
    "plural",
    "short_repr",
    "tier_index",
    "tuple_of",
    "view",
]

__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "splendor.core.actions": ("Action", "Buy", "Pass", "Reserve", "ReserveFromDeck", "Take"),
        "splendor.core.checks": ("LARGEST", "TIERS", "is_int", "tuple_of"),
        "splendor.core.components": (
            "CARDS",
            "CARDS_BY_ID",
            "NOBLES",
            "NOBLES_BY_ID",
            "Card",
            "Noble",
            "Tier",
            "is_game_card",
            "is_game_noble",
            "tier_index",
        ),
        "splendor.core.deal": ("new_game",),
        "splendor.core.gems": ("GEMS", "MAX_COUNT", "Gem", "Tokens"),
        "splendor.core.legal": ("ListsActions", "legal_actions"),
        "splendor.core.messages": ("short_repr",),
        "splendor.core.play": ("apply", "is_legal"),
        "splendor.core.rules": ("MAX_PLAYERS", "MIN_PLAYERS", "Rules"),
        "splendor.core.state": ("MAX_TURN", "GameState", "PlayerState"),
        "splendor.core.validation": ("check_player", "check_state"),
        "splendor.core.views": ("PlayerView", "PublicPlayer", "check_view", "determinize", "view"),
        "splendor.core.wording": ("describe", "plural"),
    },
)
