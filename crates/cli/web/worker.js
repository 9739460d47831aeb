// The regex machine of the page, off the main thread.
//
// One message is one pass of a rewrite list over a text: every
// [RegExp, replacement] pair is applied in order with String.replace, as
// the README's Python loop applies them with re.sub. `turn` is the turn
// program (the screen and the person's line in, the next screen out);
// `moves` is the legal-move program (a screen in, one thread per legal
// move out). This file knows nothing of chess.
import { rewrites as turn } from "./turn.js";
import { rewrites as moves } from "./moves.js";

const programs = { turn, moves };

function pass(rewrites, text) {
  let state = text;
  let changed = 0;
  for (const [pattern, replacement] of rewrites) {
    const next = state.replace(pattern, replacement);
    // replace() hands back the same string when nothing matched.
    if (next !== state) {
      changed += 1;
      state = next;
    }
  }
  return { state, changed };
}

self.onmessage = (event) => {
  const { id, program, text } = event.data;
  const rewrites = programs[program];
  try {
    if (!rewrites) throw new Error(`no program named ${program}`);
    const start = performance.now();
    const { state, changed } = pass(rewrites, text);
    const ms = performance.now() - start;
    self.postMessage({ id, state, ms, applied: rewrites.length, changed });
  } catch (error) {
    self.postMessage({ id, error: String(error) });
  }
};

self.postMessage({ ready: true, turn: turn.length, moves: moves.length });
