"""The numbers the compiled kernel shares with the Python modules come from them.

The kernel reads GreedyBot's weights, the code layout, the colours' order and
the observation rows from their Python modules when it is imported, so the
Python modules are their one definition (the code layout is compared in
test_decisions.py): these tests change a weight before the kernel is
imported and watch the kernel's bot follow.
"""

from __future__ import annotations

import json
import subprocess
import sys

from splendor import GreedyBot, RandomBot, fast
from splendor.players import bots
from tests.fast.conftest import implementation

# Bot games with GreedyBot's weights changed, played by the kernel and by the
# Python bot; printed as JSON: the weights the kernel read and both games.
_CHANGED_WEIGHTS = """
import json
from splendor.players import bots

bots._BUY_GOLD = -5.0  # a buy that pays with gold is worth more, not less
bots._TAKE_REST = -1.0  # a take away from the other cards is worth more
from splendor.fast import _kernel  # reads the weights now
from splendor import GreedyBot, RandomBot, fast, play_game

seats = [GreedyBot(), GreedyBot(), RandomBot()]
games = []
for seed in range(12):
    game, played = fast.bot_game(seats, seed=seed)
    record = play_game(seats, seed=seed)
    games.append([list(played), [str(action) for action in record.actions], game.turn])
print(json.dumps({"weights": _kernel.GREEDY_WEIGHTS, "games": games}))
"""


def test_the_kernel_reads_greedybots_weights_from_players_bots() -> None:
    kernel = implementation("kernel")
    assert {name: getattr(bots, name) for name in kernel.GREEDY_WEIGHTS} == kernel.GREEDY_WEIGHTS
    weights = {name for name in vars(bots) if name.startswith(("_BUY_", "_TAKE_", "_TARGET_"))}
    assert set(kernel.GREEDY_WEIGHTS) == weights


def test_a_weight_changed_in_python_changes_the_kernels_greedybot() -> None:
    implementation("kernel")  # skipped (or an error) without the compiled kernel
    done = subprocess.run(
        [sys.executable, "-c", _CHANGED_WEIGHTS],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["weights"]["_BUY_GOLD"] == -5.0
    assert found["weights"]["_TAKE_REST"] == -1.0
    changed = 0
    for seed, (played, actions, turns) in enumerate(found["games"]):
        # The kernel's game is the Python bot's game under the changed weights...
        assert len(played) == len(actions) == turns
        replay = fast.Game.new(3, seed=seed)
        for index, action in zip(played, actions, strict=True):
            assert str(replay.action(index)) == action
            replay.play(index)
        # ... and not, in most seeds, the game of the weights as they are.
        seats = (GreedyBot(), GreedyBot(), RandomBot())
        changed += list(fast.bot_game(seats, seed=seed)[1]) != played
    assert changed > 0
