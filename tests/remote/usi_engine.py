"""A tiny engine speaking csplendor's USI-like protocol, for the adapter's tests.

It reads the SPN of each position and plays a simple legal move: buy the first
card it can afford (letting the host pick the least gold), else take gems
(three colours, or what is left), else reserve, else pass, giving tokens back
over the limit. Options: ``Style`` (``buy`` or ``deck``: with ``deck`` it
reserves blind from a deck when it holds ten tokens, and gives back a token in
the return phase that follows) and ``Fault`` (``none``, ``hang``,
``illegal``, ``exit``, ``flood``, ``long``, ``stderr``) for the tests of a misbehaving engine.
"""

from __future__ import annotations

import re
import sys
import time
from dataclasses import dataclass

from splendor import CARDS
from splendor.remote.usi import spn_card_id

COST = {
    spn_card_id(card): [card.cost[g] for g in ("white", "blue", "green", "red", "black")]
    for card in CARDS
}
LETTERS = "WUGRKD"


def counts(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"[WUGRKD](\d+)", text)]


@dataclass
class Player:
    gems: list[int]
    bonuses: list[int]
    reserved: list[str]


@dataclass
class Position:
    bank: list[int]
    visible: list[int]
    decks: list[int]
    players: list[Player]
    me: int


def parse(spn: str) -> Position:
    body, current = spn.rsplit(" ", 1)
    sections = body.split(" | ")
    players = []
    for section in sections[4:]:
        fields = dict(part.split(":", 1) for part in section.split(":", 1)[1].split(";"))
        reserved = [r for r in fields["reserved"].strip("[]").split(",") if r]
        players.append(Player(counts(fields["gems"]), counts(fields["bonuses"]), reserved))
    visible = [int(x) for x in re.findall(r"\d+", re.sub(r"L\d", "", sections[1]))]
    decks = [int(n) for n in sections[2].split(":")[1].split(",")]
    return Position(counts(sections[0]), visible, decks, players, int(current))


def affordable(card: int, gems: list[int], bonuses: list[int]) -> bool:
    cost = COST[card]
    short = sum(max(0, cost[c] - bonuses[c] - gems[c]) for c in range(5))
    return short <= gems[5]


def give_back(held: list[int], excess: int) -> str:
    out = ""
    for colour in range(6):
        while excess and held[colour]:
            held[colour] -= 1
            excess -= 1
            out += LETTERS[colour]
    return out


def choose(pos: Position, style: str) -> str:
    me = pos.players[pos.me]
    gems, bonuses, reserved, bank = me.gems, me.bonuses, me.reserved, pos.bank
    if reserved and sum(gems) > 10:  # the return phase of a blind reserve
        return "return:" + give_back(list(gems), 1)
    if style == "deck" and sum(gems) == 10 and len(reserved) < 3 and bank[5]:
        for tier, size in enumerate(pos.decks, start=1):
            if size:
                return f"reserve:L{tier}"
    own = [int(r) for r in reserved if not r.startswith("?")]
    for card in pos.visible + own:
        if affordable(card, gems, bonuses):
            return f"buy:C{card}"
    colours = [c for c in range(5) if bank[c]][:3]
    if colours:
        held = [g + (c in colours) for c, g in enumerate(gems)]
        back = give_back(held, max(0, sum(held) - 10))
        move = "take:" + "".join(LETTERS[c] for c in colours)
        return move + (f"/return:{back}" if back else "")
    if len(reserved) < 3 and pos.visible:
        held = list(gems)
        held[5] += 1 if bank[5] else 0
        back = give_back(held, max(0, sum(held) - 10))
        return f"reserve:C{pos.visible[0]}" + (f"/return:{back}" if back else "")
    return "pass"


def main() -> None:
    options = {"Style": "buy", "Fault": "none"}
    position = ""
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "usi":
            print("id name tiny-usi")
            print("id author tests")
            print("option name Style type combo default buy var buy var deck")
            print(
                "option name Fault type combo default none var none var hang var illegal var exit"
            )
            print("usiok")
        elif words[0] == "isready":
            print("readyok")
        elif words[0] == "setoption":
            options[words[2]] = words[4]
        elif words[0] == "position":
            position = line.strip()[len("position ") :]
        elif words[0] == "go":
            fault = options["Fault"]
            if fault == "hang":
                time.sleep(60)
            elif fault == "exit":
                sys.exit(3)
            elif fault == "illegal":
                print("bestmove buy:C89/gold:W9")
            elif fault == "flood":
                while True:
                    print("info string " + "x" * 1000)
            elif fault == "long":
                print("info string " + "x" * 1_048_576)
            elif fault == "stderr":
                for _ in range(2000):
                    sys.stderr.write("log " + "y" * 1000 + "\n")
                sys.stderr.write("the last line\n")
                sys.stderr.flush()
                print(f"bestmove {choose(parse(position), options['Style'])}")
            else:
                print("info string thinking")
                print(f"bestmove {choose(parse(position), options['Style'])}")
        elif words[0] == "quit":
            return
        sys.stdout.flush()


if __name__ == "__main__":
    main()
