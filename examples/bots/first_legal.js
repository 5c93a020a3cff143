#!/usr/bin/env node
// A Hand and Foot bot for Node.js speaking the handfoot bot protocol (docs/bot-protocol.md), version 1.
// No dependencies: only Node's own readline module. Run it as a seat of a tournament:
//
//     handfoot simulate --seats 'cmd:node examples/bots/first_legal.js',heuristic --games 10
//
// or at a live table: handfoot bot connect SEAT-LINK --cmd 'node examples/bots/first_legal.js'
//
// It answers only with moves it was offered, so its play is always legal: yes to "May I go out?",
// the pile when it may take it (else a draw), any meld offered (the longest first), then the discard
// of the card it holds fewest of, never a wild card while it has another. Standard output carries
// the protocol, one JSON line per message; anything for people goes to standard error.
"use strict";

const readline = require("readline");

const WILDS = new Set(["JK", "2"]);

function log(...parts) {
  process.stderr.write(`first_legal.js: ${parts.join(" ")}\n`);
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

// The kind of a card code: JK, 2, A, K, ... with black and red 3s apart.
function kindOf(card) {
  if (card === "JK") return "JK";
  if (card[0] === "3") return "HD".includes(card[1]) ? "3R" : "3B";
  return card[0];
}

// An offer's answer: its id, or its text for a move without an id.
function answer(offer) {
  return offer.id === null ? offer.text : offer.id;
}

function longest(offers) {
  return offers.reduce((best, o) => (o.text.length > best.text.length ? o : best));
}

function choose(decision) {
  const legal = decision.legal;
  for (const wanted of ["yes", "keep"]) {
    const found = legal.find((o) => o.text === wanted);
    if (found) return answer(found);
  }
  const pickups = legal.filter((o) => o.text.startsWith("pickup"));
  if (pickups.length) return answer(longest(pickups));
  const draw = legal.find((o) => o.text === "draw");
  if (draw) return answer(draw);
  const melds = legal.filter((o) => o.text.startsWith("meld") || o.text.startsWith("lay"));
  if (melds.length) return answer(longest(melds));
  const discards = legal.filter((o) => o.text.startsWith("discard"));
  if (discards.length) {
    const counts = {};
    for (const card of decision.view.hand) counts[kindOf(card)] = (counts[kindOf(card)] || 0) + 1;
    const cost = (o) => {
      const kind = kindOf(o.text.split(" ")[1]);
      return (WILDS.has(kind) ? 100 : 0) + (counts[kind] || 0);
    };
    return answer(discards.reduce((best, o) => (cost(o) < cost(best) ? o : best)));
  }
  return answer(legal[0]);
}

let seat = null;
const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      seat = message.seat;
      if (message.protocol !== 1) log("this bot speaks protocol 1, not", message.protocol);
      send({ type: "hello", protocol: 1, name: "first-legal-js", author: "handfoot examples", version: "1.0" });
      break;
    case "decision":
      send({ type: "move", decision: message.decision, move: choose(message) });
      break;
    case "hand_end":
      log(`seat ${seat}: hand ${message.hand_index} scores ${JSON.stringify(message.scores)}`);
      break;
    case "game_end":
      log(`seat ${seat}: game over, totals ${JSON.stringify(message.totals)}`);
      break;
    default:
      break; // a type from a later version of the protocol: ignored
  }
});
