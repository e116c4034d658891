"""Draw the strength figures of ``benchmarks/strength.py`` runs as SVG pictures for the docs.

Reads the JSON-lines files that ``strength.py --out`` writes (a game a
line) and CSV files of tallies (a row per run: ``bot``, ``against``,
``players``, ``wins``, ``games``, ``cpu_per_move``, and ``bar``, the label
of its bar if it has one, as ``benchmarks/results/strength.csv`` keeps the
runs behind the docs' figures), groups their games by (bot, opponent,
players), and draws:

- ``--curve OUT``: the bot's share of the wins against one opponent, 2
  players, against its CPU time per move (a log scale), one point per bot
  setting with its 95% interval, the settings with the value network
  (``network=true`` in the spec) and those without as two lines (a
  search with a network file of its own, or with ``leaf_weight``, is left
  out);
- ``--bars OUT``: one bar per labelled group (a ``bar`` in a tally, or
  ``--label``), its share against the fair share.

    python benchmarks/plot_strength.py benchmarks/results/strength.csv \\
        --curve docs/images/strength-curve.svg --bars docs/images/strength.svg

``python benchmarks/plot_strength.py --help`` lists the options; the docs'
strong-play page gives the command that draws its two pictures.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path

from splendor.cli.stats import wilson
from splendor.draw._svg_pieces import element, text_at
from splendor.players.bots import parse_bot_spec

Group = tuple[str, str, int]


def groups(
    files: Sequence[Path], labels: dict[Group, str] | None = None
) -> dict[Group, tuple[float, int, float]]:
    """Per (bot, against, players): the bot's wins, its games and its CPU seconds per move.

    The bar labels of the tallies go into ``labels``.
    """
    found: dict[Group, list[float]] = {}
    for path in files:
        if path.suffix == ".csv":
            with path.open(newline="", encoding="utf-8") as lines:
                for tallied in csv.DictReader(lines):
                    key = (tallied["bot"], tallied["against"], int(tallied["players"]))
                    tally = found.setdefault(key, [0.0, 0.0, 0.0, 0.0])
                    games = int(tallied["games"])
                    tally[0] += float(tallied["wins"])
                    tally[1] += games
                    # Weighted by games: the tally has no count of moves.
                    tally[2] += float(tallied["cpu_per_move"]) * games
                    tally[3] += games
                    if tallied.get("bar") and labels is not None:
                        labels[key] = tallied["bar"]
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            key = (row["bot"], row["against"], row["players"])
            tally = found.setdefault(key, [0.0, 0.0, 0.0, 0.0])
            tally[0] += row["share"]
            tally[1] += 1
            tally[2] += row["bot_cpu"]
            tally[3] += row["bot_moves"]
    return {key: (t[0], int(t[1]), t[2] / max(1.0, t[3])) for key, t in found.items()}


def _svg(width: int, height: int, body: list[str]) -> str:
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">'
    )
    return "\n".join([head, element("rect", width=width, height=height, fill="white"), *body])


def curve(data: dict[Group, tuple[float, int, float]], against: str, title: str) -> str:
    """Win share against CPU per move, log x axis, 2 players."""
    points = sorted(
        (cpu, won / games, *wilson(won, games), bot)
        for (bot, opponent, players), (won, games, cpu) in data.items()
        if opponent == against and players == 2 and games and _evaluation(bot) is not None
    )
    width, height, left, right, top, bottom = 640, 380, 70, 20, 40, 60
    low_x, high_x = math.log10(0.003), math.log10(1.0)

    def x(cpu: float) -> float:
        where = (math.log10(max(cpu, 0.003)) - low_x) / (high_x - low_x)
        return left + where * (width - left - right)

    def y(share: float) -> float:
        return top + (1.0 - share) * (height - top - bottom)

    body = [text_at(width / 2, 22, title, size=15, text_anchor="middle")]
    for share in (0.0, 0.25, 0.5, 0.75, 1.0):
        body.append(
            element("line", x1=left, x2=width - right, y1=y(share), y2=y(share), stroke="#ddd")
        )
        body.append(text_at(left - 8, y(share) + 4, f"{share:.0%}", text_anchor="end"))
    for cpu in (0.003, 0.01, 0.03, 0.1, 0.3, 1.0):
        body.append(
            element("line", x1=x(cpu), x2=x(cpu), y1=top, y2=height - bottom, stroke="#eee")
        )
        body.append(text_at(x(cpu), height - bottom + 18, f"{cpu:g} s", text_anchor="middle"))
    body.append(
        text_at(
            width / 2,
            height - 14,
            "CPU time per move (log scale)",
            text_anchor="middle",
        )
    )
    # One line per series: the searches with the value network, and the others.
    series = (("with the network", "#1f5fa8", True), ("heuristic evaluation", "#c0392b", False))
    for k, (name, colour, networked) in enumerate(series):
        chosen = [p for p in points if _evaluation(p[4]) == networked]
        if not chosen:
            continue
        legend_y = top + 8 + 18 * k
        body.append(element("circle", cx=left + 16, cy=legend_y, r=4, fill=colour))
        body.append(text_at(left + 26, legend_y + 4, name))
        previous: tuple[float, float] | None = None
        for cpu, share, low, high, _ in chosen:
            px, py = x(cpu), y(share)
            body.append(element("line", x1=px, x2=px, y1=y(high), y2=y(low), stroke=colour))
            body.append(element("circle", cx=px, cy=py, r=4, fill=colour))
            if previous is not None:
                body.append(
                    element("line", x1=previous[0], y1=previous[1], x2=px, y2=py, stroke=colour)
                )
            previous = (px, py)
    body.append(f"<!-- {len(points)} settings against {against} -->")
    return _svg(width, height, body) + "\n</svg>\n"


def _evaluation(bot: str) -> bool | None:
    """True for a search with the shipped network, False for one without; None for
    any other network (a weights file of its own) or a search mixing the leaf's
    evaluation in, which the curve leaves out."""
    _, options = parse_bot_spec(bot)
    network = options.get("network", False)
    if options.get("leaf_weight", 0.0) != 0.0:
        return None
    return network if isinstance(network, bool) else None


def bars(data: dict[Group, tuple[float, int, float]], labels: dict[Group, str]) -> str:
    """One bar per labelled group: the share with its interval, and the fair share."""
    rows = [(labels[key], *data[key], key[2]) for key in labels if key in data]
    width, row_height, left, right, top = 720, 34, 290, 60, 30
    height = top + row_height * len(rows) + 40
    span = width - left - right

    def x(share: float) -> float:
        return left + share * span

    body = []
    for share in (0.0, 0.25, 0.5, 0.75, 1.0):
        body.append(
            element("line", x1=x(share), x2=x(share), y1=top - 6, y2=height - 30, stroke="#ddd")
        )
        body.append(text_at(x(share), height - 14, f"{share:.0%}", text_anchor="middle"))
    for k, (label, won, games, _, players) in enumerate(rows):
        top_y = top + k * row_height
        share = won / games
        low, high = wilson(won, games)
        body.append(text_at(left - 8, top_y + 17, label, text_anchor="end"))
        body.append(
            element("rect", x=left, y=top_y + 4, width=share * span, height=18, fill="#1f5fa8")
        )
        body.append(
            element("line", x1=x(low), x2=x(high), y1=top_y + 13, y2=top_y + 13, stroke="black")
        )
        fair = 1.0 / players
        body.append(
            element("line", x1=x(fair), x2=x(fair), y1=top_y + 1, y2=top_y + 25, stroke="#c0392b")
        )
        body.append(text_at(x(1.0) + 6, top_y + 17, f"{share:.1%}"))
    return _svg(width, height, body) + "\n</svg>\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "files", type=Path, nargs="+", help="strength.py --out files (.jsonl) or tallies (.csv)"
    )
    parser.add_argument("--against", default="ismcts:iterations=500")
    parser.add_argument("--curve", type=Path, help="where to write the curve")
    parser.add_argument("--bars", type=Path, help="where to write the bars")
    parser.add_argument(
        "--label",
        action="append",
        default=[],
        help="BOT|AGAINST|PLAYERS|LABEL: a bar to draw (repeatable)",
    )
    args = parser.parse_args(argv)
    labels: dict[Group, str] = {}
    data = groups(args.files, labels)
    for (bot, against, players), (won, games, cpu) in sorted(data.items()):
        low, high = wilson(won, games)
        print(
            f"{bot} vs {against}, {players}p: {won:g}/{games} = {won / games:.1%} "
            f"({low:.1%}-{high:.1%}), {cpu:.4f} s CPU per move"
        )
    if args.curve is not None:
        title = f"SearchBot against {args.against}, 2 players"
        args.curve.write_text(curve(data, args.against, title))
    if args.bars is not None:
        for item in args.label:
            bot, against, players, label = item.split("|")
            labels[(bot, against, int(players))] = label
        args.bars.write_text(bars(data, labels))
    return 0


if __name__ == "__main__":
    sys.exit(main())
