"""A lossless encoding of whole-turn actions as short sequences of integer codes.

Reinforcement learning and search want a small, fixed set of action ids with
a mask of the legal ones. A Splendor turn can hold several choices (the
gems, the tokens given back over the limit, gold paid in place of coloured
tokens, the noble), so this module encodes one turn as a short sequence of
*decisions*, each an ``int`` code below :data:`ACTION_COUNT`:

1. the first decision picks the move: a take pattern, a reservation by board
   slot or deck tier, a purchase by board slot or reserved slot, or pass;
2. follow-up decisions come only where the rules leave a choice: each token
   given back over the limit, each gold token used in place of a coloured
   one (then "no more gold"), and the noble when several qualify.

A follow-up decision is asked only when more than one option remains: a
choice that is forced is implied, never asked. The first decision is always
asked, even when a single move is legal.

Codes name only what the player to move can see (a board slot, a reserved
slot, a deck tier, a revealed noble's place), never a card's identity, so a
:class:`~splendor.GameState` and the :class:`~splendor.PlayerView` of the seat
to move give the same codes.

The complete sequences are exactly the legal actions of
:func:`~splendor.legal_actions`, each reached by one sequence only:

>>> from splendor import legal_actions, new_game
>>> state = new_game(2, seed=1)
>>> legal_codes(state)[:5]
(0, 1, 2, 3, 4)
>>> decode(state, [0])
Take(gems=Tokens(white=1, blue=1, green=1), returned=Tokens(), noble=None)
>>> action_codes(state, legal_actions(state)[0])
(0,)
>>> describe_code(0), describe_code(45)
('take white, blue, green', 'buy tier 1 slot 0')

See :doc:`/encoding` for the design and the table of every code. (This
module is one unit: the code table, the decisions of a state and the
functions over them share their private structures.)
"""

from __future__ import annotations

import itertools
import operator
import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Final, TypeAlias, TypeGuard

from splendor.core.actions import Action, Buy, Pass, Reserve, ReserveFromDeck, Take
from splendor.core.components import Card
from splendor.core.gems import GEMS, Tokens
from splendor.core.legal import legal_actions
from splendor.core.play import apply
from splendor.core.state import GameState, PlayerState
from splendor.errors import EncodingError, IllegalActionError, InvalidArgumentError

if TYPE_CHECKING:
    from splendor.core.views import PlayerView

__all__ = [
    "ACTION_COUNT",
    "BUY_CODES",
    "ENCODING_VERSION",
    "GOLD_CODES",
    "MOVE_CODES",
    "NOBLE_CODES",
    "NOBLE_SLOTS",
    "NO_MORE_GOLD_CODE",
    "PASS_CODE",
    "RESERVED_SLOTS",
    "RESERVE_CODES",
    "RETURN_CODES",
    "TAKE_CODES",
    "TAKE_PATTERNS",
    "action_codes",
    "code_sequences",
    "decode",
    "describe_code",
    "is_complete",
    "legal_codes",
]

#: The version of the code layout. It changes whenever the meaning of a code
#: or :data:`ACTION_COUNT` changes, so a trained model can check it.
ENCODING_VERSION: Final = 1

#: The most reserved cards a player may hold for the encoding (the published
#: rules allow 3; a house rule may allow up to this many).
RESERVED_SLOTS: Final = 5
#: The most revealed nobles the encoding tells apart (every noble of the game).
NOBLE_SLOTS: Final = 10

_COLOURS: Final = tuple(gem.value for gem in GEMS)

#: The take patterns, in code order: 3 different colours, 2 different colours,
#: 1 colour (the last two only when fewer than 3 colours are in the supply),
#: then 2 of one colour. Each is a 6-tuple of counts (gold always 0).
TAKE_PATTERNS: Final[tuple[tuple[int, ...], ...]] = (
    *(
        tuple(1 if c in chosen else 0 for c in range(6))
        for size in (3, 2, 1)
        for chosen in itertools.combinations(range(5), size)
    ),
    *(tuple(2 if c == colour else 0 for c in range(6)) for colour in range(5)),
)
_TAKE_CODE: Final = {pattern: code for code, pattern in enumerate(TAKE_PATTERNS)}

#: The codes of the first decision that take gems (30): the ten sets of 3
#: colours, the ten pairs, the five single colours, then 2 of each colour.
TAKE_CODES: Final = range(len(TAKE_PATTERNS))
_RESERVE_BOARD: Final = TAKE_CODES.stop
_RESERVE_DECK: Final = _RESERVE_BOARD + 12
#: The codes of the first decision that reserve a card (15): a face-up card
#: by tier and slot (``30 + 4 * (tier - 1) + slot``), then the top card of the
#: tier 1, 2 and 3 decks.
RESERVE_CODES: Final = range(_RESERVE_BOARD, _RESERVE_DECK + 3)
_BUY_BOARD: Final = RESERVE_CODES.stop
_BUY_RESERVED: Final = _BUY_BOARD + 12
#: The codes of the first decision that buy a card (17): a face-up card by
#: tier and slot (``45 + 4 * (tier - 1) + slot``), then the player's reserved
#: cards by their place in :attr:`~splendor.PlayerState.reserved`.
BUY_CODES: Final = range(_BUY_BOARD, _BUY_RESERVED + RESERVED_SLOTS)
#: The code of the first decision that passes.
PASS_CODE: Final = BUY_CODES.stop
#: The codes of every first decision: the move.
MOVE_CODES: Final = range(PASS_CODE + 1)
#: Follow-up codes "return one token of a colour" (white, blue, green, red,
#: black, gold), one per token given back over the limit.
RETURN_CODES: Final = range(MOVE_CODES.stop, MOVE_CODES.stop + 6)
#: Follow-up codes "pay one gold token in place of a coloured one" (white,
#: blue, green, red, black), one per gold token used that way.
GOLD_CODES: Final = range(RETURN_CODES.stop, RETURN_CODES.stop + 5)
#: The follow-up code that ends the gold choices of a payment: the rest of
#: the price is paid with coloured tokens, and gold only where they run out.
NO_MORE_GOLD_CODE: Final = GOLD_CODES.stop
#: Follow-up codes "receive the noble at this place" among the revealed
#: nobles (:attr:`~splendor.GameState.nobles`).
NOBLE_CODES: Final = range(NO_MORE_GOLD_CODE + 1, NO_MORE_GOLD_CODE + 1 + NOBLE_SLOTS)
#: The number of codes: every code is an ``int`` from 0 to ``ACTION_COUNT - 1``.
ACTION_COUNT: Final = NOBLE_CODES.stop


def _code_name(code: int) -> str:
    if code in TAKE_CODES:
        pattern = TAKE_PATTERNS[code]
        if 2 in pattern:
            return f"take 2 {_COLOURS[pattern.index(2)]}"
        return "take " + ", ".join(_COLOURS[c] for c in range(5) if pattern[c])
    if code in RESERVE_CODES:
        if code >= _RESERVE_DECK:
            return f"reserve from the tier {code - _RESERVE_DECK + 1} deck"
        tier, slot = divmod(code - _RESERVE_BOARD, 4)
        return f"reserve tier {tier + 1} slot {slot}"
    if code in BUY_CODES:
        if code >= _BUY_RESERVED:
            return f"buy reserved card {code - _BUY_RESERVED}"
        tier, slot = divmod(code - _BUY_BOARD, 4)
        return f"buy tier {tier + 1} slot {slot}"
    if code == PASS_CODE:
        return "pass"
    if code in RETURN_CODES:
        return f"return {_COLOURS[code - RETURN_CODES.start]}"
    if code in GOLD_CODES:
        return f"pay gold for {_COLOURS[code - GOLD_CODES.start]}"
    if code == NO_MORE_GOLD_CODE:
        return "no more gold"
    return f"noble {code - NOBLE_CODES.start}"


_NAMES: Final = tuple(_code_name(code) for code in range(ACTION_COUNT))


def describe_code(code: int) -> str:
    """What a code means, in words.

    >>> describe_code(25), describe_code(42), describe_code(PASS_CODE)
    ('take 2 white', 'reserve from the tier 1 deck', 'pass')
    >>> [describe_code(code) for code in (RETURN_CODES[5], GOLD_CODES[3], NOBLE_CODES[1])]
    ['return gold', 'pay gold for red', 'noble 1']

    Raises:
        EncodingError: for anything but an ``int`` from 0 to ``ACTION_COUNT - 1``.
    """
    if type(code) is not int or not 0 <= code < ACTION_COUNT:
        raise EncodingError(
            f"not a code: {code!r} (codes are ints from 0 to {ACTION_COUNT - 1})",
            code=code if type(code) is int else None,
        )
    return _NAMES[code]


# -- The decision tree of one state -----------------------------------------


class _Node:
    """One decision: the legal codes, sorted, and what each leads to.

    A child is the next decision (a :class:`_Node`), the action the sequence
    completes, or, until first used, the actions that share the codes so far
    (a list of actions below the first decision, a :class:`_Pending` below a
    follow-up), whose next decision is made on demand. ``depth`` is the place
    of the decision in the follow-up codes of its actions (forced ones
    included); ``-1`` for the first decision.
    """

    __slots__ = ("children", "codes", "depth")

    def __init__(self, codes: tuple[int, ...], children: dict[int, _Child], depth: int) -> None:
        self.codes = codes
        self.children = children
        self.depth = depth


class _Pending:
    """Actions that share their codes up to ``depth`` in their follow-ups."""

    __slots__ = ("depth", "pairs")

    def __init__(self, pairs: list[tuple[tuple[int, ...], Action]], depth: int) -> None:
        self.pairs = pairs
        self.depth = depth


_Child: TypeAlias = (
    "_Node | _Pending | Take | Reserve | ReserveFromDeck | Buy | Pass | list[Action]"
)


class _Tree:
    """The decisions of one state: the first one, and what the follow-ups need."""

    __slots__ = ("nobles", "player", "root", "state")

    def __init__(
        self,
        state: GameState | PlayerView,
        root: _Node,
        player: PlayerState | None,
        nobles: tuple[object, ...],
    ) -> None:
        self.state = state
        self.root = root
        self.player = player
        self.nobles = nobles


_EMPTY: Final = _Node((), {}, -1)

# The trees of the states used last, by identity. A decision sequence asks
# about the same state object several times in a row; each entry keeps its
# state alive, so an id is never reused while its entry is here. The most
# recent one is also kept apart, for the quickest check.
_RECENT: dict[int, tuple[object, _Tree]] = {}
_RECENT_SIZE: Final = 64
_last: tuple[object, _Tree | None] = (None, None)


def _tree(state: GameState | PlayerView) -> _Tree:
    global _last  # noqa: PLW0603  # one tuple, replaced whole (safe across threads)
    last_state, last_tree = _last
    if last_state is state and last_tree is not None:
        return last_tree
    entry = _RECENT.get(id(state))
    if entry is not None and entry[0] is state:
        tree = entry[1]
    else:
        tree = _build(state)
        if len(_RECENT) >= _RECENT_SIZE:
            _RECENT.clear()
        _RECENT[id(state)] = (state, tree)
    _last = (state, tree)
    return tree


def _is_view(value: object) -> TypeGuard[PlayerView]:
    """Whether ``value`` is a :class:`~splendor.PlayerView` (whose module is
    loaded if there is one: this module does not import it)."""
    views = sys.modules.get("splendor.core.views")
    return views is not None and type(value) is views.PlayerView


def _check_board(board: object) -> None:
    if type(board) is tuple and len(board) == 3:
        first, second, third = board
        if (
            type(first) is tuple
            and type(second) is tuple
            and type(third) is tuple
            and len(first) == len(second) == len(third) == 4
        ):
            return
    raise InvalidArgumentError("a board is a tuple of 3 tiers of 4 slots each")


def _build(state: GameState | PlayerView) -> _Tree:
    """The first decision of ``state``, with the actions behind each move code."""
    if type(state) is GameState:
        if state.winners:
            return _Tree(state, _EMPTY, None, ())
        _check_board(state.board)
        player = state.players[state.current_player]
        actions = legal_actions(state)
    else:
        if not _is_view(state):
            raise InvalidArgumentError(
                "expected a GameState or the PlayerView of the seat to move, "
                f"got {type(state).__name__}"
            )
        if state.winners:
            return _Tree(state, _EMPTY, None, ())
        _check_board(state.board)
        actions = legal_actions(state)  # checks that the view's seat is to move
        if state.own is None:
            raise InvalidArgumentError("the view of the seat to move lacks its own state")
        player = state.own
    (a, b, c, d), (e, f, g, h), (i, j, k, m) = state.board
    # The place of each face-up card (empty slots share the key None, unused).
    slots = {a: 0, b: 1, c: 2, d: 3, e: 4, f: 5, g: 6, h: 7, i: 8, j: 9, k: 10, m: 11}
    reserved = player.reserved
    if len(reserved) > RESERVED_SLOTS:
        raise EncodingError(
            f"the encoding tells apart at most {RESERVED_SLOTS} reserved cards; "
            f"the player holds {len(reserved)}"
        )
    if len(state.nobles) > NOBLE_SLOTS:
        raise EncodingError(f"the encoding tells apart at most {NOBLE_SLOTS} revealed nobles")
    # The move code of each action; the actions of one move go in a list.
    children: dict[int, _Child] = {}
    take_code = _TAKE_CODE
    for action in actions:
        if type(action) is Take:
            code = take_code[action.gems.counts]
        elif type(action) is Buy:
            slot = slots.get(action.card)
            if slot is None:
                code = _BUY_RESERVED + reserved.index(action.card)
            else:
                code = _BUY_BOARD + slot
        elif type(action) is Reserve:
            code = _RESERVE_BOARD + slots[action.card]
        elif type(action) is ReserveFromDeck:
            code = _RESERVE_DECK - 1 + action.tier
        else:
            code = PASS_CODE
        child = children.get(code)
        if child is None:
            children[code] = action
        elif type(child) is list:
            child.append(action)
        else:
            children[code] = [child, action]  # type: ignore[list-item]  # an action
    return _Tree(state, _Node(tuple(sorted(children)), children, -1), player, state.nobles)


def _return_codes(returned: tuple[int, ...]) -> tuple[int, ...]:
    """The codes that give back ``returned``, in colour order."""
    codes: list[int] = []
    for c in range(6):
        codes += (RETURN_CODES.start + c,) * returned[c]
    return tuple(codes)


# The codes of every return of up to 3 tokens (a turn brings at most 3).
_RETURNS: Final = {
    counts: _return_codes(counts)
    for counts in itertools.product(range(4), repeat=6)
    if sum(counts) <= 3
}


def _follow_ups(tree: _Tree, action: Action) -> tuple[int, ...]:
    """Every follow-up code of a listed action, forced ones included."""
    codes: tuple[int, ...]
    if type(action) is Buy:
        player = tree.player
        assert player is not None  # the game is not over
        assert action.payment is not None  # listed buys say how they pay
        held = player.tokens.counts
        bonus = player.bonuses.counts
        cost = action.card.cost.counts
        paid = action.payment.counts
        gold: list[int] = []
        for c in range(5):
            price = cost[c] - bonus[c]
            # Gold paid in place of tokens of this colour the player holds.
            instead = (price if price < held[c] else held[c]) - paid[c]
            if instead > 0:
                gold += (GOLD_CODES.start + c,) * instead
        gold.append(NO_MORE_GOLD_CODE)
        codes = tuple(gold)
    elif type(action) is Pass:
        codes = ()
    else:
        returned = action.returned.counts
        found = _RETURNS.get(returned)
        codes = _return_codes(returned) if found is None else found
    if action.noble is not None:
        codes = (*codes, NOBLE_CODES.start + tree.nobles.index(action.noble))
    return codes


def _expand(tree: _Tree, actions: list[Action]) -> _Node | Action:
    """The first follow-up decision of the actions that share a move code."""
    return _decide([(_follow_ups(tree, action), action) for action in actions], 0)


def _decide(pairs: list[tuple[tuple[int, ...], Action]], depth: int) -> _Node:
    """The next decision among several actions whose follow-ups agree before ``depth``.

    A decision with a single option is implied (skipped), so what is returned
    is a decision with at least two options. An option that leaves one action
    leads to it; the decisions after the others are made when first asked for.
    """
    while True:  # there are always several pairs here, with distinct follow-ups
        split: dict[int, list[tuple[tuple[int, ...], Action]]] = {}
        for pair in pairs:
            code = pair[0][depth]
            same = split.get(code)
            if same is None:
                split[code] = [pair]
            else:
                same.append(pair)
        if len(split) > 1:
            children: dict[int, _Child] = {
                code: same[0][1] if len(same) == 1 else _Pending(same, depth + 1)
                for code, same in split.items()
            }
            return _Node(tuple(sorted(children)), children, depth)
        depth += 1


# -- Reading code sequences -------------------------------------------------

_NOT_SEQUENCES: Final = (str, bytes, bytearray, set, frozenset, Mapping)


def _as_codes(codes: object, what: str) -> tuple[int, ...]:
    """The codes of a sequence as a tuple of ints (numpy integers accepted)."""
    if type(codes) is tuple or type(codes) is list:
        for code in codes:
            if type(code) is not int:
                break
        else:
            return tuple(codes)
    elif isinstance(codes, _NOT_SEQUENCES) or not isinstance(codes, Iterable):
        raise EncodingError(f"{what} must be a sequence of int codes, got {type(codes).__name__}")
    try:
        items = list(codes)
    except TypeError as error:  # an object whose __iter__ refuses, like a 0-d array
        raise EncodingError(f"{what} cannot be read as a sequence of int codes: {error}") from error
    found: list[int] = []
    for position, code in enumerate(items):
        if type(code) is bool or not hasattr(type(code), "__index__"):
            raise EncodingError(
                f"{what}[{position}] is not an int code: {code!r}", position=position
            )
        try:
            found.append(operator.index(code))
        except TypeError as error:  # an __index__ that returns no int
            raise EncodingError(
                f"{what}[{position}] is not an int code: {error}", position=position
            ) from error
    return tuple(found)


def _open(tree: _Tree, node: _Node, code: int) -> _Node | Action:
    """What the legal ``code`` of ``node`` leads to, making that decision if needed."""
    child = node.children[code]
    if type(child) is _Pending:
        child = node.children[code] = _decide(child.pairs, child.depth)
    elif type(child) is list:
        child = node.children[code] = _expand(tree, child)
    return child  # type: ignore[return-value]  # a decision or an action now


def _walk(tree: _Tree, codes: tuple[int, ...]) -> _Node | Action:
    """Follow ``codes`` from the first decision; raise at the first bad one."""
    node: _Node | Action = tree.root
    for position, code in enumerate(codes):
        if type(node) is not _Node:
            raise EncodingError(
                f"code {code} at position {position} comes after the end of the turn: "
                f"the first {position} code(s) already make the action {node}",
                position=position,
                code=code,
            )
        if not 0 <= code < ACTION_COUNT:
            raise EncodingError(
                f"code {code} at position {position} is not a code "
                f"(codes are 0 to {ACTION_COUNT - 1})",
                position=position,
                code=code,
            )
        child = node.children.get(code)
        if child is None:
            if not node.codes:
                why = "the game is over"
            else:
                why = f"the legal codes are {', '.join(map(str, node.codes))}"
            raise EncodingError(
                f"code {code} ({_NAMES[code]}) at position {position} is not legal here: {why}",
                position=position,
                code=code,
            )
        if type(child) is _Pending or type(child) is list:
            child = _open(tree, node, code)
        node = child  # type: ignore[assignment]  # a decision or an action now
    return node


def legal_codes(state: GameState | PlayerView, prefix: Iterable[int] = ()) -> tuple[int, ...]:
    """The codes legal as the next decision after ``prefix``, sorted.

    Args:
        state: the state to move from, or the :class:`~splendor.PlayerView`
            of the seat to move (the same codes either way).
        prefix: the decisions already taken this turn (ints, numpy integers
            accepted); ``()`` asks for the first decision.

    Returns:
        The legal codes, in increasing order; ``()`` once the game is over
        or when ``prefix`` is a complete turn.

    Raises:
        EncodingError: when ``prefix`` is not the start of a legal sequence,
            naming the first bad code and its position.
        InvalidArgumentError: when ``state`` is neither a state nor the view
            of the seat to move.

    >>> from splendor import new_game
    >>> state = new_game(2, seed=1)
    >>> len(legal_codes(state)), legal_codes(state, [0])
    (30, ())
    """
    tree = _tree(state)
    if type(prefix) is tuple and not prefix:
        return tree.root.codes
    node = _walk(tree, _as_codes(prefix, "prefix"))
    return node.codes if type(node) is _Node else ()


def is_complete(state: GameState | PlayerView, codes: Iterable[int]) -> bool:
    """Whether ``codes`` is a whole legal turn (``False`` for the start of one).

    Raises:
        EncodingError: when ``codes`` is neither a legal turn nor the start of
            one, naming the first bad code and its position.
        InvalidArgumentError: as :func:`legal_codes`.

    >>> from splendor import new_game
    >>> state = new_game(2, seed=1)
    >>> is_complete(state, []), is_complete(state, [0])
    (False, True)
    """
    return type(_walk(_tree(state), _as_codes(codes, "codes"))) is not _Node


def decode(state: GameState | PlayerView, codes: Iterable[int]) -> Action:
    """The action of a complete, legal sequence of decisions.

    The action is the very object that :func:`~splendor.legal_actions` lists.

    Args:
        state: the state to move from, or the view of the seat to move.
        codes: the decisions of one whole turn.

    Returns:
        The action.

    Raises:
        EncodingError: when ``codes`` is not a whole legal turn: a code that
            is not legal where it stands, codes after the end of the turn, or
            a sequence that ends too soon; the message names the first bad
            code and its position.
        InvalidArgumentError: as :func:`legal_codes`.

    >>> from splendor import new_game
    >>> str(decode(new_game(2, seed=1), [25]))
    'take 2W'
    """
    codes = _as_codes(codes, "codes")
    node = _walk(_tree(state), codes)
    if type(node) is _Node:
        raise EncodingError(
            f"the codes end at position {len(codes)} before the turn is complete: "
            f"one of {', '.join(map(str, node.codes))} comes next",
            position=len(codes),
        )
    return node  # type: ignore[return-value]  # not a node: an action


# -- Encoding actions -------------------------------------------------------


def _move_code(tree: _Tree, action: Action) -> int | None:
    """The first code of a listed action's form, if it can have one."""
    if type(action) is Pass:
        return PASS_CODE
    if type(action) is Take:
        gems = action.gems
        return _TAKE_CODE.get(gems.counts) if type(gems) is Tokens else None
    if type(action) is ReserveFromDeck:
        tier = action.tier
        return _RESERVE_DECK - 1 + tier if type(tier) is int and 1 <= tier <= 3 else None
    card = action.card
    if type(card) is not Card:
        return None
    board = tree.state.board
    row = board[card.tier - 1]
    if card in row:
        base = _RESERVE_BOARD if type(action) is Reserve else _BUY_BOARD
        return base + 4 * (card.tier - 1) + row.index(card)
    assert tree.player is not None  # the game is not over
    if type(action) is Buy and card in tree.player.reserved:
        return _BUY_RESERVED + tree.player.reserved.index(card)
    return None


_ACTION_TYPES: Final = (Take, Reserve, ReserveFromDeck, Buy, Pass)


def action_codes(state: GameState | PlayerView, action: Action) -> tuple[int, ...]:
    """The decisions that encode a legal action: the inverse of :func:`decode`.

    Any legal form of the action is accepted, as :func:`~splendor.apply`
    accepts it (a :class:`~splendor.Buy` without a payment, an action that
    leaves out the one noble that qualifies, a take written another way with
    the same outcome): it gets the codes of the listed action with the same
    outcome, which :func:`decode` gives back.

    Args:
        state: the state to move from, or the view of the seat to move.
        action: the action.

    Returns:
        The codes, the first decision first.

    Raises:
        IllegalActionError: when the action is not legal in ``state``, saying
            why (as :func:`~splendor.apply` does).
        InvalidArgumentError: when ``action`` is not an action, or ``state``
            is neither a state nor the view of the seat to move.

    >>> from splendor import Buy, Take, Tokens, new_game
    >>> state = new_game(2, seed=1)
    >>> action_codes(state, Take(Tokens(red=2)))
    (28,)
    """
    tree = _tree(state)
    if type(action) not in _ACTION_TYPES:
        raise InvalidArgumentError(f"expected an action, got {action!r}")
    if not tree.root.codes:
        raise IllegalActionError("the game is over")
    found = _codes_of_listed(tree, action)
    if found is None:
        found = _codes_of_listed(tree, _listed_form(tree, action))
        if found is None:  # pragma: no cover  # every listed action has codes
            raise AssertionError(f"no codes for {action}")
    return found


def _codes_of_listed(tree: _Tree, action: Action) -> tuple[int, ...] | None:
    """The codes of an action in the form that :func:`~splendor.legal_actions`
    lists it, or ``None`` for another form or an illegal action."""
    move = _move_code(tree, action)
    if move is None or move not in tree.root.children:
        return None
    node = _open(tree, tree.root, move)
    codes = [move]
    if type(node) is _Node:
        if not _listed_shape(tree, action):
            return None
        follow = _follow_ups(tree, action)
        while type(node) is _Node:
            if node.depth >= len(follow) or follow[node.depth] not in node.children:
                return None
            code = follow[node.depth]
            codes.append(code)
            node = _open(tree, node, code)
    return tuple(codes) if node == action else None


def _listed_shape(tree: _Tree, action: Action) -> bool:
    """Whether the fields of ``action`` have the types of a listed action's."""
    noble = action.noble
    if noble is not None and noble not in tree.nobles:
        return False
    if type(action) is Buy:
        return type(action.payment) is Tokens
    return type(action) is Pass or type(action.returned) is Tokens


def _listed_form(tree: _Tree, action: Action) -> Action:
    """The listed action with the same outcome as a legal ``action``.

    Raises the error of :func:`~splendor.apply` when ``action`` is not legal.
    """
    full: GameState
    if isinstance(tree.state, GameState):
        full = tree.state
    else:
        # A state the view cannot tell from the real one: the turn of the seat
        # to move plays there as in the real state. The views module is loaded,
        # since the view is one of its objects.
        full = sys.modules["splendor.core.views"].determinize(tree.state, 0)
    after = apply(full, action)
    for listed in legal_actions(full):
        if type(listed) is type(action) and apply(full, listed) == after:
            return listed
    raise AssertionError(f"no listed action has the outcome of {action}")  # pragma: no cover


def code_sequences(state: GameState | PlayerView) -> tuple[tuple[tuple[int, ...], Action], ...]:
    """Every legal action with its codes, in the order of :func:`~splendor.legal_actions`.

    >>> from splendor import new_game
    >>> codes, action = code_sequences(new_game(2, seed=1))[-1]
    >>> codes, str(action)
    ((44,), 'reserve from tier 3 deck')
    """
    return tuple((action_codes(state, action), action) for action in legal_actions(state))
