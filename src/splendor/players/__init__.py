"""Who plays: the bot protocol, the built-in bots, the information-set
searches, and the loop that plays a game between bots.

Built on :mod:`splendor.core`, :mod:`splendor.formats` and the kernel
(:mod:`splendor.fast`). Each name is loaded on first use from the module
that defines it, so that importing one bot does not load the others (the
search of :class:`SearchBot` loads the compiled kernel).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from splendor.players.bots import BOTS as BOTS
    from splendor.players.bots import DEFAULT_MAX_TURNS as DEFAULT_MAX_TURNS
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
    from splendor.players.levels import LEVELS as LEVELS
    from splendor.players.levels import Level as Level
    from splendor.players.levels import level_bot as level_bot
    from splendor.players.protocol import Bot as Bot
    from splendor.players.search import SearchBot as SearchBot

# Each public name and the module that defines it.
_LAZY: Final[dict[str, str]] = {
    "BOTS": "splendor.players.bots",
    "DEFAULT_MAX_TURNS": "splendor.players.bots",
    "GreedyBot": "splendor.players.bots",
    "RandomBot": "splendor.players.bots",
    "bot_name": "splendor.players.bots",
    "bot_rngs": "splendor.players.bots",
    "kernel_plays": "splendor.players.bots",
    "load_bot": "splendor.players.bots",
    "parse_bot_spec": "splendor.players.bots",
    "play_final_state": "splendor.players.bots",
    "play_game": "splendor.players.bots",
    "ISMCTSBot": "splendor.players.ismcts",
    "LEVELS": "splendor.players.levels",
    "Level": "splendor.players.levels",
    "level_bot": "splendor.players.levels",
    "Bot": "splendor.players.protocol",
    "SearchBot": "splendor.players.search",
}

__all__ = [
    "BOTS",
    "DEFAULT_MAX_TURNS",
    "LEVELS",
    "Bot",
    "GreedyBot",
    "ISMCTSBot",
    "Level",
    "RandomBot",
    "SearchBot",
    "bot_name",
    "bot_rngs",
    "kernel_plays",
    "level_bot",
    "load_bot",
    "parse_bot_spec",
    "play_final_state",
    "play_game",
]


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'splendor.players' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """Every public name, loaded or not."""
    return sorted(_LAZY)
