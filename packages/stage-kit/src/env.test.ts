import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StageEnv, parseEnv } from './env.js';
import { EnvError } from './errors.js';

const valid = {
  KAFKA_BROKERS: 'kafka-0:9092, kafka-1:9092',
  SCHEMA_REGISTRY_URL: 'http://registry:8081/apis/ccompat/v7',
  DATABASE_URL: 'postgres://signalbox:s3cret@db:5432/signalbox',
};

function problemsOf(run: () => unknown): readonly string[] {
  try {
    run();
  } catch (err) {
    if (err instanceof EnvError) return err.problems;
    throw err;
  }
  throw new Error('expected an EnvError');
}

describe('parseEnv', () => {
  it('parses a valid environment once, with the documented defaults', () => {
    expect(parseEnv(StageEnv, { ...valid, HTTP_PORT: '0' }, 'model-selector')).toMatchObject({
      ...valid,
      HTTP_PORT: 0,
      HTTP_HOST: '0.0.0.0',
      LOG_LEVEL: 'info',
      STAGE_CONCURRENCY: 16,
      PARTITIONS_CONCURRENTLY: 6,
      MODEL_CONCURRENCY: 32,
      KAFKA_SESSION_TIMEOUT_MS: 10_000,
      DRAIN_TIMEOUT_MS: 25_000,
      SIGNALBOX_TOPIC_PREFIX: '',
      KAFKA_COMMIT_INTERVAL_MS: 500,
      KAFKA_LINGER_MS: 5,
      EVENT_LOG_APPEND_LINGER_MS: 5,
    });
  });

  it('names every missing or invalid variable, and the service, in one error', () => {
    const env = {
      KAFKA_BROKERS: 'kafka-0',
      HTTP_PORT: '70000',
      LOG_LEVEL: 'loud',
      STAGE_CONCURRENCY: '0',
      KAFKA_LINGER_MS: '-1',
    };
    expect(() => parseEnv(StageEnv, env, 'tool-decider')).toThrow(EnvError);
    expect(() => parseEnv(StageEnv, env, 'tool-decider')).toThrow(/^tool-decider: invalid environment:/);
    const problems = problemsOf(() => parseEnv(StageEnv, env, 'tool-decider'));
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(
      [
        'DATABASE_URL',
        'HTTP_PORT',
        'KAFKA_BROKERS',
        'KAFKA_LINGER_MS',
        'LOG_LEVEL',
        'SCHEMA_REGISTRY_URL',
        'STAGE_CONCURRENCY',
      ].sort(),
    );
    expect(problems.find((p) => p.startsWith('KAFKA_BROKERS'))).toMatch(/host:port.*\(got "kafka-0"\)/);
    expect(problems.find((p) => p.startsWith('DATABASE_URL'))).toMatch(/\(not set\)$/);
    expect(problems.find((p) => p.startsWith('HTTP_PORT'))).toMatch(/\(got "70000"\)$/);
  });

  it('never echoes a password from a URL-valued variable', () => {
    const problems = problemsOf(() =>
      parseEnv(
        StageEnv,
        {
          ...valid,
          DATABASE_URL: 'mysql://admin:hunter2@db:3306/signalbox',
          SCHEMA_REGISTRY_URL: 'hunter2 is not a url',
        },
        'executor',
      ),
    );
    const text = problems.join('\n');
    expect(text).not.toContain('hunter2');
    expect(problems.find((p) => p.startsWith('DATABASE_URL'))).toMatch(
      /postgres:\/\/.*\(got "mysql:\/\/admin:\*\*\*@db:3306\/signalbox"\)/,
    );
    expect(problems.find((p) => p.startsWith('SCHEMA_REGISTRY_URL'))).toMatch(/\(got "<redacted>"\)$/);
  });

  it('checks a service’s own variables with the shared ones', () => {
    const Env = StageEnv.extend({ PROVIDER_API_KEY: z.string().min(20) });
    const problems = problemsOf(() =>
      parseEnv(Env, { ...valid, PROVIDER_API_KEY: 'sk-short' }, 'model-selector'),
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^PROVIDER_API_KEY: /);
    expect(problems[0]).not.toContain('sk-short');
    expect(
      parseEnv(Env, { ...valid, PROVIDER_API_KEY: 'k'.repeat(20) }, 'model-selector').PROVIDER_API_KEY,
    ).toBe('k'.repeat(20));
  });
});
