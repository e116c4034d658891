"""The ladder's report: its rating plot (SVG) and its page (HTML).

The plot is :func:`splendor.arena.tournament.plot_ratings`'s, as for a
tournament; the page holds the table, the plot and the latest games.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from splendor.arena._ladder_rows import LadderError, LadderGame
from splendor.arena._ladder_standings import Standing
from splendor.arena.tournament import plot_ratings

__all__ = ["ladder_html", "ladder_svg"]


def ladder_svg(standings: Sequence[Standing], *, players: int, games: int) -> str:
    """The plot of the ratings with their 95% intervals, as an SVG document.

    Args:
        standings: the entrants' standings, best first.
        players: the players of a game.
        games: the finished games the ratings come from.

    Raises:
        LadderError: when the ladder has no entrant.
    """
    if not standings:
        raise LadderError("the ladder has no entrant to plot")
    return plot_ratings(standings, players=players, games=games)


def ladder_html(
    standings: Sequence[Standing],
    finished: Sequence[LadderGame],
    *,
    pending: int,
    players: int,
    seed: int,
) -> str:
    """The ladder as a standalone HTML page: the table, the plot and the latest 20 games.

    Args:
        standings: the entrants' standings, best first.
        finished: the finished games, in order.
        pending: how many games are scheduled and not yet played.
        players: the players of a game.
        seed: the ladder's seed.

    Raises:
        LadderError: when the ladder has no entrant.
    """
    svg = ladder_svg(standings, players=players, games=len(finished))
    e = html.escape
    digits = 0 if players == 2 else 1  # Elo points, or OpenSkill's smaller scale
    rows = "\n".join(
        f"<tr><td>{rank}</td><td>{e(s.name)}</td><td><code>{e(s.spec)}</code></td>"
        f"<td>{s.rating:.{digits}f}</td><td>{s.low:.{digits}f}..{s.high:.{digits}f}</td>"
        f"<td>{s.games}</td>"
        f"<td>{s.wins:g}</td><td>{s.forfeits}</td></tr>"
        for rank, s in enumerate(standings, 1)
    )
    latest = "\n".join(
        f"<tr><td>{game.id}</td><td>{game.seed}</td><td>"
        + ", ".join(
            f"<b>{e(name)}</b>" if seat in game.winners else e(name)
            for seat, name in enumerate(game.seats)
        )
        + f"</td><td>{'-'.join(str(p) for p in game.points)}</td><td>{game.turns}</td>"
        f"<td>{e(_forfeit_text(game))}</td></tr>"
        for game in reversed(finished[-20:])
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Splendor ladder</title>
<style>
body {{ font-family: sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
th, td {{ padding: 0.25em 0.8em; border-bottom: 1px solid #ddd; text-align: left; }}
td:nth-child(n+4) {{ text-align: right; }}
</style>
</head>
<body>
<h1>Splendor ladder</h1>
<p>{len(standings)} entrants, {len(finished)} games of {players} players
({pending} scheduled), seed {seed}. Ratings with 95% intervals.</p>
<table>
<thead><tr><th>Rank</th><th>Name</th><th>Bot</th><th>Rating</th><th>95% interval</th>
<th>Games</th><th>Wins</th><th>Forfeits</th></tr></thead>
<tbody>
{rows}
</tbody>
</table>
{svg}
<h2>Latest games</h2>
<table>
<thead><tr><th>Game</th><th>Seed</th><th>Seats (winners in bold)</th><th>Points</th>
<th>Turns</th><th>Forfeit</th></tr></thead>
<tbody>
{latest}
</tbody>
</table>
</body>
</html>
"""


def _forfeit_text(game: LadderGame) -> str:
    forfeit = game.forfeit
    if forfeit is None:
        return ""
    return f"{game.seats[forfeit.seat]} (seat {forfeit.seat}): {forfeit.reason}"
