"""Train a small agent against RandomBot through the Gymnasium environment.

The agent is a linear softmax policy over the masked action codes
(``logits = W @ features + b``), trained with REINFORCE and a running
baseline on the reward of each game (+1 for a win, -1 for a loss). It plays
a random seat against one :class:`splendor.RandomBot`. numpy is all it needs.

It prints the win rate of the untrained policy (uniform over the legal
codes) and of the trained one (the most likely legal code at each decision)
over the same fresh games, and draws the learning curve (the win rate of the
training games, played by sampling the policy) as an SVG picture. Run it with
``nox -s train-example`` or::

    python examples/train_linear_agent.py --episodes 3000

RandomBot is weak: even the untrained policy, uniform over the legal codes,
wins about 90% of the games against it; a few thousand training games take
the trained policy to about 98%.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

import splendor
import splendor.rl  # registers splendor/Splendor-v0
from splendor.formats.encoding import ACTION_COUNT
from splendor.rl import observation_shape

Array = npt.NDArray[np.float64]
OPPONENTS = {"random": splendor.RandomBot, "greedy": splendor.GreedyBot}


class LinearPolicy:
    """A softmax over the legal codes of a linear function of the observation."""

    def __init__(self, features: int, codes: int) -> None:
        self.weights = np.zeros((codes, features))
        self.bias = np.zeros(codes)

    @staticmethod
    def features(obs: npt.NDArray[np.float32]) -> Array:
        """The observation, scaled to about [0, 1]."""
        return np.minimum(obs.astype(np.float64) / 7.0, 3.0)

    def probabilities(self, x: Array, mask: npt.NDArray[np.int8]) -> Array:
        """The policy's probability of each code (0 for illegal codes)."""
        logits = self.weights @ x + self.bias
        logits = np.where(mask == 1, logits, -np.inf)
        logits -= logits.max()
        p: Array = np.exp(logits)
        p /= p.sum()
        return p


def play(
    env: gymnasium.Env[Any, Any],
    policy: LinearPolicy,
    rng: np.random.Generator,
    seed: int,
    greedy: bool,
) -> tuple[float, list[tuple[Array, npt.NDArray[np.int8], int]]]:
    """One game; its reward and the (features, mask, code) of every decision."""
    obs, info = env.reset(seed=seed)
    steps = []
    while True:
        x = policy.features(obs["observation"])
        mask = info["action_mask"]
        p = policy.probabilities(x, mask)
        code = int(np.argmax(p)) if greedy else int(rng.choice(len(p), p=p))
        steps.append((x, mask, code))
        obs, reward, terminated, truncated, info = env.step(code)
        if terminated or truncated:
            return float(reward), steps


def win_rate(
    env: gymnasium.Env[Any, Any],
    policy: LinearPolicy,
    games: int,
    seed: int,
    greedy: bool,
) -> float:
    """The share of ``games`` fresh games the policy wins."""
    rng = np.random.default_rng(seed)
    wins = sum(play(env, policy, rng, seed + g, greedy=greedy)[0] > 0 for g in range(games))
    return wins / games


def train(args: argparse.Namespace) -> tuple[list[tuple[int, float]], float, float]:
    """Train; the learning curve (episode, win rate) and the win rates before and after."""
    env = gymnasium.make("splendor/Splendor-v0", opponents=[OPPONENTS[args.opponent]()], seat=None)
    rng = np.random.default_rng(args.seed)
    size = observation_shape(2)[0]
    policy = LinearPolicy(size, ACTION_COUNT)
    before = win_rate(env, policy, args.eval_games, seed=10**6, greedy=False)
    print(
        f"untrained policy (uniform over the legal codes): {before:.0%} wins "
        f"over {args.eval_games} games"
    )
    baseline = 0.0
    curve: list[tuple[int, float]] = []
    recent: list[float] = []
    start = time.perf_counter()
    for episode in range(1, args.episodes + 1):
        reward, steps = play(env, policy, rng, seed=args.seed * 10**6 + episode, greedy=False)
        # The return: the result, plus the final points lead as a denser signal
        # (against a strong opponent a beginner never wins, so the result
        # alone teaches nothing).
        game = env.unwrapped.game  # type: ignore[attr-defined]  # a SplendorEnv
        seat = env.unwrapped.seat  # type: ignore[attr-defined]
        mine = game.players[seat].points
        best = max(p.points for i, p in enumerate(game.players) if i != seat)
        value = reward + args.shaping * (mine - best) / 15
        advantage = value - baseline
        baseline += 0.01 * (value - baseline)
        for x, mask, code in steps:
            p = policy.probabilities(x, mask)
            grad = -p
            grad[code] += 1.0
            policy.weights += args.lr * advantage * np.outer(grad, x)
            policy.bias += args.lr * advantage * grad
        recent.append(float(reward > 0))
        if episode % args.window == 0:
            rate = float(np.mean(recent))
            recent = []
            curve.append((episode, rate))
            elapsed = time.perf_counter() - start
            window = args.window
            print(f"episode {episode:>6}: {rate:.0%} wins of the last {window} ({elapsed:.0f}s)")
    after = win_rate(env, policy, args.eval_games, seed=10**6, greedy=True)
    print(f"trained policy (most likely code): {after:.0%} wins over the same games")
    return curve, before, after


def draw(curve: list[tuple[int, float]], before: float, after: float, path: Path) -> None:
    """The learning curve as a small SVG line chart."""
    width, height, left, bottom, top, right = 560, 300, 60, 50, 40, 20
    plot_w, plot_h = width - left - right, height - top - bottom
    last = max(episode for episode, _ in curve)

    def x(episode: float) -> float:
        return left + plot_w * episode / last

    def y(rate: float) -> float:
        return top + plot_h * (1 - rate)

    points = " ".join(f"{x(e):.1f},{y(r):.1f}" for e, r in curve)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="14">'
        "Linear policy against RandomBot: win rate while training</text>",
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(
            f'<line x1="{left}" y1="{y(tick):.1f}" x2="{width - right}" y2="{y(tick):.1f}" '
            f'stroke="#ddd"/><text x="{left - 8}" y="{y(tick) + 4:.1f}" '
            f'text-anchor="end">{tick:.0%}</text>'
        )
    for i in range(5):
        episode = last * i / 4
        parts.append(
            f'<text x="{x(episode):.1f}" y="{height - bottom + 18}" '
            f'text-anchor="middle">{episode:.0f}</text>'
        )
    parts += [
        f'<line x1="{left}" y1="{y(0.5):.1f}" x2="{width - right}" y2="{y(0.5):.1f}" '
        'stroke="#999" stroke-dasharray="4 4"/>',
        f'<polyline points="{points}" fill="none" stroke="#1f77b4" stroke-width="2"/>',
        f'<text x="{width / 2}" y="{height - 10}" text-anchor="middle">'
        f"training games (untrained: {before:.0%} wins; trained, most likely code: {after:.0%})"
        "</text>",
        "</svg>",
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")
    print(f"learning curve written to {path}")


def main() -> int:
    """Parse the options, train, draw."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--window", type=int, default=100, help="games per point of the curve")
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--eval-games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponent", choices=sorted(OPPONENTS), default="random")
    parser.add_argument(
        "--shaping", type=float, default=1.0, help="weight of the final points lead in the return"
    )
    parser.add_argument("--out", type=Path, default=Path("docs/images/rl-training.svg"))
    args = parser.parse_args()
    curve, before, after = train(args)
    if curve:
        draw(curve, before, after, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
