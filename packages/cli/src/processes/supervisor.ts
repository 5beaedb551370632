// A supervisor of Signalbox service processes: each service's real src/main.ts as its own Node process (tsx with the
// `@signalbox/source` condition, as the package.json scripts run them), restarted when it dies. Two users: the fault
// suite (test/faults, where it is the harness's stand-in for the kubelet) and `signalbox up` (the real stack on one
// machine, where it plays what `restart: unless-stopped` is in docker-compose.yml):
//   - an exit nobody asked for is restarted after a back-off (1 s, doubling to 8 s), like CrashLoopBackOff;
//   - a SIGKILL the harness sent (the kill storm) is restarted at once;
//   - the liveness probe of the manifests (GET /livez every 10 s, 2 s timeout, 3 failures in a row) SIGKILLs and
//     restarts (a worker whose subscription failed answers 503 there);
//   - RSS is sampled from /proc/<pid>/status (VmRSS) every second, per logical process across restarts.
// Every line a process prints goes to <logDir>/<name>.log when a log folder is given, and to `onLine` (`signalbox up`
// prints it prefixed by the process name); error/fatal pino lines are also kept for the fault report.
// Exported as `@signalbox/cli/supervisor` (not from the package's main entry, which loads the whole CLI) so that the
// fault harness loads only this module.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The same depth under src/ and dist/.
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** How one service is started and how its readiness shows. */
export interface ServiceSpec {
  /** Logical name, unique in the rig: `executor`, `executor+1` (an extra replica), `api`, `demo-tools`. */
  name: string;
  /** The service folder under services/. */
  service: string;
  env: Record<string, string>;
  /** The log message that says the service is up. */
  readyMessage: string;
  /** The HTTP port of the liveness probe, when fixed; workers with HTTP_PORT=0 report theirs in `readyMessage`. */
  healthPort?: number;
  /** Path of the liveness probe. @default /livez */
  livenessPath?: string;
  /** Path of the readiness probe {@link Supervisor.waitHealthy} asks. @default /readyz */
  readinessPath?: string;
}

export interface RssSample {
  /** ms since the supervisor started. */
  t: number;
  pid: number;
  rssKb: number;
}

export interface ProcessStats {
  name: string;
  /** Processes started under this name (1 + restarts). */
  starts: number;
  /** Exits nobody asked for (not a harness SIGKILL, not a stop). */
  crashes: { at: number; code: number | null; signal: string | null; tail: string }[];
  /** SIGKILLs the harness sent. */
  kills: number;
  /** Restarts the liveness probe asked for. */
  livenessRestarts: number;
  rss: RssSample[];
  /** pino lines of level error (50) or fatal (60), as printed (capped). */
  errors: string[];
  errorCount: number;
}

export interface ManagedProcess {
  readonly name: string;
  readonly spec: ServiceSpec;
  pid(): number | undefined;
  /** Resolves when the current incarnation logged its ready message. */
  ready(): Promise<void>;
  isReady(): boolean;
  /** SIGKILL the current incarnation; the supervisor restarts it at once. */
  kill(): void;
  /** SIGTERM (drain), SIGKILL after `graceMs`; not restarted. */
  stop(graceMs?: number): Promise<void>;
  stats: ProcessStats;
  /** The last ~64 KiB the process printed. */
  tail(): string;
  /** GET <path> on the health port (liveness/readiness), the status or -1 when unreachable. */
  probe(path: string): Promise<number>;
}

const TAIL_BYTES = 64 * 1024;

/** Options of {@link createSupervisor}. */
export interface SupervisorOptions {
  /** A folder for `<name>.log` per process (appended across restarts). @default no log files */
  logDir?: string;
  /** How often the liveness probe runs. @default 10000 */
  livenessPeriodMs?: number;
  /** Told every line a process prints (stdout and stderr), without its line break. */
  onLine?: (name: string, line: string) => void;
  /** Told each time a process is started (first start and every restart) with its pid. */
  onSpawn?: (name: string, pid: number) => void;
  /**
   * Start each process in a session of its own (setsid), so that a Ctrl-C in the supervisor's terminal reaches the
   * supervisor only, which then stops them in order; `stop` signals the child's whole process group. A process
   * group outlives a supervisor that is SIGKILLed: its owner must be able to find the pids (`onSpawn`).
   * @default false (the children share the supervisor's process group and die with its terminal)
   */
  detached?: boolean;
  /** The environment every process inherits (each spec's `env` on top). @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Variables of the inherited environment the processes do not get. @default none */
  withoutEnv?: readonly string[];
}

export interface Supervisor {
  start(spec: ServiceSpec): ManagedProcess;
  /** Samples the RSS of a process the supervisor does not run (the private Kafka) under `name`. */
  track(name: string, pid: () => number | undefined): void;
  /** Every process's statistics, stopped ones included. */
  stats(): ProcessStats[];
  get(name: string): ManagedProcess | undefined;
  all(): ManagedProcess[];
  /** ms since the supervisor started (the time axis of RSS samples). */
  now(): number;
  /**
   * Waits until every running process logged its ready message and answers its readiness probe with 200; throws
   * naming the processes that do not when `timeoutMs` passes.
   */
  waitHealthy(timeoutMs?: number): Promise<void>;
  stopAll(): Promise<void>;
}

export function createSupervisor(options: SupervisorOptions = {}): Supervisor {
  const t0 = Date.now();
  const processes = new Map<string, ManagedProcess>();
  // Kept after a process stops (an extra replica the rebalance storm removed still has its RSS series).
  const statsByName = new Map<string, ProcessStats>();
  const tracked = new Map<string, { stats: ProcessStats; pid: () => number | undefined }>();
  const livenessPeriodMs = options.livenessPeriodMs ?? 10_000;

  const sampler = setInterval(() => {
    for (const p of processes.values()) {
      const pid = p.pid();
      if (pid === undefined) continue;
      const kb = vmRssKb(pid);
      if (kb !== undefined) p.stats.rss.push({ t: Date.now() - t0, pid, rssKb: kb });
    }
    for (const x of tracked.values()) {
      const pid = x.pid();
      const kb = pid === undefined ? undefined : vmRssKb(pid);
      if (pid !== undefined && kb !== undefined) x.stats.rss.push({ t: Date.now() - t0, pid, rssKb: kb });
    }
  }, 1000);
  sampler.unref();

  function start(spec: ServiceSpec): ManagedProcess {
    if (processes.has(spec.name)) throw new Error(`a process named ${spec.name} already runs`);
    const stats = statsByName.get(spec.name) ?? emptyStats(spec.name);
    statsByName.set(spec.name, stats);
    const log: WriteStream | undefined =
      options.logDir === undefined
        ? undefined
        : createWriteStream(join(options.logDir, `${spec.name}.log`), { flags: 'a' });
    let child: ChildProcess | undefined;
    let tail = '';
    let stopping = false;
    let killedByHarness = false;
    let readyNow = false;
    let readyPromise: Promise<void> = Promise.resolve();
    let healthPort = spec.healthPort;
    let backoffMs = 1000;
    let restartTimer: NodeJS.Timeout | undefined;
    let livenessFailures = 0;

    const spawnOnce = () => {
      stats.starts++;
      killedByHarness = false;
      readyNow = false;
      if (!spec.healthPort) healthPort = undefined;
      const withoutEnv = new Set(options.withoutEnv);
      const inherited = Object.fromEntries(
        Object.entries(options.env ?? process.env).filter(([name]) => !withoutEnv.has(name)),
      );
      const proc = spawn(
        process.execPath,
        ['--conditions=@signalbox/source', '--import', 'tsx', `services/${spec.service}/src/main.ts`],
        {
          cwd: repoRoot,
          env: { ...inherited, LOG_LEVEL: 'info', HTTP_HOST: '127.0.0.1', ...spec.env },
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: options.detached === true,
        },
      );
      child = proc;
      if (proc.pid !== undefined) options.onSpawn?.(spec.name, proc.pid);
      const startedAt = Date.now();
      log?.write(
        `\n===== ${new Date().toISOString()} start #${String(stats.starts)} pid ${String(proc.pid)}\n`,
      );
      let markReady: () => void = () => undefined;
      readyPromise = new Promise<void>((resolve) => {
        markReady = resolve;
      });
      let pending = '';
      const onData = (chunk: Buffer) => {
        const text = chunk.toString();
        log?.write(text);
        tail = (tail + text).slice(-TAIL_BYTES);
        pending += text;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          options.onLine?.(spec.name, line);
          if (!readyNow && line.includes(spec.readyMessage)) {
            const port = /"port":(\d+)/.exec(line)?.[1];
            if (!spec.healthPort && port) healthPort = Number(port);
            readyNow = true;
            livenessFailures = 0;
            markReady();
          }
          if (/"level":(50|60|"error"|"fatal")[,}]/.test(line)) {
            stats.errorCount++;
            if (stats.errors.length < 50) stats.errors.push(line.slice(0, 2000));
          }
        }
      };
      proc.stdout.on('data', onData);
      proc.stderr.on('data', onData);
      proc.once('exit', (code, signal) => {
        readyNow = false;
        log?.write(`===== exit code ${String(code)} signal ${String(signal)}\n`);
        if (stopping) return;
        if (killedByHarness) {
          backoffMs = 1000;
          spawnOnce();
          return;
        }
        stats.crashes.push({ at: Date.now() - t0, code, signal, tail: tail.slice(-4000) });
        // A process that ran a while before dying starts over at the shortest back-off.
        if (Date.now() - startedAt > 30_000) backoffMs = 1000;
        restartTimer = setTimeout(() => {
          restartTimer = undefined;
          if (!stopping) spawnOnce();
        }, backoffMs);
        backoffMs = Math.min(backoffMs * 2, 8000);
      });
    };

    const probe = async (path: string): Promise<number> => {
      if (healthPort === undefined) return -1;
      try {
        const res = await fetch(`http://127.0.0.1:${String(healthPort)}${path}`, {
          signal: AbortSignal.timeout(2000),
        });
        await res.arrayBuffer();
        return res.status;
      } catch {
        return -1;
      }
    };

    const liveness = setInterval(() => {
      if (stopping || !readyNow) return;
      void probe(spec.livenessPath ?? '/livez').then((status) => {
        if (stopping || !readyNow) return;
        if (status === 200) {
          livenessFailures = 0;
          return;
        }
        livenessFailures++;
        if (livenessFailures >= 3) {
          livenessFailures = 0;
          stats.livenessRestarts++;
          log?.write(`===== liveness failed 3 times (last ${String(status)}): SIGKILL and restart\n`);
          killedByHarness = true;
          signal(child, 'SIGKILL');
        }
      });
    }, livenessPeriodMs);
    liveness.unref();

    spawnOnce();

    const managed: ManagedProcess = {
      name: spec.name,
      spec,
      pid: () => (child && child.exitCode === null && child.signalCode === null ? child.pid : undefined),
      ready: () => readyPromise,
      isReady: () => readyNow,
      kill() {
        if (managed.pid() === undefined) return;
        stats.kills++;
        killedByHarness = true;
        signal(child, 'SIGKILL');
      },
      async stop(graceMs = 30_000) {
        stopping = true;
        clearInterval(liveness);
        if (restartTimer) clearTimeout(restartTimer);
        const proc = child;
        if (proc && proc.exitCode === null && proc.signalCode === null) {
          const gone = new Promise<void>((resolve) => {
            proc.once('exit', () => {
              resolve();
            });
          });
          signal(proc, 'SIGTERM');
          const timer = setTimeout(() => {
            signal(proc, 'SIGKILL');
          }, graceMs);
          await gone;
          clearTimeout(timer);
        }
        processes.delete(spec.name);
        await new Promise<void>((resolve) => {
          if (log) log.end(resolve);
          else resolve();
        });
      },
      stats,
      tail: () => tail,
      probe,
    };
    processes.set(spec.name, managed);
    return managed;
  }

  // A detached process leads a process group of its own: the signal goes to all of it (a tool's helper process too).
  function signal(proc: ChildProcess | undefined, name: NodeJS.Signals): void {
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    if (options.detached && proc.pid !== undefined) {
      try {
        process.kill(-proc.pid, name);
        return;
      } catch {
        // The group is gone already, or the child has not finished setsid: signal the process itself.
      }
    }
    proc.kill(name);
  }

  return {
    start,
    track(name, pid) {
      const stats = statsByName.get(name) ?? emptyStats(name);
      statsByName.set(name, stats);
      tracked.set(name, { stats, pid });
    },
    stats: () => [...statsByName.values()],
    get: (name) => processes.get(name),
    all: () => [...processes.values()],
    now: () => Date.now() - t0,
    async waitHealthy(timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const states = await Promise.all(
          [...processes.values()].map(async (p) => {
            if (!p.isReady()) return `${p.name}: not started`;
            const path = p.spec.readinessPath ?? '/readyz';
            const status = await p.probe(path);
            return status === 200 ? undefined : `${p.name}: ${path} ${String(status)}`;
          }),
        );
        const bad = states.filter((s): s is string => s !== undefined);
        if (bad.length === 0) return;
        if (Date.now() > deadline) throw new Error(`not healthy: ${bad.join('; ')}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    },
    async stopAll() {
      clearInterval(sampler);
      await Promise.all([...processes.values()].map((p) => p.stop()));
    },
  };
}

function emptyStats(name: string): ProcessStats {
  return { name, starts: 0, crashes: [], kills: 0, livenessRestarts: 0, rss: [], errors: [], errorCount: 0 };
}

/** VmRSS of a process in KiB, from /proc (undefined when it is gone). */
export function vmRssKb(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}
