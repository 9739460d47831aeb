// The page of regex-chess: shows the screens the regex turn program
// produces and hands it the person's lines.
//
// The game is the text in <pre id="screen">, exactly as the terminal shows
// it with --ascii. A move appends the person's line and a newline to it and
// a worker runs a turn program once over the result, as the README's
// Python loop does; what comes back is the next screen. The engine thinks
// as the terminal's does (chess::deepen): the turn programs of the ladder's
// depths in turn on the same text, the deeper ones only while the level's
// time allows (and given up at its limit), each once its program has
// loaded, and the screen of the deepest pass that finished is the next one.
// The board, the message, the moves for the PGN file and the link are read
// off that text.
// Nothing here decides whether a move is legal or which move the engine
// plays: the only list of legal moves is the one the regex move program
// computes (used to read SAN and to mark where a piece can go).
import { screen as SCREEN } from "./screen.js";
import { loadInBackground, runPass, stopAll, waitForProgram } from "./workers.js";

const FILES = "abcdefgh";
const ENGINE = SCREEN.engine;
const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------------------
// The workers (workers.js) run the passes; the page asks for the level's
// programs while the person thinks.

/** The turn programs of the chosen level load in the background, shallowest first. */
function loadLevel() {
  loadInBackground(level().rungs.map((d) => `turn${d}`));
}

// ---------------------------------------------------------------------------
// Reading a screen. Only what a person reads on it: the board rows, who is
// to move, the last line, the line above it. Other lines may change wording.

const ROW = /^([1-8]) ([.PNBRQKpnbrqk](?: [.PNBRQKpnbrqk]){7}) \1$/;
const STATUS = /^(White|Black) to move\b/;
/** The line of positions the program keeps for repetition (not shown). */
const HISTORY = "Positions:";

/** The pieces by square (`{e1: "K", ...}`), or null if there is no board. */
function readBoard(text) {
  const board = {};
  let rows = 0;
  for (const line of text.split("\n")) {
    const m = ROW.exec(line);
    if (!m) continue;
    rows += 1;
    m[2].split(" ").forEach((c, f) => {
      if (c !== ".") board[FILES[f] + m[1]] = c;
    });
  }
  return rows === 8 ? board : null;
}

/** "w" or "b", or null. */
function readSide(text) {
  for (const line of text.split("\n")) {
    const m = STATUS.exec(line);
    if (m) return m[1] === "White" ? "w" : "b";
  }
  return null;
}

const lastLine = (text) => text.slice(text.lastIndexOf("\n") + 1);
const isOver = (text) => lastLine(text).startsWith(SCREEN.gameOver);
const awaitsMove = (text) => lastLine(text) === SCREEN.prompt;

/** The line above the last one: the program's message. */
function readMessage(text) {
  const lines = text.split("\n").filter((l) => !l.startsWith(HISTORY));
  return lines.length >= 2 ? lines[lines.length - 2] : "";
}

/** The board rows and the status line: what a refused line leaves alone. */
function positionOf(text) {
  return text
    .split("\n")
    .filter((l) => ROW.test(l) || STATUS.test(l))
    .join("\n");
}

const COORDINATES = /^[a-h][1-8][a-h][1-8][qrbn]?$/;

/**
 * The moves a screen reports, in order: [{who, uci, san}], from "You
 * played e2e4" or "The engine played b8c6 (Nc6)" (either word may be the
 * coordinates, the other in brackets the SAN).
 */
function readPlayed(text) {
  const out = [];
  const re = /(You|The engine) played ([^\s,]+?)(?: \(([^)\s]+)\))?[.,]?(?=\s|$)/g;
  for (const line of text.split("\n")) {
    if (ROW.test(line)) continue;
    for (const m of line.matchAll(re)) {
      const who = m[1] === "You" ? "person" : "engine";
      if (COORDINATES.test(m[2])) out.push({ who, uci: m[2], san: m[3] || null });
      else if (m[3] && COORDINATES.test(m[3])) out.push({ who, uci: m[3], san: m[2] });
    }
  }
  return out;
}

/** Whether the engine moved between the screens `before` and `after`. */
function engineMoved(before, after) {
  if (positionOf(before) === positionOf(after)) return false;
  return readPlayed(after).some((p) => p.who === "engine");
}

/** The legal moves (coordinates) of the position on a screen, from the regex move program. */
async function legalMovesOf(text) {
  if (!awaitsMove(text)) return [];
  const result = await runPass("moves", text);
  const re = new RegExp(`#${SCREEN.moveVar}:([a-h][1-8][a-h][1-8][qrbn]?)\\n`, "g");
  return [...result.state.matchAll(re)].map((m) => m[1]);
}

// ---------------------------------------------------------------------------
// Moves as SAN, written from the board and the program's legal moves.

const fileIndex = (sq) => FILES.indexOf(sq[0]);

/** The SAN of legal move `uci` (no check sign), or null. */
function sanOf(uci, board, legal) {
  const from = uci.slice(0, 2);
  const to = uci.slice(2, 4);
  const promotion = uci[4];
  const piece = board[from];
  if (!piece) return null;
  const role = piece.toUpperCase();
  if (role === "K" && Math.abs(fileIndex(from) - fileIndex(to)) === 2) {
    return fileIndex(to) > fileIndex(from) ? "O-O" : "O-O-O";
  }
  const capture = Boolean(board[to]) || (role === "P" && from[0] !== to[0]);
  if (role === "P") {
    return (capture ? `${from[0]}x` : "") + to + (promotion ? `=${promotion.toUpperCase()}` : "");
  }
  const rivals = legal
    .filter((u) => u.slice(2, 4) === to && u.slice(0, 2) !== from && board[u.slice(0, 2)] === piece)
    .map((u) => u.slice(0, 2));
  let which = "";
  if (rivals.length > 0) {
    if (!rivals.some((s) => s[0] === from[0])) which = from[0];
    else if (!rivals.some((s) => s[1] === from[1])) which = from[1];
    else which = from;
  }
  return role + which + (capture ? "x" : "") + to;
}

/**
 * The line to send, as the terminal sends it: coordinates stay, a SAN line
 * naming one of the program's legal moves becomes its coordinates, anything
 * else is sent as typed for the program to answer.
 */
function normalize(line, board, legal) {
  const t = line.trim();
  if (/^[a-z][0-9][a-z][0-9][a-z]?$/.test(t)) return line;
  if (!board) return line;
  const wanted = t.replace(/[+#!?]+$/, "").replace(/0/g, "O");
  for (const uci of legal) {
    const san = sanOf(uci, board, legal);
    if (san && (san === wanted || san.replace("=", "") === wanted)) return uci;
  }
  return line;
}

// ---------------------------------------------------------------------------
// Start screens. The standard position's come from the program
// (screen.js); another FEN is written into that template the way the
// terminal writes its start screen for --fen.

function fenError(message) {
  return new Error(`bad FEN: ${message}`);
}

/** The start screen for `fen` with the engine playing `engine`. */
function startScreen(fen, engine) {
  const template = SCREEN.standardStart[engine];
  if (fen === SCREEN.startFen) return template;
  const fields = fen.trim().split(/\s+/);
  if (fields.length === 4) fields.push("0", "1");
  if (fields.length !== 6) throw fenError("expected 6 fields (or 4, without the clocks)");
  const [placement, side, castling, ep, half, full] = fields;
  const ranks = placement.split("/");
  if (ranks.length !== 8) throw fenError("expected 8 ranks");
  const board = {};
  const rows = ranks.map((text, i) => {
    const rank = 8 - i;
    const cells = [];
    for (const c of text) {
      if (/[1-8]/.test(c)) cells.push(...".".repeat(Number(c)));
      else if (/[PNBRQKpnbrqk]/.test(c)) {
        board[FILES[cells.length] + rank] = c;
        cells.push(c);
      } else throw fenError(`unexpected ${JSON.stringify(c)} in rank ${rank}`);
    }
    if (cells.length !== 8) throw fenError(`rank ${rank} has ${cells.length} squares`);
    return `${rank} ${cells.join(" ")} ${rank}`;
  });
  const pieces = Object.entries(board);
  for (const k of ["K", "k"]) {
    if (pieces.filter(([, p]) => p === k).length !== 1) throw fenError("each side needs one king");
  }
  if (pieces.some(([sq, p]) => /[Pp]/.test(p) && /[18]/.test(sq[1]))) {
    throw fenError("a pawn on the first or last rank");
  }
  if (side !== "w" && side !== "b") throw fenError("the side to move is w or b");
  if (!/^(-|K?Q?k?q?)$/.test(castling) || castling === "") throw fenError("castling is - or KQkq");
  const homes = { K: ["e1", "K", "h1", "R"], Q: ["e1", "K", "a1", "R"], k: ["e8", "k", "h8", "r"], q: ["e8", "k", "a8", "r"] };
  for (const right of castling.replace("-", "")) {
    const [ks, king, rs, rook] = homes[right];
    if (board[ks] !== king || board[rs] !== rook) throw fenError(`castling right ${right} without king and rook at home`);
  }
  if (ep !== "-") {
    const rank = side === "w" ? "6" : "3";
    const pawnRank = side === "w" ? "5" : "4";
    const fromRank = side === "w" ? "7" : "2";
    const pawn = side === "w" ? "p" : "P";
    if (!/^[a-h][36]$/.test(ep) || ep[1] !== rank || board[ep] || board[ep[0] + fromRank] || board[ep[0] + pawnRank] !== pawn) {
      throw fenError(`no double pawn step to ${ep}`);
    }
  }
  if (!/^\d+$/.test(half) || !/^\d+$/.test(full)) throw fenError("the clocks are numbers");
  const lines = template.split("\n");
  // The line of positions the program counts repetitions on starts with
  // this one's key, written as the program writes it: the side, then the
  // squares from a8 to h1, a rook that may castle as T/t, the en passant
  // square as "," only when a pawn of the side to move can take there.
  const history = lines.findIndex((l) => l.startsWith(HISTORY));
  if (history >= 0) {
    const rooks = { h1: ["R", "K", "T"], a1: ["R", "Q", "T"], h8: ["r", "k", "t"], a8: ["r", "q", "t"] };
    let key = side;
    for (let rank = 8; rank >= 1; rank--) {
      for (const file of FILES) {
        const sq = file + rank;
        let c = board[sq] || ".";
        const rook = rooks[sq];
        if (rook && c === rook[0] && castling.includes(rook[1])) c = rook[2];
        if (sq === ep) {
          const mine = side === "w" ? "P" : "p";
          const beside = [FILES[FILES.indexOf(file) - 1], FILES[FILES.indexOf(file) + 1]];
          const pawnRank = side === "w" ? "5" : "4";
          if (beside.some((f) => f && board[f + pawnRank] === mine)) c = ",";
        }
        key += c;
      }
    }
    lines[history] = `${HISTORY} ${key}`;
  }
  const first = lines.findIndex((l) => l.startsWith("8 "));
  const status = lines.findIndex((l) => STATUS.test(l));
  if (first < 0 || status < 0) throw new Error("the start screen template has no board");
  rows.forEach((row, i) => {
    lines[first + i] = row;
  });
  lines[status] = lines[status]
    .replace(STATUS, side === "w" ? "White to move" : "Black to move")
    .replace(/Castling: [^.]*\./, `Castling: ${castling}.`)
    .replace(/En passant: [^.]*\./, `En passant: ${ep}.`)
    .replace(/Halfmove clock: \d+\./, `Halfmove clock: ${Number(half)}.`)
    .replace(/Move: \d+\./, `Move: ${Math.max(1, Number(full))}.`);
  return lines.join("\n");
}

// ---------------------------------------------------------------------------
// The game

const game = {
  startFen: SCREEN.startFen,
  engine: "black", // "white", "black" or "none"
  screen: "",
  // The last screen that ended a move, a new game or an undo, not a
  // refused line: what the next move's undo goes back to, so that an
  // error from before the undone move is not shown again.
  settled: "",
  legal: [],
  plies: [], // [{uci, san}] of every move played, in order
  sent: [], // the person's moves as the program echoed them (for the link)
  undo: [], // snapshots before each of the person's moves
  orientation: "w",
  busy: false,
  passes: 0,
};

const GLYPHS = { K: "\u265A", Q: "\u265B", R: "\u265C", B: "\u265D", N: "\u265E", P: "\u265F" };

function setStatus(status) {
  document.body.dataset.status = status;
  if (status === "thinking") $("turn").textContent = "The regex machine is running…";
}

function showMessage(text) {
  $("message").textContent = text;
}

function personSide() {
  if (game.engine === "white") return "b";
  return "w";
}

// ---------------------------------------------------------------------------
// Levels and thinking, as chess::deepen climbs: the first rung always runs
// to its end; a deeper one only after the engine moved in the last, and,
// with a time budget, only if it is expected to fit (its time: the last
// rung's times its growth) and given up at the budget's limit.

/** The level in use, 1 to ENGINE.levels.length. */
function level() {
  return ENGINE.levels[Number($("level").value) - 1];
}

/** Whether a rung expected to take `expected` ms may start `elapsed` ms in (chess::clock). */
function worthStarting(budget, elapsed, expected) {
  if (!budget.banked) return elapsed < budget.limitMs;
  const end = elapsed + expected;
  return end <= budget.targetMs * ENGINE.stretchStart && end <= budget.limitMs;
}

/**
 * The hint of a deeper rung: the move the rung below played (null for
 * the first rung), given as a line before the screen ("Probe:e7e5",
 * chess::search::hint), as chess::play_turn_within gives it; the same
 * answer, sooner.
 */
function hintFrom(below) {
  const played = below && readPlayed(below.state).find((p) => p.who === "engine");
  return played ? played.uci : null;
}

/** Set by "Move now": take the deepest finished pass. */
let moveNow = false;
/**
 * Runs the turn programs of the level's rungs over `text`, as
 * chess::search::deepen climbs; the deepest pass that finished, with its
 * depth and the time of all of them. A deeper rung waits for its program
 * while the level's time lasts (a page just opened has loaded only the
 * first); when it is in, the rung starts if it is still worth starting.
 * How the climb went is left in `document.body.dataset.climb` (the
 * level's limit, each finished rung's depth, time and end, and why no
 * deeper rung answered), for the stats line and the page's test.
 */
async function think(text) {
  const { rungs, budget } = level();
  const start = Date.now();
  const limit = budget ? start + budget.limitMs : null;
  moveNow = false;
  let best = null;
  const climb = { limitMs: budget ? budget.limitMs : null, rungs: [], ended: { reason: "top" } };
  const end = (reason, depth, more = {}) => {
    climb.ended = { reason, depth, at: Date.now() - start, ...more };
  };
  const ticker = setInterval(() => showThinking(best, start), 200);
  try {
    for (const [i, depth] of rungs.entries()) {
      const program = `turn${depth}`;
      if (best) {
        if (moveNow) {
          end("moveNow", depth);
          break;
        }
        if (!engineMoved(text, best.state)) {
          end("settled", depth);
          break;
        }
        const expected = best.ms * ENGINE.growth[depth];
        if (!(await waitForProgram(program, limit))) {
          end(moveNow ? "moveNow" : "notLoaded", depth);
          break;
        }
        if (budget && !worthStarting(budget, Date.now() - start, expected)) {
          end("notStarted", depth, { expected: Math.round(expected) });
          break;
        }
      }
      const hint = hintFrom(best);
      // The last hint given, for the page's test (empty: none).
      document.body.dataset.hint = hint || "";
      const input = hint ? `Probe:${hint}\n${text}` : text;
      // The first rung always runs to its end: there is always an answer.
      const result = await runPass(program, input, i > 0 ? limit : null);
      if (result.stopped) {
        end(moveNow ? "moveNow" : "stopped", depth, { at: result.stoppedAt - start });
        break;
      }
      best = { ...result, depth };
      climb.rungs.push({ depth, ms: Math.round(result.ms), at: Date.now() - start });
      showThinking(best, start);
    }
  } finally {
    clearInterval(ticker);
    $("move-now").hidden = true;
  }
  if (!best) throw new Error("stopped before a search finished");
  best.total = Date.now() - start;
  best.climb = climb;
  document.body.dataset.climb = JSON.stringify(climb);
  return best;
}

function showThinking(best, start) {
  const seconds = ((Date.now() - start) / 1000).toFixed(1);
  $("turn").textContent = best
    ? `Thinking… depth ${best.depth} done, ${seconds} s`
    : `Thinking… ${seconds} s`;
  $("move-now").hidden = !best;
}

/** Runs the engine's turn over `text` and shows what comes back. */
async function turn(text) {
  const result = await think(text);
  game.passes += 1;
  document.body.dataset.passes = String(game.passes);
  game.screen = result.state;
  game.legal = await legalMovesOf(game.screen);
  return result;
}

/** Why a climb answered from the rung it did, or "" when the level's top rung answered. */
function climbNote(climb) {
  const { reason, depth } = climb.ended;
  const limit = climb.limitMs === null ? "" : ` at the ${(climb.limitMs / 1000).toFixed(1)} s limit`;
  if (reason === "stopped") return ` Depth ${depth} was given up${limit}.`;
  if (reason === "notStarted") return ` Depth ${depth} would not have ended in time.`;
  if (reason === "notLoaded") return ` Depth ${depth} was still loading${limit}.`;
  if (reason === "moveNow") return " Moved when asked.";
  return "";
}

/** The time and the rewrites of a turn; `replied`: the engine moved in it. */
function showStats(result, replied) {
  $("stats").textContent =
    `${replied ? `Engine reply (depth ${result.depth})` : "Turn"}: ${Math.round(result.total)} ms, ` +
    `${result.applied} rewrites ran (${result.changed} changed the text).` +
    (replied ? climbNote(result.climb) : "");
}

/**
 * Notes the moves a new screen reports (`board` and `legal`: the position
 * before); null when the position did not change, else whether the engine moved.
 */
function notePlies(before, after, board, legal) {
  if (before !== null && positionOf(before) === positionOf(after)) return null;
  const played = readPlayed(after);
  for (const p of played) {
    let san = p.san;
    if (!san && p.who === "person" && board) san = sanOf(p.uci, board, legal);
    game.plies.push({ uci: p.uci, san: san || p.uci });
    if (p.who === "person") game.sent.push(p.uci);
  }
  if (isOver(after) && /Checkmate/.test(after) && game.plies.length > 0) {
    const last = game.plies[game.plies.length - 1];
    if (!last.san.endsWith("#")) last.san = last.san.replace(/\+$/, "") + "#";
  }
  return played.some((p) => p.who === "engine");
}

async function newGame(fen, engine) {
  game.busy = true;
  setStatus("thinking");
  game.engine = engine;
  game.startFen = fen;
  game.plies = [];
  game.sent = [];
  game.undo = [];
  game.orientation = personSide();
  selected = null;
  $("engine").value = engine;
  try {
    // As the terminal: the standard game against a black engine starts from
    // the empty text, which the program boots; any other from its screen.
    const start = fen === SCREEN.startFen && engine === "black" ? "" : startScreen(fen, engine);
    const result = await turn(start);
    game.settled = game.screen;
    showStats(result, notePlies(null, game.screen, null, []));
    showMessage(readMessage(game.screen));
  } catch (error) {
    game.screen = "";
    game.settled = "";
    showMessage(String(error.message || error));
  }
  game.busy = false;
  draw();
  setStatus("ready");
}

/** Sends one line, as typed or from the board. Returns whether a move was played. */
async function play(line) {
  if (game.busy) return false;
  const t = line.trim();
  if (t === "help") {
    showMessage(SCREEN.help);
    return false;
  }
  if (t === "quit") {
    showMessage("Nothing to quit here: New game starts again.");
    return false;
  }
  if (!awaitsMove(game.screen)) {
    showMessage("The game is over. New game starts another.");
    return false;
  }
  game.busy = true;
  setStatus("thinking");
  const before = game.screen;
  const board = readBoard(before);
  const legal = game.legal;
  const snapshot = { screen: game.settled, legal, plies: game.plies.length, sent: game.sent.length };
  let played = false;
  try {
    const result = await turn(before + normalize(line, board, legal) + "\n");
    const replied = notePlies(before, game.screen, board, legal);
    played = replied !== null;
    showStats(result, replied === true);
    if (played) {
      game.undo.push(snapshot);
      game.settled = game.screen;
    }
    showMessage(readMessage(game.screen));
  } catch (error) {
    game.screen = before;
    game.legal = legal;
    showMessage(`The regex machine stopped: ${error.message || error}`);
  }
  selected = null;
  game.busy = false;
  draw();
  setStatus("ready");
  return played;
}

function undo() {
  if (game.busy) return;
  const snapshot = game.undo.pop();
  if (!snapshot) return;
  game.screen = snapshot.screen;
  game.settled = snapshot.screen;
  game.legal = snapshot.legal;
  game.plies.length = snapshot.plies;
  game.sent.length = snapshot.sent;
  selected = null;
  showMessage("");
  draw();
}

// ---------------------------------------------------------------------------
// PGN and the link

function pgnDate() {
  const d = new Date();
  const two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}.${two(d.getMonth() + 1)}.${two(d.getDate())}`;
}

function result() {
  if (!isOver(game.screen)) return "*";
  const text = game.screen;
  const winner = (side) => (side === "w" ? "1-0" : "0-1");
  if (/white wins/i.test(text)) return "1-0";
  if (/black wins/i.test(text)) return "0-1";
  if (/you win/i.test(text)) return winner(personSide());
  if (/engine wins/i.test(text)) return winner(personSide() === "w" ? "b" : "w");
  if (/draw/i.test(text)) return "1/2-1/2";
  return "*";
}

function pgn() {
  const name = (side) => {
    if (game.engine === "none") return side === "w" ? "Player 1" : "Player 2";
    return (game.engine === "white") === (side === "w") ? "regex-chess" : "You";
  };
  const res = result();
  const tags = [
    ["Event", "regex-chess game"],
    ["Site", "browser"],
    ["Date", pgnDate()],
    ["Round", "-"],
    ["White", name("w")],
    ["Black", name("b")],
    ["Result", res],
  ];
  if (game.startFen !== SCREEN.startFen) tags.push(["SetUp", "1"], ["FEN", game.startFen]);
  const fields = game.startFen.split(/\s+/);
  let number = Math.max(1, Number(fields[5]) || 1);
  let white = fields[1] !== "b";
  const moves = [];
  game.plies.forEach((p, i) => {
    if (white) moves.push(`${number}.`);
    else if (i === 0) moves.push(`${number}...`);
    moves.push(p.san);
    if (!white) number += 1;
    white = !white;
  });
  moves.push(res);
  const head = tags.map(([k, v]) => `[${k} "${v}"]`).join("\n");
  return `${head}\n\n${moves.join(" ")}\n`;
}

let pgnUrl = null;

function shareUrl() {
  const params = [];
  if (game.startFen !== SCREEN.startFen) params.push(`fen=${encodeURIComponent(game.startFen)}`);
  if (game.engine !== "black") params.push(`engine=${game.engine}`);
  if (Number($("level").value) !== ENGINE.defaultLevel) params.push(`level=${$("level").value}`);
  if (game.sent.length > 0) params.push(`moves=${game.sent.join(",")}`);
  return `${location.pathname}${params.length > 0 ? `?${params.join("&")}` : ""}`;
}

// ---------------------------------------------------------------------------
// Drawing

let selected = null;

function lastMoveSquares() {
  const last = game.plies[game.plies.length - 1];
  return last ? [last.uci.slice(0, 2), last.uci.slice(2, 4)] : [];
}

function draw() {
  // As the terminal shows it: without the line of positions.
  $("screen").textContent = game.screen
    .split("\n")
    .filter((l) => !l.startsWith(HISTORY))
    .join("\n");
  const board = readBoard(game.screen) || {};
  const side = readSide(game.screen);
  const over = isOver(game.screen);
  const files = game.orientation === "w" ? [...FILES] : [...FILES].reverse();
  const ranks = game.orientation === "w" ? [8, 7, 6, 5, 4, 3, 2, 1] : [1, 2, 3, 4, 5, 6, 7, 8];
  const targets = new Set(
    selected ? game.legal.filter((u) => u.startsWith(selected)).map((u) => u.slice(2, 4)) : [],
  );
  const last = new Set(lastMoveSquares());
  const squares = [];
  ranks.forEach((rank, r) => {
    files.forEach((file, f) => {
      const name = file + rank;
      const sq = document.createElement("div");
      sq.className = `square ${(FILES.indexOf(file) + rank) % 2 === 0 ? "light" : "dark"}`;
      sq.dataset.square = name;
      if (name === selected) sq.classList.add("selected");
      if (targets.has(name)) sq.classList.add("target");
      if (last.has(name)) sq.classList.add("last");
      if (f === 0) sq.append(label("rank", String(rank)));
      if (r === 7) sq.append(label("file", file));
      const piece = board[name];
      if (piece) {
        const white = piece === piece.toUpperCase();
        const span = document.createElement("span");
        span.className = `piece ${white ? "white" : "black"}`;
        span.dataset.piece = piece;
        span.textContent = `${GLYPHS[piece.toUpperCase()]}\uFE0E`;
        if (!over && side === (white ? "w" : "b") && movable(side)) span.classList.add("movable");
        sq.append(span);
      }
      squares.push(sq);
    });
  });
  $("board").replaceChildren(...squares);
  // While the engine thinks, the line says so (showThinking).
  if (!game.busy) {
    $("turn").textContent = over
      ? "Game over."
      : side
        ? `${side === "w" ? "White" : "Black"} to move${movable(side) ? " (you)" : ""}.`
        : "";
  }
  $("undo").disabled = game.undo.length === 0;
  if (pgnUrl) URL.revokeObjectURL(pgnUrl);
  pgnUrl = URL.createObjectURL(new Blob([pgn()], { type: "application/x-chess-pgn" }));
  $("pgn").href = pgnUrl;
  const url = shareUrl();
  $("share").href = url;
  history.replaceState(null, "", url);
}

function label(kind, text) {
  const span = document.createElement("span");
  span.className = `coord ${kind}`;
  span.textContent = text;
  return span;
}

/** Whether the person moves for `side` now. */
function movable(side) {
  return awaitsMove(game.screen) && (game.engine === "none" || side === personSide());
}

// ---------------------------------------------------------------------------
// Input: clicks, drags, the promotion chooser, the text field

function choosePromotion(color) {
  const box = $("promotion");
  box.hidden = false;
  for (const button of box.querySelectorAll("button")) {
    const role = button.dataset.role;
    button.textContent = `${GLYPHS[role.toUpperCase()]}\uFE0E`;
    button.className = `piece ${color === "w" ? "white" : "black"}`;
  }
  return new Promise((resolve) => {
    const close = (role) => {
      box.hidden = true;
      cancelPromotion = null;
      resolve(role);
    };
    cancelPromotion = () => close(null);
    box.onclick = (event) => {
      const button = event.target.closest("button");
      if (button) close(button.dataset.role);
    };
  });
}

/** Closes an open promotion chooser without a move (a click on the board). */
let cancelPromotion = null;

async function tryMove(from, to) {
  const board = readBoard(game.screen) || {};
  const piece = board[from];
  let line = from + to;
  const lastRank = piece === "P" ? "8" : piece === "p" ? "1" : null;
  const promoting = game.legal.some((u) => u.startsWith(line) && u.length === 5) ||
    (game.legal.length === 0 && lastRank && to[1] === lastRank);
  if (promoting) {
    const role = await choosePromotion(piece === "P" ? "w" : "b");
    if (!role) {
      selected = null;
      draw();
      return;
    }
    line += role;
  }
  selected = null;
  await play(line);
}

function onSquare(name) {
  if (game.busy) return;
  if (cancelPromotion) {
    cancelPromotion();
    return;
  }
  const board = readBoard(game.screen) || {};
  const side = readSide(game.screen);
  const piece = board[name];
  const own = piece && movable(side) && (piece === piece.toUpperCase()) === (side === "w");
  if (selected && name !== selected && !own) {
    tryMove(selected, name);
    return;
  }
  selected = own && name !== selected ? name : null;
  draw();
}

// Dragging with pointer events (mouse, pen and touch alike): the piece
// follows the pointer and the move is the square it is let go over. A
// press without movement is left to the click handler.
let dragged = false;

function setUpDragging() {
  let drag = null;
  const board = $("board");
  board.addEventListener("pointerdown", (event) => {
    dragged = false;
    const piece = event.target.closest(".piece.movable");
    if (!piece || game.busy || event.button !== 0) return;
    drag = { from: piece.closest(".square").dataset.square, piece, x: event.clientX, y: event.clientY, moving: false };
  });
  window.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moving && Math.hypot(dx, dy) < 5) return;
    drag.moving = true;
    drag.piece.classList.add("dragging");
    drag.piece.style.transform = `translate(${dx}px, ${dy}px)`;
  });
  window.addEventListener("pointerup", (event) => {
    if (!drag) return;
    const { from, piece, moving } = drag;
    drag = null;
    if (!moving) return;
    dragged = true;
    piece.classList.remove("dragging");
    piece.style.transform = "";
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const sq = under && under.closest("#board .square");
    if (sq && sq.dataset.square !== from) tryMove(from, sq.dataset.square);
    else draw();
  });
}

function setUpInput() {
  $("board").addEventListener("click", (event) => {
    if (dragged) {
      dragged = false;
      return;
    }
    const sq = event.target.closest(".square");
    if (sq) onSquare(sq.dataset.square);
  });
  setUpDragging();
  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const line = $("move").value;
    $("move").value = "";
    play(line);
  });
  $("engine").addEventListener("change", () => {
    if (game.busy) $("engine").value = game.engine;
    else newGame(game.startFen, $("engine").value);
  });
  $("new").addEventListener("click", () => {
    if (!game.busy) newGame(game.startFen, game.engine);
  });
  $("flip").addEventListener("click", () => {
    game.orientation = game.orientation === "w" ? "b" : "w";
    draw();
  });
  $("undo").addEventListener("click", undo);
  $("level").addEventListener("change", () => {
    loadLevel();
    draw();
  });
  $("move-now").addEventListener("click", () => {
    moveNow = true;
    stopAll();
  });
}

/** The level select, from the engine's levels, at `chosen` (1-based). */
function setUpLevels(chosen) {
  const select = $("level");
  select.replaceChildren(
    ...ENGINE.levels.map((l, i) => {
      const option = document.createElement("option");
      option.value = String(i + 1);
      option.textContent = l.name;
      return option;
    }),
  );
  select.value = String(chosen);
}

// ---------------------------------------------------------------------------
// Start: the game of the URL (?fen=FEN&engine=white|black|none&moves=e2e4,g1f3)

async function main() {
  setStatus("loading");
  const params = new URLSearchParams(location.search);
  const asked = Number(params.get("level"));
  setUpLevels(asked >= 1 && asked <= ENGINE.levels.length ? asked : ENGINE.defaultLevel);
  setUpInput();
  // The programs of a first move, then the level's deeper ones behind them.
  loadLevel();
  try {
    await waitForProgram("turn2", null);
  } catch (error) {
    showMessage(String(error.message || error));
    setStatus("error");
    return;
  }
  const sizes = ENGINE.ladder.map((d) => ENGINE.sizes[`turn${d}`].toLocaleString("en"));
  $("count").textContent = `${sizes[0]} (depth ${ENGINE.ladder[0]}) to ${sizes[sizes.length - 1]} (depth ${ENGINE.ladder[ENGINE.ladder.length - 1]})`;
  const engine = ["white", "black", "none"].includes(params.get("engine")) ? params.get("engine") : "black";
  const fen = (params.get("fen") || SCREEN.startFen).trim();
  await newGame(fen, engine);
  const moves = (params.get("moves") || "").split(",").filter((m) => m.trim() !== "");
  for (const move of moves) {
    if (!(await play(move))) break;
  }
  // The page's own state of the URL's game is complete (tests wait for it).
  document.body.dataset.loaded = "true";
}

main();
