"""Train the value network of :mod:`splendor.fast.network` and write its weights file.

Run by ``nox -s train`` (or directly, with the ``train`` dependency
group installed: ``python training/train_value.py --players 2``); see
``training/README.md``. It works in three stages, each resumed where it
stopped when the script is started again:

1. **Data**: games played in the compiled kernel, in shards under
   ``DIR/Np/data/``: many GreedyBot games with random moves mixed in (each
   game its own share of them, from 0 to 30 %), a few of their turns
   recorded, and games of :class:`~splendor.players.search.SearchBot` at a few
   strengths, half of their turns recorded, and (``--strong-games``) games
   between stronger SearchBots, every turn recorded; ``--workers`` plays the
   shards in several processes. A recorded position is the start
   of a turn, from every seat's view: the state part of the seat's
   observation and the final outcome of the game rotated to that seat.
   Games cut off without a winner are dropped. Games are held out by seed:
   a tenth for validation, a tenth to choose the epoch kept.
2. **Training**: JAX and optax, AdamW on the softmax cross-entropy against
   the outcome, in minibatches (each with the gem colours permuted at
   random) over a few epochs, with a checkpoint (parameters, optimizer
   state, step, random key, best weights) every few minutes and at the end
   of each epoch, and a JSON-lines log (``log.jsonl``) of the figures of
   each epoch and the CPU seconds used, summed over every run.
3. **Export**: the input scaling is folded into the first layer of the
   best epoch's weights, and the network is written with
   :func:`~splendor.fast.network.save_network` (``--out``), its validation
   figures beside those of the search's hand-written evaluation on the
   same positions in the file's metadata.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import pickle
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final, TypedDict

import numpy as np
import numpy.typing as npt

import splendor
from splendor.fast import Game
from splendor.fast.network import ValueNetwork, input_size, save_network
from splendor.fast.search_reference import score
from splendor.players.search import SearchBot

#: One thread for XLA: the script shares the machine (set before jax is imported).
os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
)

#: The games of a shard: many quick greedy games, fewer slow search games.
SHARD_GAMES: Final = {"greedy": 5000, "search": 250, "strong": 50}
#: A game not over after this many turns is dropped.
MAX_TURNS: Final = 300
#: The seeds of the search games start here (the greedy ones at 0).
SEARCH_SEEDS: Final = 10_000_000
#: The seeds of the strong search games start here.
STRONG_SEEDS: Final = 20_000_000
#: The temperature, in points, of the search's hand-written evaluation.
BASELINE_TEMPERATURE: Final = 2.5

Floats = npt.NDArray[np.float32]
Doubles = npt.NDArray[np.float64]


class Shard(TypedDict):
    """The arrays of one shard of positions, a row per position and seat."""

    x: npt.NDArray[np.uint8]  # the network's inputs
    y: Floats  # the outcome, observer first
    game: npt.NDArray[np.int64]  # the seed of the game
    mover: npt.NDArray[np.bool_]  # whether the observer is the seat to move
    base: Floats  # the baseline's probabilities (validation games only, else NaN)


def is_validation(seed: int) -> bool:
    """Whether the game of ``seed`` is held out for validation (the figures reported)."""
    return seed % 10 == 0


def is_tuning(seed: int) -> bool:
    """Whether the game of ``seed`` is held out to choose the epoch whose weights are kept."""
    return seed % 10 == 1


def colour_columns(players: int) -> list[list[int]]:
    """The groups of input columns that follow the five gem colours, each in colour order.

    The bank's tokens, each player's tokens and bonuses, each card slot's
    bonus and cost, each noble slot's needs: permuting the colours permutes
    the columns of every group the same way.
    """
    from splendor.fast.layout import CARD_SIZE, NOBLE_SIZE, observation_layout

    groups: list[list[int]] = []
    for field in observation_layout(players):
        if field.name == "bank":
            groups.append(list(range(field.start, field.start + 5)))
        elif field.name == "players":
            for start in range(field.start, field.stop, 15):
                groups += [list(range(start, start + 5)), list(range(start + 6, start + 11))]
        elif field.name in ("board", "reserved"):
            for start in range(field.start, field.stop, CARD_SIZE):
                groups += [list(range(start + 5, start + 10)), list(range(start + 11, start + 16))]
        elif field.name == "nobles":
            for start in range(field.start, field.stop, NOBLE_SIZE):
                groups.append(list(range(start + 2, start + 7)))
    return groups


def colour_permutations(players: int) -> npt.NDArray[np.int64]:
    """For each of the 120 orders of the colours, the column order that applies it."""
    groups = colour_columns(players)
    orders = []
    for order in itertools.permutations(range(5)):
        columns = np.arange(input_size(players))
        for group in groups:
            for colour, source in enumerate(order):
                columns[group[colour]] = group[source]
        orders.append(columns)
    return np.array(orders, np.int64)


def baseline(state: splendor.GameState, seat: int) -> list[float]:
    """The search's hand-written evaluation, seen from ``seat``: a softmax of the scores."""
    players = len(state.players)
    scores = [score(state, (seat + k) % players) for k in range(players)]
    top = max(scores)
    weights = [math.exp((s - top) / BASELINE_TEMPERATURE) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


class Recorder:
    """Collects the rows of one shard."""

    def __init__(self, players: int) -> None:
        from splendor.fast.observations import observation_shape

        self.players = players
        self.size = input_size(players)
        self.buffer: Floats = np.zeros(observation_shape(players), np.float32)
        self.rows: list[npt.NDArray[np.uint8]] = []
        self.seats: list[int] = []
        self.movers: list[bool] = []
        self.bases: list[list[float]] = []
        self.labels: list[list[float]] = []
        self.seeds: list[int] = []

    def record(self, game: Game, seed: int) -> None:
        """The rows of the position of ``game``, from every seat's view."""
        state = game.state() if is_validation(seed) else None
        for seat in range(self.players):
            game.observation_into(self.buffer, seat)
            part = self.buffer[: self.size]
            row = part.astype(np.uint8)
            if not np.array_equal(row, part):
                raise AssertionError(f"an observation entry is not a small count: {part}")
            self.rows.append(row)
            self.seats.append(seat)
            self.movers.append(seat == game.current_player)
            self.bases.append(
                baseline(state, seat) if state is not None else [math.nan] * self.players
            )

    def finish(self, seed: int, start: int, game: Game) -> None:
        """Label the rows of the game from row ``start``, or drop them if it has no winner."""
        if not game.is_over:
            for rows in (self.rows, self.seats, self.movers, self.bases):
                del rows[start:]
            return
        players = self.players
        winners = game.winners
        outcome = [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]
        for seat in self.seats[start:]:
            self.labels.append([outcome[(seat + k) % players] for k in range(players)])
            self.seeds.append(seed)

    def shard(self) -> Shard:
        """The rows collected, labelled."""
        players = self.players
        return Shard(
            x=np.array(self.rows, np.uint8).reshape(-1, self.size),
            y=np.array(self.labels, np.float32).reshape(-1, players),
            game=np.array(self.seeds, np.int64),
            mover=np.array(self.movers, np.bool_),
            base=np.array(self.bases, np.float32).reshape(-1, players),
        )


def greedy_games(players: int, seeds: range, keep: float) -> Shard:
    """Games of GreedyBot with random moves mixed in: ``keep`` of the turns recorded."""
    recorder = Recorder(players)
    for seed in seeds:
        rng = random.Random(f"greedy:{seed}")
        randomness = rng.uniform(0.0, 0.3)
        game = Game.new(players, seed=seed)
        start = len(recorder.rows)
        while not game.is_over and game.turn < MAX_TURNS:
            if rng.random() < keep:
                recorder.record(game, seed)
            if rng.random() < randomness:
                game.play(rng.randrange(game.action_count()))
            else:
                game.play(game.greedy_choice(rng))
        recorder.finish(seed, start, game)
    return recorder.shard()


def search_games(players: int, seeds: range, keep: float) -> Shard:
    """Games of SearchBot (100 to 800 iterations a seat, a few random moves, now and
    then a GreedyBot seat): ``keep`` of the turns recorded."""
    recorder = Recorder(players)
    for seed in seeds:
        rng = random.Random(f"search:{seed}")
        randomness = rng.uniform(0.0, 0.1)
        bots: list[SearchBot | None] = [
            SearchBot(iterations=rng.choice((100, 200, 400, 800)), seed=rng.getrandbits(32))
            if rng.random() < 0.85
            else None
            for _ in range(players)
        ]
        game = Game.new(players, seed=seed)
        start = len(recorder.rows)
        while not game.is_over and game.turn < MAX_TURNS:
            if rng.random() < keep:
                recorder.record(game, seed)
            bot = bots[game.current_player]
            if rng.random() < randomness:
                game.play(rng.randrange(game.action_count()))
            elif bot is None:
                game.play(game.greedy_choice(rng))
            else:
                actions = game.actions()
                seen = splendor.view(game.state(), game.current_player)
                game.play(actions.index(bot(seen, actions, rng)))
        recorder.finish(seed, start, game)
    return recorder.shard()


def strong_games(players: int, seeds: range, keep: float) -> Shard:
    """Games between SearchBots of 1,000 to 4,000 iterations a seat (the heuristic
    evaluation, up to 3 % random moves): ``keep`` of the turns recorded."""
    recorder = Recorder(players)
    for seed in seeds:
        rng = random.Random(f"strong:{seed}")
        randomness = rng.uniform(0.0, 0.03)
        bots = [
            SearchBot(iterations=rng.choice((1000, 2000, 4000)), seed=rng.getrandbits(32))
            for _ in range(players)
        ]
        game = Game.new(players, seed=seed)
        start = len(recorder.rows)
        while not game.is_over and game.turn < MAX_TURNS:
            if rng.random() < keep:
                recorder.record(game, seed)
            if rng.random() < randomness:
                game.play(rng.randrange(game.action_count()))
            else:
                actions = game.actions()
                seen = splendor.view(game.state(), game.current_player)
                bot = bots[game.current_player]
                game.play(actions.index(bot(seen, actions, rng)))
        recorder.finish(seed, start, game)
    return recorder.shard()


class Progress:
    """The CPU seconds used so far, kept in ``progress.json`` across runs."""

    def __init__(self, root: Path) -> None:
        self.path = root / "progress.json"
        self.seconds: dict[str, float] = {"data": 0.0, "train": 0.0}
        if self.path.exists():
            self.seconds.update(json.loads(self.path.read_text(encoding="utf-8")))
        self.mark = time.process_time()

    def add(self, stage: str, elsewhere: float = 0.0) -> float:
        """Count the CPU time since the last call, and ``elsewhere`` seconds of other
        processes, for ``stage``; the stage's total."""
        now = time.process_time()
        self.seconds[stage] += now - self.mark + elsewhere
        self.mark = now
        write_atomically(self.path, json.dumps(self.seconds).encode("utf-8"))
        return self.seconds[stage]


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` in one step (a run stopped midway leaves the old file)."""
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(data)
    os.replace(partial, path)


#: How each kind of game is played, by name.
PLAYERS: Final[dict[str, Callable[[int, range, float], Shard]]] = {
    "greedy": greedy_games,
    "search": search_games,
    "strong": strong_games,
}


def play_shard(kind: str, players: int, seeds: range, keep: float, path: Path) -> float:
    """Play the games of one shard and write it to ``path``; the CPU seconds it took."""
    start = time.process_time()
    shard = PLAYERS[kind](players, seeds, keep)
    partial = path.with_name(path.name + ".partial.npz")
    np.savez(partial, **shard)
    os.replace(partial, path)
    return time.process_time() - start


def generate(args: argparse.Namespace, root: Path, progress: Progress) -> list[Path]:
    """Play the games of every shard not yet on disk (``args.workers`` processes at a
    time); the paths of all shards."""
    folder = root / "data"
    folder.mkdir(parents=True, exist_ok=True)
    plans = [
        ("greedy", 0, args.greedy_games, args.greedy_keep),
        ("search", SEARCH_SEEDS, args.search_games, args.search_keep),
        ("strong", STRONG_SEEDS, args.strong_games, args.strong_keep),
    ]
    paths = []
    todo: list[tuple[str, int, range, float, Path]] = []
    for kind, first, games, keep in plans:
        size = SHARD_GAMES[kind]
        for number, start in enumerate(range(0, games, size)):
            path = folder / f"{kind}-{number:04d}.npz"
            paths.append(path)
            if not path.exists():
                seeds = range(first + start, first + min(start + size, games))
                todo.append((kind, args.players, seeds, keep, path))

    def done(path: Path, elsewhere: float) -> None:
        total = progress.add("data", elsewhere)
        with np.load(path) as shard:
            rows = len(shard["x"])
        print(f"{path.name}: {rows} rows, data CPU {total:.0f} s", flush=True)

    if args.workers == 1:
        for task in todo:
            play_shard(*task)
            done(task[-1], 0.0)
    elif todo:
        from concurrent.futures import ProcessPoolExecutor, as_completed

        with ProcessPoolExecutor(args.workers) as pool:
            futures = {pool.submit(play_shard, *task): task[-1] for task in todo}
            for future in as_completed(futures):
                done(futures[future], future.result())
    return paths


def load(paths: Sequence[Path]) -> Shard:
    """All the shards as one."""
    parts: list[Shard] = []
    for path in paths:
        with np.load(path) as data:
            parts.append(
                Shard(
                    x=data["x"],
                    y=data["y"],
                    game=data["game"],
                    mover=data["mover"],
                    base=data["base"],
                )
            )
    return Shard(
        x=np.concatenate([p["x"] for p in parts]),
        y=np.concatenate([p["y"] for p in parts]),
        game=np.concatenate([p["game"] for p in parts]),
        mover=np.concatenate([p["mover"] for p in parts]),
        base=np.concatenate([p["base"] for p in parts]),
    )


def select(data: Shard, mask: npt.NDArray[np.bool_]) -> Shard:
    """The rows of ``data`` where ``mask`` holds."""
    return Shard(
        x=data["x"][mask],
        y=data["y"][mask],
        game=data["game"][mask],
        mover=data["mover"][mask],
        base=data["base"][mask],
    )


def figures(probabilities: Doubles, labels: Floats) -> dict[str, float]:
    """Cross-entropy against the outcome, and accuracy: the most likely seat is a winner."""
    clipped = np.clip(probabilities, 1e-12, 1.0)
    entropy = float(-(labels * np.log(clipped)).sum(axis=1).mean())
    best = probabilities.argmax(axis=1)
    accuracy = float((labels[np.arange(len(labels)), best] > 0).mean())
    return {"cross_entropy": round(entropy, 5), "accuracy": round(accuracy, 5)}


def forward64(layers: Sequence[tuple[Doubles, Doubles]], x: Doubles) -> Doubles:
    """The network's probabilities in float64 (as evaluate_batch computes them)."""
    for number, (weights, biases) in enumerate(layers):
        x = x @ weights + biases
        if number < len(layers) - 1:
            x = np.maximum(x, 0.0)
    x = np.exp(x - x.max(axis=1, keepdims=True))
    result: Doubles = x / x.sum(axis=1, keepdims=True)
    return result


def moments(x: npt.NDArray[np.uint8]) -> tuple[Doubles, Doubles]:
    """The mean and standard deviation of each column (1 where it hardly varies)."""
    total = np.zeros(x.shape[1])
    squares = np.zeros(x.shape[1])
    for start in range(0, len(x), 65536):
        part = x[start : start + 65536].astype(np.float64)
        total += part.sum(axis=0)
        squares += (part * part).sum(axis=0)
    mean = total / max(len(x), 1)
    scale = np.sqrt(np.maximum(squares / max(len(x), 1) - mean * mean, 0.0))
    scale[scale < 1e-6] = 1.0
    return mean, scale


def batches(count: int, size: int, seed: int, epoch: int) -> Iterator[npt.NDArray[np.int64]]:
    """The minibatches of an epoch: a permutation of the rows fixed by the seed and epoch."""
    order = np.random.default_rng([seed, epoch]).permutation(count)
    for start in range(0, count - size + 1, size):
        yield order[start : start + size]


def train(
    args: argparse.Namespace, root: Path, data: Shard, progress: Progress
) -> list[tuple[Doubles, Doubles]]:
    """Train (resuming from the checkpoint); the layers, input scaling folded in, as float64."""
    import jax
    import jax.numpy as jnp
    import optax

    seeds = data["game"].tolist()
    valid = np.array([is_validation(seed) for seed in seeds], np.bool_)
    tuning = np.array([is_tuning(seed) for seed in seeds], np.bool_)
    training, held = select(data, ~valid & ~tuning), select(data, tuning)
    orders = colour_permutations(args.players)
    sizes = [input_size(args.players), *args.hidden, args.players]
    per_epoch = len(training["x"]) // args.batch
    total_steps = per_epoch * args.epochs
    schedule = optax.cosine_decay_schedule(args.learning_rate, max(total_steps, 1), alpha=0.05)
    optimizer = optax.adamw(schedule, weight_decay=args.weight_decay)

    checkpoint = root / "checkpoint.pkl"
    if checkpoint.exists():
        saved = pickle.loads(checkpoint.read_bytes())
        if saved["rows"] != len(training["x"]):
            raise SystemExit(
                f"{checkpoint} was trained on {saved['rows']:,} rows, the data now has "
                f"{len(training['x']):,}: delete it to train on the new data"
            )
        print(f"resuming at epoch {saved['epoch']}, batch {saved['batch']}", flush=True)
    else:
        mean, scale = moments(training["x"])
        key = jax.random.PRNGKey(args.seed)
        params = []
        for inputs, outputs in itertools.pairwise(sizes):
            key, sub = jax.random.split(key)
            weights = jax.random.normal(sub, (inputs, outputs)) * math.sqrt(2.0 / inputs)
            params.append((weights, jnp.zeros(outputs)))
        saved = {
            "params": jax.device_get(params),
            "opt_state": jax.device_get(optimizer.init(params)),
            "rows": len(training["x"]),
            "epoch": 0,
            "batch": 0,
            "step": 0,
            "loss_sum": 0.0,
            "key": np.asarray(key),
            "mean": mean.astype(np.float32),
            "scale": scale.astype(np.float32),
        }
    mean, scale = saved["mean"], saved["scale"]

    # JAX's arrays and pytrees are Any to the type checkers (jax is not installed there).
    def logits(params: list[tuple[Any, Any]], x: Any) -> Any:
        h = (jnp.asarray(x, jnp.float32) - mean) / scale
        for number, (weights, biases) in enumerate(params):
            h = h @ weights + biases
            if number < len(sizes) - 2:
                h = jax.nn.relu(h)
        return h

    def loss(params: list[tuple[Any, Any]], x: Any, y: Any) -> Any:
        return optax.softmax_cross_entropy(logits(params, x), y).mean()

    def update(params: list[tuple[Any, Any]], state: Any, x: Any, y: Any) -> tuple[Any, ...]:
        value, grads = jax.value_and_grad(loss)(params, x, y)
        updates, state = optimizer.update(grads, state, params)
        return optax.apply_updates(params, updates), state, value

    step = jax.jit(update)

    predict = jax.jit(lambda params, x: jax.nn.softmax(logits(params, x)))

    def validate(params: list[tuple[Any, Any]]) -> dict[str, float]:
        parts = [
            np.asarray(predict(params, held["x"][i : i + 8192]), np.float64)
            for i in range(0, len(held["x"]), 8192)
        ]
        return figures(np.concatenate(parts), held["y"])

    params, state = saved["params"], saved["opt_state"]
    last_save = time.monotonic()
    log = root / "log.jsonl"

    def save() -> None:
        saved.update(params=jax.device_get(params), opt_state=jax.device_get(state))
        write_atomically(checkpoint, pickle.dumps(saved))
        progress.add("train")

    while saved["epoch"] < args.epochs:
        epoch = saved["epoch"]
        for number, rows in enumerate(batches(len(training["x"]), args.batch, args.seed, epoch)):
            if number < saved["batch"]:
                continue
            # Each minibatch with its colours in a random order: the colours are alike.
            shuffle = orders[np.random.default_rng([args.seed, epoch, number]).integers(120)]
            x = training["x"][rows][:, shuffle] if args.colours else training["x"][rows]
            params, state, value = step(params, state, x, training["y"][rows])
            saved["batch"] = number + 1
            saved["step"] += 1
            saved["loss_sum"] += float(value)
            if time.monotonic() - last_save > 60 * args.checkpoint_minutes:
                save()
                last_save = time.monotonic()
        entry: dict[str, object] = {
            "epoch": epoch + 1,
            "step": saved["step"],
            "train_cross_entropy": round(saved["loss_sum"] / max(saved["batch"], 1), 5),
        }
        found = validate(params)
        entry["tuning"] = found
        if found["cross_entropy"] < saved.get("best_loss", math.inf):
            saved.update(best=jax.device_get(params), best_loss=found["cross_entropy"])
            saved["best_epoch"] = epoch + 1
        saved.update(epoch=epoch + 1, batch=0, loss_sum=0.0)
        save()
        last_save = time.monotonic()
        entry["train_cpu_seconds"] = round(progress.seconds["train"], 1)
        with log.open("a", encoding="utf-8") as out:
            out.write(json.dumps(entry) + "\n")
        print(json.dumps(entry), flush=True)

    # The weights of the epoch best on the tuning games, the scaling
    # (x - mean) / scale folded into their first layer.
    print(f"keeping the weights of epoch {saved['best_epoch']}", flush=True)
    args.best_epoch = saved["best_epoch"]
    layers = [(np.asarray(w, np.float64), np.asarray(b, np.float64)) for w, b in saved["best"]]
    first, bias = layers[0]
    folded = first / scale.astype(np.float64)[:, None]
    layers[0] = (folded, bias - (mean.astype(np.float64) @ folded))
    return layers


def export(
    args: argparse.Namespace,
    layers: list[tuple[Doubles, Doubles]],
    data: Shard,
    progress: Progress,
) -> dict[str, object]:
    """Write the weights file; the figures written into its metadata."""
    sizes = [input_size(args.players), *args.hidden, args.players]
    stored = [(w.astype(np.float32), b.astype(np.float32)) for w, b in layers]
    exact = [(w.astype(np.float64), b.astype(np.float64)) for w, b in stored]
    valid = np.array([is_validation(int(seed)) for seed in data["game"]], np.bool_)
    held = select(data, valid)
    net = forward64(exact, held["x"].astype(np.float64))
    base = held["base"].astype(np.float64)
    mover = held["mover"]
    searched = mover & (held["game"] >= SEARCH_SEEDS)
    strong = mover & (held["game"] >= STRONG_SEEDS)
    games = len(set(data["game"].tolist()))
    validation_games = len(set(held["game"].tolist()))
    metadata: dict[str, object] = {
        "games": games,
        "validation_games": validation_games,
        "rows": len(data["x"]),
        "positions": int(data["mover"].sum()),
        "validation_positions": int(mover.sum()),
        "parameters": sum(w.size + b.size for w, b in stored),
        "data_cpu_seconds": round(progress.seconds["data"], 1),
        "train_cpu_seconds": round(progress.seconds["train"], 1),
        "epochs": args.epochs,
        "best_epoch": args.best_epoch,
        "colour_permutations": args.colours,
        "validation_to_move": {
            "network": figures(net[mover], held["y"][mover]),
            "baseline": figures(base[mover], held["y"][mover]),
        },
        "validation_search_games_to_move": {
            "network": figures(net[searched], held["y"][searched]),
            "baseline": figures(base[searched], held["y"][searched]),
        },
        "validation_every_seat": {
            "network": figures(net, held["y"]),
            "baseline": figures(base, held["y"]),
        },
        "seed": args.seed,
    }
    if strong.any():
        metadata["validation_strong_games_to_move"] = {
            "network": figures(net[strong], held["y"][strong]),
            "baseline": figures(base[strong], held["y"][strong]),
        }
    network = ValueNetwork(
        args.players,
        tuple(sizes),
        tuple((w.ravel().tolist(), b.tolist()) for w, b in stored),
        metadata,
    )
    out = Path(args.out or f"src/splendor/data/value-{args.players}p.net")
    save_network(network, out)
    print(f"wrote {out}: {json.dumps(metadata)}", flush=True)
    return metadata


def arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--dir", default=".train", help="where the state is kept (.train/)")
    parser.add_argument("--out", help="the weights file (src/splendor/data/value-Np.net)")
    parser.add_argument("--greedy-games", type=int, default=300_000)
    parser.add_argument("--greedy-keep", type=float, default=0.06, help="turns recorded")
    parser.add_argument("--search-games", type=int, default=7_500)
    parser.add_argument("--search-keep", type=float, default=0.5, help="turns recorded")
    parser.add_argument("--strong-games", type=int, default=0)
    parser.add_argument("--strong-keep", type=float, default=1.0, help="turns recorded")
    parser.add_argument("--workers", type=int, default=1, help="processes playing the games (1)")
    parser.add_argument("--hidden", type=int, nargs="+", default=[128, 64])
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--weight-decay", type=float, default=1e-4)
    parser.add_argument("--checkpoint-minutes", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--no-colours",
        dest="colours",
        action="store_false",
        help="train without permuting the colours of each minibatch",
    )
    parser.add_argument("--data-only", action="store_true", help="stop after the data stage")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the stages not yet done; 0 when the weights are written."""
    args = arguments(argv)
    root = Path(args.dir) / f"{args.players}p"
    root.mkdir(parents=True, exist_ok=True)
    progress = Progress(root)
    paths = generate(args, root, progress)
    if args.data_only:
        return 0
    data = load(paths)
    print(f"{len(data['x'])} rows from {len(set(data['game'].tolist()))} games", flush=True)
    layers = train(args, root, data, progress)
    export(args, layers, data, progress)
    return 0


if __name__ == "__main__":
    sys.exit(main())
