"""Many games at once: tournaments and ratings, self-play records, and
parallel runs (locally or on Ray); and the analysis of one game, position by
position (:mod:`splendor.arena.analysis`).

Built on the players and on the compiled kernel (:mod:`splendor.fast`). The
names below are the package's public API, each defined in one of its modules
and imported from it on first use: the ratings need ``openskill`` and the
parallel runs on Ray need ``ray`` only when they are used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from splendor.core.lazy import lazy_names

if TYPE_CHECKING:
    from splendor.arena.analysis import Analyser as Analyser
    from splendor.arena.analysis import BotAnalyser as BotAnalyser
    from splendor.arena.analysis import EngineAnalyser as EngineAnalyser
    from splendor.arena.analysis import Evaluation as Evaluation
    from splendor.arena.analysis import GameAnalysis as GameAnalysis
    from splendor.arena.analysis import MoveAnalysis as MoveAnalysis
    from splendor.arena.analysis import SupportsAnalyse as SupportsAnalyse
    from splendor.arena.analysis import Thresholds as Thresholds
    from splendor.arena.analysis import analyse_game as analyse_game
    from splendor.arena.analysis import analyser_for as analyser_for
    from splendor.arena.ladder import FORMAT as FORMAT
    from splendor.arena.ladder import FORMAT_VERSION as FORMAT_VERSION
    from splendor.arena.ladder import MAX_ENTRANTS as MAX_ENTRANTS
    from splendor.arena.ladder import MAX_NAME as MAX_NAME
    from splendor.arena.ladder import Entrant as Entrant
    from splendor.arena.ladder import Ladder as Ladder
    from splendor.arena.ladder import LadderError as LadderError
    from splendor.arena.ladder import LadderGame as LadderGame
    from splendor.arena.ladder import Standing as Standing
    from splendor.arena.ladder import resolve_spec as resolve_spec
    from splendor.arena.parallel import LOCAL as LOCAL
    from splendor.arena.parallel import RayError as RayError
    from splendor.arena.parallel import run_tasks as run_tasks
    from splendor.arena.ratings import GameResult as GameResult
    from splendor.arena.ratings import Rating as Rating
    from splendor.arena.ratings import SkillRating as SkillRating
    from splendor.arena.ratings import rate as rate
    from splendor.arena.ratings import rate_skill as rate_skill
    from splendor.arena.referee import TABLE_DEALS as TABLE_DEALS
    from splendor.arena.referee import Table as Table
    from splendor.arena.referee import TimeControl as TimeControl
    from splendor.arena.referee import fair_schedule as fair_schedule
    from splendor.arena.referee import referee_game as referee_game
    from splendor.arena.runs import check_players as check_players
    from splendor.arena.runs import game_seed as game_seed
    from splendor.arena.selfplay import generate_records as generate_records
    from splendor.arena.selfplay import read_records as read_records
    from splendor.arena.tournament import RatedEntrant as RatedEntrant
    from splendor.arena.tournament import TournamentResult as TournamentResult
    from splendor.arena.tournament import play_result as play_result
    from splendor.arena.tournament import plot_ratings as plot_ratings
    from splendor.arena.tournament import round_robin as round_robin

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "LOCAL",
    "MAX_ENTRANTS",
    "MAX_NAME",
    "TABLE_DEALS",
    "Analyser",
    "BotAnalyser",
    "EngineAnalyser",
    "Entrant",
    "Evaluation",
    "GameAnalysis",
    "GameResult",
    "Ladder",
    "LadderError",
    "LadderGame",
    "MoveAnalysis",
    "RatedEntrant",
    "Rating",
    "RayError",
    "SkillRating",
    "Standing",
    "SupportsAnalyse",
    "Table",
    "Thresholds",
    "TimeControl",
    "TournamentResult",
    "analyse_game",
    "analyser_for",
    "check_players",
    "fair_schedule",
    "game_seed",
    "generate_records",
    "play_result",
    "plot_ratings",
    "rate",
    "rate_skill",
    "read_records",
    "referee_game",
    "resolve_spec",
    "round_robin",
    "run_tasks",
]

__getattr__, __dir__ = lazy_names(
    __name__,
    {
        "splendor.arena.analysis": (
            "Analyser",
            "BotAnalyser",
            "EngineAnalyser",
            "Evaluation",
            "GameAnalysis",
            "MoveAnalysis",
            "SupportsAnalyse",
            "Thresholds",
            "analyse_game",
            "analyser_for",
        ),
        "splendor.arena.ladder": (
            "FORMAT",
            "FORMAT_VERSION",
            "MAX_ENTRANTS",
            "MAX_NAME",
            "Entrant",
            "Ladder",
            "LadderError",
            "LadderGame",
            "Standing",
            "resolve_spec",
        ),
        "splendor.arena.parallel": ("LOCAL", "RayError", "run_tasks"),
        "splendor.arena.ratings": ("GameResult", "Rating", "SkillRating", "rate", "rate_skill"),
        "splendor.arena.referee": (
            "TABLE_DEALS",
            "Table",
            "TimeControl",
            "fair_schedule",
            "referee_game",
        ),
        "splendor.arena.runs": ("check_players", "game_seed"),
        "splendor.arena.selfplay": ("generate_records", "read_records"),
        "splendor.arena.tournament": (
            "RatedEntrant",
            "TournamentResult",
            "play_result",
            "plot_ratings",
            "round_robin",
        ),
    },
)
