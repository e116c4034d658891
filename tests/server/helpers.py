"""Shared helpers of the server's tests: a websocket player and the hidden-card check."""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

from splendor import GameState, GreedyBot, PlayerView, from_json, view
from splendor.core.actions import Action, Buy, Reserve
from splendor.core.components import Card

#: The keys a ``state`` message has, and no others.
STATE_KEYS = {
    "type",
    "table",
    "version",
    "seat",
    "seats",
    "view",
    "legal",
    "last",
    "over",
    "result",
}


def hidden_ids(state: GameState, seat: int | None) -> set[int]:
    """The ids of the cards ``seat`` must not see in ``state``: decks and others' blind reserves."""
    hidden = {card.id for deck in state.decks for card in deck}
    for number, player in enumerate(state.players):
        if number != seat:
            hidden |= {
                card.id
                for card, blind in zip(player.reserved, player.reserved_blind, strict=True)
                if blind
            }
    return hidden


def card_ids_in(message: dict[str, Any]) -> set[int]:
    """Every card id a ``state`` message shows, found by reading it as the library's JSON."""
    assert set(message) == STATE_KEYS, sorted(message)
    seen: PlayerView = from_json(json.dumps(message["view"]), PlayerView)
    ids = {card.id for card in seen.visible()}
    actions = [from_json(json.dumps(item), Action) for item in message["legal"]]
    if message["last"] is not None:
        actions.append(from_json(json.dumps(message["last"]["action"]), Action))
    ids |= {a.card.id for a in actions if isinstance(a, Buy | Reserve)}
    text = json.dumps(message)
    assert '"seed"' not in text
    assert '"decks"' not in text
    assert '"reserved_blind"' not in json.dumps(message["view"]["players"])
    return ids


def check_message(message: dict[str, Any], states: Iterable[GameState]) -> None:
    """Assert that a ``state`` message shows no card hidden from its seat at its version."""
    state = list(states)[message["version"]]
    seat = message["seat"]
    shown = card_ids_in(message)
    leaked = shown & hidden_ids(state, seat)
    assert not leaked, f"seat {seat} was shown hidden cards {sorted(leaked)}"
    assert from_json(json.dumps(message["view"]), PlayerView) == view(state, seat)


def greedy_choice(message: dict[str, Any], seed: int) -> dict[str, Any]:
    """The action a greedy player would send for a ``state`` message (its JSON).

    Early in the game it reserves blind from a deck every few turns, so that
    games have hidden reserved cards to keep from the other seats.
    """
    if message["version"] % 6 < 2 and message["version"] < 40:
        for item in message["legal"]:
            if item["type"] == "reserve_deck":
                blind: dict[str, Any] = item
                return blind
    seen: PlayerView = from_json(json.dumps(message["view"]), PlayerView)
    legal = [from_json(json.dumps(item), Action) for item in message["legal"]]
    chosen = GreedyBot()(seen, legal, random.Random(seed * 1000 + message["version"]))
    result: dict[str, Any] = message["legal"][legal.index(chosen)]
    return result


def receive_until(
    receive: Callable[[], str], wanted: Callable[[dict[str, Any]], bool], log: list[dict[str, Any]]
) -> dict[str, Any]:
    """Read messages (logging each) until one satisfies ``wanted``; return it."""
    for _ in range(10_000):
        message: dict[str, Any] = json.loads(receive())
        log.append(message)
        if wanted(message):
            return message
    raise AssertionError("no such message came")


def used_cards(actions: Iterable[Action]) -> set[Card]:
    """The cards named by ``actions``."""
    return {a.card for a in actions if isinstance(a, Buy | Reserve)}


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def serve(command: list[str], port: int) -> subprocess.Popen[str]:
    """Start ``python COMMAND`` (a server) and wait until it listens on ``port``."""
    process = subprocess.Popen(
        [sys.executable, *command], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process
        except OSError:
            if process.poll() is not None:
                break
            time.sleep(0.1)
    process.kill()
    raise AssertionError(f"the server did not start: {process.communicate()[0]}")
