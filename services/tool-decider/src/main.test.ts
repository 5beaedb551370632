import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

// The worker as deployed (main.ts in its own process): without the model files it must stop at start, before it
// consumes anything, and say which command fetches them. A cold tsx start on a busy 2-core machine takes seconds.
describe('tool-decider worker start-up', { timeout: 60_000 }, () => {
  it('fails at start with the fetch command when the model files are missing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'sb-no-models-'));
    try {
      const result = await promisify(execFile)(
        process.execPath,
        ['--conditions=@signalbox/source', '--import', 'tsx', 'services/tool-decider/src/main.ts'],
        {
          cwd: repoRoot,
          timeout: 60_000,
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            SIGNALBOX_MODEL_DIR: empty,
            SIGNALBOX_REGISTRY_DIR: join(repoRoot, 'registry/packs/reach'),
            // Addresses nothing listens on: the worker must fail on the models before it would connect.
            KAFKA_BROKERS: '127.0.0.1:1',
            SCHEMA_REGISTRY_URL: 'http://127.0.0.1:1',
            DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
          },
        },
      ).then(
        () => ({ code: 0, stderr: '' }),
        (error: unknown) => error as { code: number; stderr: string },
      );
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/ModelFilesMissingError/);
      expect(result.stderr).toContain('bash scripts/fetch-models.sh');
      expect(result.stderr).toContain('SIGNALBOX_EMBEDDINGS=off');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
