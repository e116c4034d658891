// The web client of `splendor serve`: the lobby at "/", a table at "/t/<id>#<secret>".
// It draws what the server's "state" messages say, and composes a move only
// from the legal actions in them; the server checks every move again.
"use strict";

const GEMS = ["white", "blue", "green", "red", "black"];
const ALL = [...GEMS, "gold"];
const LETTER = { white: "W", blue: "B", green: "G", red: "R", black: "K", gold: "★" };

// Small DOM helpers ----------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) {
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
  return node;
}

function count(tokens, gem) {
  return (tokens && tokens[gem]) || 0;
}

// plural(1, "card") is "1 card", plural(2, "card") "2 cards".
function plural(n, noun) {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function total(tokens) {
  return Object.values(tokens || {}).reduce((a, b) => a + b, 0);
}

function tokensText(tokens) {
  const parts = ALL.filter((g) => count(tokens, g)).map((g) => `${count(tokens, g)} ${g}`);
  return parts.length ? parts.join(", ") : "nothing";
}

function sameTokens(a, b) {
  return ALL.every((g) => count(a, g) === count(b, g));
}

function covers(big, small) {
  return ALL.every((g) => count(big, g) >= count(small, g));
}

function plus(tokens, gem) {
  return { ...tokens, [gem]: count(tokens, gem) + 1 };
}

// Components: the cards and nobles, fetched once -------------------------------

let CARDS = {};
let NOBLES = {};

function gemDot(gem, n, extra = "") {
  return el("span", { class: `dot gem-${gem} ${extra}`, title: `${n} ${gem}` }, String(n));
}

function cardNode(id, opts = {}) {
  const card = CARDS[id];
  const node = el(
    "div",
    {
      class: `card bonus-${card.bonus}${opts.cls ? " " + opts.cls : ""}`,
      "data-card": id,
      title: `card #${id}: tier ${card.tier}, ${card.bonus} bonus, ${plural(card.points, "point")}`,
      tabindex: opts.onclick ? 0 : null,
      role: opts.onclick ? "button" : null,
    },
    el(
      "div",
      { class: "card-top" },
      el("span", { class: "points" }, card.points ? String(card.points) : ""),
      el("span", { class: `gem gem-${card.bonus}`, "aria-label": card.bonus }),
    ),
    el(
      "div",
      { class: "cost" },
      GEMS.filter((g) => count(card.cost, g)).map((g) => gemDot(g, count(card.cost, g))),
    ),
    // The id, as the SVG pictures and the text board show it: the moves name cards by it.
    el("span", { class: "card-id" }, `#${id}`),
  );
  if (opts.onclick) {
    node.addEventListener("click", opts.onclick);
    node.addEventListener("keydown", (e) => e.key === "Enter" && opts.onclick());
  }
  return node;
}

function backNode(tier, label, opts = {}) {
  const node = el(
    "div",
    {
      class: `card back tier-${tier}${opts.cls ? " " + opts.cls : ""}`,
      title: opts.title || `tier ${tier}`,
      "data-deck": opts.deck ? tier : null,
      tabindex: opts.onclick ? 0 : null,
      role: opts.onclick ? "button" : null,
    },
    el("span", { class: "tier" }, "I".repeat(tier)),
    el("span", { class: "left" }, label),
  );
  if (opts.onclick) {
    node.addEventListener("click", opts.onclick);
    node.addEventListener("keydown", (e) => e.key === "Enter" && opts.onclick());
  }
  return node;
}

function nobleNode(id, opts = {}) {
  const noble = NOBLES[id];
  return el(
    "div",
    {
      class: `noble${opts.cls ? " " + opts.cls : ""}`,
      "data-noble": id,
      title: `noble ${id}: ${plural(noble.points, "point")}`,
      role: opts.onclick ? "button" : null,
      tabindex: opts.onclick ? 0 : null,
      onclick: opts.onclick || null,
    },
    el("span", { class: "points" }, String(noble.points)),
    el(
      "div",
      { class: "need" },
      GEMS.filter((g) => count(noble.requirement, g)).map((g) =>
        gemDot(g, count(noble.requirement, g), "square"),
      ),
    ),
  );
}

// Describing actions -------------------------------------------------------------

// cardText(12) is "card #12 (tier 1 blue, 0 points, cost 1 white, 2 black)": what the card
// is, for a card that is no longer on the board.
function cardText(id) {
  const card = CARDS[id];
  if (!card) return `card #${id}`;
  const cost = tokensText(card.cost);
  return `card #${id} (tier ${card.tier} ${card.bonus}, ${plural(card.points, "point")}, cost ${cost})`;
}

// describe(action, "Ada") says what Ada did; describe(action) what the move will do.
function describe(action, who = null) {
  const verb = (past, now) => (who ? `${who} ${past}` : now);
  let text;
  switch (action.type) {
    case "take":
      text = `${verb("took", "Take")} ${tokensText(action.gems)}`;
      break;
    case "reserve":
      text = `${verb("reserved", "Reserve")} ${cardText(action.card)}`;
      break;
    case "reserve_deck":
      text = `${verb("reserved", "Reserve")} a card from the tier ${action.tier} deck`;
      break;
    case "buy":
      text = `${verb("bought", "Buy")} ${cardText(action.card)}, paying ${tokensText(action.payment)}`;
      break;
    default:
      text = verb("passed", "Pass");
  }
  if (action.returned && total(action.returned)) {
    text += `, ${who ? "gave" : "give"} back ${tokensText(action.returned)}`;
  }
  if (action.noble) text += `, ${who ? "received" : "receive"} noble ${action.noble}`;
  return text;
}

// The table ----------------------------------------------------------------------

const table = {
  id: null,
  secret: null,
  socket: null,
  message: null, // the latest "state" message
  retry: 0,
  choice: null, // the move being composed
};
// For tests and curious people: the latest state message.
window.splendor = table;

function status(text, cls = "") {
  const node = document.getElementById("status");
  node.textContent = text;
  node.className = `status ${cls}`;
}

function connection(ok) {
  const node = document.getElementById("connection");
  node.textContent = ok ? "● live" : "○ reconnecting…";
  node.className = `connection ${ok ? "ok" : "down"}`;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${table.id}`);
  table.socket = socket;
  socket.addEventListener("open", () => {
    table.retry = 0;
    connection(true);
    socket.send(
      JSON.stringify(table.secret ? { type: "join", secret: table.secret } : { type: "watch" }),
    );
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    connection(false);
    if (event.code === 4403 || event.code === 4404) return; // a bad link: do not retry
    table.retry = Math.min(table.retry + 1, 6);
    setTimeout(connect, 250 * 2 ** table.retry);
  });
}

function receive(message) {
  if (message.type === "state") {
    const moved = !table.message || table.message.version !== message.version;
    table.message = message;
    if (moved) table.choice = null;
    draw();
  } else if (message.type === "seats") {
    if (table.message) {
      table.message.seats = message.seats;
      drawPlayers();
    }
  } else if (message.type === "error") {
    if (["unknown_secret", "not_found"].includes(message.code)) {
      status(message.message, "bad");
      document.getElementById("table").hidden = true;
      return;
    }
    flash(message.message);
    table.choice = null;
    table.socket.send(JSON.stringify({ type: "sync" }));
  }
}

function flash(text) {
  const last = document.getElementById("last");
  last.replaceChildren(el("p", { class: "error", role: "alert" }, text));
}

function send(action) {
  const m = table.message;
  table.socket.send(JSON.stringify({ type: "move", version: m.version, action }));
  table.choice = { sent: true };
  drawComposer();
}

function myTurn() {
  const m = table.message;
  return m && m.seat !== null && !m.over && m.legal.length > 0;
}

function draw() {
  const m = table.message;
  const v = m.view;
  const seats = m.seats;
  document.getElementById("table").hidden = false;
  document.body.dataset.version = m.version;
  document.body.dataset.turn = myTurn() ? "mine" : "theirs";
  if (m.over) {
    status("Game over", "over");
  } else if (myTurn()) {
    status("Your turn", "mine");
  } else {
    status(`${seats[v.current_player].name} to move`);
  }
  drawNobles();
  drawBoard();
  drawBank();
  drawPlayers();
  drawLast();
  drawComposer();
  drawResult();
}

function drawLast() {
  const m = table.message;
  const node = document.getElementById("last");
  if (!m.last) {
    node.replaceChildren(el("p", {}, "First move of the game."));
    return;
  }
  node.replaceChildren(
    el(
      "p",
      { class: "last-move", "data-last-seat": m.last.seat },
      "Last move: ",
      describe(m.last.action, m.seats[m.last.seat].name),
    ),
  );
}

function lastCard() {
  const m = table.message;
  return m.last && m.last.action.card;
}

function drawNobles() {
  const v = table.message.view;
  const choosable = nobleChoices();
  document.getElementById("nobles").replaceChildren(
    ...v.nobles.map((id) =>
      nobleNode(id, {
        cls: choosable.has(id) ? "choosable" : "",
        onclick: choosable.has(id) ? () => chooseNoble(id) : null,
      }),
    ),
  );
}

function drawBoard() {
  const v = table.message.view;
  const rows = [];
  for (let tier = 3; tier >= 1; tier--) {
    const size = v.deck_sizes[tier - 1];
    const deckLegal = legalWith((a) => a.type === "reserve_deck" && a.tier === tier).length > 0;
    const deck = size
      ? backNode(tier, String(size), {
          deck: true,
          title: `tier ${tier} deck: ${plural(size, "card")}`,
          cls: deckLegal ? "playable" : "",
          onclick: deckLegal ? () => pickDeck(tier) : null,
        })
      : el("div", { class: "card empty", "data-deck": tier }, "empty");
    const slots = v.board[tier - 1].map((id) => {
      if (id === null) return el("div", { class: "card empty" });
      const playable = legalWith((a) => a.card === id).length > 0;
      const picked = table.choice && table.choice.card === id;
      return cardNode(id, {
        cls: [playable ? "playable" : "", picked ? "picked" : ""].join(" "),
        onclick: playable ? () => pickCard(id) : null,
      });
    });
    rows.push(el("div", { class: "row", "data-tier": tier }, deck, ...slots));
  }
  document.getElementById("board").replaceChildren(...rows);
}

function drawBank() {
  const v = table.message.view;
  const picked = (table.choice && table.choice.gems) || {};
  document.getElementById("bank").replaceChildren(
    ...ALL.map((gem) => {
      const can = gem !== "gold" && canPickGem(gem);
      return el(
        "button",
        {
          class: `token gem-${gem}${can ? " playable" : ""}`,
          "data-gem": gem,
          disabled: !can,
          title: `${count(v.bank, gem)} ${gem} in the supply`,
          onclick: can ? () => pickGem(gem) : null,
        },
        el("span", { class: "n" }, String(count(v.bank, gem))),
        count(picked, gem) ? el("span", { class: "picked-n" }, `+${count(picked, gem)}`) : null,
      );
    }),
  );
}

function drawPlayers() {
  const m = table.message;
  const v = m.view;
  const panels = v.players.map((player, seat) => {
    const own = seat === m.seat ? v.own : null;
    const info = m.seats[seat];
    const held = total(player.tokens);
    const limit = v.rules.token_limit;
    const classes = ["player", "panel"];
    if (seat === v.current_player && !m.over) classes.push("to-move");
    // Only the seat to move is highlighted; the last mover gets a tag.
    const movedLast = Boolean(m.last && m.last.seat === seat);
    if (movedLast) classes.push("moved-last");
    if (own) classes.push("me");
    if (m.over && v.winners.includes(seat)) classes.push("winner");
    const reserved = [];
    if (own) {
      own.reserved.forEach((id, i) => {
        const playable = legalWith((a) => a.type === "buy" && a.card === id).length > 0;
        reserved.push(
          cardNode(id, {
            cls: `small${own.reserved_blind[i] ? " blind-own" : ""}${playable ? " playable" : ""}`,
            onclick: playable ? () => pickCard(id) : null,
          }),
        );
      });
    } else {
      player.reserved.forEach((id) => reserved.push(cardNode(id, { cls: "small" })));
      player.blind_reserves.forEach((tier) =>
        reserved.push(backNode(tier, "?", { cls: "small", title: `a hidden tier ${tier} card` })),
      );
    }
    return el(
      "section",
      { class: classes.join(" "), "data-seat": seat },
      el(
        "h3",
        {},
        el("span", { class: `online ${info.online ? "on" : "off"}`, title: info.online ? "online" : "away" }),
        info.name,
        own ? el("span", { class: "tag" }, "you") : null,
        info.kind === "bot" ? el("span", { class: "tag" }, "bot") : null,
        movedLast ? el("span", { class: "tag last-tag", title: "made the last move" }, "last move") : null,
        el("span", { class: "score", title: "prestige points" }, `${player.points} pt`),
      ),
      el(
        "div",
        { class: "holdings" },
        ALL.map((gem) =>
          el(
            "div",
            {
              class: "holding",
              title: `${plural(count(player.tokens, gem), `${gem} token`)}, ${plural(count(player.bonuses, gem), `${gem} card`)}`,
            },
            el("span", { class: `dot gem-${gem}` }, String(count(player.tokens, gem))),
            gem === "gold" ? null : el("span", { class: `bonus gem-${gem}` }, String(count(player.bonuses, gem))),
          ),
        ),
      ),
      el(
        "p",
        { class: `limit${held > limit ? " over" : ""}`, "data-tokens": held },
        `● tokens ${held}/${limit} · ■ cards ${player.cards.length} · nobles ${player.nobles.length}`,
      ),
      reserved.length ? el("div", { class: "reserved" }, reserved) : null,
    );
  });
  document.getElementById("players").replaceChildren(...panels);
}

function drawResult() {
  const m = table.message;
  const node = document.getElementById("result");
  if (!m.over) {
    node.hidden = true;
    return;
  }
  const names = m.result.winners.map((s) => m.seats[s].name);
  const title =
    names.length === 0
      ? `No winner: the game stopped after ${m.version} moves`
      : names.length > 1
        ? `Shared win: ${names.join(" and ")}`
        : `${names[0]} wins`;
  const forfeit = m.result.forfeit;
  node.hidden = false;
  node.replaceChildren(
    el("h2", {}, title),
    ...(forfeit ? [el("p", {}, `${m.seats[forfeit.seat].name} forfeited (${forfeit.reason}): ${forfeit.detail}`)] : []),
    el(
      "ol",
      { class: "scores" },
      m.seats.map((seat, i) =>
        el(
          "li",
          { class: m.result.winners.includes(i) ? "winner" : "" },
          `${seat.name}: ${plural(m.result.points[i], "point")}, ${plural(m.result.cards[i], "card")}`,
        ),
      ),
    ),
    el("a", { href: `/api/tables/${table.id}/record`, download: "", class: "button" }, "Download the record"),
  );
}

// Composing a move from the legal actions -----------------------------------------
//
// table.choice narrows the legal actions step by step: the main move (gems,
// a card and buy or reserve, a deck, or pass), then the tokens given back over
// the limit, the payment, and the noble. Only choices that some legal action
// still allows are offered; when one action is left it is confirmed and sent.

function legalWith(test) {
  return myTurn() && !(table.choice && table.choice.sent) ? table.message.legal.filter(test) : [];
}

function candidates() {
  const c = table.choice;
  if (!c || !c.kind) return [];
  return table.message.legal.filter((a) => {
    if (c.kind === "take") {
      if (a.type !== "take" || !sameTokens(a.gems, c.gems)) return false;
    } else if (c.kind === "reserve_deck") {
      if (a.type !== "reserve_deck" || a.tier !== c.tier) return false;
    } else if (c.kind === "pass") {
      if (a.type !== "pass") return false;
    } else if (a.type !== c.kind || a.card !== c.card) {
      return false;
    }
    if (!covers(a.returned || {}, c.returned)) return false;
    if (c.payment && !sameTokens(a.payment, c.payment)) return false;
    if (c.noble !== undefined && (a.noble || null) !== c.noble) return false;
    return true;
  });
}

function canPickGem(gem) {
  const c = table.choice;
  if (!myTurn() || (c && (c.sent || c.kind))) return false;
  // A gem picked while a card is picked starts a take instead.
  const want = plus((c && c.gems) || {}, gem);
  return table.message.legal.some((a) => a.type === "take" && covers(a.gems, want));
}

function pickGem(gem) {
  const c = table.choice && table.choice.gems ? table.choice : { gems: {}, returned: {} };
  c.gems = plus(c.gems, gem);
  c.kind = null;
  table.choice = c;
  draw();
}

function pickCard(id) {
  table.choice = { card: id, returned: {} };
  draw();
}

function pickDeck(tier) {
  table.choice = { kind: "reserve_deck", tier, returned: {} };
  draw();
}

function choose(kind) {
  table.choice.kind = kind;
  draw();
}

function chooseNoble(id) {
  table.choice.noble = id;
  draw();
}

function nobleChoices() {
  const c = table.choice;
  if (!c || !c.kind || c.noble !== undefined) return new Set();
  const left = candidates();
  const nobles = new Set(left.map((a) => a.noble || null));
  if (nobles.size < 2 || !returnsDone(left)) return new Set();
  if (paymentsOf(left).length > 1) return new Set();
  return nobles;
}

function returnsDone(left) {
  const c = table.choice;
  return left.some((a) => sameTokens(a.returned || {}, c.returned));
}

function paymentsOf(left) {
  const seen = [];
  for (const a of left) {
    if (a.payment && !seen.some((p) => sameTokens(p, a.payment))) seen.push(a.payment);
  }
  return seen;
}

// The tokens the player would hold after the main move, less those chosen to give back.
function projected(c) {
  const m = table.message;
  const held = { ...m.view.own.tokens };
  const gained = c.kind === "take" ? c.gems : count(m.view.bank, "gold") ? { gold: 1 } : {};
  for (const gem of ALL) held[gem] = count(held, gem) + count(gained, gem) - count(c.returned, gem);
  return held;
}

function button(text, act, onclick, extra = {}) {
  return el("button", { type: "button", "data-act": act, onclick, ...extra }, text);
}

function drawComposer() {
  const node = document.getElementById("composer");
  const m = table.message;
  if (!myTurn()) {
    node.hidden = true;
    return;
  }
  node.hidden = false;
  const c = table.choice;
  const cancel = button("Cancel", "cancel", () => {
    table.choice = null;
    draw();
  });
  if (c && c.sent) {
    node.replaceChildren(el("p", {}, "Sending…"));
    return;
  }
  if (!c) {
    const parts = [el("p", { class: "hint" }, "Your turn: pick gems from the supply, a card, or a deck.")];
    if (m.legal.every((a) => a.type === "pass")) {
      parts.push(el("p", {}, "No move is possible: you must pass."));
      parts.push(button("Pass", "pass", () => { table.choice = { kind: "pass", returned: {} }; draw(); }));
    }
    node.replaceChildren(...parts);
    return;
  }
  if (!c.kind) {
    // The main move is not settled: gems being picked, or a card picked.
    const parts = [];
    if (c.gems) {
      parts.push(el("p", {}, `Taking ${tokensText(c.gems)}.`));
      if (m.legal.some((a) => a.type === "take" && sameTokens(a.gems, c.gems))) {
        parts.push(button("Take these", "take", () => choose("take"), { class: "primary" }));
      } else {
        parts.push(el("p", { class: "hint" }, "Pick more gems."));
      }
    } else if (c.card) {
      parts.push(cardNode(c.card, { cls: "small" }));
      if (m.legal.some((a) => a.type === "buy" && a.card === c.card)) {
        parts.push(button("Buy", "buy", () => choose("buy"), { class: "primary" }));
      }
      if (m.legal.some((a) => a.type === "reserve" && a.card === c.card)) {
        parts.push(button("Reserve", "reserve", () => choose("reserve")));
      }
    }
    parts.push(cancel);
    node.replaceChildren(...parts);
    return;
  }
  const left = candidates();
  const parts = [];
  if (!returnsDone(left)) {
    const need = total(left[0].returned) - total(c.returned);
    parts.push(
      el("p", {}, `Over the token limit: give back ${need} more token${need > 1 ? "s" : ""}.`),
      el(
        "div",
        { class: "choices" },
        ALL.filter((gem) => left.some((a) => covers(a.returned || {}, plus(c.returned, gem)))).map(
          (gem) =>
            el(
              "button",
              {
                type: "button",
                class: `token small gem-${gem} playable`,
                "data-return": gem,
                title: `give back a ${gem} token`,
                onclick: () => {
                  c.returned = plus(c.returned, gem);
                  draw();
                },
              },
              LETTER[gem],
            ),
        ),
      ),
    );
    parts.push(el("p", { class: "hint" }, `You would hold ${tokensText(projected(c))}.`));
  } else if (!c.payment && paymentsOf(left).length > 1) {
    parts.push(
      el("p", {}, "How do you pay?"),
      el(
        "div",
        { class: "choices" },
        paymentsOf(left).map((p) =>
          button(tokensText(p), "pay", () => { c.payment = p; draw(); }, {
            "data-pay": ALL.map((g) => count(p, g)).join(","),
          }),
        ),
      ),
    );
  } else if (nobleChoices().size > 1) {
    parts.push(
      el("p", {}, "Two nobles would visit you: choose one."),
      el(
        "div",
        { class: "choices" },
        [...nobleChoices()].map((id) =>
          button(id === null ? "none" : `Noble ${id}`, "noble", () => chooseNoble(id), {
            "data-noble-choice": id,
          }),
        ),
      ),
    );
  } else {
    const action = left[0];
    parts.push(
      el("p", { class: "confirm-text" }, `${describe(action)}.`),
      button("Confirm", "confirm", () => send(action), { class: "primary" }),
    );
  }
  parts.push(cancel);
  node.replaceChildren(...parts);
}

// The lobby -------------------------------------------------------------------------

// engines: the names of the bot engines the server's operator offers (GET /api/bots);
// levels: the levels of play, weakest first, each {bot, number, name, about} (the same).
function seatRow(number, engines, levels) {
  const defaults = ["person", "bot:greedy", "none", "none"];
  return el(
    "div",
    { class: "seat-row" },
    el("span", { class: "seat-number" }, `Seat ${number + 1}`),
    el(
      "select",
      { name: `kind${number}`, "aria-label": `seat ${number + 1}` },
      [
        ["person", "Person"],
        ["bot:greedy", "Greedy bot"],
        ["bot:random", "Random bot"],
        ...levels.map((level) => [`bot:${level.bot}`, `Level ${level.number}: ${level.name}`]),
        ...engines.map((name) => [`bot:${name}`, `${name} (engine)`]),
        ...(number >= 2 ? [["none", "Empty"]] : []),
      ].map(([value, label]) => el("option", { value, selected: value === defaults[number] }, label)),
    ),
    el("input", { name: `name${number}`, placeholder: "name", maxlength: 24, "aria-label": `name of seat ${number + 1}` }),
  );
}

async function createTable(event) {
  event.preventDefault();
  const form = event.target;
  const seats = [];
  for (let i = 0; i < 4; i++) {
    const kind = form[`kind${i}`].value;
    if (kind === "none") continue;
    const seat = kind === "person" ? { kind: "person" } : { kind: "bot", bot: kind.slice(4) };
    if (form[`name${i}`].value.trim()) seat.name = form[`name${i}`].value;
    seats.push(seat);
  }
  const rules = {};
  for (const key of ["points_to_win", "token_limit", "reserve_limit"]) {
    rules[key] = Number(form[key].value);
  }
  if (form.no_gold.checked) rules.gold_by_players = [0, 0, 5];
  const request = { seats, rules };
  // "/?seed=N" asks for a chosen deal: only servers started for tests or demos allow it.
  const seed = new URLSearchParams(location.search).get("seed");
  if (seed) request.seed = Number(seed);
  const response = await fetch("/api/tables", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(request),
  });
  const body = await response.json();
  const error = document.getElementById("create-error");
  if (!response.ok) {
    error.textContent = body.message;
    error.hidden = false;
    return;
  }
  error.hidden = true;
  const list = document.getElementById("link-list");
  // Each person's link opens in a new tab (this page keeps the others' links); "Take this
  // seat" plays it here, in this tab, for the person who opened the table.
  list.replaceChildren(
    ...body.seats.map((seat) =>
      el(
        "li",
        {},
        el("strong", {}, seat.name),
        seat.link
          ? [
              el("a", { href: seat.link, "data-seat-link": seat.seat, target: "_blank", rel: "noopener" }, seat.link),
              el("a", { href: seat.link, "data-take-seat": seat.seat, class: "button take-seat" }, "Take this seat"),
            ]
          : el("span", { class: "hint" }, " plays on the server"),
      ),
    ),
    el(
      "li",
      {},
      el("strong", {}, "Spectators"),
      el("a", { href: body.spectator, "data-spectator-link": "", target: "_blank", rel: "noopener" }, body.spectator),
    ),
  );
  document.getElementById("links").hidden = false;
}

async function start() {
  const response = await fetch("/api/components");
  const components = await response.json();
  CARDS = components.cards;
  NOBLES = components.nobles;
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)$/);
  if (match) {
    table.id = match[1];
    table.secret = location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : null;
    document.title = `Splendor · ${table.secret ? "playing" : "watching"}`;
    status("Connecting…");
    connect();
  } else {
    document.getElementById("lobby").hidden = false;
    const rows = document.getElementById("seat-rows");
    const offered = await fetch("/api/bots");
    const bots = offered.ok ? await offered.json() : { engines: [], levels: [] };
    for (let i = 0; i < 4; i++) rows.append(seatRow(i, bots.engines, bots.levels));
    document.getElementById("create").addEventListener("submit", createTable);
  }
}

start();
