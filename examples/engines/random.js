#!/usr/bin/env node
// random.js: an engine for the Splendor bot protocol that plays a uniformly
// random one of the listed legal actions. It knows no rules: the host lists
// every legal action with each position, and this engine picks an index.
//
//     node examples/engines/random.js
//
// Option Seed (an integer, default 1): the generator restarts from it at every
// new game and whenever it is set, so the same seed plays the same moves from
// the same positions.
"use strict";

const { runEngine } = require("./sbp.js");

// mulberry32: a small 32-bit generator, good enough to pick moves.
function generator(seed) {
  let state = seed >>> 0;
  return function next() {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let random = generator(1);

runEngine({
  name: "random.js",
  author: "splendor-rules examples",
  version: "1.0",
  options: [{ name: "Seed", kind: "int", default: 1, min: 0, max: 4294967295 }],
  onOption(name, value) {
    if (name === "Seed") random = generator(value);
  },
  onNewGame(message, options) {
    random = generator(options.Seed);
  },
  choose({ position }) {
    return { index: Math.floor(random() * position.actions.length) };
  },
});
