"""A minimal host of the bot protocol, written from the wire format alone.

The tests of the example engines (examples/engines/) drive them with it, so
that they check the bytes on the wire against the protocol's definition
rather than against the library's own host (:mod:`splendor.remote`).
"""

from __future__ import annotations

import contextlib
import json
import queue
import random
import subprocess
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from splendor import CARDS, NOBLES, Action, PlayerView, Rules, format_action, to_json

MAX_LINE = 1_048_576
ROOT = Path(__file__).resolve().parents[2]
ENGINES = ROOT / "examples" / "engines"

Message = dict[str, object]


def card_table() -> list[Message]:
    """The ``cards`` of a ``newgame`` message."""
    return [
        {
            "id": card.id,
            "tier": card.tier,
            "bonus": card.bonus.value,
            "points": card.points,
            "cost": {gem.value: n for gem, n in card.cost.items() if n},
        }
        for card in CARDS
    ]


def noble_table() -> list[Message]:
    """The ``nobles`` of a ``newgame`` message."""
    return [
        {
            "id": noble.id,
            "points": noble.points,
            "needs": {gem.value: n for gem, n in noble.requirement.items() if n},
        }
        for noble in NOBLES
    ]


class WireEngine:
    """An engine process, with messages sent and read as raw JSON lines."""

    def __init__(self, argv: Sequence[str]) -> None:
        self.log: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close())
        self.process = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            start_new_session=True,
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(b"")

    def send_raw(self, data: bytes) -> None:
        """Write bytes to the engine's stdin as they are."""
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message: Message) -> None:
        """Write one message as one line."""
        self.send_raw(json.dumps(message).encode() + b"\n")

    def read(self, timeout: float = 10.0) -> Message:
        """The next message from the engine (the test fails after ``timeout``)."""
        line = self.lines.get(timeout=timeout)
        assert line, "the engine closed its output"
        assert line.endswith(b"\n")
        assert len(line) <= MAX_LINE
        message = json.loads(line)
        assert isinstance(message, dict)
        assert isinstance(message.get("type"), str)
        return message

    def silent(self, seconds: float) -> bool:
        """Whether the engine says nothing for ``seconds``."""
        try:
            self.lines.get(timeout=seconds)
        except queue.Empty:
            return True
        return False

    def stderr(self) -> str:
        """What the engine wrote to its log so far."""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def close(self) -> int:
        """Send ``quit`` and wait for the process; kill it if it lingers."""
        with contextlib.suppress(OSError):
            self.send({"type": "quit"})
        try:
            return self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise
        finally:
            self.log.close()


class WireBot:
    """A bot (for :func:`splendor.play_game`) played by an engine process.

    Call :meth:`new_game` before each game: it sends ``newgame``.
    """

    def __init__(self, engine: WireEngine, *, time: float = 1.0) -> None:
        self.engine = engine
        self.time = time
        self.next_id = 0
        self.name = "wire"

    def new_game(self, players: int, seat: int, rules: Rules | None = None) -> None:
        """Tell the engine a game begins."""
        self.engine.send(
            {
                "type": "newgame",
                "players": players,
                "seat": seat,
                "rules": json.loads(to_json(rules or Rules())),
                "cards": card_table(),
                "nobles": noble_table(),
            }
        )

    def __call__(self, view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
        self.next_id += 1
        listed = [
            {"text": format_action(action, view), "action": json.loads(to_json(action))}
            for action in actions
        ]
        self.engine.send(
            {
                "type": "position",
                "id": self.next_id,
                "view": json.loads(to_json(view)),
                "actions": listed,
            }
        )
        self.engine.send({"type": "go", "id": self.next_id, "time": self.time})
        while True:
            message = self.engine.read(timeout=self.time + 5)
            if message["type"] == "info":
                assert message["id"] == self.next_id
                continue
            assert message["type"] == "bestmove", message
            assert message["id"] == self.next_id
            index = message.get("index")
            if index is None:
                texts = [entry["text"] for entry in listed]
                index = texts.index(message["move"])
            assert isinstance(index, int)
            assert 0 <= index < len(actions)
            return actions[index]
