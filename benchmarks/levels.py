"""Calibrate the levels: a round robin between them, Bradley-Terry ratings, CPU per move.

Every two levels meet in 2-player games on paired seeds: each deal is played
twice, the seats swapped (:func:`splendor.arena.referee.fair_schedule`), and
refereed (:func:`splendor.arena.referee.referee_game`: a bot that fails
forfeits). The ratings are :func:`splendor.arena.ratings.rate`'s
Bradley-Terry fit with 95% intervals; the CPU time of each move is measured
in the process that plays it.

Pairs get the deals their information is worth: two levels that do not
search play ``--cheap-deals`` deals (their games take milliseconds); two
levels at most two apart ``--deals``; any two further apart ``--far-deals``
(the stronger wins nearly every game, which says little). Every result is
appended to a JSONL checkpoint as its game ends; run again with the same
file to play only what is missing (more deals extend the schedule: deal
``d`` of a pair always has the same seed, and a level added later leaves
the seeds of the others' games as they were). The ratings are fitted to
every game in the file between two of the levels as they are now.
``--write`` puts the measured table into
``src/splendor/players/_level_table.py``. ``--levels N`` plays only the pairs
of the first ``N`` levels, so that a calibration made in steps can be made
again from nothing: the first seven levels at the default deals, then the
later ones at fewer (their games are slower) is

    nice python benchmarks/levels.py --workers 2 --levels 7
    nice python benchmarks/levels.py --workers 2 --deals 40 --far-deals 4 --write
    python benchmarks/levels.py --deals 100      # more games for the near pairs
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from splendor import Action, PlayerView
from splendor.arena.parallel import run_tasks
from splendor.arena.ratings import GameResult, Rating, rate
from splendor.arena.referee import TABLE_DEALS, Table, fair_schedule, referee_game
from splendor.formats.record import Forfeit
from splendor.players.bots import Bot, load_bot
from splendor.players.ismcts import ISMCTSBot
from splendor.players.levels import LEVELS, Level
from splendor.players.search import SearchBot

TABLE_FILE = Path(__file__).resolve().parent.parent / "src/splendor/players/_level_table.py"
MEASURED = re.compile(r"(# BEGIN MEASURED[^\n]*\n)(.*?)(# END MEASURED)", re.DOTALL)


class Timed:
    """A bot that adds up the CPU time of its bot's moves, and the searches cut short
    by their cap in seconds (a search that stops early because its move is
    known, ``stop_early``, is not cut: it took less than its cap)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.cpu = 0.0
        self.moves = 0
        self.capped = 0

    def __call__(self, view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
        started = time.process_time()
        wall = time.perf_counter()
        action = self.bot(view, actions, rng)
        wall = time.perf_counter() - wall
        self.cpu += time.process_time() - started
        self.moves += 1
        bot = self.bot
        if (
            isinstance(bot, ISMCTSBot | SearchBot)
            and bot.seconds is not None
            and wall >= bot.seconds
            and 0 < bot.last_iterations < (bot.iterations or 0)
        ):
            self.capped += 1
        return action


# A game to play: (level at each seat, spec at each seat, seed).
Task = tuple[tuple[int, ...], tuple[str, ...], int]


def play(task: Task) -> dict[str, object]:
    """Play one game and return its line of the checkpoint."""
    levels, specs, seed = task
    bots = [Timed(load_bot(spec)) for spec in specs]
    record = referee_game(bots, seed=seed)
    final = record.final_state()
    forfeit = record.forfeit
    return {
        "levels": list(levels),
        "specs": list(specs),
        "seed": seed,
        "winners": list(record.result or ()),
        "points": [player.points for player in final.players],
        "cards": [len(player.cards) for player in final.players],
        "turns": final.turn,
        "forfeit": None if forfeit is None else [forfeit.seat, forfeit.reason, forfeit.detail],
        "cpu": [bot.cpu for bot in bots],
        "moves": [bot.moves for bot in bots],
        "capped": [bot.capped for bot in bots],
    }


# The levels calibrated together first. A pair's games are seeded by the
# schedule of the first max(b, FIRST) levels (b the higher of the two), so a
# level added later brings its own pairs and leaves the seeds of the games
# already played, which the checkpoint keeps, as they were.
FIRST = 7


def searches(spec: str) -> bool:
    """Whether a level's bot searches (its moves take milliseconds, not microseconds)."""
    return spec.startswith(("ismcts", "search"))


def schedule(args: argparse.Namespace) -> list[Task]:
    """The games of the round robin, pair by pair, deal by deal, both seatings."""
    names = [str(level.number) for level in LEVELS[: args.levels]]
    specs = {str(level.number): level.spec for level in LEVELS}
    most = max(args.deals, args.far_deals, args.cheap_deals)
    tasks = []
    for top in range(min(FIRST, len(names)), len(names) + 1):
        tables = fair_schedule(names[:top], players=2, deals=most, seed=args.seed)
        for index, table in enumerate(tables):
            a, b = sorted(int(name) for name in table.seats)
            ours = b <= FIRST if top == FIRST else b == top
            if ours and (index // 2) % most < deals_of(a, b, args):
                tasks.append(_task(table, specs))
    return tasks


def _task(table: Table, specs: dict[str, str]) -> Task:
    levels = tuple(int(name) for name in table.seats)
    return levels, tuple(specs[name] for name in table.seats), table.seed


def deals_of(a: int, b: int, args: argparse.Namespace) -> int:
    """The deals levels ``a`` and ``b`` play."""
    if not searches(LEVELS[a - 1].spec) and not searches(LEVELS[b - 1].spec):
        return int(args.cheap_deals)
    return int(args.deals if abs(a - b) <= 2 else args.far_deals)


def read_checkpoint(path: Path) -> dict[tuple[tuple[str, ...], int], dict[str, object]]:
    """The games already played, by their seats' specs and seed."""
    done: dict[tuple[tuple[str, ...], int], dict[str, object]] = {}
    if not path.exists():
        return done
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            game = json.loads(line)
            key = (tuple(game["specs"]), int(game["seed"]))
        except (ValueError, KeyError, TypeError) as error:
            if number == len(lines) and not line.endswith("}"):
                print(f"{path}:{number}: a line cut short (a run stopped): played again")
                break
            sys.exit(f"{path}:{number}: not a game of the calibration ({error})")
        done[key] = game
    return done


def results(games: Sequence[dict[str, object]]) -> list[GameResult]:
    """The games as the rating reads them: entrant ``n - 1`` is level ``n``."""
    found = []
    for index, game in enumerate(games):
        forfeit = game["forfeit"]
        found.append(
            GameResult(
                index=index,
                seed=_int(game["seed"]),
                entrants=tuple(_int(level) - 1 for level in _list(game["levels"])),
                winners=tuple(_int(seat) for seat in _list(game["winners"])),
                points=tuple(_int(points) for points in _list(game["points"])),
                cards=tuple(_int(cards) for cards in _list(game["cards"])),
                turns=_int(game["turns"]),
                forfeit=None
                if forfeit is None
                else Forfeit(
                    _int(_list(forfeit)[0]), str(_list(forfeit)[1]), str(_list(forfeit)[2])
                ),
            )
        )
    return found


def _int(value: object) -> int:
    if type(value) is not int:
        raise SystemExit(f"the checkpoint holds {value!r} where a number belongs")
    return value


def _list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise SystemExit(f"the checkpoint holds {value!r} where a list belongs")
    return value


def summary(
    games: Sequence[dict[str, object]], levels: Sequence[Level]
) -> list[tuple[Rating, float, int, int]]:
    """Per level, weakest first: its rating, CPU seconds per move, moves, searches cut short."""
    ratings = {r.name: r for r in rate([str(level.number) for level in levels], results(games))}
    cpu = [0.0] * len(levels)
    moves = [0] * len(levels)
    capped = [0] * len(levels)
    for game in games:
        for seat, level in enumerate(_list(game["levels"])):
            cpu[_int(level) - 1] += float(str(_list(game["cpu"])[seat]))
            moves[_int(level) - 1] += _int(_list(game["moves"])[seat])
            capped[_int(level) - 1] += _int(_list(game["capped"])[seat])
    return [
        (ratings[str(level.number)], cpu[i] / max(moves[i], 1), moves[i], capped[i])
        for i, level in enumerate(levels)
    ]


def crosstable(games: Sequence[dict[str, object]], n: int) -> str:
    """Wins of each of the first ``n`` levels (row) against each other (column)."""
    won = [[0.0] * n for _ in range(n)]
    played = [[0] * n for _ in range(n)]
    for game in games:
        levels = [_int(level) - 1 for level in _list(game["levels"])]
        winners = [_int(seat) for seat in _list(game["winners"])]
        for seat, level in enumerate(levels):
            other = levels[1 - seat]
            played[level][other] += 1
            if seat in winners:
                won[level][other] += 1.0 / len(winners)
    lines = ["      " + "".join(f"{j + 1:>9}" for j in range(n))]
    for i in range(n):
        cells = "".join(
            f"{won[i][j]:>4g}/{played[i][j]:<4}" if played[i][j] else f"{'-':>9}" for j in range(n)
        )
        lines.append(f"  L{i + 1:<3}" + cells)
    return "\n".join(lines)


def write_table(rows: Sequence[tuple[Rating, float, int, int]]) -> None:
    """Rewrite the measured block of the level table."""
    lines = [
        "# number: (spec, rating, low, high, CPU seconds per move, games)\n",
        "MEASURED: Final[dict[int, tuple[str, float, float, float, float, int]]] = {\n",
    ]
    for level, (rating, cpu, _, _) in zip(LEVELS, rows, strict=True):
        values = [
            json.dumps(level.spec),
            f"{rating.rating:.1f}",
            f"{rating.low:.1f}",
            f"{rating.high:.1f}",
            f"{cpu:.3g}",
            str(rating.games),
        ]
        line = f"    {level.number}: ({', '.join(values)}),\n"
        if len(line) > 101:  # one value a line, as the formatter lays out a long tuple
            line = (
                f"    {level.number}: (\n" + "".join(f"        {v},\n" for v in values) + "    ),\n"
            )
        lines.append(line)
    lines.append("}\n")
    text = TABLE_FILE.read_text(encoding="utf-8")
    new, count = MEASURED.subn(lambda m: m.group(1) + "".join(lines) + m.group(3), text)
    if count != 1:
        raise SystemExit(f"{TABLE_FILE} has no single BEGIN/END MEASURED block")
    TABLE_FILE.write_text(new, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=75, help="deals of levels at most 2 apart")
    parser.add_argument("--far-deals", type=int, default=10, help="deals of levels further apart")
    parser.add_argument(
        "--cheap-deals", type=int, default=150, help="deals of two levels that do not search"
    )
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--checkpoint", type=Path, default=Path("benchmarks/levels.jsonl"), help="JSONL results"
    )
    parser.add_argument(
        "--levels",
        type=int,
        default=len(LEVELS),
        help="play and rate only the pairs of the first N levels (default: all)",
    )
    parser.add_argument("--write", action="store_true", help="write the table into the package")
    args = parser.parse_args(argv)
    for option in ("deals", "far_deals", "cheap_deals"):
        if not 1 <= getattr(args, option) < TABLE_DEALS:
            parser.error(f"--{option.replace('_', '-')} must be 1 to {TABLE_DEALS - 1}")
    if not FIRST <= args.levels <= len(LEVELS):
        # The first levels' games are seeded together (see FIRST).
        parser.error(f"--levels must be {FIRST} to {len(LEVELS)}")
    if args.write and args.levels < len(LEVELS):
        parser.error("--write rates every level: leave out --levels")
    levels = LEVELS[: args.levels]
    tasks = schedule(args)
    done = read_checkpoint(args.checkpoint)
    wanted = [task for task in tasks if (task[1], task[2]) not in done]
    print(
        f"{len(tasks)} games in the schedule, {len(tasks) - len(wanted)} in {args.checkpoint}, "
        f"{len(wanted)} to play",
        flush=True,
    )
    started = time.perf_counter()
    text = args.checkpoint.read_text(encoding="utf-8") if args.checkpoint.exists() else ""
    if text and not text.endswith("\n"):  # drop a line cut short
        args.checkpoint.write_text(text[: text.rfind("\n") + 1], encoding="utf-8")
    with args.checkpoint.open("a", encoding="utf-8") as out:
        for count, (_, game) in enumerate(run_tasks(play, wanted, workers=args.workers), 1):
            out.write(json.dumps(game) + "\n")
            out.flush()
            done[(tuple(map(str, _list(game["specs"]))), _int(game["seed"]))] = game
            if count % 100 == 0 or count == len(wanted):
                elapsed = time.perf_counter() - started
                print(f"  {count}/{len(wanted)} games, {elapsed:.0f} s", flush=True)
    # Every game played between two of the levels as they are now, the
    # schedule's and any more an earlier run with more deals played.
    current = {level.spec for level in levels}
    games = [game for game in done.values() if set(map(str, _list(game["specs"]))) <= current]
    rows = summary(games, levels)
    print(f"\n{len(games)} games; ratings (Bradley-Terry, 95% intervals), CPU per move:")
    for level, (rating, cpu, moves, capped) in zip(levels, rows, strict=True):
        print(
            f"  level {level.number} {level.name:<9} {rating.rating:7.1f} "
            f"({rating.low:7.1f} to {rating.high:7.1f})  {rating.games:5} games  "
            f"{1000 * cpu:8.3f} ms a move  ({capped} of {moves} searches cut by the cap)  "
            f"{level.spec}"
        )
    steps = [
        (a.number, a_row[0].high < b_row[0].low)
        for (a, a_row), (_, b_row) in itertools.pairwise(zip(levels, rows, strict=True))
    ]
    for number, clean in steps:
        print(f"  step {number} -> {number + 1}: {'measured' if clean else 'NOT shown (overlap)'}")
    print("\nwins of the row's level against the column's:\n" + crosstable(games, len(levels)))
    cpu = sum(float(str(seconds)) for game in games for seconds in _list(game["cpu"]))
    print(f"\ncalibration CPU in the bots: {cpu:.0f} s")
    if args.write:
        write_table(rows)
        print(f"wrote {TABLE_FILE}")
    return 0 if all(clean for _, clean in steps) and not math.isnan(rows[0][1]) else 1


if __name__ == "__main__":
    sys.exit(main())
