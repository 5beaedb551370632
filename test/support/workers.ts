import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const testDir = fileURLToPath(new URL('../', import.meta.url));

/** A stage worker running as a real child process. */
export interface WorkerProcess {
  child: ChildProcess;
  /** Resolves when the worker printed `ready` (it is consuming). */
  ready: Promise<void>;
  /** Resolves with how the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

/** Starts `test/support/stage-worker.ts` in its own Node process with the given extra environment. */
export function spawnWorker(env: Record<string, string>): WorkerProcess {
  const child = spawn(
    process.execPath,
    ['--conditions=@signalbox/source', '--import', 'tsx', 'support/stage-worker.ts'],
    {
      cwd: testDir,
      env: { ...process.env, LOG_LEVEL: 'warn', HTTP_PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    if (/^ready$/m.test(out)) markReady();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      resolve({ code, signal });
    });
  });
  const readyOrExit = Promise.race([
    ready,
    exited.then(() => Promise.reject(new Error(`worker exited before ready:\n${out}`))),
  ]);
  // Crash tests never await readiness of a worker that kills itself; keep that rejection from going unhandled.
  readyOrExit.catch(() => undefined);
  return { child, ready: readyOrExit, exited, output: () => out };
}

/** Polls `check` until it returns true; throws with `what` after `timeoutMs`. */
export async function waitFor(
  check: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 45_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out after ${String(timeoutMs)} ms waiting for ${what}`);
}
