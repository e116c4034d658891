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

from splendor import fast
from splendor.fast import heuristics
from splendor.players.bots import bot_rngs
from tests.fast.conftest import implementation

# Bot games with GreedyBot's weights changed, played by the kernel and by the
# Python bot; printed as JSON: the weights the kernel read and both games.
_CHANGED_WEIGHTS = """
import json
from splendor.fast import heuristics

heuristics.BUY_GOLD = -5.0  # a buy that pays with gold is worth more, not less
heuristics.TAKE_REST = -1.0  # a take away from the other cards is worth more
from splendor.fast import _kernel  # reads the weights now
from splendor import GreedyBot, RandomBot, fast, play_game
from splendor.players.bots import bot_rngs

seats = [GreedyBot(), GreedyBot(), RandomBot()]
games = []
for seed in range(12):
    game, played = fast.play_bots(("greedy", "greedy", "random"), bot_rngs(seed, 3), seed=seed)
    record = play_game(seats, seed=seed)
    games.append([list(played), [str(action) for action in record.actions], game.turn])
print(json.dumps({"weights": _kernel.GREEDY_WEIGHTS, "games": games}))
"""


def test_the_kernel_reads_greedybots_weights_from_fast_heuristics() -> None:
    kernel = implementation("kernel")
    assert {
        name: getattr(heuristics, name) for name in kernel.GREEDY_WEIGHTS
    } == kernel.GREEDY_WEIGHTS
    weights = {name for name in vars(heuristics) if name.startswith(("BUY_", "TAKE_", "TARGET_"))}
    assert set(kernel.GREEDY_WEIGHTS) == weights == set(heuristics.GREEDY_WEIGHT_NAMES)


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
    assert found["weights"]["BUY_GOLD"] == -5.0
    assert found["weights"]["TAKE_REST"] == -1.0
    changed = 0
    for seed, (played, actions, turns) in enumerate(found["games"]):
        # The kernel's game is the Python bot's game under the changed weights...
        assert len(played) == len(actions) == turns
        replay = fast.Game.new(3, seed=seed)
        for index, action in zip(played, actions, strict=True):
            assert str(replay.action(index)) == action
            replay.play(index)
        # ... and not, in most seeds, the game of the weights as they are.
        kinds = ("greedy", "greedy", "random")
        changed += list(fast.play_bots(kinds, bot_rngs(seed, 3), seed=seed)[1]) != played
    assert changed > 0
