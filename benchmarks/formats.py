"""Timings of the formats on hostile and valid input: ``python benchmarks/formats.py``.

Reading action and record texts (the worst cases for the reader, with the
length limits lifted to show that reading is linear), loading JSON documents
(valid states and records, and documents with a million bad values), and
recording a game with ``GameRecord.append``. Prints figures; never fails.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from functools import partial

import splendor.formats._notation_parser
from splendor import (
    GameRecord,
    GameState,
    SplendorError,
    from_json,
    legal_actions,
    new_game,
    parse_action,
    to_json,
)


def _time(run: Callable[[], object], repeat: int = 3) -> tuple[float, int]:
    """The best time of ``repeat`` runs, and the length of the error message if any."""
    best, message = float("inf"), 0
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            run()
        except SplendorError as error:
            message = len(str(error))
        best = min(best, time.perf_counter() - start)
    return best, message


def _record(seed: int) -> GameRecord:
    record = GameRecord.start(2, seed=seed)
    rng = random.Random(seed)
    while record.result is None:
        record = record.append(rng.choice(legal_actions(record.final_state())))
    return record


def main() -> None:
    state = new_game(2, seed=1)
    # The limit lifted, to show the reading time itself.
    setattr(splendor.formats._notation_parser, "MAX_ACTION_LENGTH", 10**8)  # noqa: B010  # a Final constant
    print("Reading action texts (limit lifted):")
    for size in (10_000, 100_000, 1_000_000):
        for label, text in (
            ("+whites...", "+" + "whites" * (size // 6)),
            ("take redred...", "take " + "red" * (size // 3)),
        ):
            seconds, message = _time(partial(parse_action, text, state))
            print(f"  {label:16} {len(text):>9,} chars: {seconds * 1e3:8.2f} ms, message {message}")
    print("Loading JSON:")
    data = json.loads(to_json(state))
    data["decks"] = [[91] * 1_000_000, [], []]
    bad = json.dumps(data)
    seconds, message = _time(lambda: from_json(bad, GameState), repeat=1)
    print(
        f"  state with 1,000,000 bad card ids ({len(bad) / 1e6:.1f} MB): {seconds:.2f} s, "
        f"message {message:,} chars"
    )
    records = [_record(seed) for seed in range(20)]
    many = "[" + ",".join(to_json(r) for r in records * 10) + "]"
    seconds, _ = _time(lambda: from_json(many, tuple[GameRecord, ...]), repeat=1)
    print(
        f"  200 valid records ({len(many) / 1e6:.2f} MB): {seconds:.2f} s "
        f"({len(many) / 1e6 / seconds:.2f} MB/s)"
    )
    mid = to_json(records[0].state_at(len(records[0].actions) // 2))
    seconds, _ = _time(lambda: [from_json(mid, GameState) for _ in range(100)])
    print(f"  a mid-game state: {seconds * 10:.3f} ms per load")
    print("Recording games with GameRecord.append:")
    for turns in (100, 1000):
        record = GameRecord.start(2, seed=3)
        rng = random.Random(3)
        start = time.perf_counter()
        played = 0
        while played < turns:
            if record.result is not None:
                record = GameRecord.start(2, seed=3 + played)
            record = record.append(rng.choice(legal_actions(record.final_state())))
            played += 1
        print(f"  {turns} appends: {(time.perf_counter() - start) * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
