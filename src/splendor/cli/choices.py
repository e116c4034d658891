"""Moves and the choices that follow them, for ``splendor play``.

Many legal actions are one move followed by a choice: taking three gems at
the token limit comes with tokens to give back, a buy with a way to pay, any
move with a noble when several can come. ``legal_actions`` lists each
outcome once (43 ways to take and give back at 10 tokens); a player thinks of
the move first and the choice after. :func:`moves` groups the actions by
move, :func:`find_move` tells which move a typed text names when it leaves
the choice out, and :func:`choose` asks for the choice as a second question.

Where several takes lead to one outcome, ``legal_actions`` lists one of them
(take white, green, blue and give back white, or take green, blue, red and
give back red), but a player may make any of them: a take's move holds every
form of every legal outcome it can reach, giving back tokens just taken
included, so each take offers exactly the outcomes the engine lists.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

import attrs

from splendor.cli.output import Output
from splendor.core.actions import Action, Buy, Pass, Reserve, ReserveFromDeck, Take
from splendor.core.components import Noble
from splendor.core.gems import GEMS, Tokens
from splendor.core.messages import short_repr
from splendor.core.play import is_legal
from splendor.core.state import GameState
from splendor.core.views import PlayerView
from splendor.errors import SplendorError
from splendor.formats.notation import format_action, parse_action

__all__ = ["Move", "choose", "find_move", "moves", "stem", "take_hint"]

_T = TypeVar("_T")

# The width of the lines of choices, and of a column of short choices.
_WIDTH: Final = 78
_COLUMN: Final = 10

#: What an answer may say to go back to the move prompt.
CANCEL: Final = frozenset({"q", "c", "cancel", "back", "no"})

# Every gem set a take might name, in the order legal_actions lists takes:
# three colours, then two, then one (when fewer colours are in the supply),
# then two of one colour.
_TAKE_GEMS: Final = tuple(
    Tokens(*(1 if c in combo else 0 for c in range(5)))
    for size in (3, 2, 1)
    for combo in itertools.combinations(range(5), size)
) + tuple(Tokens(*(2 if c == colour else 0 for c in range(5))) for colour in range(5))


def stem(action: Action) -> Action:
    """The move of an action: no tokens given back, the default payment, no noble.

    >>> from splendor import Take, Tokens
    >>> stem(Take(Tokens(white=1, blue=1, red=1), returned=Tokens(black=1)))
    Take(gems=Tokens(white=1, blue=1, red=1), returned=Tokens(), noble=None)
    """
    if isinstance(action, Take):
        return Take(action.gems)
    if isinstance(action, Reserve):
        return Reserve(action.card)
    if isinstance(action, ReserveFromDeck):
        return ReserveFromDeck(action.tier)
    if isinstance(action, Buy):
        return Buy(action.card)
    return Pass()


@attrs.frozen
class Move:
    """One move and the legal actions that play it, told apart by a later choice.

    Attributes:
        text: the move in the notation, without the choice (``+WBR``, ``b11``).
        actions: the legal actions playing it: for a buy or a reserve, those of
            ``legal_actions`` in its order; for a take, one form of each legal
            outcome the take can reach, the tokens given back as the player
            names them (``+BGK-KWW`` where ``legal_actions`` lists ``+WBG-WWW``),
            those giving back fewer of the gems just taken first.
    """

    text: str
    actions: tuple[Action, ...]

    @property
    def returns(self) -> bool:
        """Whether playing the move means giving tokens back."""
        return any(_returned(a) for a in self.actions)

    @property
    def payments(self) -> int:
        """How many ways there are to pay (1 for a move that is not a buy)."""
        return len({a.payment for a in self.actions if isinstance(a, Buy)} or {None})

    @property
    def nobles(self) -> int:
        """How many nobles the move may bring (0 or 1 when there is no choice)."""
        return len({a.noble for a in self.actions})


def moves(actions: Sequence[Action], state: GameState | PlayerView) -> list[Move]:
    """The legal actions grouped by move: takes first, then the others in the order of ``actions``.

    ``actions`` are the legal actions of ``state`` (its player to move, or
    the view's seat). Every take that plays one of their outcomes is a move,
    with every such outcome (see :class:`Move`), whether or not
    ``legal_actions`` lists that outcome as this take's.
    """
    grouped: dict[str, list[Action]] = {}
    takes = [a for a in actions if isinstance(a, Take)]
    if takes:
        for move in _take_moves(takes, state):
            grouped[move.text] = list(move.actions)
    for action in actions:
        if not isinstance(action, Take):
            grouped.setdefault(format_action(stem(action), state), []).append(action)
    return [Move(text, tuple(group)) for text, group in grouped.items()]


def _take_moves(takes: Sequence[Take], state: GameState | PlayerView) -> list[Move]:
    """Each take with a form of every listed outcome it reaches.

    A take of ``gems`` reaches the outcome of a listed take ``t`` (its net
    change ``t.gems - t.returned`` and its noble) by giving back
    ``gems - (t.gems - t.returned)``, when that is no negative count and the
    rules allow the form (``gems`` can be taken, the tokens are held).
    """
    mover = state if isinstance(state, GameState) else state.stand_in()
    found = []
    for gems in _TAKE_GEMS:
        forms = []
        for listed in takes:
            back = [
                g + r - t
                for g, r, t in zip(
                    gems.counts, listed.returned.counts, listed.gems.counts, strict=True
                )
            ]
            if min(back) < 0:
                continue
            form = Take(gems, returned=Tokens(*back), noble=listed.noble)
            if is_legal(mover, form):
                forms.append(form)
        if forms:
            # Stable: for one return, the nobles stay in the order listed.
            forms.sort(key=lambda f: (_taken_back(f), tuple(-n for n in f.returned.counts)))
            found.append(Move(format_action(Take(gems), state), tuple(forms)))
    return found


def _taken_back(take: Take) -> int:
    """How many of the gems just taken a take gives back."""
    return sum(min(g, r) for g, r in zip(take.gems.counts, take.returned.counts, strict=True))


def find_move(text: str, found: Sequence[Move], state: GameState | PlayerView) -> Move | None:
    """The move ``text`` names, when it names a move but leaves its choice out.

    A text such as ``+WBR`` at the token limit names no legal action (tokens
    must go back); it names the move whose actions complete it (``+WBR-K``).
    Words work as in the notation (``take white blue red``).
    """
    for move in found:
        first = move.actions[0]
        full = format_action(first, state)
        if not full.startswith(move.text):
            continue
        rest = full[len(move.text) :]
        try:
            if parse_action(text + rest, state) == first:
                return move
        except (SplendorError, ValueError):
            continue
    return None


def choose(
    move: Move,
    state: GameState | PlayerView,
    out: Output,
    read: Callable[[str], str],
    *,
    payment: Tokens | None = None,
) -> Action | None:
    """Ask for what the move leaves open, one question at a time.

    First the tokens to give back, then (for a buy) the payment, then the
    noble; a question is asked only when there is a choice. Enter takes the
    default payment; for the other questions it goes back to the move
    prompt (``None``), as does ``q``.

    Args:
        move: the move.
        state: the state or the mover's view.
        out: where to write the questions.
        read: how to read an answer (raises :class:`EOFError` at the end of input).
        payment: the payment already given, if any.
    """
    group = list(move.actions)
    if payment is not None:
        group = [a for a in group if isinstance(a, Buy) and a.payment == payment] or group
    returned = _distinct([_returned(a) for a in group])
    if len(returned) > 1:
        held = _held(state)
        over = held + _gained(group[0]) - _limit(state)
        out.line(
            (f"{move.text} takes you to {held + _gained(group[0])} tokens: ", "bold"),
            f"give back {over}.",
        )
        options = [f"-{_letters(r)}" for r in returned]
        rows: list[int] = []
        first = group[0]
        if type(first) is Take:
            # The order _take_moves sorts a take's forms in: one row per count given back.
            backs = [_taken_back(a) for a in _firsts(group, returned)]
            rows = [i for i in range(1, len(backs)) if backs[i] != backs[i - 1]]
            taken = " ".join(_letters(first.gems))
            out.line(
                f"Order: fewest of {taken} (just taken) given back first, each count on a new row,"
            )
            out.line("then the key's colour order (W B G R K Y), as in a dictionary.")
        picked = _pick(options, "Give back which", None, options[0], out, read, rows=rows)
        if picked is None:
            return None
        group = [a for a in group if _returned(a) == returned[picked]]
    payments = _distinct([a.payment for a in group if isinstance(a, Buy) and a.payment is not None])
    if len(payments) > 1:
        default = _default_payment(group[0], state)
        payments.sort(key=lambda p: (p != default, _gold(p)))
        options = [f"={_letters(p)}" + (" (default)" if p == default else "") for p in payments]
        out.line(
            ("Pay how? ", "bold"), "The default pays coloured tokens first, gold for the rest."
        )
        picked = _pick(options, "Pay", 0 if payments[0] == default else None, "=RRY", out, read)
        if picked is None:
            return None
        group = [a for a in group if isinstance(a, Buy) and a.payment == payments[picked]]
    nobles = _distinct([a.noble for a in group])
    if len(nobles) > 1:
        out.line(("Several nobles can come; ", "bold"), "you receive one this turn.")
        picked = _pick([_noble_option(n) for n in nobles], "Which noble", None, "n4", out, read)
        if picked is None:
            return None
        group = [a for a in group if a.noble == nobles[picked]]
    return group[0]


def take_hint(text: str) -> str | None:
    """A hint for a take the rules forbid, read from its compact form (``+WBGR``).

    >>> take_hint("+WBGR")
    'a take is up to 3 gems of different colours, or 2 of one colour'
    >>> take_hint("+RY")
    'gold is never taken: it comes with a reserve'
    >>> take_hint("b11") is None
    True
    """
    compact = "".join(text.split()).upper()
    if not compact.startswith("+") or "-" in compact:
        return None
    letters = compact[1:].replace("*", "Y")
    if not letters or any(c not in "WBGRKY" for c in letters):
        return None
    if "Y" in letters:
        return "gold is never taken: it comes with a reserve"
    if len(letters) > 3 or (len(set(letters)) < len(letters) and len(letters) != 2):
        return "a take is up to 3 gems of different colours, or 2 of one colour"
    return None


def _pick(
    options: Sequence[str],
    question: str,
    default: int | None,
    example: str,
    out: Output,
    read: Callable[[str], str],
    *,
    rows: Sequence[int] = (),
) -> int | None:
    """Ask to pick one of ``options`` by number or by text; ``None`` goes back.

    The options are laid out in rows; each index in ``rows`` starts a new one.
    """
    line = ""
    for i, option in enumerate(options, 1):
        item = f"{i}) {option}"
        if line and (len(line) + len(item) > _WIDTH or i - 1 in rows):
            out.line(line.rstrip())
            line = ""
        line += f"  {item:<{_COLUMN}}" if len(options) > 1 else f"  {item}"
    out.line(line.rstrip())
    enter = "Enter for the default" if default is not None else "Enter to go back"
    prompt = f"{question}? (a number, or e.g. {example}; {enter}): "
    # Each choice's letters sorted (a noble's id), so typed letters match in any order.
    plain = [sorted(option.split(" ")[0].lstrip("-=n").lower()) for option in options]
    while True:
        answer = "".join(read(prompt).split()).lower()
        if not answer:
            return default
        if answer in CANCEL:
            return None
        if answer.isascii() and answer.isdigit() and 1 <= int(answer) <= len(options):
            return int(answer) - 1
        wanted = sorted(answer.lstrip("-=n").replace("*", "y"))
        if wanted in plain:
            return plain.index(wanted)
        back = "Enter for the default" if default is not None else "q to go back"
        out.line(
            ("Not one of the choices: ", "bold red"),
            f"{short_repr(answer)}; give a number 1 to {len(options)}, or {back}.",
        )


def _distinct(values: Sequence[_T]) -> list[_T]:
    return list(dict.fromkeys(values))


def _firsts(group: Sequence[Action], returned: Sequence[Tokens]) -> list[Take]:
    """The first take of ``group`` giving back each of ``returned``, in that order."""
    first: dict[Tokens, Take] = {}
    for action in group:
        if type(action) is Take:
            first.setdefault(action.returned, action)
    return [first[r] for r in returned]


def _returned(action: Action) -> Tokens:
    return action.returned if isinstance(action, Take | Reserve | ReserveFromDeck) else Tokens()


def _gained(action: Action) -> int:
    if isinstance(action, Take):
        return action.gems.total
    return 1 if isinstance(action, Reserve | ReserveFromDeck) else 0


def _held(state: GameState | PlayerView) -> int:
    return state.players[state.current_player].tokens.total


def _limit(state: GameState | PlayerView) -> int:
    return state.rules.token_limit


def _gold(payment: Tokens | None) -> int:
    return 0 if payment is None else payment[GEMS[5]]


def _letters(tokens: Tokens) -> str:
    return "".join(gem.letter * tokens[gem] for gem in GEMS)


def _default_payment(action: Action, state: GameState | PlayerView) -> Tokens | None:
    """The payment of ``action``'s card that the notation means when none is given."""
    if not isinstance(action, Buy):
        return None
    try:
        meant = parse_action(format_action(attrs.evolve(action, payment=None), state), state)
    except (SplendorError, ValueError):
        return None
    return meant.payment if isinstance(meant, Buy) else None


def _noble_option(noble: Noble | None) -> str:
    if noble is None:
        return "none"
    needs = " ".join(f"{n}{g.letter}" for g, n in noble.requirement.items() if n)
    return f"n{noble.id} ({noble.points}pt for {needs})"
