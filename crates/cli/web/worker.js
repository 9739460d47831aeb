// The regex machine of the page, off the main thread.
//
// The page starts one of these per group of programs: the programs of a
// first move (`moves` and `turn2`) in one, each deeper turn program
// (`turn3`, `turn5`, `turn6`) in its own, so that a program loads (its
// module fetched and parsed, its RegExp objects made) beside a running
// pass rather than in front of it. `{load: [names]}` loads a group and
// answers `{loaded: true, sizes}` once every one is in (or `{loaded:
// false, error}`).
//
// One pass message is one pass of a rewrite list over a text: every
// [RegExp, replacement] pair is applied in order with String.replace, as
// the README's Python loop applies them with re.sub. The turn programs
// take the screen and the person's line and give the next screen; `moves`
// is the legal-move program (a screen in, one thread per legal move out).
// A message may carry a deadline (Date.now() milliseconds): the pass then
// gives up between two rewrites once it is past, and says it stopped and
// when; the page keeps the screen of a pass that finished. This file knows
// nothing of chess.

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
    if (deadline !== null && Date.now() >= deadline) {
      return { state: null, changed, stopped: true, stoppedAt: Date.now() };
    }
    const next = state.replace(pattern, replacement);
    // replace() hands back the same string when nothing matched.
    if (next !== state) {
      changed += 1;
      state = next;
    }
  }
  return { state, changed, stopped: false };
}

async function load(names) {
  try {
    const lists = await Promise.all(names.map(program));
    const sizes = Object.fromEntries(names.map((n, i) => [n, lists[i].length]));
    self.postMessage({ loaded: true, sizes });
  } catch (error) {
    self.postMessage({ loaded: false, error: String(error) });
  }
}

self.onmessage = async (event) => {
  const { id, program: name, text, deadline = null } = event.data;
  if (event.data.load) {
    load(event.data.load);
    return;
  }
  try {
    const rewrites = await program(name);
    const start = performance.now();
    const result = pass(rewrites, text, deadline);
    const ms = performance.now() - start;
    self.postMessage({ id, ...result, ms, applied: rewrites.length });
  } catch (error) {
    self.postMessage({ id, error: String(error) });
  }
};
