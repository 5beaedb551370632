// CPU time of the machine's processes by service, read from Linux's /proc: on a 2-core machine that runs Kafka, the
// registry and PostgreSQL beside the benchmark, what one task costs each of them says where the time goes — the
// benchmark process's own CPU (process.cpuUsage) is only part of it. Elsewhere (no /proc), nothing is reported.
import { readFileSync, readdirSync } from 'node:fs';

/** The services a process is counted under. */
export type Service = 'bench process' | 'stage workers' | 'postgresql' | 'kafka' | 'registry' | 'other';

/** CPU seconds used so far by each process (with its service), and by the whole machine (every core's busy time). */
export interface CpuSnapshot {
  byPid: Map<number, { service: Service; seconds: number }>;
  machineS: number;
}

const TICKS_PER_S = 100; // USER_HZ, 100 on every Linux the benchmark runs on

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process ended meanwhile, or no /proc
  }
}

function serviceOf(pid: number, comm: string, ppid: number, cmdline: string): Service {
  if (pid === process.pid) return 'bench process';
  if (comm === 'postgres') return 'postgresql';
  if (cmdline.includes('kafka.Kafka')) return 'kafka';
  if (/apicurio|quarkus/i.test(cmdline)) return 'registry';
  // `--processes`: the stage workers this benchmark spawned (node, possibly under a tsx wrapper).
  if (/\bnode\b|tsx/.test(cmdline) && (ppid === process.pid || cmdline.includes('stage-worker')))
    return 'stage workers';
  return 'other';
}

/** Now's CPU totals, or undefined where /proc cannot be read. */
export function cpuSnapshot(): CpuSnapshot | undefined {
  const stat = readText('/proc/stat');
  const cpu = stat?.split('\n')[0]?.split(/\s+/).slice(1).map(Number);
  if (!cpu || cpu.length < 5 || cpu.some((n) => !Number.isFinite(n))) return undefined;
  // user nice system idle iowait irq softirq steal …: busy = all but idle and iowait.
  const machineS = (cpu.reduce((a, b) => a + b, 0) - (cpu[3] ?? 0) - (cpu[4] ?? 0)) / TICKS_PER_S;
  const byPid = new Map<number, { service: Service; seconds: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const line = readText(`/proc/${entry}/stat`);
    if (!line) continue;
    // pid (comm) state ppid … utime stime: comm may hold spaces and parentheses, so split after its last ')'.
    const open = line.indexOf('(');
    const close = line.lastIndexOf(')');
    const fields = line.slice(close + 2).split(' ');
    const seconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
    if (!Number.isFinite(seconds)) continue;
    const cmdline = (readText(`/proc/${entry}/cmdline`) ?? '').replaceAll('\0', ' ');
    const pid = Number(entry);
    byPid.set(pid, {
      service: serviceOf(pid, line.slice(open + 1, close), Number(fields[1]), cmdline),
      seconds,
    });
  }
  return { byPid, machineS };
}

/**
 * CPU milliseconds per task since `start`, by service, and `machine` for all cores' busy time; undefined without
 * /proc. A process that ended between the two snapshots is not counted (`machine` counts it).
 */
export function cpuMsPerTaskSince(
  start: CpuSnapshot | undefined,
  tasks: number,
): Record<string, number> | undefined {
  const end = cpuSnapshot();
  if (!start || !end) return undefined;
  const perTask = (seconds: number) => Math.round((seconds * 1000 * 100) / tasks) / 100;
  const used = new Map<Service, number>();
  for (const [pid, { service, seconds }] of end.byPid) {
    // A process started meanwhile counts in full; a pid reused by another process, from its start.
    const before = start.byPid.get(pid);
    const since = before && before.seconds <= seconds ? before.seconds : 0;
    used.set(service, (used.get(service) ?? 0) + seconds - since);
  }
  const out: Record<string, number> = {};
  for (const [service, seconds] of used) if (seconds > 0) out[service] = perTask(seconds);
  out.machine = perTask(end.machineS - start.machineS);
  return out;
}
