// The README's loop on Node: node run_loop.cjs PROGRAM.mjs < INPUT runs the
// module `regex-chess dump --format js` (or `corpus write`) wrote as
// `regex-chess run` runs the program: one pass from the empty state, then
// one per input line ("\n" appended), the state printed after every pass.
// Used by `regex-chess corpus bench` and the corpus test.
const fs = require("fs");
const { pathToFileURL } = require("url");

(async () => {
  const { rewrites } = await import(pathToFileURL(process.argv[process.argv.length - 1]).href);
  const text = fs.readFileSync(0, "utf8");
  const lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
  let state = "";
  const out = [];
  for (const line of [null, ...lines]) {
    if (line !== null) state += line + "\n";
    for (const [re, r] of rewrites) state = state.replace(re, r);
    out.push(state);
  }
  process.stdout.write(out.join(""));
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
