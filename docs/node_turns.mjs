// Times one game's turns of a `.js` dump under node (each pass
// `state = state.replace(re, r)` over the list, as the web worker runs it),
// prints the median time of each turn to stderr and, to stdout, every
// pass's state as `regex-chess run` prints them (so `cmp` can check the
// bytes):
//
//   node docs/node_turns.mjs "$PWD/stack.js" e2e4,g1f3,f1c4 5 > node.out
//   printf 'e2e4\ng1f3\nf1c4\n' | regex-chess run stack.json | cmp - node.out
const { rewrites } = await import(process.argv[2]);
const lines = process.argv[3].split(",");
const reps = Number(process.argv[4] ?? 5);
const pass = (state) => {
  for (const [re, r] of rewrites) state = state.replace(re, r);
  return state;
};
const times = lines.map(() => []);
let printed = "";
for (let k = 0; k < reps; k++) {
  let state = pass("");
  printed = state;
  lines.forEach((line, i) => {
    state += line + "\n";
    const start = performance.now();
    state = pass(state);
    times[i].push(performance.now() - start);
    printed += state;
  });
}
const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
console.error(lines.map((l, i) => `${l}: ${median(times[i]).toFixed(1)} ms`).join(", "));
process.stdout.write(printed);
