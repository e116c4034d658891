"""Who plays: the bot protocol, the built-in bots, the searches, a bot in a
seat, and the loop that plays a game between bots.

Built on :mod:`splendor.core`, :mod:`splendor.formats` and the kernel
(:mod:`splendor.fast`). The names below are the package's public API, each
defined in one of its modules and imported from it on first use, so that
importing one bot does not load the others (the search of :class:`SearchBot`
loads the compiled kernel).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from splendor.core.lazy import lazy_names

if TYPE_CHECKING:
    from splendor.players.bots import BOTS as BOTS
    from splendor.players.bots import DEFAULT_MAX_TURNS as DEFAULT_MAX_TURNS
    from splendor.players.bots import ENGINE_PREFIX as ENGINE_PREFIX
    from splendor.players.bots import GreedyBot as GreedyBot
    from splendor.players.bots import RandomBot as RandomBot
    from splendor.players.bots import bot_name as bot_name
    from splendor.players.bots import bot_rngs as bot_rngs
    from splendor.players.bots import kernel_plays as kernel_plays
    from splendor.players.bots import load_bot as load_bot
    from splendor.players.bots import parse_bot_spec as parse_bot_spec
    from splendor.players.bots import play_final_state as play_final_state
    from splendor.players.bots import play_game as play_game
    from splendor.players.ismcts import ISMCTSBot as ISMCTSBot
    from splendor.players.ismcts import SearchResult as SearchResult
    from splendor.players.levels import LEVEL_PREFIX as LEVEL_PREFIX
    from splendor.players.levels import LEVELS as LEVELS
    from splendor.players.levels import Level as Level
    from splendor.players.levels import level_bot as level_bot
    from splendor.players.protocol import ACTION_TYPES as ACTION_TYPES
    from splendor.players.protocol import Bot as Bot
    from splendor.players.protocol import check_turn as check_turn
    from splendor.players.search import SearchBot as SearchBot
    from splendor.players.seats import Answer as Answer
    from splendor.players.seats import BotFailedError as BotFailedError
    from splendor.players.seats import ask_bot as ask_bot
    from splendor.players.seats import close_bot as close_bot

__all__ = [
    "ACTION_TYPES",
    "BOTS",
    "DEFAULT_MAX_TURNS",
    "ENGINE_PREFIX",
    "LEVELS",
    "LEVEL_PREFIX",
    "Answer",
    "Bot",
    "BotFailedError",
    "GreedyBot",
    "ISMCTSBot",
    "Level",
    "RandomBot",
    "SearchBot",
    "SearchResult",
    "ask_bot",
    "bot_name",
    "bot_rngs",
    "check_turn",
    "close_bot",
    "kernel_plays",
    "level_bot",
    "load_bot",
    "parse_bot_spec",
    "play_final_state",
    "play_game",
]

__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "splendor.players.bots": (
            "BOTS",
            "DEFAULT_MAX_TURNS",
            "ENGINE_PREFIX",
            "GreedyBot",
            "RandomBot",
            "bot_name",
            "bot_rngs",
            "kernel_plays",
            "load_bot",
            "parse_bot_spec",
            "play_final_state",
            "play_game",
        ),
        "splendor.players.ismcts": (
            "ISMCTSBot",
            "SearchResult",
        ),
        "splendor.players.levels": (
            "LEVELS",
            "LEVEL_PREFIX",
            "Level",
            "level_bot",
        ),
        "splendor.players.protocol": (
            "ACTION_TYPES",
            "Bot",
            "check_turn",
        ),
        "splendor.players.search": ("SearchBot",),
        "splendor.players.seats": (
            "Answer",
            "BotFailedError",
            "ask_bot",
            "close_bot",
        ),
    },
)
