"""The code of the action notation: :func:`format_action` and :func:`parse_action`.

Both are documented, and imported, from :mod:`splendor.formats.notation`, which
also offers the record functions of :mod:`splendor.formats.record_text`; that
module uses these two, so they live here, below both. No name here is part of
the public API under this module's name.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import attrs

from splendor.core.actions import Action, Buy, Pass, Reserve, ReserveFromDeck, Take
from splendor.core.components import CARDS_BY_ID, NOBLES_BY_ID, Card, is_game_card, is_game_noble
from splendor.core.gems import Tokens
from splendor.core.legal import legal_actions
from splendor.core.play import apply
from splendor.core.state import GameState, PlayerState
from splendor.core.views import PlayerView, determinize
from splendor.errors import IllegalActionError, InvalidArgumentError, SplendorError
from splendor.formats._notation_parser import Parsed, Reader, letters

__all__ = ["format_action", "format_line", "parse_action"]


def _actor(state: GameState | PlayerView) -> tuple[GameState, PlayerState]:
    """A full state to work in and the state of the player to move."""
    if type(state) is GameState:
        return state, state.players[state.current_player]
    if type(state) is PlayerView:
        full = state.stand_in()
        return full, full.players[full.current_player]
    raise InvalidArgumentError(f"expected a GameState or a PlayerView, got {type(state).__name__}")


def _default_payment(card: Card, player: PlayerState) -> Tokens:
    """What :func:`splendor.apply` pays for ``card`` when no payment is given.

    Coloured tokens first, gold for the rest (more gold than the player holds
    when the card is not affordable).
    """
    paid = [0] * 6
    for i, (cost, bonus, held) in enumerate(
        zip(card.cost.counts[:5], player.bonuses.counts[:5], player.tokens.counts[:5], strict=True)
    ):
        price = max(cost - bonus, 0)
        paid[i] = min(price, held)
        paid[5] += price - paid[i]
    return Tokens(*paid)


def format_action(action: Action, state: GameState | PlayerView) -> str:
    """The notation of ``action`` played from ``state``.

    Cards are named by their place: tier and slot on the board, or index in
    the reserve of the player to move. A payment is written only when it is
    not the default one; tokens returned and a noble are always written.

    Args:
        action: the action.
        state: the state it is played from, or the view of the seat to move.

    Returns:
        The text, for example ``"+WBG"``, ``"r23"``, ``"br1=RY"`` or ``"p"``.

    Raises:
        IllegalActionError: when the card the action names is not where it
            could be taken from (face up, or in the mover's reserve for a buy).
        InvalidArgumentError: when ``action`` is not an action, or ``state``
            is neither a state nor the mover's view.

    >>> from splendor import Gem, ReserveFromDeck, Take, Tokens, new_game
    >>> state = new_game(2, seed=1)
    >>> format_action(Take(Tokens(red=2)), state)
    '+RR'
    >>> format_action(ReserveFromDeck(2), state)
    'r2d'
    """
    full, player = _actor(state)
    kind = type(action)
    if kind is Take:
        gems = action.gems  # type: ignore[union-attr]  # a Take
        if type(gems) is not Tokens:
            raise InvalidArgumentError(f"Take.gems must be Tokens, got {gems!r}")
        text = "+" + letters(gems) + _returns(action.returned)  # type: ignore[union-attr]  # a Take
    elif kind is Reserve:
        text = "r" + _place(action.card, full, None) + _returns(action.returned)  # type: ignore[union-attr]  # a Reserve
    elif kind is ReserveFromDeck:
        tier = action.tier  # type: ignore[union-attr]  # a ReserveFromDeck
        if type(tier) is not int or not 1 <= tier <= 3:
            raise InvalidArgumentError(f"the tier of a blind reserve is 1, 2 or 3, got {tier!r}")
        text = f"r{tier}d" + _returns(action.returned)  # type: ignore[union-attr]  # a ReserveFromDeck
    elif kind is Buy:
        card: Card = action.card  # type: ignore[union-attr]  # a Buy
        text = "b" + _place(card, full, player)  # checks it is one of the game's cards
        payment = action.payment  # type: ignore[union-attr]  # a Buy
        if payment is not None:
            if type(payment) is not Tokens:
                raise InvalidArgumentError(f"Buy.payment must be Tokens or None, got {payment!r}")
            if payment != _default_payment(card, player):
                text += "=" + letters(payment)
    elif kind is Pass:
        text = "p"
    else:
        raise InvalidArgumentError(f"expected an action, got {action!r}")
    noble = action.noble
    if noble is None:
        return text
    if not is_game_noble(noble):
        raise InvalidArgumentError(f"expected one of the game's nobles or None, got {noble!r}")
    return f"{text}n{noble.id}"


def _returns(returned: object) -> str:
    if type(returned) is not Tokens:
        raise InvalidArgumentError(f"returned must be Tokens, got {returned!r}")
    return "-" + letters(returned) if returned else ""


def _place(card: object, state: GameState, player: PlayerState | None) -> str:
    """``<tier><slot>`` of a face-up card, else ``r<index>`` in ``player``'s reserve."""
    if not is_game_card(card):
        raise InvalidArgumentError(f"expected one of the game's cards, got {card!r}")
    row = state.board[card.tier - 1]  # a game card's tier is 1, 2 or 3
    if card in row:
        return f"{card.tier}{row.index(card) + 1}"
    if player is not None and card in player.reserved:
        return f"r{player.reserved.index(card) + 1}"
    where = "face up" if player is None else "face up nor reserved by the player to move"
    raise IllegalActionError(f"card #{card.id} is not {where}")


def format_line(actions: Sequence[Action], seen: PlayerView) -> tuple[str, ...]:
    """A line of play from ``seen`` (a principal variation) in the notation, as far as it goes.

    The first action is the mover's, written against the view; the replies
    are written against one fixed dealing of the hidden cards
    (:func:`splendor.determinize` with ``random.Random(0)``). The line stops
    at the first action that cannot be written there (a reply may buy a card
    that this dealing does not turn up) and at the end of the game.

    >>> from splendor import legal_actions, new_game, view
    >>> seen = view(new_game(2, seed=1), 0)
    >>> format_line(legal_actions(seen)[:1], seen)
    ('+WBG',)
    """
    texts: list[str] = []
    try:
        if actions:
            texts.append(format_action(actions[0], seen))
            state: GameState = determinize(seen, random.Random(0))
            for played, reply in itertools.pairwise(actions):
                state = apply(state, played)
                if state.is_over:
                    break
                texts.append(format_action(reply, state))
    except SplendorError:
        pass
    return tuple(texts)


def parse_action(text: str, state: GameState | PlayerView) -> Action:
    """The action a text names in ``state`` (see the notation above).

    Case and spaces do not matter, and words may stand for the letters
    (``take 2 red``, ``reserve tier 3``, ``buy tier 1 slot 2``: see above).
    When the text leaves out the payment of a
    buy, the default payment is meant; when it leaves out the noble and one
    noble can come, that one is meant. The action returned is the one
    :func:`~splendor.legal_actions` lists for that outcome, when the text
    names a listed one.

    Args:
        text: the action's text, for example ``"+WBG-R"`` or ``"B 2 3"``.
        state: the state to play it from, or the view of the seat to move.

    Returns:
        The action, legal in ``state``.

    Raises:
        NotationError: when the text is not in the notation; the message says
            what was expected where.
        IllegalActionError: when the text is well formed but names an action
            the rules forbid here (or a noble must be chosen).
        InvalidArgumentError: when ``text`` is not a ``str`` or ``state`` is
            neither a state nor the mover's view.

    >>> from splendor import new_game
    >>> state = new_game(2, seed=1)
    >>> parse_action("+rr", state)
    Take(gems=Tokens(red=2), returned=Tokens(), noble=None)
    >>> parse_action("reserve tier 3", state)
    ReserveFromDeck(tier=3, returned=Tokens(), noble=None)
    >>> from splendor import IllegalActionError, NotationError
    >>> for text in ("r5", "b11"):
    ...     try:
    ...         parse_action(text, state)
    ...     except (NotationError, IllegalActionError) as error:
    ...         print(type(error).__name__, error)
    NotationError cannot read 'r5': expected a tier 1-3, or '#' and a card id, got '5'
    IllegalActionError cannot afford card #24: the price is 4K and the player holds nothing
    >>> try:
    ...     parse_action("take red blu", state)
    ... except NotationError as error:
    ...     print(str(error).partition("expected ")[2])
    another colour: colours are W B G R K (and Y for gold) or their names, got 'blu'
    """
    if type(text) is not str:
        raise InvalidArgumentError(f"expected the text of an action, got {text!r}")
    parsed = Reader(text).action()
    full, player = _actor(state)
    if full.winners:
        raise IllegalActionError("the game is over")
    action = _build(parsed, full, player)
    listed = {a: a for a in legal_actions(full)}
    wanted = action
    if type(action) is Buy and action.payment is None:
        wanted = attrs.evolve(action, payment=_default_payment(action.card, player))
    if wanted.noble is None:
        candidates = [wanted, *(attrs.evolve(wanted, noble=n) for n in full.nobles)]
    else:
        candidates = [wanted]
    matches = [listed[c] for c in candidates if c in listed]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        names = ", ".join(f"n{m.noble.id}" for m in matches if m.noble is not None)
        raise IllegalActionError(f"several nobles can come: add one of {names}")
    apply(full, action)  # raises the reason the action is illegal
    return action


def _build(parsed: Parsed, state: GameState, player: PlayerState) -> Action:
    """The action a parsed text names, with the noble left out unless given."""
    noble = NOBLES_BY_ID[parsed.noble_id] if parsed.noble_id else None
    verb = parsed.verb
    if verb == "+":
        return Take(parsed.tokens, parsed.returned, noble)
    if verb == "p":
        return Pass(noble)
    if parsed.card_id:
        card = CARDS_BY_ID[parsed.card_id]
    elif parsed.index:
        if parsed.index > len(player.reserved):
            raise IllegalActionError(
                f"cannot buy reserved card {parsed.index}: "
                f"the player to move holds {len(player.reserved)} reserved card(s)"
            )
        card = player.reserved[parsed.index - 1]
    elif parsed.slot:
        found = state.board[parsed.tier - 1][parsed.slot - 1]
        if found is None:
            raise IllegalActionError(
                f"slot {parsed.slot} of tier {parsed.tier} is empty: its deck ran out"
            )
        card = found
    else:
        return ReserveFromDeck(parsed.tier, parsed.returned, noble)
    if verb == "r":
        return Reserve(card, parsed.returned, noble)
    return Buy(card, parsed.payment, noble)
