"""Train the policy network of :mod:`splendor.fast.network` and write its weights file.

Run by ``nox -s train_policy`` (or directly, with the ``train`` dependency
group installed: ``python training/train_policy.py``); see
``training/README.md``. Three stages, each resumed where it stopped when
the script is started again:

1. **Data**: self-play games of ``SearchBot(iterations=N, network=True,
   leaf_weight=0.25)``, one file per deal under ``DIR/policy-2p/data/``.
   Every turn with more than one legal move is recorded: the mover's
   :func:`~splendor.fast.network.network_input` row, the
   :func:`~splendor.fast.search_reference.move_features` of each legal
   move, and the root visits of the search that played the turn. The first
   ``--sample-turns`` turns of a game play a move drawn in proportion to its
   visits (for varied games), the rest the most visited one. Deals ending in
   0 are held out for validation, deals ending in 1 choose the epoch kept.
2. **Training**: JAX and optax. The model scores a move as its features
   times ``W2 relu(W1 x + b1) + b2`` (``x`` the row scaled per input); it is
   trained with AdamW on the softmax cross-entropy of each turn's moves
   against the most visited move, in minibatches of turns, a checkpoint at
   the end of each epoch and a JSON-lines log (``log.jsonl``) of each
   epoch's figures and the CPU seconds used, summed over every run.
3. **Export**: the scaling folded into the first layer, the best epoch's
   weights are written with :func:`~splendor.fast.network.save_policy`
   (``--out``), with their validation figures beside the prior's.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import pickle
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import splendor
from splendor.fast.network import (
    MOVE_FEATURES,
    PolicyNetwork,
    input_size,
    network_input,
    save_policy,
)
from splendor.fast.search_reference import move_features
from splendor.players.search import SearchBot

#: One thread for XLA: the script shares the machine (set before jax is imported).
os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
)

FEATURES = len(MOVE_FEATURES)
PRIOR = MOVE_FEATURES.index("prior")


def play_deal(task: tuple[Path, int, int, int]) -> tuple[int, int, float]:
    """Play and record deal ``deal``'s self-play game, unless its file exists."""
    folder, deal, iterations, sample_turns = task
    out = folder / f"deal-{deal:06d}.npz"
    if out.exists():
        return deal, 0, 0.0
    started = time.process_time()
    bot = SearchBot(iterations=iterations, network=True, leaf_weight=0.25, seed=deal)
    choose = random.Random(f"policy-data:{deal}")
    state = splendor.new_game(2, seed=20000 + deal)
    rows: list[npt.NDArray[np.float32]] = []
    features: list[npt.NDArray[np.float32]] = []
    visits: list[npt.NDArray[np.int32]] = []
    offsets = [0]
    while not state.is_over:
        actions = splendor.legal_actions(state)
        seat = state.current_player
        if len(actions) == 1:
            state = splendor.apply(state, actions[0])
            continue
        outcome = bot.search(splendor.view(state, seat), choose)
        rows.append(np.asarray(network_input(state, seat), dtype=np.float32))
        features.append(np.asarray(move_features(state, actions), dtype=np.float32))
        visits.append(np.asarray(outcome.visits, dtype=np.int32))
        offsets.append(offsets[-1] + len(actions))
        if state.turn < sample_turns:
            pick = choose.choices(range(len(actions)), weights=outcome.visits)[0]
        else:
            pick = outcome.index
        state = splendor.apply(state, actions[pick])
    cpu = time.process_time() - started
    partial = out.with_suffix(".partial.npz")
    np.savez_compressed(
        partial,
        obs=np.stack(rows),
        features=np.concatenate(features),
        visits=np.concatenate(visits),
        offsets=np.asarray(offsets, dtype=np.int64),
        cpu=np.float64(cpu),
    )
    partial.rename(out)
    return deal, len(rows), cpu


def generate(folder: Path, deals: int, iterations: int, sample_turns: int, workers: int) -> None:
    """Stage 1: every deal's file, played in ``workers`` processes."""
    import multiprocessing

    folder.mkdir(parents=True, exist_ok=True)
    tasks = [(folder, deal, iterations, sample_turns) for deal in range(deals)]
    missing = [task for task in tasks if not (folder / f"deal-{task[1]:06d}.npz").exists()]
    print(f"data: {deals - len(missing)} of {deals} deals on disk", flush=True)
    turns, cpu = 0, 0.0
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for done, (deal, played, seconds) in enumerate(pool.imap_unordered(play_deal, missing), 1):
            turns += played
            cpu += seconds
            if done % 20 == 0 or done == len(missing):
                print(
                    f"data: deal {deal}, {done} of {len(missing)} played, {turns} turns, "
                    f"{cpu:.0f} CPU s",
                    flush=True,
                )


class Split:
    """The turns of some deals: rows, move features, targets and where each turn's moves lie."""

    def __init__(self, files: list[Path]) -> None:
        rows, features, visits, offsets = [], [], [], [0]
        self.cpu = 0.0
        for path in files:
            with np.load(path) as data:
                rows.append(data["obs"])
                features.append(data["features"])
                visits.append(data["visits"])
                offsets.extend((data["offsets"][1:] + offsets[-1]).tolist())
                self.cpu += float(data["cpu"])
        self.rows = np.concatenate(rows)
        self.features = np.concatenate(features)
        self.visits = np.concatenate(visits)
        self.offsets = np.asarray(offsets)
        self.turns = len(self.offsets) - 1
        # The most visited move of each turn (the first listed on a tie).
        self.best = np.array(
            [int(np.argmax(self.visits[a:b])) for a, b in itertools.pairwise(offsets)]
        )
        self.target = np.zeros(len(self.visits), dtype=np.float32)
        self.target[self.offsets[:-1] + self.best] = 1.0

    def batch(self, turns: npt.NDArray[np.int64], capacity: int) -> tuple[Any, ...]:
        """The turns' rows and their moves, padded to ``capacity`` (in segment ``len(turns)``)."""
        starts, ends = self.offsets[turns], self.offsets[turns + 1]
        moves = np.concatenate([np.arange(a, b) for a, b in zip(starts, ends, strict=True)])
        segment = np.repeat(np.arange(len(turns)), ends - starts)
        if len(moves) > capacity:
            raise ValueError(
                f"{len(moves)} moves in a batch, more than {capacity}: a smaller --batch"
            )
        features = np.zeros((capacity, FEATURES), np.float32)
        features[: len(moves)] = self.features[moves]
        target = np.zeros(capacity, np.float32)
        target[: len(moves)] = self.target[moves]
        segments = np.full(capacity, len(turns))
        segments[: len(moves)] = segment
        return self.rows[turns], features, target, segments

    def ranks(self, scores: npt.NDArray[np.float64]) -> dict[str, float]:
        """Where the most visited move ranks under ``scores`` (ties in listing order)."""
        ranks = []
        for t in range(self.turns):
            a, b = self.offsets[t], self.offsets[t + 1]
            mine, best = scores[a:b], self.best[t]
            ranks.append(int(np.sum(mine > mine[best]) + np.sum(mine[:best] == mine[best])))
        found = np.asarray(ranks)
        return {
            "first": float(np.mean(found == 0)),
            "first_2": float(np.mean(found < 2)),
            "first_4": float(np.mean(found < 4)),
            "mean_rank": float(np.mean(found)),
        }


def train(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    """Stage 2: the epochs not yet done; returns the final checkpoint."""
    import jax
    import jax.numpy as jnp
    import optax

    files = sorted((folder / "data").glob("deal-*.npz"))
    held = {"validation": 0, "tuning": 1}
    parts = {
        name: Split([f for f in files if int(f.stem[5:]) % 10 == digit])
        for name, digit in held.items()
    }
    training = Split([f for f in files if int(f.stem[5:]) % 10 not in held.values()])
    print(
        f"training on {training.turns} turns, {parts['tuning'].turns} to choose the epoch, "
        f"{parts['validation'].turns} held out",
        flush=True,
    )
    scale = np.maximum(training.rows.std(axis=0), 1.0).astype(np.float32)
    capacity = args.batch * 80
    hidden = args.hidden

    def scores(params: dict[str, Any], rows: Any, features: Any, segments: Any) -> Any:
        h = jax.nn.relu((rows / scale) @ params["w1"] + params["b1"])
        state = jnp.concatenate([h @ params["w2"] + params["b2"], jnp.zeros((1, FEATURES))])
        return jnp.sum(features * state[segments], axis=1)

    def loss(params: dict[str, Any], rows: Any, features: Any, target: Any, segments: Any) -> Any:
        n = rows.shape[0]
        s = scores(params, rows, features, segments)
        top = jax.ops.segment_max(s, segments, num_segments=n + 1)
        total = jax.ops.segment_sum(jnp.exp(s - top[segments]), segments, num_segments=n + 1)
        log_z = jnp.log(total) + top
        return -jnp.sum(target * (s - log_z[segments])) / n

    steps_per_epoch = training.turns // args.batch
    optimizer = optax.adamw(
        optax.cosine_decay_schedule(args.learning_rate, max(1, args.epochs * steps_per_epoch)),
        weight_decay=args.weight_decay,
    )

    @jax.jit
    def step(params: Any, state: Any, *batch: Any) -> tuple[Any, Any, Any]:
        value, grads = jax.value_and_grad(loss)(params, *batch)
        updates, state = optimizer.update(grads, state, params)
        return optax.apply_updates(params, updates), state, value

    checkpoint_path = folder / "checkpoint.pkl"
    checkpoint: dict[str, Any] = {}
    if checkpoint_path.exists():
        with checkpoint_path.open("rb") as source:
            checkpoint = pickle.load(source)
        if checkpoint.get("training_turns") == training.turns:
            print(f"resuming after epoch {checkpoint['epoch']}", flush=True)
        else:
            print("the data changed since the checkpoint: training from the start", flush=True)
            checkpoint = {}
    if not checkpoint:
        k1, k2 = jax.random.split(jax.random.PRNGKey(args.seed))
        w2_bias = np.zeros(FEATURES, np.float32)
        w2_bias[PRIOR] = 3.3  # start from the prior's order
        params = {
            "w1": np.asarray(jax.random.normal(k1, (input_size(2), hidden)))
            / np.sqrt(input_size(2)),
            "b1": np.zeros(hidden, np.float32),
            "w2": np.asarray(jax.random.normal(k2, (hidden, FEATURES))) * 0.01,
            "b2": w2_bias,
        }
        checkpoint = {
            "epoch": 0,
            "params": params,
            "opt": optimizer.init(params),
            "best": None,
            "best_loss": float("inf"),
            "cpu": 0.0,
            "scale": scale,
            "training_turns": training.turns,
        }
    params, opt_state = checkpoint["params"], checkpoint["opt"]
    rng = np.random.default_rng(args.seed + checkpoint["epoch"])
    tuning = parts["tuning"]
    tuning_batches = [
        tuning.batch(np.arange(i, min(i + args.batch, tuning.turns)), capacity)
        for i in range(0, tuning.turns, args.batch)
    ]
    evaluate = jax.jit(loss)
    log = (folder / "log.jsonl").open("a")
    for epoch in range(checkpoint["epoch"] + 1, args.epochs + 1):
        started = time.process_time()
        order = rng.permutation(training.turns)
        losses = []
        for i in range(0, training.turns - args.batch + 1, args.batch):
            params, opt_state, value = step(
                params, opt_state, *training.batch(order[i : i + args.batch], capacity)
            )
            losses.append(float(value))
        tuned = float(np.mean([float(evaluate(params, *batch)) for batch in tuning_batches]))
        checkpoint["cpu"] += time.process_time() - started
        checkpoint.update(epoch=epoch, params=jax.tree.map(np.asarray, params), opt=opt_state)
        if tuned < checkpoint["best_loss"]:
            checkpoint.update(best=checkpoint["params"], best_loss=tuned, best_epoch=epoch)
        figures = {
            "epoch": epoch,
            "train_loss": float(np.mean(losses)),
            "tuning_loss": tuned,
            "training_cpu_seconds": round(checkpoint["cpu"], 1),
        }
        print(json.dumps(figures), flush=True)
        log.write(json.dumps(figures) + "\n")
        log.flush()
        partial = checkpoint_path.with_suffix(".partial")
        with partial.open("wb") as out:
            pickle.dump(checkpoint, out)
        partial.replace(checkpoint_path)
    log.close()
    best = checkpoint["best"]
    validation = parts["validation"]
    found = np.asarray(
        scores(
            {k: jnp.asarray(v) for k, v in best.items()},
            jnp.asarray(validation.rows),
            jnp.asarray(validation.features),
            jnp.asarray(np.repeat(np.arange(validation.turns), np.diff(validation.offsets))),
        )
    )
    checkpoint["validation"] = {
        "policy": validation.ranks(found),
        "prior": validation.ranks(validation.features[:, PRIOR].astype(np.float64)),
        "turns": validation.turns,
    }
    checkpoint["data_cpu"] = training.cpu + sum(part.cpu for part in parts.values())
    return checkpoint


def export(checkpoint: dict[str, Any], out: Path, args: argparse.Namespace) -> PolicyNetwork:
    """Stage 3: the best epoch's weights, the scaling folded in, written to ``out``."""
    best, scale = checkpoint["best"], checkpoint["scale"]
    w1 = (np.asarray(best["w1"]) / scale[:, None]).astype(np.float32)
    layers = [
        (w1.ravel().tolist(), np.asarray(best["b1"], np.float32).tolist()),
        (
            np.asarray(best["w2"], np.float32).ravel().tolist(),
            np.asarray(best["b2"], np.float32).tolist(),
        ),
    ]
    metadata = {
        "games": args.deals,
        "search_iterations": args.iterations,
        "training_turns": checkpoint["training_turns"],
        "epochs": checkpoint["epoch"],
        "best_epoch": checkpoint["best_epoch"],
        "data_cpu_seconds": round(checkpoint["data_cpu"]),
        "training_cpu_seconds": round(checkpoint["cpu"]),
        "validation": checkpoint["validation"],
    }
    policy = PolicyNetwork(2, (input_size(2), args.hidden, FEATURES), layers, metadata)
    save_policy(policy, out)
    return policy


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dir", default=".train", help="where the state is kept (.train/)")
    parser.add_argument("--out", help="the weights file (src/splendor/data/policy-2p.net)")
    parser.add_argument("--deals", type=int, default=933, help="self-play games (deals 0 to N-1)")
    parser.add_argument("--iterations", type=int, default=5000, help="the search's, per move")
    parser.add_argument("--sample-turns", type=int, default=8)
    parser.add_argument("--workers", type=int, default=1, help="processes playing the games (1)")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--batch", type=int, default=256, help="turns per minibatch")
    parser.add_argument("--learning-rate", type=float, default=3e-3)
    parser.add_argument("--weight-decay", type=float, default=1e-4)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--data-only", action="store_true", help="stop after the data stage")
    args = parser.parse_args(argv)
    folder = Path(args.dir) / "policy-2p"
    generate(folder / "data", args.deals, args.iterations, args.sample_turns, args.workers)
    if args.data_only:
        return 0
    checkpoint = train(args, folder)
    out = (
        Path(args.out)
        if args.out
        else Path(__file__).parent.parent / "src/splendor/data/policy-2p.net"
    )
    export(checkpoint, out, args)
    print(f"wrote {out}: validation {json.dumps(checkpoint['validation'])}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
