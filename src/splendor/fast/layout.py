"""The layout of the observation rows: their parts, sizes and card and noble features.

What :func:`splendor.fast.observations.observation` writes and
:mod:`splendor.rl` offers (:func:`splendor.rl.observation_layout` and the
rest), in one place and without ``numpy``: the compiled kernel reads the card
and noble rows and the sizes of the parts from here when it is imported.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final

import attrs

from splendor.core.components import CARDS, NOBLES
from splendor.core.gems import GEMS
from splendor.core.rules import Rules
from splendor.errors import InvalidArgumentError
from splendor.formats.encoding import ACTION_COUNT

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "CARD_FEATURES",
    "NOBLE_FEATURES",
    "ObservationField",
    "observation_high",
    "observation_layout",
    "observation_shape",
]

_STANDARD: Final = Rules()

#: The features of one card slot, in order: ``visible`` (a card whose face
#: the observer sees), ``hidden`` (another player's blind reserve: only its
#: tier is known), ``tier1``-``tier3`` (one-hot), ``bonus_white`` ...
#: ``bonus_black`` (one-hot), ``points``, ``cost_white`` ... ``cost_black``.
#: An empty slot is all zeros.
CARD_FEATURES: Final[tuple[str, ...]] = (
    "visible",
    "hidden",
    "tier1",
    "tier2",
    "tier3",
    *(f"bonus_{gem.value}" for gem in GEMS[:5]),
    "points",
    *(f"cost_{gem.value}" for gem in GEMS[:5]),
)

#: The features of one noble slot: ``present``, ``points``,
#: ``need_white`` ... ``need_black``. An empty slot is all zeros.
NOBLE_FEATURES: Final[tuple[str, ...]] = (
    "present",
    "points",
    *(f"need_{gem.value}" for gem in GEMS[:5]),
)


#: The numbers that describe one card slot, and one noble slot.
CARD_SIZE: Final = len(CARD_FEATURES)
NOBLE_SIZE: Final = len(NOBLE_FEATURES)
# The scalar part of a player block: tokens (6), bonuses (5), points,
# purchased cards, nobles, to move.
_PLAYER_SCALARS: Final = 15
#: Row ``HIDDEN_ROW + tier`` of :data:`CARD_ROWS` describes a hidden card of that tier.
HIDDEN_ROW: Final = max(card.id for card in CARDS)


def _card_table() -> tuple[tuple[float, ...], ...]:
    # Row 0 is an empty slot, rows 1-90 the cards by id, rows 91-93 a hidden
    # card of tier 1-3.
    table = [[0.0] * CARD_SIZE for _ in range(HIDDEN_ROW + 4)]
    for card in CARDS:
        row = table[card.id]
        row[0] = 1.0
        row[1 + card.tier] = 1.0
        row[5 + GEMS.index(card.bonus)] = 1.0
        row[10] = card.points
        row[11:16] = card.cost.counts[:5]
    for tier in (1, 2, 3):
        table[HIDDEN_ROW + tier][1] = 1.0
        table[HIDDEN_ROW + tier][1 + tier] = 1.0
    return tuple(tuple(row) for row in table)


def _noble_table() -> tuple[tuple[float, ...], ...]:
    table = [[0.0] * NOBLE_SIZE for _ in range(max(noble.id for noble in NOBLES) + 1)]
    for noble in NOBLES:
        table[noble.id][0] = 1.0
        table[noble.id][1] = noble.points
        table[noble.id][2:7] = noble.requirement.counts[:5]
    return tuple(tuple(row) for row in table)


#: The features of each card (by id) and noble (by id) slot; the compiled
#: kernel copies them when it is imported, and observations packs them.
CARD_ROWS: Final = _card_table()
#: The features of each noble slot, by noble id.
NOBLE_ROWS: Final = _noble_table()


@attrs.frozen
class ObservationField:
    """One named part of the observation vector.

    Attributes:
        name: the part's name (see the table in the documentation).
        start: the index of its first entry in the flat vector.
        shape: its shape once cut out and reshaped, for example ``(12, 16)``
            for the board: 12 card slots of :data:`~splendor.fast.layout.CARD_FEATURES`.
    """

    name: str
    start: int
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        """The number of entries of the part."""
        return math.prod(self.shape)

    @property
    def stop(self) -> int:
        """The index just past its last entry."""
        return self.start + self.size

    def of(self, obs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """This part of the observation ``obs``, reshaped (a view, not a copy).

        >>> import splendor
        >>> from splendor.fast.observations import observation, observation_layout
        >>> seen = splendor.view(splendor.new_game(2, seed=3), 0)
        >>> bank = observation_layout(2)[0]
        >>> bank.name, bank.of(observation(seen)).tolist()
        ('bank', [4.0, 4.0, 4.0, 4.0, 4.0, 5.0])
        """
        return obs[self.start : self.stop].reshape(self.shape)


def _check_players(players: object) -> int:
    if type(players) is not int or not 2 <= players <= 4:
        raise InvalidArgumentError(f"Splendor is played by 2 to 4 players, got {players!r}")
    return players


def _check_rules(rules: object) -> Rules:
    if rules is None:
        return _STANDARD
    if not isinstance(rules, Rules):
        raise InvalidArgumentError(f"rules must be a splendor.Rules, got {rules!r}")
    return rules


def observation_layout(players: int, rules: Rules | None = None) -> tuple[ObservationField, ...]:
    """The parts of the observation vector for ``players`` under ``rules``, in order.

    The parts are, for ``N`` players, ``K`` revealed nobles
    (``rules.nobles(N)``), ``R`` reserve slots (``rules.reserve_limit``) and
    ``A`` codes (:data:`splendor.formats.encoding.ACTION_COUNT`):

    - ``bank`` (6): the supply, white, blue, green, red, black, gold;
    - ``deck_sizes`` (3): cards left in the decks of tier 1, 2, 3;
    - ``status`` (2): turns passed in a row, and 1 once the game is over;
    - ``players`` (N, 15): per player in turn order from the observer:
      tokens (6, gold last), bonuses (5), points, purchased cards, nobles
      received, and 1 if it is that player's turn;
    - ``board`` (12, 16): the face-up cards, tier 1 slots 0-3 first, each
      as :data:`~splendor.fast.layout.CARD_FEATURES`;
    - ``reserved`` (N, R, 16): per player in the same order, the reserved
      cards: the observer's in the order reserved (the order the encoding's
      reserved slots use), another player's face-up reserves first and then
      its blind reserves, which show only their tier;
    - ``nobles`` (K, 7): the nobles still on the table, as revealed, each as
      :data:`~splendor.fast.layout.NOBLE_FEATURES`;
    - ``decision`` (1 + 2A): the number of decisions already made this
      turn, then the first decision one-hot (A), then how many times each
      code occurs among the later decisions (A).

    Args:
        players: the player count, 2 to 4.
        rules: the rules of the game; the published rules by default.

    Raises:
        InvalidArgumentError: for a player count outside 2-4 or rules that
            are not a :class:`~splendor.Rules`.

    >>> [(f.name, f.shape) for f in observation_layout(2)][:4]
    [('bank', (6,)), ('deck_sizes', (3,)), ('status', (2,)), ('players', (2, 15))]
    """
    players = _check_players(players)
    rules = _check_rules(rules)
    codes = ACTION_COUNT
    shapes: list[tuple[str, tuple[int, ...]]] = [
        ("bank", (6,)),
        ("deck_sizes", (3,)),
        ("status", (2,)),
        ("players", (players, _PLAYER_SCALARS)),
        ("board", (12, CARD_SIZE)),
        ("reserved", (players, rules.reserve_limit, CARD_SIZE)),
        ("nobles", (rules.nobles(players), NOBLE_SIZE)),
        ("decision", (1 + 2 * codes,)),
    ]
    fields = []
    start = 0
    for name, shape in shapes:
        field = ObservationField(name, start, shape)
        fields.append(field)
        start = field.stop
    return tuple(fields)


def observation_shape(players: int, rules: Rules | None = None) -> tuple[int]:
    """The shape of :func:`~splendor.rl.observation`'s vector for ``players`` under ``rules``.

    Raises:
        InvalidArgumentError: for a player count outside 2-4 or rules that
            are not a :class:`~splendor.Rules`.
    """
    return (observation_layout(players, rules)[-1].stop,)


def observation_high(players: int, rules: Rules | None = None) -> float:
    """An upper bound of every entry of the observation (the lower bound is 0).

    It is the largest of 255 and the number of tokens in the game, so
    environments can declare a bounded observation space.

    Raises:
        InvalidArgumentError: for a player count outside 2-4 or rules that
            are not a :class:`~splendor.Rules`.
    """
    players = _check_players(players)
    rules = _check_rules(rules)
    return float(max(255, 5 * rules.gems(players) + rules.gold(players)))
