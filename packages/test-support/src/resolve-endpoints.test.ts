// A test run stops infra/local only when it started it itself — never infra that was already running, whatever
// `infra.sh status` said before (it also fails for a missing probe dependency or a slow answer).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readLocalStart } from './resolve-endpoints.js';

const infraScript = readFileSync(
  fileURLToPath(new URL('../../../infra/local/infra.sh', import.meta.url)),
  'utf8',
);

describe('readLocalStart: what one infra.sh start launched', () => {
  it('a start that launched everything (PostgreSQL outside the script) is stopped at the end', () => {
    const own = readLocalStart(
      [
        '[infra] artefacts cached in /cache',
        '[infra] postgres answers at postgres://postgres@127.0.0.1:5432/postgres',
        '[infra] kafka log kept (/run/kafka/data, cluster abc)',
        '[infra] starting kafka on 127.0.0.1:19092',
        '[infra] starting apicurio registry on http://127.0.0.1:18081 (management 127.0.0.1:19000)',
        '[infra] ready in 21 s',
      ].join('\n'),
    );
    expect(own).toEqual({ started: ['kafka', 'registry'], alreadyRunning: [], stopOnRelease: true });
  });

  it('a start that found everything running (status had failed for another reason) stops nothing', () => {
    const own = readLocalStart(
      [
        '[infra] postgres answers at postgres://postgres@127.0.0.1:5432/postgres',
        '[infra] kafka already running',
        '[infra] registry already running',
        '[infra] ready in 1 s',
      ].join('\n'),
    );
    expect(own).toEqual({ started: [], alreadyRunning: ['kafka', 'registry'], stopOnRelease: false });
  });

  it('a start that launched only part stops nothing: infra.sh stop would stop what was running before too', () => {
    const own = readLocalStart(
      [
        '[infra] postgres (started here) is running',
        '[infra] kafka already running',
        '[infra] starting apicurio registry on http://127.0.0.1:18081 (management 127.0.0.1:19000)',
      ].join('\n'),
    );
    expect(own).toEqual({
      started: ['registry'],
      alreadyRunning: ['kafka', 'postgres'],
      stopOnRelease: false,
    });
  });

  it('a start that failed before launching anything stops nothing', () => {
    expect(readLocalStart("[infra] error: 'java' is not installed: …").stopOnRelease).toBe(false);
  });

  it('infra.sh still logs the lines the reader relies on', () => {
    for (const line of [
      'log "kafka already running"',
      'log "registry already running"',
      'log "postgres (started here) is running"',
      'log "starting kafka on $BROKERS"',
      'log "starting apicurio registry on http://127.0.0.1:$REGISTRY_PORT',
      'log "starting postgres on 127.0.0.1:$PG_PORT"',
      'log "postgres answers at',
    ])
      expect(infraScript).toContain(line);
  });
});
