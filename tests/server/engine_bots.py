"""Bots for the server's engine tests: each remembers being made and being closed."""

from __future__ import annotations

import random
from collections.abc import Sequence

from splendor import GreedyBot
from splendor.core.actions import Action
from splendor.core.views import PlayerView

#: Every bot made, in order.
MADE: list[Recorder] = []


class Recorder:
    """A greedy bot with a ``close`` method, as an engine has."""

    def __init__(self) -> None:
        self.closed = False
        self.moves = 0
        MADE.append(self)

    def __call__(
        self, view: PlayerView, actions: Sequence[Action], rng: random.Random, /
    ) -> Action:
        self.moves += 1
        return GreedyBot()(view, actions, rng)

    def close(self) -> None:
        self.closed = True


class Failing(Recorder):
    """A bot that fails on every move, as an engine that dies does."""

    def __call__(
        self, view: PlayerView, actions: Sequence[Action], rng: random.Random, /
    ) -> Action:
        self.moves += 1
        raise RuntimeError("the engine died")


class Sleepy(Recorder):
    """A bot far slower than the server's time for a move."""

    def __call__(
        self, view: PlayerView, actions: Sequence[Action], rng: random.Random, /
    ) -> Action:
        import time

        time.sleep(30)
        return actions[0]
