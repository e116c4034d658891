"""Self-play records at scale: :func:`generate_records`.

Plays many seeded games between bots, here, on local processes or as Ray
tasks (see :mod:`splendor.arena.parallel`), and appends each game's
:class:`~splendor.formats.record.GameRecord` to a JSON Lines file the moment the
game finishes: one line per game, written by :func:`splendor.to_json` and
read back by :func:`splendor.from_json` (or :func:`read_records`). An
interrupted run keeps every game that had finished, and a run started again
on the same file with ``resume=True`` plays only the games still missing.

Game ``i`` is dealt with seed ``seed * 1000003 + i``
(:func:`splendor.arena.runs.game_seed`, as for ``splendor simulate``); its
seats rotate through the bots. The same arguments give the same records however the games are run;
only the order of the lines follows the order the games finished in. Games
between plain random and greedy bots are played in the compiled kernel when
it is in use (see :func:`splendor.play_game`), with the same records.

>>> import os, tempfile
>>> from splendor.arena.selfplay import generate_records, read_records
>>> path = os.path.join(tempfile.mkdtemp(), "games.jsonl")
>>> generate_records(path, ["greedy", "random"], games=3, seed=10)
3
>>> sorted(record.seed for record in read_records(path))
[10000030, 10000031, 10000032]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence

from splendor.arena.parallel import run_tasks
from splendor.arena.runs import check_players, game_seed
from splendor.core.messages import short_repr
from splendor.errors import InvalidArgumentError
from splendor.formats.record import GameRecord
from splendor.players.bots import DEFAULT_MAX_TURNS, load_bot, play_game

__all__ = ["generate_records", "read_records"]

# One game: (seed, the bot spec of each seat, max_turns).
_Task = tuple[int, tuple[str, ...], int]


def _play_task(task: _Task) -> str:
    from splendor.formats.serialization import to_json

    seed, specs, max_turns = task
    bots = [load_bot(spec) for spec in specs]
    return to_json(play_game(bots, seed=seed, max_turns=max_turns))


def read_records(path: str | os.PathLike[str]) -> Iterator[GameRecord]:
    """The records of a JSON Lines file, one per non-empty line, each checked by replaying it.

    Raises:
        splendor.SerializationError: for a line that is not a valid record.
        OSError: when the file cannot be read.
    """
    from splendor.formats.serialization import from_json

    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield from_json(line, GameRecord)


def _done_seeds(path: str | os.PathLike[str]) -> set[int]:
    """The seeds of the complete lines already in ``path`` (a torn last line is dropped)."""
    import json

    seeds: set[int] = set()
    if not os.path.exists(path):
        return seeds
    keep = 0
    with open(path, "rb") as existing:
        for raw in existing:
            if not raw.endswith(b"\n"):
                break
            try:
                data = json.loads(raw)
            except ValueError:
                break
            if isinstance(data, dict) and type(data.get("seed")) is int:
                seeds.add(data["seed"])
            keep += len(raw)
    with open(path, "r+b") as existing:
        existing.truncate(keep)
    return seeds


def generate_records(
    path: str | os.PathLike[str],
    bots: Sequence[str],
    *,
    games: int,
    players: int | None = None,
    seed: int = 0,
    workers: int = 1,
    ray: str | None = None,
    resume: bool = False,
    max_turns: int = DEFAULT_MAX_TURNS,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Play ``games`` games and append their records to ``path`` as JSON lines.

    Args:
        path: the JSON Lines file; created when missing, appended to.
        bots: bot specs (as for :func:`splendor.players.bots.load_bot`), one
            per seat, or fewer to fill ``players`` seats in turn.
        games: how many games to play.
        players: seats per game; ``len(bots)`` by default.
        seed: the master seed: game ``i`` is dealt with seed
            :func:`~splendor.arena.runs.game_seed`, ``seed * 1000003 + i``.
        workers: local processes to play on.
        ray: run the games as Ray tasks: ``"local"`` or a cluster's address.
        resume: skip the games whose seed already has a complete line in
            ``path`` (an unfinished last line is removed first).
        max_turns: the bound on turns of one game.
        progress: called with ``(finished, total)`` games as they finish.

    Returns:
        The number of records written by this call.

    Raises:
        InvalidArgumentError: for bad arguments or bot specs.
        splendor.arena.parallel.RayError: when Ray is wanted but missing or
            unreachable.
        OSError: when the file cannot be written.
    """
    from splendor.arena.tournament import check_run

    if isinstance(bots, str) or not isinstance(bots, Sequence) or not bots:
        raise InvalidArgumentError(
            f"bots must be a non-empty sequence of bot specs, got {short_repr(bots)}"
        )
    if players is None:
        players = len(bots)
    check_players(players)
    specs = tuple(bots)
    check_run(specs, games=games, fewest=0, seed=seed, max_turns=max_turns)
    done = _done_seeds(path) if resume else set()
    tasks: list[_Task] = []
    for i in range(games):
        this_seed = game_seed(seed, i)
        if this_seed in done:
            continue
        seated = tuple(specs[(i + seat) % len(specs)] for seat in range(players))
        tasks.append((this_seed, seated, max_turns))
    written = 0
    with open(path, "a", encoding="utf-8") as out:
        for _, line in run_tasks(_play_task, tasks, workers=workers, ray=ray, progress=progress):
            out.write(line + "\n")
            out.flush()
            written += 1
    return written
