"""The ladder's play: its scheduled games played by the referee, each stored as it ends.

Each game is refereed by :func:`splendor.arena.referee.referee_game` (an
entrant that runs out of time, plays an illegal move, breaks the bot
protocol or crashes forfeits the game), its bots made from the entrants'
specs for it and closed after it.
"""

from __future__ import annotations

from collections.abc import Callable

from splendor.arena._ladder_file import LadderFile
from splendor.arena._ladder_rows import LadderGame
from splendor.arena._ladder_schedule import next_game
from splendor.arena.referee import TimeControl, referee_game
from splendor.core.messages import short_repr
from splendor.errors import InvalidArgumentError
from splendor.players.bots import Bot, load_bot
from splendor.players.seats import close_bot

__all__ = ["play_games"]


def play_games(
    file: LadderFile,
    games: int,
    *,
    time_per_move: float | None,
    max_turns: int,
    progress: Callable[[int, int], None] | None,
) -> tuple[LadderGame, ...]:
    """Play ``games`` games of the ladder (see :meth:`~splendor.arena.ladder.Ladder.play`)."""
    if type(games) is not int or games < 0:
        raise InvalidArgumentError(f"games must be a non-negative int, got {short_repr(games)}")
    if time_per_move is not None and (
        type(time_per_move) not in (int, float) or not time_per_move > 0
    ):
        raise InvalidArgumentError(
            f"time_per_move must be a positive number of seconds, got {short_repr(time_per_move)}"
        )
    if type(max_turns) is not int or max_turns < 1:
        raise InvalidArgumentError(f"max_turns must be a positive int, got {short_repr(max_turns)}")
    specs = {entrant.name: entrant.spec for entrant in file.entrants()}
    control = None if time_per_move is None else TimeControl(move=float(time_per_move))
    played: list[LadderGame] = []
    while len(played) < games:
        game = next_game(file)
        bots: list[Bot] = []
        try:
            for name in game.seats:
                bots.append(load_bot(specs[name]))
            record = referee_game(
                bots,
                seed=game.seed,
                names=game.seats,
                time_control=control,
                max_turns=max_turns,
            )
        finally:
            for bot in bots:
                close_bot(bot)
        done = file.finish(game, record)
        if done is not None:
            played.append(done)
        if progress is not None:
            progress(len(played), games)
    return tuple(played)
