"""Playing the actions of a game record, shared by :mod:`splendor.formats.record` and the loaders.

No name here is part of the public API.
"""

from __future__ import annotations

from splendor.core.actions import Action
from splendor.core.play import apply
from splendor.core.state import GameState
from splendor.errors import IllegalActionError, InvalidArgumentError, SplendorError

__all__ = ["check_result", "play_turn"]


def play_turn(state: GameState, action: Action, index: int) -> GameState:
    """Apply the action at ``index`` of a record, naming the turn if it fails.

    Raises:
        IllegalActionError: when the rules forbid the action there.
        InvalidArgumentError: when the action is not an action at all.
    """
    try:
        return apply(state, action)
    except SplendorError as error:
        turn = f"turn {index + 1} (player {state.current_player}, {action})"
        if isinstance(error, IllegalActionError):
            raise IllegalActionError(f"{turn}: {error}") from error
        raise InvalidArgumentError(f"{turn}: {error}") from error


def check_result(
    result: tuple[int, ...] | None, played: int, final: GameState, forfeit: int | None = None
) -> None:
    """Check a record's ``result`` against the state after its ``played`` actions.

    ``forfeit`` is the seat that forfeited, if one did: the record's result
    was checked against it when the record was made, and its game must not
    be over by the rules.

    Raises:
        IllegalActionError: when a result is given and is not the game's
            winners, or a forfeited game is over by the rules.
    """
    if forfeit is not None:
        if final.is_over:
            raise IllegalActionError(
                f"the record says seat {forfeit} forfeited, but the game is over "
                f"by the rules after its {played} actions"
            )
        return
    if result is None:
        return
    if not final.is_over:
        raise IllegalActionError(
            f"the record's result {result} is given but the game is not over "
            f"after its {played} actions"
        )
    if result != final.winners:
        raise IllegalActionError(
            f"the record's result {result} does not match the winners "
            f"{final.winners} of the replayed game"
        )
