import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { ToolCallError } from './errors.js';
import type { ToolInvocation, TransportAdapter } from './transport.js';

/** Options of {@link createComputeSandbox}. */
export interface ComputeSandboxOptions {
  /**
   * Heap limit of one evaluation's runtime. It also sizes the evaluation's worker: its WebAssembly memory may grow
   * to 16 MiB + twice this, its V8 old generation to 32 MiB + twice this. @default 32 MiB
   */
  memoryLimitBytes?: number;
  /** Stack limit (deep recursion fails instead of crashing the host). @default 256 KiB */
  maxStackBytes?: number;
  /** Longest accepted program text. @default 20000 */
  maxSourceLength?: number;
  /**
   * The instant (ms since the epoch) that `Date.now()`, `new Date()` and `Date()` give inside the sandbox, for every
   * call. A program that needs today's date gets it as an input. @default 0 (1970-01-01T00:00:00Z)
   */
  fixedTimeMs?: number;
}

/** The sandboxed `compute` built-in (EX-1, RS-6): ECMAScript only, with time and memory limits and no I/O. */
export interface ComputeSandbox extends TransportAdapter {
  /** Evaluates `expression` (a program whose last value is the result) with `inputs` bound as a frozen global. */
  evaluate(expression: string, inputs: unknown, timeoutMs: number, tool?: string): Promise<unknown>;
}

const MiB = 1024 * 1024;
const WASM_PAGE = 64 * 1024;
/** The QuickJS build's own initial memory (16 MiB): it refuses a smaller one; 2 GiB is its ceiling. */
const BASE_WASM_PAGES = 256;
const MAX_WASM_PAGES = 32_768;
/**
 * How long after the deadline the host waits before it terminates the worker. The program's interrupt handler
 * stops it at the deadline itself; the grace only covers a program stuck in one long built-in call (e.g.
 * `new Array(1e6).fill(x)`), where QuickJS never polls the handler.
 */
const DEADLINE_GRACE_MS = 250;

/** What the host hands one evaluation's worker (structured-cloned as `workerData`). */
interface WorkerJob {
  quickjsPath: string;
  expression: string;
  /** Run before the program, in this order: Math.random becomes the seeded generator; `inputs` is bound. */
  randomPrelude: string;
  bindInputs: string;
  deadline: number;
  memoryLimit: number;
  maxStack: number;
  basePages: number;
  maxPages: number;
  fixedTimeMs: number;
}

/** The worker's one message. `memory` / `timeout` are worded by the host, which knows the limits. */
type WorkerAnswer =
  | { kind: 'value'; json: string }
  | { kind: 'memory' }
  | { kind: 'timeout' }
  | { kind: 'error'; message: string };

/**
 * The worker, as CommonJS source run with `eval: true`: one text that works the same whether this module runs from
 * its TypeScript source (vitest, tsx) or from `dist` — a worker *file* would be a `.ts` under vitest, which a bare
 * worker cannot load. quickjs-emscripten comes in by the absolute path the host resolved.
 *
 * The thread is this evaluation's alone, so it fixes its own clock before QuickJS loads: the emscripten glue reads
 * `Date.now()` (for QuickJS's Date.now, new Date, Date()) and the local-time getters (for time zones) of the thread
 * it runs on. The deadline is measured on the real clock, kept aside first.
 */
const WORKER_SOURCE = String.raw`'use strict';
const { parentPort, workerData: job } = require('node:worker_threads');

const hostNow = Date.now;
Date.now = () => job.fixedTimeMs;
const proto = Date.prototype;
for (const part of ['FullYear', 'Month', 'Date', 'Day', 'Hours', 'Minutes', 'Seconds', 'Milliseconds'])
  proto['get' + part] = proto['getUTC' + part];
proto.getTimezoneOffset = function getTimezoneOffset() { return 0; };

const { RELEASE_SYNC, newQuickJSWASMModuleFromVariant, newVariant } = require(job.quickjsPath);

// Set when the WebAssembly heap could not grow (it is at or near its cap): the reason of a failure that QuickJS,
// short of memory, could not even describe.
let heapCapped = false;

function errorParts(dumped) {
  if (typeof dumped === 'object' && dumped !== null) {
    return {
      name: typeof dumped.name === 'string' ? dumped.name : 'Error',
      message: typeof dumped.message === 'string' ? dumped.message : '',
      described: typeof dumped.message === 'string',
    };
  }
  return {
    name: 'Error',
    message: typeof dumped === 'string' ? dumped : JSON.stringify(dumped),
    described: false,
  };
}

function thrownAnswer(dumped) {
  const { name, message, described } = errorParts(dumped);
  if (/out of memory/i.test(message) || (name === 'InternalError' && /memory/i.test(message)))
    return { kind: 'memory' };
  if (/interrupted/i.test(message) || hostNow() >= job.deadline) return { kind: 'timeout' };
  if (heapCapped && !described) return { kind: 'memory' };
  return { kind: 'error', message: name + ': ' + (message.split('\n')[0] || '') };
}

function evaluate(context) {
  for (const [code, file] of [[job.randomPrelude, 'random.js'], [job.bindInputs, 'inputs.js']]) {
    const setup = context.evalCode(code, file);
    if (setup.error) {
      setup.error.dispose();
      return { kind: 'error', message: 'the inputs could not be bound' };
    }
    setup.value.dispose();
  }
  const result = context.evalCode(job.expression, 'compute.js');
  if (result.error) return thrownAnswer(context.dump(result.error));
  // JSON inside the sandbox: the value crosses as text, so no handle or host object can leak out.
  const jsonFn = context.evalCode('(v) => { const s = JSON.stringify(v); return s === undefined ? "null" : s; }');
  if (jsonFn.error) return { kind: 'error', message: 'could not serialise the result' };
  const text = context.callFunction(jsonFn.value, context.undefined, result.value);
  if (text.error) {
    const dumped = context.dump(text.error);
    const answer = thrownAnswer(dumped);
    if (answer.kind !== 'error') return answer;
    return { kind: 'error', message: 'the result is not JSON: ' + errorParts(dumped).message };
  }
  return { kind: 'value', json: context.getString(text.value) };
}

async function main() {
  const memory = new WebAssembly.Memory({ initial: job.basePages, maximum: job.maxPages });
  const grow = memory.grow.bind(memory);
  memory.grow = (pages) => {
    try {
      return grow(pages);
    } catch (err) {
      heapCapped = true;
      throw err;
    }
  };
  const quickjs = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory: memory }));
  let answer;
  try {
    const runtime = quickjs.newRuntime();
    runtime.setMemoryLimit(job.memoryLimit);
    runtime.setMaxStackSize(job.maxStack);
    runtime.setInterruptHandler(() => hostNow() >= job.deadline);
    answer = evaluate(runtime.newContext());
  } catch (err) {
    // A trap or host-side failure inside the WebAssembly (the thread is thrown away, so nothing is disposed).
    const message = err instanceof Error ? err.message : String(err);
    if (heapCapped) answer = { kind: 'memory' };
    else if (hostNow() >= job.deadline) answer = { kind: 'timeout' };
    else if (err instanceof RangeError && /call stack/i.test(message))
      answer = { kind: 'error', message: 'InternalError: stack overflow' };
    else answer = { kind: 'error', message: 'the sandbox failed: ' + message };
  }
  parentPort.postMessage(answer);
}

// Anything thrown outside the evaluation (QuickJS failing to load) is the host's 'error' event.
main().catch((err) => {
  process.nextTick(() => {
    throw err;
  });
});
`;

let quickjsPath: string | undefined;

/** The CommonJS entry of quickjs-emscripten, resolved from this package (the worker has no resolution context). */
function quickjsEntry(): string {
  quickjsPath ??= createRequire(import.meta.url).resolve('quickjs-emscripten');
  return quickjsPath;
}

/**
 * `Math.random` inside: sfc32 (a small counting generator) seeded with 128 bits, giving 53-bit floats like V8's.
 * Defined as a method so, like the built-in, it has no `prototype`.
 */
function randomPrelude(seed: readonly number[]): string {
  const [a = 0, b = 0, c = 0, d = 0] = seed;
  return `(() => {
  let a = ${String(a)}, b = ${String(b)}, c = ${String(c)}, d = ${String(d)};
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next();
  const { random } = { random() { return ((next() >>> 5) * 67108864 + (next() >>> 6)) / 9007199254740992; } };
  Object.defineProperty(Math, 'random', { value: random, writable: true, enumerable: false, configurable: true });
})();`;
}

/** 128 bits from SHA-256 of everything the call depends on, so equal calls draw equal numbers. */
function seedOf(expression: string, inputsJson: string, fixedTimeMs: number): number[] {
  const digest = createHash('sha256')
    .update(JSON.stringify([expression, inputsJson, fixedTimeMs]))
    .digest();
  return [0, 4, 8, 12].map((offset) => digest.readUInt32BE(offset));
}

function sandboxError(tool: string, code: string, message: string): ToolCallError {
  // The tool's declared codes (sandbox_timeout, sandbox_error) class these as `parameter`: the program is wrong,
  // running it again does not help.
  return new ToolCallError('parameter', `${tool}: ${code}: ${message}`, tool, { code, retriable: false });
}

type WorkerOutcome = WorkerAnswer | { kind: 'killed' } | { kind: 'worker_oom' };

/**
 * Runs one job in a fresh worker and terminates it however it ends. One worker per evaluation rather than a pool:
 * WebAssembly memory never shrinks, so a reused worker would keep every earlier program's high-water mark and
 * fragmentation, while a fresh one starts from an empty heap and gives all of it back to the OS when it exits;
 * and a limit breach or a kill can only ever cost its own call. Starting one costs some tens of milliseconds,
 * small beside a tool call's time limit.
 */
function runInWorker(job: WorkerJob, killAt: number, memoryMiB: number): Promise<WorkerOutcome> {
  return new Promise<WorkerOutcome>((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: job,
      // Not the host's flags (a tsx loader, --inspect…) nor its environment (secrets): the worker needs neither.
      execArgv: [],
      env: {},
      stdin: false,
      name: 'compute-sandbox',
      resourceLimits: {
        maxOldGenerationSizeMb: 32 + 2 * memoryMiB,
        maxYoungGenerationSizeMb: Math.min(16, Math.max(4, Math.ceil(memoryMiB / 4))),
        stackSizeMb: 4,
      },
    });
    let settled = false;
    // The call settles once the worker is gone, so its memory is back with the OS before the caller goes on.
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate().then(outcome, outcome);
    };
    const timer = setTimeout(
      () => {
        settle(() => {
          resolve({ kind: 'killed' });
        });
      },
      // (setTimeout takes at most 2^31 - 1 ms, and fires at once for more.)
      Math.min(2 ** 31 - 1, Math.max(0, killAt - Date.now())),
    );
    worker.on('message', (answer: WorkerAnswer) => {
      settle(() => {
        resolve(answer);
      });
    });
    worker.on('error', (err: Error & { code?: string }) => {
      settle(() => {
        if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') resolve({ kind: 'worker_oom' });
        else reject(new Error(`compute sandbox: the worker failed: ${err.message}`, { cause: err }));
      });
    });
    worker.on('exit', (exitCode) => {
      settle(() => {
        reject(
          new Error(`compute sandbox: the worker stopped (exit code ${String(exitCode)}) without an answer`),
        );
      });
    });
  });
}

/**
 * A QuickJS (WASM) sandbox: each evaluation gets a fresh runtime with a heap limit, a stack limit and an interrupt
 * deadline, and a context holding nothing but the ECMAScript built-ins — no `require`, `fetch`, `process`,
 * module loader, timers or file system; the only input is the JSON copy of `inputs`; the only output is the JSON
 * value of the last expression.
 *
 * Evaluation never runs on the caller's event loop: each one runs in its own `worker_threads` Worker with hard
 * `resourceLimits` and a capped WebAssembly memory (both sized from `memoryLimitBytes`), and the host enforces the
 * deadline itself — a program still running 250 ms after it (say, inside one long built-in call that
 * never reaches the interrupt handler) has its worker terminated and fails with `sandbox_timeout`. QuickJS's own
 * memory limit fails with `sandbox_memory`; a worker that dies of its resource limits, with `sandbox_error`.
 *
 * Results are a pure function of the program and its inputs: inside, `Date.now()`, `new Date()` and `Date()` give
 * the fixed instant `fixedTimeMs` (default: the epoch, 1970-01-01T00:00:00Z), local time is UTC, and
 * `Math.random()` is a generator seeded from a SHA-256 of the program, the inputs' JSON and that instant — so the
 * same call always gives the same value, and a recorded result can be reproduced.
 */
export function createComputeSandbox(options: ComputeSandboxOptions = {}): ComputeSandbox {
  const memoryLimit = options.memoryLimitBytes ?? 32 * MiB;
  const maxStack = options.maxStackBytes ?? 256 * 1024;
  const maxSource = options.maxSourceLength ?? 20_000;
  const fixedTimeMs = options.fixedTimeMs ?? 0;
  const memoryMiB = Math.max(1, Math.ceil(memoryLimit / MiB));
  // QuickJS counts live bytes; the WebAssembly heap also holds malloc's fragmentation, hence the factor of two.
  const maxPages = Math.min(MAX_WASM_PAGES, BASE_WASM_PAGES + Math.ceil((2 * memoryLimit) / WASM_PAGE));

  async function evaluate(
    expression: string,
    inputs: unknown,
    timeoutMs: number,
    tool = 'compute',
  ): Promise<unknown> {
    if (expression.length > maxSource)
      throw sandboxError(tool, 'sandbox_error', `the program is longer than ${String(maxSource)} characters`);
    const deadline = Date.now() + timeoutMs;
    let inputsJson: string | undefined;
    try {
      // undefined for a function or a symbol; throws for a BigInt or a cycle.
      inputsJson = JSON.stringify(inputs ?? {});
    } catch {
      inputsJson = undefined;
    }
    if (inputsJson === undefined) throw sandboxError(tool, 'sandbox_error', 'the inputs could not be bound');
    const job: WorkerJob = {
      quickjsPath: quickjsEntry(),
      expression,
      randomPrelude: randomPrelude(seedOf(expression, inputsJson, fixedTimeMs)),
      bindInputs: `globalThis.inputs = Object.freeze(JSON.parse(${JSON.stringify(inputsJson)}));`,
      deadline,
      memoryLimit,
      maxStack,
      basePages: BASE_WASM_PAGES,
      maxPages,
      fixedTimeMs,
    };
    const outcome = await runInWorker(job, deadline + DEADLINE_GRACE_MS, memoryMiB);
    switch (outcome.kind) {
      case 'value':
        return JSON.parse(outcome.json) as unknown;
      case 'memory':
        throw sandboxError(tool, 'sandbox_memory', `the computation exceeded ${String(memoryLimit)} bytes`);
      case 'timeout':
      case 'killed':
        throw sandboxError(tool, 'sandbox_timeout', `the computation exceeded ${String(timeoutMs)} ms`);
      case 'worker_oom':
        throw sandboxError(
          tool,
          'sandbox_error',
          `the memory limit of ${String(memoryMiB)} MiB was exceeded`,
        );
      case 'error':
        throw sandboxError(tool, 'sandbox_error', outcome.message);
    }
  }

  return {
    evaluate,
    async call(invocation: ToolInvocation) {
      const { expression, inputs } = invocation.arguments;
      if (typeof expression !== 'string' || expression.length === 0)
        throw sandboxError(invocation.tool.name, 'sandbox_error', '`expression` must be a non-empty string');
      // The tool's answer: the value with the program that produced it, so derived evidence shows its working.
      const value = await evaluate(expression, inputs ?? {}, invocation.timeoutMs, invocation.tool.name);
      return { value, expression };
    },
  };
}
