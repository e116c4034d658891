"""A fuzz of every reader of outside input, with time and memory bounds.

Run it with ``nox -s fuzz -- --cases 100000`` (or ``python -m tools.fuzz``).
Each case is a JSON document (a state, a view, an action or a game record,
valid at first, then mutated: a value replaced by one of another type, a huge
number, a long string or a deep nesting; a field deleted, duplicated or
renamed; the text cut short or grown by repeating a piece of it) or a text
for :func:`splendor.parse_action` or :func:`splendor.parse_record` (valid
texts, mutated likewise, and long runs of letters, digits and signs). Each
must load or raise an error of the library's own
(:class:`splendor.SplendorError`), within a time and a memory bound that grow
in proportion to the size of the input. Anything else is a failure, printed
with the case that caused it.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from typing import Final

import splendor
from splendor import Action, GameRecord, GameState, PlayerView

#: Time allowed for one case (processor time, with allocations traced): a fixed
#: part, and a part per byte of input.
SECONDS_FIXED: Final = 0.5
SECONDS_PER_BYTE: Final = 20e-6
#: A record is replayed as it is read (a few bytes are a whole turn): more time per byte.
SECONDS_PER_RECORD_BYTE: Final = 200e-6
#: Memory allowed for one case (the peak of traced allocations).
BYTES_FIXED: Final = 8 * 1024 * 1024
BYTES_PER_BYTE: Final = 400

Json = None | bool | int | float | str | list["Json"] | dict[str, "Json"]

_TARGETS: Final = (GameState, PlayerView, GameRecord)


def _corpus(rng: random.Random) -> tuple[list[tuple[type[object], str]], list[str], list[str]]:
    """Valid JSON documents with their types, action texts and record texts."""
    documents: list[tuple[type[object], str]] = []
    action_texts: list[str] = []
    record_texts: list[str] = []
    for seed in range(12):
        players = 2 + seed % 3
        bots = [splendor.RandomBot() if i % 2 else splendor.GreedyBot() for i in range(players)]
        record = splendor.play_game(bots, seed=seed)
        documents.append((GameRecord, splendor.to_json(record)))
        record_texts.append(splendor.format_record(record))
        state = splendor.new_game(players, seed=seed)
        for number, action in enumerate(record.actions):
            if number % 9 == 0:
                documents.append((GameState, splendor.to_json(state)))
                documents.append(
                    (PlayerView, splendor.to_json(splendor.view(state, number % players)))
                )
                documents.append((Action, splendor.to_json(action)))  # type: ignore[arg-type]  # a union is a valid target
                action_texts.append(splendor.format_action(action, state))
            state = splendor.apply(state, action)
    rng.shuffle(documents)
    return documents, action_texts, record_texts


def _strange(rng: random.Random) -> str:
    """A JSON text of a value of any kind, sometimes a huge or a deep one."""
    if rng.randrange(10) == 9:
        depth = rng.randrange(1, 100_000)
        if rng.random() < 0.5:
            return "[" * depth + "1" + "]" * depth
        return '{"a":' * depth + '"a"' + "}" * depth
    return json.dumps(_plain(rng))


def _plain(rng: random.Random) -> Json:
    """A value of any kind, sometimes a huge one."""
    pick = rng.randrange(7)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False])
    if pick == 2:
        huge: int = 10 ** rng.randrange(1, 4000)
        return rng.choice([0, -1, 1, 3, 2**31, -(2**63), huge])
    if pick == 3:
        return rng.choice([0.5, -0.0, 1e308, 3.0])
    if pick == 4:
        return rng.choice(["", "red", "gold", "purple", "take", "x" * rng.randrange(1, 100_000)])
    if pick == 5:
        return [rng.randrange(-5, 100) for _ in range(rng.randrange(0, 2_000))]
    return {"": 1, "red": "2"}


# Marks the place of a value written as text (a deep nesting cannot go through json.dumps).
_HOLE: Final = "\u0000hole\u0000"


def _paths(value: Json, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _mutate_json(text: str, rng: random.Random) -> str:
    """One mutation of a valid document."""
    document: Json = json.loads(text)
    paths = [path for path in _paths(document) if path]
    how = rng.randrange(7)
    if how == 5:
        cut = rng.randrange(len(text))
        return text[:cut]
    if how == 6:
        start = rng.randrange(len(text))
        piece = text[start : start + rng.randrange(1, 200)]
        return text[:start] + piece * rng.randrange(2, 5_000) + text[start:]
    if not paths:
        return _strange(rng)
    path = rng.choice(paths)
    parent: Json = document
    for step in path[:-1]:
        parent = parent[step]  # type: ignore[index]  # the path was read from this document
    last = path[-1]
    if how <= 1:
        parent[last] = _HOLE  # type: ignore[index]  # as above
    elif how == 2 and isinstance(parent, dict) and isinstance(last, str):
        del parent[last]
    elif how == 3 and isinstance(parent, dict) and isinstance(last, str):
        parent[last + rng.choice(["_", "s", "X"])] = parent.pop(last)
    elif how == 4 and isinstance(parent, dict) and isinstance(last, str):
        # A duplicated key: json.dumps cannot write one, so splice the text.
        body = json.dumps(document)
        return body[:-1] + f', "{last}": {_strange(rng)}' + "}"
    else:
        parent[last] = _HOLE  # type: ignore[index]  # as above
    return json.dumps(document).replace(json.dumps(_HOLE), _strange(rng))


_NOISE: Final = "+-rbpWBGRKY0123456789 ,.:;\n\t\u212a\u0663\ufeffwhitesredgoldtakereserve"


def _mutate_text(text: str, rng: random.Random) -> str:
    """One mutation of an action or record text."""
    how = rng.randrange(5)
    if how == 0 or not text:
        return "".join(rng.choice(_NOISE) for _ in range(rng.randrange(1, 300)))
    if how == 1:
        word = rng.choice(["whites", "red", "W", "1", "+", "take ", "-", "r1", "\u212a"])
        return text[:1] + word * rng.randrange(1, 40_000)
    if how == 2:
        cut = rng.randrange(len(text))
        return text[:cut] + rng.choice(_NOISE) + text[cut + 1 :]
    if how == 3:
        start = rng.randrange(len(text))
        return text[:start] + text[start:] * rng.randrange(2, 200)
    return text[: rng.randrange(len(text))]


def _peak_memory_kib() -> int:
    """The peak resident memory of this process so far, in KiB (0 where unknown)."""
    try:
        import resource
    except ImportError:  # not on Windows
        return 0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def run_case(
    call: Callable[[], object],
    size: int,
    seconds_per_byte: float = SECONDS_PER_BYTE,
    peaks: list[int] | None = None,
) -> str | None:
    """Run one case; a description of what went wrong, or ``None``.

    The peak of the case's traced allocations is appended to ``peaks`` when given.
    """
    tracemalloc.start()
    started = time.process_time()
    try:
        call()
    except splendor.SplendorError:
        pass
    except Exception as error:  # any other error is the finding
        tracemalloc.stop()
        return f"{type(error).__name__}: {str(error)[:200]}"
    elapsed = time.process_time() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    if peaks is not None:
        peaks.append(peak)
    if elapsed > SECONDS_FIXED + seconds_per_byte * size:
        return f"took {elapsed:.2f} s for {size} bytes"
    if peak > BYTES_FIXED + BYTES_PER_BYTE * size:
        return f"used {peak // 1024} KiB for {size} bytes"
    return None


def fuzz(cases: int, *, seed: int = 0, out: Callable[[str], None] = print) -> int:
    """Run ``cases`` cases and report; the number of failures."""
    rng = random.Random(seed)
    documents, action_texts, record_texts = _corpus(rng)
    states = [splendor.new_game(2 + n % 3, seed=n) for n in range(6)]
    started = time.perf_counter()
    failures = 0
    kinds = {"json": 0, "action text": 0, "record text": 0}
    largest = 0
    heaviest = 0
    for number in range(cases):
        pick = number % 10
        call: Callable[[], object]
        if pick < 6:
            cls, text = documents[number % len(documents)]
            data = _mutate_json(text, rng) if number % 20 else text
            call = functools.partial(splendor.from_json, data, cls)
            kind = "json"
        elif pick < 9:
            state = states[number % len(states)]
            data = _mutate_text(rng.choice(action_texts), rng)
            call = functools.partial(splendor.parse_action, data, state)
            kind = "action text"
        else:
            data = _mutate_text(record_texts[number % len(record_texts)], rng)
            call = functools.partial(splendor.parse_record, data)
            kind = "record text"
        kinds[kind] += 1
        size = len(data.encode("utf-8", "surrogatepass"))
        largest = max(largest, size)
        per_byte = SECONDS_PER_RECORD_BYTE if kind == "record text" else SECONDS_PER_BYTE
        peaks: list[int] = []
        problem = run_case(call, size, per_byte, peaks)
        heaviest = max([heaviest, *peaks])
        if problem is not None:
            failures += 1
            if failures <= 10:
                out(f"FAILURE case {number} ({kind}, {size} bytes): {problem}: {data[:120]!r}")
        if (number + 1) % 10_000 == 0:
            out(f"{number + 1} cases, {failures} failures")
    elapsed = time.perf_counter() - started
    tried = ", ".join(f"{count} {kind}" for kind, count in kinds.items())
    out(
        f"fuzz: {cases} cases ({tried}; largest {largest} bytes) in {elapsed:.1f} s; "
        f"{failures} failures; the most one case allocated at once {heaviest // 1024} KiB; "
        f"peak memory of the process {_peak_memory_kib()} KiB"
    )
    return failures


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m tools.fuzz --cases N --seed S``."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000, help="cases to run (10,000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the mutations (0)")
    args = parser.parse_args(argv)
    return 1 if fuzz(args.cases, seed=args.seed) else 0


if __name__ == "__main__":
    sys.exit(main())
