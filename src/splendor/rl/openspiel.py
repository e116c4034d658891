"""Splendor as an OpenSpiel game: ``python_splendor``.

Importing this module registers the game with OpenSpiel (it needs the
``[openspiel]`` extra):

>>> import pyspiel
>>> import splendor.rl.openspiel
>>> game = pyspiel.load_game("python_splendor", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 40)

The game is sequential, with imperfect information and explicit stochastic
chance. The deck order is not hidden state: every card that comes into play
is a chance outcome, drawn uniformly from the cards left in its deck:

- the deal: 4 cards of tier 1, then 4 of tier 2, then 4 of tier 3, one
  chance node per card, then the revealed nobles one by one;
- a refill: after a turn that takes a face-up card (a reservation or a
  purchase), the new card is a chance outcome (none when the deck is empty);
- a blind reserve: the card reserved from a deck is a chance outcome that
  only the reserving player sees.

Chance outcomes are actions ``card.id - 1`` (0-89) for cards and
``90 + noble.id - 1`` for nobles. A player's actions are the codes of
:mod:`splendor.formats.encoding`, one decision per move, so a turn may span several
moves of the same player (the move, then the tokens given back, the gold
used, the noble).

Utility: +1 to each winner and -1 to each other player at the end (a
shared win gives +1 to each winner); a game that reaches ``max_turns``
whole turns ends with 0 for everyone.

Parameters: ``players`` (2-4, default 2) and ``max_turns`` (default 1000).

The information state string of a player is its whole history of
observations (every decision, every card it saw come into play, "a tier-2
card" for another player's blind reserve), so it has perfect recall. The
observation string and the tensors (both kinds the same) are
:func:`splendor.rl.observation` of the player's view: what the player sees
now, which is all that matters for play.

For information-set Monte Carlo tree search, :func:`resampler` (or the
states' ``resample_from_infostate``) deals the cards a player has not seen
with :func:`splendor.determinize` and replays the history with them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

import attrs
import numpy as np

from splendor.core.actions import Action, Buy, Reserve, ReserveFromDeck
from splendor.core.components import CARDS, CARDS_BY_ID, NOBLES, NOBLES_BY_ID, Card
from splendor.core.gems import Tokens
from splendor.core.messages import short_repr
from splendor.core.play import apply
from splendor.core.rules import Rules
from splendor.core.state import GameState, PlayerState
from splendor.core.views import PlayerView, determinize, view
from splendor.errors import IllegalActionError, InvalidArgumentError
from splendor.extras import require
from splendor.fast.observations import observation_shape, observe_state
from splendor.formats import encoding

require("pyspiel", "openspiel", "splendor.rl.openspiel")

import pyspiel  # noqa: E402  (after the check of the extra)

__all__ = [
    "DEFAULT_MAX_TURNS",
    "GAME_NAME",
    "MAX_DECISIONS_PER_TURN",
    "PointsEvaluator",
    "SplendorGame",
    "SplendorObserver",
    "SplendorState",
    "resampler",
]

#: The name the game is registered under.
GAME_NAME: Final = "python_splendor"
#: The default ``max_turns`` parameter.
DEFAULT_MAX_TURNS: Final = 1000
#: A bound on the decisions of one turn, for ``max_game_length``.
MAX_DECISIONS_PER_TURN: Final = 16

_RULES: Final = Rules()
_NOBLE_BASE: Final = 90  # chance outcome of noble n: 90 + n.id - 1
_DEAL: Final = 12  # face-up cards dealt before the nobles

# Kinds of events in a game's log, one event per action of the history.
_DECISION, _CARD, _NOBLE, _BLIND = range(4)

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Splendor",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "max_turns": DEFAULT_MAX_TURNS},
)


def _game_info(players: int, max_turns: int) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=encoding.ACTION_COUNT,
        max_chance_outcomes=_NOBLE_BASE + len(NOBLES),
        num_players=players,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=None,
        max_game_length=_DEAL + _RULES.nobles(players) + max_turns * (MAX_DECISIONS_PER_TURN + 1),
    )


class SplendorGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type hints
    """The OpenSpiel game; load it with ``pyspiel.load_game("python_splendor", params)``.

    Args:
        params: ``players`` (2-4) and ``max_turns`` (at least 1).

    Raises:
        InvalidArgumentError: for parameters out of range.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_GAME_TYPE.parameter_specification, **(params or {})}
        players = params["players"]
        max_turns = params["max_turns"]
        if type(players) is not int or not 2 <= players <= 4:
            raise InvalidArgumentError(f"players must be 2 to 4, got {players!r}")
        if type(max_turns) is not int or max_turns < 1:
            raise InvalidArgumentError(f"max_turns must be a positive int, got {max_turns!r}")
        super().__init__(_GAME_TYPE, _game_info(players, max_turns), params)
        self.players = players
        self.max_turns = max_turns

    def new_initial_state(self) -> SplendorState:
        """The state before the deal (a chance node)."""
        return SplendorState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> SplendorObserver:
        """An observer of the kind OpenSpiel asks for (see :class:`SplendorObserver`)."""
        return SplendorObserver(self, iig_obs_type, params)


@attrs.frozen
class _Progress:
    """Everything a :class:`SplendorState` knows, as one immutable value.

    Clones share it (OpenSpiel deep-copies a Python state's attributes).
    """

    state: GameState
    prefix: tuple[int, ...] = ()
    codes: tuple[int, ...] = ()
    dealt: int = 0  # chance outcomes of the deal made so far
    pending: Action | None = None  # a whole turn waiting for its card
    pending_tier: int = 0
    log: tuple[tuple[int, int, int], ...] = ()  # (kind, seat, value) per history action

    def __deepcopy__(self, memo: dict[int, object]) -> _Progress:
        return self


def _start(players: int) -> GameState:
    decks = tuple(tuple(card for card in CARDS if card.tier == tier) for tier in (1, 2, 3))
    gems = _RULES.gems(players)
    return GameState(
        rules=_RULES,
        players=(PlayerState(),) * players,
        bank=Tokens(gems, gems, gems, gems, gems, _RULES.gold(players)),
        board=((None,) * 4,) * 3,
        decks=decks,
        nobles=(),
    )


def _on_board(state: GameState, card: Card) -> bool:
    return any(slot is card for slot in state.board[card.tier - 1])


def _draw_tier(state: GameState, action: Action) -> int:
    """The tier whose deck the action draws a card from, or 0."""
    kind = type(action)
    if kind is ReserveFromDeck:
        tier: int = action.tier  # type: ignore[union-attr]  # checked by type()
        return tier
    if kind is Reserve or kind is Buy:
        card: Card = action.card  # type: ignore[union-attr]  # checked by type()
        if _on_board(state, card) and state.decks[card.tier - 1]:
            return card.tier
    return 0


def _with_top(state: GameState, card: Card) -> GameState:
    """``state`` with ``card`` moved to the top of its deck."""
    index = card.tier - 1
    deck = state.decks[index]
    rest = tuple(c for c in deck if c is not card)
    decks = tuple((card, *rest) if i == index else d for i, d in enumerate(state.decks))
    return attrs.evolve(state, decks=decks)


class SplendorState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type hints
    """A state of ``python_splendor``; see the module's documentation."""

    def __init__(self, game: SplendorGame) -> None:
        super().__init__(game)
        self._players = game.players
        self._max_turns = game.max_turns
        self._progress = _Progress(_start(game.players))

    # -- what the state is --------------------------------------------------------

    @property
    def game_state(self) -> GameState:
        """The engine's state (before the turn being played; during the deal,
        the cards dealt so far). Its decks hold the cards not yet drawn, in id
        order: which comes next is decided by chance."""
        return self._progress.state

    @property
    def prefix(self) -> tuple[int, ...]:
        """The codes chosen so far in the turn being played."""
        return self._progress.prefix

    def _deal_size(self) -> int:
        return _DEAL + _RULES.nobles(self._players)

    def current_player(self) -> int:
        """The seat to move, or ``pyspiel.PlayerId.CHANCE`` / ``TERMINAL``."""
        progress = self._progress
        if progress.dealt < self._deal_size() or progress.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return progress.state.current_player

    def is_terminal(self) -> bool:
        """Whether the game ended (won, or ``max_turns`` reached)."""
        progress = self._progress
        if progress.dealt < self._deal_size() or progress.pending is not None:
            return False
        state = progress.state
        return bool(state.winners) or state.turn >= self._max_turns

    def returns(self) -> list[float]:
        """+1 for each winner and -1 for the others once over; zeros before and on truncation."""
        state = self._progress.state
        if not self.is_terminal() or not state.winners:
            return [0.0] * self._players
        return [1.0 if seat in state.winners else -1.0 for seat in range(self._players)]

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._progress.codes)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards (or nobles) that may come next, each equally likely."""
        outcomes = self._offered()
        p = 1.0 / len(outcomes)
        return [(o, p) for o in outcomes]

    def _offered(self) -> list[int]:
        """The chance outcomes of this node, in increasing order."""
        progress = self._progress
        state = progress.state
        if progress.dealt < _DEAL:
            outcomes = [card.id - 1 for card in state.decks[progress.dealt // 4]]
        elif progress.dealt < self._deal_size():
            taken = set(state.nobles)
            outcomes = [_NOBLE_BASE + n.id - 1 for n in NOBLES if n not in taken]
        else:
            outcomes = [card.id - 1 for card in state.decks[progress.pending_tier - 1]]
        return sorted(outcomes)

    # -- moving on ---------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        progress = self._progress
        chance = progress.dealt < self._deal_size() or progress.pending is not None
        if chance and action not in self._offered():
            # Checked as decision codes are: an outcome the node never offered
            # (another tier's card, a noble during the cards' deal) would put
            # a card in two places.
            what = "a deal" if progress.dealt < self._deal_size() else "a draw"
            raise IllegalActionError(
                f"chance outcome {short_repr(action)} is not one of the {len(self._offered())} "
                f"outcomes of this node ({what}): see chance_outcomes()"
            )
        if progress.dealt < self._deal_size():
            self._progress = self._deal(progress, action)
        elif progress.pending is not None:
            self._progress = self._draw(progress, action)
        else:
            self._progress = self._decide(progress, action)

    def _deal(self, progress: _Progress, action: int) -> _Progress:
        state = progress.state
        if progress.dealt < _DEAL:
            card = CARDS_BY_ID[action + 1]
            index, slot = divmod(progress.dealt, 4)
            board = list(state.board)
            row = list(board[index])
            row[slot] = card
            board[index] = tuple(row)
            decks = tuple(
                tuple(c for c in deck if c is not card) if i == index else deck
                for i, deck in enumerate(state.decks)
            )
            state = attrs.evolve(state, board=tuple(board), decks=decks)
            event = (_CARD, -1, card.id)
        else:
            noble = NOBLES_BY_ID[action - _NOBLE_BASE + 1]
            state = attrs.evolve(state, nobles=(*state.nobles, noble))
            event = (_NOBLE, -1, noble.id)
        dealt = progress.dealt + 1
        codes = encoding.legal_codes(state) if dealt == self._deal_size() else ()
        return attrs.evolve(
            progress, state=state, dealt=dealt, codes=codes, log=(*progress.log, event)
        )

    def _decide(self, progress: _Progress, code: int) -> _Progress:
        state = progress.state
        seat = state.current_player
        log = (*progress.log, (_DECISION, seat, code))
        prefix = (*progress.prefix, code)
        following = encoding.legal_codes(state, prefix)
        if following:
            return attrs.evolve(progress, prefix=prefix, codes=following, log=log)
        action = encoding.decode(state, prefix)
        tier = _draw_tier(state, action)
        if tier:
            return attrs.evolve(
                progress, prefix=prefix, codes=(), pending=action, pending_tier=tier, log=log
            )
        return self._finish(attrs.evolve(progress, log=log), apply(state, action))

    def _draw(self, progress: _Progress, outcome: int) -> _Progress:
        state = progress.state
        action = progress.pending
        assert action is not None
        card = CARDS_BY_ID[outcome + 1]
        kind = _BLIND if type(action) is ReserveFromDeck else _CARD
        event = (kind, state.current_player, card.id)
        after = apply(_with_top(state, card), action)
        return self._finish(attrs.evolve(progress, log=(*progress.log, event)), after)

    def _finish(self, progress: _Progress, state: GameState) -> _Progress:
        over = bool(state.winners) or state.turn >= self._max_turns
        return attrs.evolve(
            progress,
            state=state,
            prefix=(),
            codes=() if over else encoding.legal_codes(state),
            pending=None,
            pending_tier=0,
        )

    # -- text ----------------------------------------------------------------------

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if action >= _NOBLE_BASE:
                return f"noble {NOBLES_BY_ID[action - _NOBLE_BASE + 1]}"
            return f"card {CARDS_BY_ID[action + 1]}"
        return encoding.describe_code(action)

    def __str__(self) -> str:
        from splendor.rl._text import describe

        progress = self._progress
        text = describe(progress.state, progress.prefix)
        if progress.pending is not None:
            text += f"\nwaiting for a tier-{progress.pending_tier} card for: {progress.pending}"
        return text

    def information_state_lines(self, player: int) -> list[str]:
        """The lines of ``player``'s information state string, one per action so far."""
        lines = []
        for kind, seat, value in self._progress.log:
            if kind == _DECISION:
                lines.append(f"p{seat} {value}: {encoding.describe_code(value)}")
            elif kind == _NOBLE:
                lines.append(f"noble N{value}")
            elif kind == _CARD:
                lines.append(f"card #{value}")
            elif seat == player:
                lines.append(f"p{seat} reserves #{value} unseen by the others")
            else:
                lines.append(f"p{seat} reserves a tier-{CARDS_BY_ID[value].tier} card unseen")
        return lines

    # -- search --------------------------------------------------------------------

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> SplendorState:
        """A state ``player_id`` cannot tell from this one, drawn at random.

        The cards the player has not seen are dealt by
        :func:`splendor.determinize` (seeded from ``probability_sampler``)
        and the history is replayed with them.
        """
        seed = int(float(probability_sampler()) * 2**53)
        return _resample(self, player_id, random.Random(seed))


def _resample(state: SplendorState, player: int, rng: random.Random) -> SplendorState:
    progress = state._progress
    if type(player) is not int or not 0 <= player < state._players:
        raise InvalidArgumentError(f"player must be a seat of the game, got {player!r}")
    substitute: dict[int, int] = {}
    if progress.dealt >= state._deal_size():
        real = progress.state
        guess = determinize(view(real, player), rng)
        for seat in range(len(real.players)):
            if seat == player:
                continue
            hidden = _hidden(real.players[seat])
            dealt = _hidden(guess.players[seat])
            for tier in (1, 2, 3):
                mine = [c for c in hidden if c.tier == tier]
                theirs = [c for c in dealt if c.tier == tier]
                substitute.update((a.id - 1, b.id - 1) for a, b in zip(mine, theirs, strict=True))
    fresh: SplendorState = state.get_game().new_initial_state()
    chance = int(pyspiel.PlayerId.CHANCE)
    for item in state.full_history():
        action = item.action
        if item.player == chance:
            action = substitute.get(action, action)
        fresh.apply_action(action)
    return fresh


def _hidden(player: PlayerState) -> list[Card]:
    return [c for c, blind in zip(player.reserved, player.reserved_blind, strict=True) if blind]


def resampler(seed: int | None = None) -> Callable[[SplendorState, int], SplendorState]:
    """A resampling function for OpenSpiel's Python ``ISMCTSBot.set_resampler``.

    Args:
        seed: the seed of its generator; ``None`` for a random one.

    Returns:
        A function of a state and a player giving a state that player cannot
        tell from it, drawn at random (see
        :meth:`SplendorState.resample_from_infostate`).
    """
    rng = random.Random(seed)

    def resample(state: SplendorState, player: int) -> SplendorState:
        if not isinstance(state, SplendorState):
            raise InvalidArgumentError(f"expected a python_splendor state, got {state!r}")
        return _resample(state, player, rng)

    return resample


class SplendorObserver:
    """An OpenSpiel observer of ``python_splendor``.

    Its tensor is :func:`splendor.rl.observation` of the player's view, for
    both kinds of observer; its string is the information state (perfect
    recall: every observation so far) or the player's current view.

    Raises:
        InvalidArgumentError: for observer parameters (there are none), or an
            observation type that is not of one player's private information.
    """

    def __init__(
        self, game: SplendorGame, iig_obs_type: pyspiel.IIGObservationType | None, params: Any
    ) -> None:
        if params:
            raise InvalidArgumentError(f"the observer takes no parameters, got {params!r}")
        obs_type = (
            iig_obs_type
            if iig_obs_type is not None
            else pyspiel.IIGObservationType(perfect_recall=False)
        )
        if obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not (
            obs_type.public_info
        ):
            raise InvalidArgumentError(
                "python_splendor observes one player's view: public and private information"
            )
        self._perfect_recall = bool(obs_type.perfect_recall)
        self.tensor = np.zeros(observation_shape(game.players), dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def _view(self, state: SplendorState, player: int) -> tuple[PlayerView, tuple[int, ...]]:
        progress = state._progress
        game_state = progress.state
        moving = progress.dealt >= state._deal_size() and player == game_state.current_player
        return view(game_state, player), progress.prefix if moving else ()

    def set_from(self, state: SplendorState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into ``tensor``."""
        progress = state._progress
        game_state = progress.state
        moving = progress.dealt >= state._deal_size() and player == game_state.current_player
        self.tensor[:] = observe_state(game_state, player, progress.prefix if moving else ())

    def string_from(self, state: SplendorState, player: int) -> str:
        """``player``'s information state string, or its observation string."""
        if self._perfect_recall:
            return "\n".join([f"p{player}", *state.information_state_lines(player)])
        seen, prefix = self._view(state, player)
        return _view_text(seen, prefix)


def _view_text(seen: PlayerView, prefix: tuple[int, ...]) -> str:
    """What a seat sees, as text."""
    lines = [
        f"p{seen.seat} turn {seen.turn} to move p{seen.current_player} passes {seen.passes}",
        f"decisions {list(prefix)}",
        f"bank {seen.bank} decks {list(seen.deck_sizes)}",
        "nobles " + " ".join(f"N{noble.id}" for noble in seen.nobles),
        "board " + " ".join("-" if c is None else f"#{c.id}" for row in seen.board for c in row),
    ]
    for seat, player in enumerate(seen.players):
        if seat == seen.seat and seen.own is not None:
            reserved = " ".join(f"#{c.id}" for c in seen.own.reserved)
        else:
            reserved = " ".join(
                [f"#{c.id}" for c in player.reserved] + [f"T{t}?" for t in player.blind_reserves]
            )
        lines.append(
            f"p{seat} points {player.points} tokens {player.tokens} "
            f"cards {' '.join(f'#{c.id}' for c in player.cards)} "
            f"nobles {' '.join(f'N{n.id}' for n in player.nobles)} reserved {reserved}"
        )
    if seen.winners:
        lines.append(f"winners {list(seen.winners)}")
    return "\n".join(lines)


class PointsEvaluator:
    """A quick evaluator for OpenSpiel's MCTS and ISMCTS bots: no rollouts.

    A state's value for each player is ``tanh(lead / scale)`` of its points
    lead over the best other player (the returns once the game is over);
    the prior is uniform over the legal actions.

    Args:
        scale: the points lead worth about 0.76 (tanh 1).
    """

    def __init__(self, scale: float = 5.0) -> None:
        if not scale > 0:
            raise InvalidArgumentError(f"scale must be positive, got {scale!r}")
        self.scale = float(scale)

    def evaluate(self, state: SplendorState) -> np.ndarray[Any, np.dtype[np.float64]]:
        """The value of ``state`` for every player."""
        if state.is_terminal():
            return np.array(state.returns(), dtype=np.float64)
        points = np.array([p.points for p in state.game_state.players], dtype=np.float64)
        lead = np.array([points[i] - np.max(np.delete(points, i)) for i in range(len(points))])
        values: np.ndarray[Any, np.dtype[np.float64]] = np.tanh(lead / self.scale)
        return values

    def prior(self, state: SplendorState) -> list[tuple[int, float]]:
        """Equal probability for every legal action (chance: the chance outcomes)."""
        if state.is_chance_node():
            outcomes: list[tuple[int, float]] = state.chance_outcomes()
            return outcomes
        actions: list[int] = state.legal_actions()
        return [(action, 1.0 / len(actions)) for action in actions]


pyspiel.register_game(_GAME_TYPE, SplendorGame)
