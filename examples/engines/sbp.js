// sbp.js: the plumbing of an engine for the Splendor bot protocol (SBP), version 1.
//
// The protocol is one JSON object per line on stdin (from the host) and stdout
// (from the engine); stderr is the engine's log. This module reads the lines,
// checks every message, answers `hello`, `isready` and `setoption` itself, keeps
// the last `newgame` and `position`, and calls the engine's `choose` function on
// `go`. An engine built on it (random.js, greedy.js) only decides which of the
// listed actions to play. It needs nothing but Node.js: no packages.
//
//     const { runEngine } = require("./sbp.js");
//     runEngine({ name, author, version, options, choose });
//
// `choose(ctx)` gets { position, go, game, options, log } and returns
// { index } (an index into position.actions) or { move } (notation text),
// optionally with `info` (an object of the fields of an `info` message).
"use strict";

const PROTOCOL_VERSION = 1;
const MAX_LINE = 1048576; // bytes, the newline included

// Write one message as one line of JSON.
function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

// Write a line to the log (stderr): the host keeps the last of it, never parses it.
function log(...parts) {
  process.stderr.write(parts.join(" ") + "\n");
}

// A fault in a message the host sent: answered with an `error` message.
class ProtocolFault extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function requireField(message, name, check, what) {
  if (!check(message[name])) {
    throw new ProtocolFault("bad-field", `${message.type}: "${name}" must be ${what}`);
  }
  return message[name];
}

const isInteger = (v) => Number.isInteger(v);
const isNumberOrNull = (v) => v === undefined || v === null || (typeof v === "number" && v >= 0);

// Check an option's new value against its declaration; return the value to keep.
function checkOptionValue(option, value) {
  const bad = (what) => new ProtocolFault("bad-field", `setoption ${option.name}: ${what}`);
  switch (option.kind) {
    case "int":
    case "float":
      if (typeof value !== "number" || (option.kind === "int" && !Number.isInteger(value))) {
        throw bad(`expected ${option.kind === "int" ? "an integer" : "a number"}`);
      }
      if ((option.min !== undefined && value < option.min) || (option.max !== undefined && value > option.max)) {
        throw bad(`${value} is outside ${option.min}..${option.max}`);
      }
      return value;
    case "bool":
      if (typeof value !== "boolean") throw bad("expected true or false");
      return value;
    case "string":
      if (typeof value !== "string") throw bad("expected a string");
      return value;
    case "choice":
      if (!option.choices.includes(value)) throw bad(`expected one of ${option.choices.join(", ")}`);
      return value;
    default:
      throw bad(`unknown kind ${option.kind}`);
  }
}

// Run an engine until `quit` or the end of stdin.
function runEngine(engine) {
  const declared = engine.options || [];
  const options = {};
  for (const option of declared) options[option.name] = option.default;
  let game = null; // the last newgame message
  let position = null; // the last position message
  let waiting = null; // the go of an infinite search, answered on stop

  function play(go) {
    const started = Date.now();
    let answer;
    try {
      answer = engine.choose({ position, go, game, options, log });
    } catch (error) {
      if (error instanceof ProtocolFault) throw error;
      // A view this engine cannot read (a field missing, an unknown card):
      // say so rather than crash.
      throw new ProtocolFault("bad-position", `cannot play this position: ${error.message}`);
    }
    if (answer.info) {
      send(Object.assign({ type: "info", id: go.id, time: (Date.now() - started) / 1000 }, answer.info));
    }
    if (answer.move !== undefined) send({ type: "bestmove", id: go.id, move: answer.move });
    else send({ type: "bestmove", id: go.id, index: answer.index });
  }

  const handlers = {
    hello(message) {
      const version = requireField(message, "protocol", isInteger, "an integer");
      if (version !== PROTOCOL_VERSION) {
        throw new ProtocolFault("unsupported-version", `this engine speaks protocol ${PROTOCOL_VERSION}, not ${version}`);
      }
      send({
        type: "hello",
        protocol: PROTOCOL_VERSION,
        name: engine.name,
        author: engine.author,
        version: engine.version,
        options: declared,
      });
    },
    isready() {
      send({ type: "readyok" });
    },
    setoption(message) {
      const name = requireField(message, "name", (v) => typeof v === "string", "a string");
      const option = declared.find((o) => o.name === name);
      if (!option) throw new ProtocolFault("bad-field", `setoption: no option named ${JSON.stringify(name)}`);
      if (!("value" in message)) throw new ProtocolFault("bad-field", "setoption: \"value\" is missing");
      options[name] = checkOptionValue(option, message.value);
      if (engine.onOption) engine.onOption(name, options[name], options);
    },
    newgame(message) {
      requireField(message, "players", isInteger, "an integer");
      requireField(message, "seat", isInteger, "an integer");
      requireField(message, "cards", Array.isArray, "a list");
      requireField(message, "nobles", Array.isArray, "a list");
      game = message;
      position = null;
      if (engine.onNewGame) engine.onNewGame(message, options);
    },
    position(message) {
      requireField(message, "id", isInteger, "an integer");
      requireField(message, "view", isObject, "an object");
      const actions = requireField(message, "actions", Array.isArray, "a list");
      if (actions.length === 0) throw new ProtocolFault("bad-position", "position: no actions listed");
      actions.forEach((entry, i) => {
        if (!isObject(entry) || typeof entry.text !== "string" || !isObject(entry.action)) {
          throw new ProtocolFault("bad-field", `position: action ${i} must be {"text": ..., "action": {...}}`);
        }
      });
      position = message;
    },
    go(message) {
      const id = requireField(message, "id", isInteger, "an integer");
      requireField(message, "time", isNumberOrNull, "a number of seconds");
      if (position === null || position.id !== id) {
        throw new ProtocolFault("out-of-order", `go ${id}: no position with that id was sent`);
      }
      if (message.infinite === true) waiting = message;
      else play(message);
    },
    stop() {
      if (waiting !== null) {
        const go = waiting;
        waiting = null;
        play(go);
      }
    },
    quit() {
      process.exit(0);
    },
  };

  function handle(line) {
    if (line.trim() === "") return; // blank lines are not messages
    try {
      let message;
      try {
        message = JSON.parse(line);
      } catch (error) {
        throw new ProtocolFault("malformed", `not JSON: ${error.message}`);
      }
      if (!isObject(message)) throw new ProtocolFault("malformed", "a message is a JSON object");
      if (typeof message.type !== "string") throw new ProtocolFault("bad-field", "\"type\" must be a string");
      const handler = Object.prototype.hasOwnProperty.call(handlers, message.type) ? handlers[message.type] : null;
      if (handler === null) throw new ProtocolFault("unknown-type", `unknown message type ${JSON.stringify(message.type)}`);
      handler(message);
    } catch (error) {
      if (!(error instanceof ProtocolFault)) throw error;
      log(`error ${error.code}: ${error.message}`);
      send({ type: "error", code: error.code, message: error.message });
    }
  }

  // Split stdin into lines of at most MAX_LINE bytes; a longer line is
  // dropped whole and answered with one `too-long` error.
  let parts = [];
  let size = 0;
  let tooLong = false;
  process.stdin.on("data", (chunk) => {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      if (!tooLong) {
        if (size + (end - start) + 1 > MAX_LINE) {
          tooLong = true;
          parts = [];
          size = 0;
        } else {
          parts.push(chunk.subarray(start, end));
          size += end - start;
        }
      }
      if (newline === -1) break;
      if (tooLong) {
        tooLong = false;
        send({ type: "error", code: "too-long", message: `a line is at most ${MAX_LINE} bytes` });
      } else {
        const line = Buffer.concat(parts, size).toString("utf8");
        parts = [];
        size = 0;
        handle(line);
      }
      start = newline + 1;
    }
  });
  process.stdin.on("end", () => process.exit(0));
}

module.exports = { runEngine, send, log, ProtocolFault, MAX_LINE, PROTOCOL_VERSION };
