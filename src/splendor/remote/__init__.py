"""Bots in other processes: the Splendor bot protocol (SBP), its host side and its engine side.

A bot engine is a program, in any language, that plays over the protocol
on its standard input and output (see the docs' protocol page).
:func:`~splendor.remote.host.open_engine` (or
:func:`~splendor.remote.host.open_engine_async`) starts one and returns an
:class:`~splendor.remote.host.Engine`, a bot usable wherever a bot is;
:func:`~splendor.remote.serve.serve` turns any bot into an engine
(``splendor engine SPEC`` on the command line). The messages are in
:mod:`splendor.remote.messages` and their lines in
:mod:`splendor.remote.codec`; the constants (the longest line, the grace
of a move) stay in their modules.
:func:`~splendor.remote.usi.open_usi_engine` plays an engine of csplendor's
USI-like protocol (:mod:`splendor.remote.usi`).

This package is no part of the rules engine (``new_game``,
``legal_actions``, ``apply``): "engine" here always means a bot engine, a
player in another process.
"""

from __future__ import annotations

from splendor.remote.host import (
    Analysis,
    AsyncEngine,
    Engine,
    EngineId,
    PlayResult,
    open_engine,
    open_engine_async,
)
from splendor.remote.messages import Clock, Info, Limit, Option
from splendor.remote.serve import Analyser, serve
from splendor.remote.usi import UsiEngine, open_usi_engine

__all__ = [
    "Analyser",
    "Analysis",
    "AsyncEngine",
    "Clock",
    "Engine",
    "EngineId",
    "Info",
    "Limit",
    "Option",
    "PlayResult",
    "UsiEngine",
    "open_engine",
    "open_engine_async",
    "open_usi_engine",
    "serve",
]
