// Drives the page of `regex-chess web` in headless Chromium for
// tests/integration/web.rs and prints what it saw as one JSON object; the Rust test
// compares that with the terminal's screens. It judges nothing itself.
//
// usage: node web_driver.cjs PLAN.json
// PLAN: {driverDir, chromium, base, screenshot, replays: [query...],
//        badFen: query, session: query, promotion: {query, from, to, role},
//        timed: query, clock: query}; a step whose key is missing is skipped.
"use strict";
const fs = require("fs");
const path = require("path");
const { createRequire } = require("module");

const plan = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const puppeteer = createRequire(path.join(plan.driverDir, "package.json"))("puppeteer-core");

const TIMEOUT = 120000;

async function loaded(page, url) {
  await page.goto(url, { waitUntil: "load" });
  await page.waitForFunction(() => document.body.dataset.loaded === "true", { timeout: TIMEOUT });
}

/** Waits for the pass started after `before` passes to be drawn. */
async function settled(page, before) {
  await page.waitForFunction(
    (n) => Number(document.body.dataset.passes) > n && document.body.dataset.status === "ready",
    { timeout: TIMEOUT },
    before,
  );
}

const passes = (page) => page.evaluate(() => Number(document.body.dataset.passes));

/** What the page shows, and the PGN file it offers. */
function look(page) {
  return page.evaluate(async () => {
    const board = {};
    for (const p of document.querySelectorAll("#board .square .piece")) {
      board[p.closest(".square").dataset.square] = p.dataset.piece;
    }
    const pgn = await (await fetch(document.getElementById("pgn").href)).text();
    return {
      screen: document.getElementById("screen").textContent,
      message: document.getElementById("message").textContent,
      stats: document.getElementById("stats").textContent,
      board,
      // The square drawn top left: a8 from white's side, h1 from black's.
      corner: document.querySelector("#board .square").dataset.square,
      pgn,
      url: location.pathname + location.search,
      hint: document.body.dataset.hint || "",
      // How the last climb went, as the page reports it (app.js, think).
      climb: JSON.parse(document.body.dataset.climb || "null"),
      // Milliseconds from opening the page (printed, never judged).
      sinceOpen: Math.round(performance.now()),
    };
  });
}

/** The centre of a square on the screen. */
async function centre(page, square) {
  const box = await (await page.$(`[data-square="${square}"]`)).boundingBox();
  return [box.x + box.width / 2, box.y + box.height / 2];
}

async function main() {
  const errors = [];
  const browser = await puppeteer.launch({
    executablePath: plan.chromium,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  const out = { replays: [], errors };
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(TIMEOUT);
    await page.setViewport({ width: 1100, height: 660 });
    page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(`console: ${m.text()}`);
    });

    // 1. Games replayed from the URL.
    for (const query of plan.replays || []) {
      await loaded(page, plan.base + query);
      out.replays.push(await look(page));
    }

    // A FEN the page cannot start from.
    if (plan.badFen !== undefined) {
      await loaded(page, plan.base + plan.badFen);
      out.badFen = await look(page);
    }

    if (plan.session !== undefined) await session(page, plan, out);

    // 9. A game replayed at the default level, which thinks on a clock: the
    // page is opened on the position and answers the move in the URL.
    if (plan.clock !== undefined) {
      await loaded(page, plan.base + plan.clock);
      out.clock = await look(page);
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(out));
}

/** Steps 2 to 8: clicks, typing, undo, "Move now", a promotion, a timed level. */
async function session(page, plan, out) {
  // 2. A move by clicking two squares, then the engine's reply at the
  // session's level. While it thinks the page says so and still answers
  // (the board turns over and back).
  await loaded(page, plan.base + plan.session);
  out.start = await look(page);
  let n = await passes(page);
  await page.click('[data-square="e2"]');
  await page.click('[data-square="e4"]');
  await page.waitForFunction(
    () => document.body.dataset.status === "thinking" && document.getElementById("turn").textContent.startsWith("Thinking"),
  );
  await page.click("#flip");
  out.thinking = {
    turn: await page.$eval("#turn", (e) => e.textContent),
    corner: await page.$eval("#board .square", (e) => e.dataset.square),
    status: await page.evaluate(() => document.body.dataset.status),
  };
  await page.click("#flip");
  await settled(page, n);
  out.clicked = await look(page);

  // 3. A bad move typed in the text field.
  n = await passes(page);
  await page.type("#move", "e2e5");
  await page.keyboard.press("Enter");
  await settled(page, n);
  out.bad = await look(page);

  // 4. A SAN move typed in the text field.
  n = await passes(page);
  await page.type("#move", "Nf3");
  await page.keyboard.press("Enter");
  await settled(page, n);
  out.san = await look(page);

  fs.mkdirSync(path.dirname(plan.screenshot), { recursive: true });
  await page.screenshot({ path: plan.screenshot });

  // 5. Undo takes back the last move and the engine's reply.
  await page.click("#undo");
  out.undone = await look(page);
  await page.click("#flip");
  out.flipped = await look(page);

  // 6. "Move now" as soon as it shows (the first depth done): the
  // deepest search finished by then answers.
  await loaded(page, plan.base);
  n = await passes(page);
  await page.click('[data-square="d2"]');
  await page.click('[data-square="d4"]');
  await page.waitForSelector("#move-now:not([hidden])");
  await page.click("#move-now");
  await settled(page, n);
  out.movedNow = await look(page);

  // 7. A promotion by dragging the pawn, the piece picked in the chooser.
  const promo = plan.promotion;
  await loaded(page, plan.base + promo.query);
  n = await passes(page);
  const [x0, y0] = await centre(page, promo.from);
  const [x1, y1] = await centre(page, promo.to);
  const dragPawn = async () => {
    await page.mouse.move(x0, y0);
    await page.mouse.down();
    await page.mouse.move(x1, y1, { steps: 8 });
    await page.mouse.up();
    await page.waitForSelector("#promotion:not([hidden])");
  };
  // A click on the board closes the chooser without a move.
  await dragPawn();
  await page.click('[data-square="e1"]');
  out.cancelled = {
    ...(await look(page)),
    passes: (await passes(page)) - n,
    chooserHidden: await page.$eval("#promotion", (e) => e.hidden),
  };
  await dragPawn();
  await page.click(`#promotion button[data-role="${promo.role}"]`);
  await settled(page, n);
  out.promoted = await look(page);

  // 8. A game replayed at a timed level, which climbs up to depth 6.
  await loaded(page, plan.base + plan.timed);
  out.timed = await look(page);
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});
