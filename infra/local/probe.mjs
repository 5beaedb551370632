// Readiness probes for infra.sh — real requests, not open ports:
//   probe.mjs kafka <brokers>                     a cluster metadata call through the Kafka admin API
//   probe.mjs registry <ccompat url>              HTTP 200 from the registry's Confluent-compatible API
//   probe.mjs postgres <url>                      SELECT 1
//   probe.mjs wait <brokers> <ccompat url> <s>    poll kafka and registry until both answer or time runs out
//   probe.mjs redact <url>                        the URL without its password, for messages
import { Kafka, logLevel } from 'kafkajs';
import pg from 'pg';

const [, , what, ...args] = process.argv;

async function kafkaReady(brokers) {
  const kafka = new Kafka({
    clientId: 'signalbox-infra-probe',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1000,
    retry: { retries: 0 },
  });
  const admin = kafka.admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    if (cluster.brokers.length === 0) throw new Error('no brokers in metadata');
    // Consumer groups need the group coordinator (and its offsets topic) loaded, not only the metadata.
    await admin.describeGroups(['signalbox-infra-probe']);
    return `cluster ${cluster.clusterId}, ${cluster.brokers.length} broker(s), group coordinator up`;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

async function registryReady(url) {
  const res = await fetch(`${url.replace(/\/$/, '')}/subjects`, { signal: AbortSignal.timeout(2000) });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
  return 'HTTP 200';
}

async function postgresReady(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    await client.query('SELECT 1');
    return 'SELECT 1 ok';
  } finally {
    await client.end();
  }
}

function redact(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<unparseable url>';
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// `processes` are name=pid pairs: a process that exits while we wait fails the wait at once.
async function waitAll(brokers, registry, seconds, processes) {
  const pids = new Map(processes.map((p) => p.split('=')).map(([name, pid]) => [name, Number(pid)]));
  const deadline = Date.now() + Number(seconds) * 1000;
  const pending = new Map([
    ['kafka', () => kafkaReady(brokers)],
    ['registry', () => registryReady(registry)],
  ]);
  const lastError = new Map();
  while (pending.size > 0 && Date.now() < deadline) {
    for (const [name, check] of [...pending]) {
      const pid = pids.get(name);
      if (pid !== undefined && !alive(pid)) {
        console.error(`[infra] ${name} exited while starting (pid ${pid})`);
        return false;
      }
      try {
        const detail = await check();
        console.error(`[infra] ${name} ready (${detail})`);
        pending.delete(name);
      } catch (err) {
        lastError.set(name, err instanceof Error ? err.message : String(err));
      }
    }
    if (pending.size > 0) await new Promise((r) => setTimeout(r, 500));
  }
  for (const name of pending.keys()) console.error(`[infra] ${name} not ready: ${lastError.get(name)}`);
  return pending.size === 0;
}

const checks = { kafka: kafkaReady, registry: registryReady, postgres: postgresReady };

try {
  if (what === 'redact') {
    console.log(redact(args[0] ?? ''));
  } else if (what === 'wait') {
    process.exitCode = (await waitAll(args[0], args[1], args[2] ?? '120', args.slice(3))) ? 0 : 1;
  } else if (what in checks) {
    console.log(await checks[what](args[0]));
  } else {
    console.error('usage: probe.mjs kafka|registry|postgres|wait|redact …');
    process.exitCode = 2;
  }
} catch (err) {
  console.error(`[infra] ${what}: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
