#!/usr/bin/env node
// greedy.js: an engine for the Splendor bot protocol that plays by one simple,
// greedy rule. It has no rules code: it scores each of the legal actions that
// the host lists with the position, using the view and the card and noble
// tables sent with `newgame`, and plays the best (the first listed on a tie).
//
//     node examples/engines/greedy.js
//
// The rule:
//   1. Buy if it can: the card worth most points, counting a noble it brings
//      (its points, plus a little for each bonus that a noble on the table
//      still needs), and spending as little gold as it can.
//   2. Otherwise work toward the target: the card (on the board or in its own
//      reserve) that needs the fewest more tokens, the one worth most points on
//      a tie. Take the gems that bring the target closest, or, when no take
//      brings it closer, reserve the target (which brings a gold token too).
//   3. Otherwise any take, then any reserve; pass only when nothing else is
//      listed (the host lists a pass only then).
"use strict";

const { runEngine, ProtocolFault } = require("./sbp.js");

const COLOURS = ["white", "blue", "green", "red", "black"];

const count = (tokens, colour) => (tokens && tokens[colour]) || 0;

// What a player still lacks to buy `card`: missing coloured tokens after its
// bonuses, less the gold it holds (never below zero).
function shortfall(card, bonuses, tokens) {
  let missing = 0;
  for (const colour of COLOURS) {
    const price = Math.max(0, count(card.cost, colour) - count(bonuses, colour));
    missing += Math.max(0, price - count(tokens, colour));
  }
  return Math.max(0, missing - count(tokens, "gold"));
}

// The tokens a player would hold after taking `gems` and giving back `returned`.
function afterTake(tokens, gems, returned) {
  const result = {};
  for (const colour of COLOURS.concat(["gold"])) {
    result[colour] = count(tokens, colour) + count(gems, colour) - count(returned, colour);
  }
  return result;
}

// How many of a card's bonus colour the visible nobles still need from us.
function nobleProgress(card, view, bonuses, noblesById) {
  let progress = 0;
  for (const id of view.nobles) {
    const noble = noblesById.get(id);
    if (noble && count(noble.needs, card.bonus) > count(bonuses, card.bonus)) progress += 1;
  }
  return progress;
}

function choose({ position, game, log }) {
  const cardsById = new Map(game.cards.map((card) => [card.id, card]));
  const noblesById = new Map(game.nobles.map((noble) => [noble.id, noble]));
  const view = position.view;
  const own = view.own;
  const bonuses = own.bonuses || {};

  // The target: the card within reach that lacks the fewest tokens.
  const reachable = view.board.flat().filter((id) => id !== null).concat(own.reserved);
  let target = null;
  let targetShort = Infinity;
  for (const id of reachable) {
    const card = cardsById.get(id);
    const short = shortfall(card, bonuses, own.tokens);
    if (short < targetShort || (short === targetShort && card.points > target.points)) {
      target = card;
      targetShort = short;
    }
  }

  function score(action) {
    const noble = action.noble != null ? noblesById.get(action.noble) : null;
    const noblePoints = noble ? 100 * noble.points : 0;
    switch (action.type) {
      case "buy": {
        const card = cardsById.get(action.card);
        const gold = count(action.payment, "gold");
        return 10000 + 100 * card.points + noblePoints + 10 * nobleProgress(card, view, bonuses, noblesById) - gold;
      }
      case "take": {
        const tokens = afterTake(own.tokens, action.gems, action.returned);
        const closer = target ? targetShort - shortfall(target, bonuses, tokens) : 0;
        return 1000 + 100 * closer + noblePoints + 100 * Math.sign(closer) + sum(tokens) - sum(own.tokens);
      }
      case "reserve": {
        const returned = sum(action.returned || {});
        return (target && action.card === target.id ? 1150 : 500) + noblePoints - returned;
      }
      case "reserve_deck":
        return 400 + noblePoints - sum(action.returned || {});
      default:
        return noblePoints;
    }
  }

  let best = 0;
  let bestScore = -Infinity;
  position.actions.forEach((entry, index) => {
    const value = score(entry.action);
    if (value > bestScore) {
      best = index;
      bestScore = value;
    }
  });
  log(`greedy: ${position.actions[best].text} (score ${bestScore}, target #${target ? target.id : "-"})`);
  return { index: best, info: { pv: [position.actions[best].text], nodes: position.actions.length } };
}

function sum(tokens) {
  let total = 0;
  for (const colour of COLOURS.concat(["gold"])) total += count(tokens, colour);
  return total;
}

runEngine({
  name: "greedy.js",
  author: "splendor-rules examples",
  version: "1.0",
  options: [],
  choose(ctx) {
    if (ctx.game === null) throw new ProtocolFault("out-of-order", "go: no newgame was sent, so the card table is unknown");
    return choose(ctx);
  },
});
