// The API's main as a process: SIGTERM ends it within the drain time even when the process that read its standard
// output is gone (`signalbox up` stopped first, a closed terminal). Pino's asynchronous stdout used to leave the
// shutdown's last line in flight at process.exit, and sonic-boom's exit-time flush retried that EPIPE write for ever.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { testEndpoints } from '@signalbox/test-support';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const DRAIN_TIMEOUT_MS = 5000;

describe('api main', () => {
  it('exits 0 on SIGTERM within the drain time after the reader of its stdout went away', async () => {
    const endpoints = testEndpoints();
    const child = spawn(
      process.execPath,
      ['--conditions=@signalbox/source', '--import', 'tsx', 'services/api/src/main.ts'],
      {
        cwd: root,
        env: {
          ...process.env,
          KAFKA_BROKERS: endpoints.kafkaBrokers,
          SCHEMA_REGISTRY_URL: endpoints.schemaRegistryUrl,
          DATABASE_URL: endpoints.databaseUrl,
          SIGNALBOX_API_KEYS: JSON.stringify({ ['0'.repeat(64)]: 'sigterm-test' }),
          HTTP_PORT: '0',
          HTTP_HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
          DRAIN_TIMEOUT_MS: String(DRAIN_TIMEOUT_MS),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('exit', (code, signal) => {
        resolve({ code, signal });
      });
    });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        const deadline = setTimeout(() => {
          reject(new Error(`the API did not start within 60 s:\n${out}\n${stderr}`));
        }, 60_000);
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('"api started"')) {
            clearTimeout(deadline);
            resolve();
          }
        });
        void exited.then(() => {
          reject(new Error(`the API exited before it started:\n${out}\n${stderr}`));
        });
      });
      // The reader goes away: every later line the API writes meets a closed pipe (EPIPE).
      child.stdout.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const signalledAt = Date.now();
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), DRAIN_TIMEOUT_MS + 5000);
      const outcome = await exited;
      clearTimeout(killer);
      const tookMs = Date.now() - signalledAt;
      expect({ ...outcome, stderr }).toEqual({ code: 0, signal: null, stderr: '' });
      expect(tookMs).toBeLessThan(DRAIN_TIMEOUT_MS);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 90_000);
});
