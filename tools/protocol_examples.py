"""Find the example positions of the protocol pages and print their lines.

Plays seeded random games (:func:`splendor.new_game`, :func:`splendor.legal_actions`,
:func:`splendor.apply`) and keeps two positions:

- the first whose legal actions include every kind of action: a take of two
  tokens of one colour, a take with tokens returned, a reserve of a face-up
  card, a reserve from a deck, a buy of a face-up card and a buy of a
  reserved card;
- the first where a pass is the only legal action.

For each it prints the ``position`` and ``go`` lines the host sends (written
by :func:`splendor.remote.codec.encode`, as the host writes them), then, for
one action of each kind, the engine's ``bestmove`` that plays it and the
action's JSON. Run it from the repository's root::

    python tools/protocol_examples.py
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Final

from splendor import (
    Buy,
    GameState,
    Pass,
    Reserve,
    ReserveFromDeck,
    Take,
    apply,
    legal_actions,
    new_game,
    view,
)
from splendor.core.actions import Action
from splendor.formats.notation import format_action
from splendor.remote.codec import encode
from splendor.remote.messages import BestMove, Go, Limit, Position

#: The kinds of action the example position must list, in the order printed.
KINDS: Final = (
    "take two",
    "take with returned",
    "reserve",
    "reserve from deck",
    "buy",
    "buy reserved",
)
#: The seeds of the random games searched, in order.
SEEDS: Final = range(1000)


def kind(action: Action, state: GameState) -> str:
    """The kind of ``action`` in ``state``, one of :data:`KINDS`, ``"take"`` or ``"pass"``."""
    if type(action) is Take:
        if action.returned:
            return "take with returned"
        return "take two" if 2 in action.gems.values() else "take"
    if type(action) is Reserve:
        return "reserve"
    if type(action) is ReserveFromDeck:
        return "reserve from deck"
    if type(action) is Buy:
        mover = state.players[state.current_player]
        return "buy reserved" if action.card in mover.reserved else "buy"
    return "pass"


def positions(seeds: range = SEEDS) -> Iterator[GameState]:
    """Every position of a random game of 2 players from each seed, in order."""
    for seed in seeds:
        state = new_game(2, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            yield state
            state = apply(state, rng.choice(legal_actions(state)))


def every_kind() -> GameState:
    """The first position searched whose legal actions include every kind of :data:`KINDS`.

    Its mover also holds a card reserved from a deck, so that the view shows
    one of each kind of reserve.
    """
    for state in positions():
        blind = state.players[state.current_player].reserved_blind
        if True in blind and set(KINDS) <= {kind(a, state) for a in legal_actions(state)}:
            return state
    raise LookupError("no position lists every kind of action")


def only_pass() -> GameState:
    """The first position searched where a pass is the only legal action."""
    for state in positions():
        actions = legal_actions(state)
        if len(actions) == 1 and type(actions[0]) is Pass:
            return state
    raise LookupError("no position has a pass as its only action")


def host_lines(state: GameState, id_: int) -> tuple[str, str]:
    """The ``position`` and ``go`` lines a host sends for the mover of ``state``."""
    seen = view(state, state.current_player)
    full = seen.stand_in()  # as the host does: the actions and texts of the view alone
    actions = legal_actions(full)
    texts = tuple(format_action(action, full) for action in actions)
    position = encode(Position(id_, seen, actions, texts)).decode().strip()
    go = encode(Go(id_, Limit(time=1.0))).decode().strip()
    return position, go


def _compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def layout(line: str) -> str:
    """A ``position`` line laid out for reading: a field of the view, or an action, a line."""
    message = json.loads(line)
    seen = ",\n".join(f"    {_compact(k)}:{_compact(v)}" for k, v in message["view"].items())
    listed = ",\n".join(f"    {_compact(action)}" for action in message["actions"])
    head = f'{{"type":"position","id":{message["id"]},'
    return f'{head}\n  "view":{{\n{seen}\n  }},\n  "actions":[\n{listed}\n  ]\n}}'


def _paid(action: Action) -> bool:
    return type(action) is Buy and bool(action.payment)


def show(state: GameState, id_: int, kinds: tuple[str, ...]) -> None:
    """Print the host's lines for ``state`` and an answer of each of ``kinds``."""
    position, go = host_lines(state, id_)
    print(layout(position))
    print(go)
    listed = json.loads(position)["actions"]
    actions = legal_actions(state)
    for wanted in kinds:
        # A buy that pays tokens shows more than one its bonuses pay for.
        chosen = [i for i, action in enumerate(actions) if kind(action, state) == wanted]
        index = next((i for i in chosen if _paid(actions[i])), chosen[0])
        answer = encode(BestMove(id_, index=index)).decode().strip()
        print(f"{wanted}: {answer} -> {json.dumps(listed[index])}")


def main() -> None:
    """Print both examples."""
    state = every_kind()
    print(f"# every kind: turn {state.turn}, {len(legal_actions(state))} actions")
    show(state, 41, KINDS)
    state = only_pass()
    print(f"# only a pass: turn {state.turn}")
    show(state, 42, ("pass",))


if __name__ == "__main__":
    main()
