// The regex machine of the page, off the main thread.
//
// One message is one pass of a rewrite list over a text: every
// [RegExp, replacement] pair is applied in order with String.replace, as
// the README's Python loop applies them with re.sub. `turn2`, `turn3`,
// `turn5`, `turn6` are the turn programs of each search depth (the screen
// and the person's line in, the next screen out); `moves` is the
// legal-move program (a screen in, one thread per legal move out). A message may
// carry a deadline (Date.now() milliseconds): the pass then gives up
// between two rewrites once it is past, and says it stopped; the page
// keeps the screen of a pass that finished. This file knows nothing of
// chess.

const NAME = /^(moves|turn[0-9])$/;
const loading = new Map();

/** The rewrites of program `name`, loaded once (its module on first use). */
function program(name) {
  if (!NAME.test(name)) return Promise.reject(new Error(`no program named ${name}`));
  if (!loading.has(name)) loading.set(name, import(`./${name}.js`).then((m) => m.rewrites));
  return loading.get(name);
}

function pass(rewrites, text, deadline) {
  let state = text;
  let changed = 0;
  for (const [pattern, replacement] of rewrites) {
    if (deadline !== null && Date.now() >= deadline) return { state: null, changed, stopped: true };
    const next = state.replace(pattern, replacement);
    // replace() hands back the same string when nothing matched.
    if (next !== state) {
      changed += 1;
      state = next;
    }
  }
  return { state, changed, stopped: false };
}

self.onmessage = async (event) => {
  const { id, program: name, text, deadline = null, preload } = event.data;
  if (preload) {
    // Loaded in the background, so that a deeper pass starts at once.
    for (const p of preload) program(p).catch(() => {});
    return;
  }
  try {
    const rewrites = await program(name);
    const start = performance.now();
    const { state, changed, stopped } = pass(rewrites, text, deadline);
    const ms = performance.now() - start;
    self.postMessage({ id, state, ms, applied: rewrites.length, changed, stopped });
  } catch (error) {
    self.postMessage({ id, error: String(error) });
  }
};

// Ready once the programs of a first move are loaded.
Promise.all([program("moves"), program("turn2")]).then(
  ([moves, turn]) => self.postMessage({ ready: true, turn: turn.length, moves: moves.length }),
  (error) => self.postMessage({ ready: false, error: String(error) }),
);
