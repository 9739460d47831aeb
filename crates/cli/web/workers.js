// The page's workers: which worker runs which program, loading the
// programs, and ending passes.
//
// The programs of a first move ("moves" and "turn2") share one worker,
// which the page waits for; each deeper turn program has its own, so that
// it loads (its module fetched and parsed, its RegExp objects made) beside
// a running pass rather than in front of it, and a climb answers from the
// rungs whose programs are in. "Move now" ends a pass at once by replacing
// the worker it runs on: a pass cannot be interrupted from here (it checks
// only its deadline). This file knows nothing of chess or of the screen.

/** The worker group of a program. */
const groupOf = (program) => (program === "moves" || program === "turn2" ? "first" : program);
const GROUP_PROGRAMS = { first: ["moves", "turn2"] };

let nextId = 1;

/** One worker and the programs it loads. */
class Runner {
  constructor(group) {
    this.programs = GROUP_PROGRAMS[group] || [group];
    this.pending = new Map();
    this.start();
  }

  start() {
    this.worker = new Worker("worker.js", { type: "module" });
    this.isLoaded = false;
    this.loaded = new Promise((resolve, reject) => {
      this.worker.addEventListener("message", (event) => {
        const data = event.data;
        if (data.loaded !== undefined) {
          this.isLoaded = data.loaded;
          if (data.loaded) resolve(data.sizes);
          else reject(new Error(data.error));
          return;
        }
        const job = this.pending.get(data.id);
        if (!job) return;
        this.pending.delete(data.id);
        if (data.error) job.reject(new Error(data.error));
        else job.resolve(data);
      });
      this.worker.addEventListener("error", (event) => {
        const error = new Error(event.message || "the worker could not start");
        reject(error);
        for (const job of this.pending.values()) job.reject(error);
        this.pending.clear();
      });
    });
    // A failed load is reported where the program is needed.
    this.loaded.catch(() => {});
    this.worker.postMessage({ load: this.programs });
  }

  /** Whether a pass is running on this worker. */
  get busy() {
    return this.pending.size > 0;
  }

  /** One pass of `program` over `text`, given up once `deadline` (Date.now() ms, or null) passes. */
  async run(program, text, deadline) {
    await this.loaded;
    const id = nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, program, text, deadline });
    });
  }

  /** Ends the running pass (answered as stopped) with its worker, and loads a new one. */
  stop() {
    this.worker.terminate();
    for (const job of this.pending.values()) job.resolve({ stopped: true, stoppedAt: Date.now() });
    this.pending.clear();
    this.start();
  }
}

const runners = new Map();

/** The worker of `program`, started (and its programs loading) on first use. */
function runnerOf(program) {
  const group = groupOf(program);
  if (!runners.has(group)) runners.set(group, new Runner(group));
  return runners.get(group);
}

let loadingChain = Promise.resolve();

/**
 * Loads `programs` in the background, in order, each once the one before
 * is in (so that loading takes at most one core beside a pass).
 */
export function loadInBackground(programs) {
  for (const program of programs) {
    loadingChain = loadingChain.then(() => runnerOf(program).loaded).catch(() => {});
  }
}

/** What ends the waits for programs ([`stopAll`]). */
let interrupt = () => {};

/**
 * Whether `program` is loaded (loading it if it was not asked for yet)
 * before `deadline` (Date.now() ms, or null: however long it takes) and
 * before [`stopAll`]; a program that cannot load is an error.
 */
export async function waitForProgram(program, deadline) {
  const runner = runnerOf(program);
  if (runner.isLoaded) return true;
  let timer = null;
  const waits = [
    runner.loaded.then(() => true),
    new Promise((resolve) => (interrupt = () => resolve(false))),
  ];
  if (deadline !== null) {
    waits.push(new Promise((resolve) => (timer = setTimeout(() => resolve(false), deadline - Date.now()))));
  }
  try {
    return await Promise.race(waits);
  } finally {
    clearTimeout(timer);
    interrupt = () => {};
  }
}

/**
 * One pass of `program` ("turn2", "turn3", "turn5", "turn6" or "moves") over
 * `text`, given up once `deadline` (Date.now() ms, or null) passes.
 */
export function runPass(program, text, deadline = null) {
  return runnerOf(program).run(program, text, deadline);
}

/** Ends every running pass and every wait for a program ("Move now"). */
export function stopAll() {
  interrupt();
  for (const runner of runners.values()) if (runner.busy) runner.stop();
}
