import { describe, expect, it } from 'vitest';
import { DEFAULT_CEILINGS, ceilingsOf, resolveCeilings } from './ceilings.js';
import { StageEnv, parseEnv } from './env.js';
import { EnvError, StageConfigError } from './errors.js';

const base = {
  KAFKA_BROKERS: '127.0.0.1:19092',
  SCHEMA_REGISTRY_URL: 'http://127.0.0.1:18081',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
};

describe('ceilings (FL-6)', () => {
  it('has one documented default per ceiling when nothing is set', () => {
    expect(ceilingsOf(parseEnv(StageEnv, base, 'test'))).toEqual({
      maxPlanSteps: 8,
      maxExecutedSteps: 12,
      maxReplans: 3,
      maxReinjections: 3,
      maxTaskRevisions: 6,
      maxDegradations: 2,
      maxCostUsd: null,
      maxWallTimeMs: 600_000,
    });
    expect(resolveCeilings()).toEqual(DEFAULT_CEILINGS);
  });

  it('reads each ceiling from its own variable: plan length and executed steps are two things', () => {
    const env = parseEnv(
      StageEnv,
      {
        ...base,
        SIGNALBOX_MAX_PLAN_STEPS: '5',
        SIGNALBOX_MAX_EXECUTED_STEPS: '20',
        SIGNALBOX_MAX_REPLANS: '1',
        SIGNALBOX_MAX_REINJECTIONS: '4',
        SIGNALBOX_MAX_TASK_REVISIONS: '9',
        SIGNALBOX_MAX_DEGRADATIONS: '0',
        SIGNALBOX_MAX_COST_USD: '0.5',
        SIGNALBOX_MAX_WALL_TIME_MS: '60000',
      },
      'test',
    );
    expect(ceilingsOf(env)).toEqual({
      maxPlanSteps: 5,
      maxExecutedSteps: 20,
      maxReplans: 1,
      maxReinjections: 4,
      maxTaskRevisions: 9,
      maxDegradations: 0,
      maxCostUsd: 0.5,
      maxWallTimeMs: 60_000,
    });
  });

  it('refuses the old SIGNALBOX_MAX_STEPS, naming the two variables that replace it', () => {
    expect(() => parseEnv(StageEnv, { ...base, SIGNALBOX_MAX_STEPS: '8' }, 'tool-decider')).toThrow(EnvError);
    expect(() => parseEnv(StageEnv, { ...base, SIGNALBOX_MAX_STEPS: '8' }, 'tool-decider')).toThrow(
      /SIGNALBOX_MAX_STEPS: no longer read: set SIGNALBOX_MAX_PLAN_STEPS .* SIGNALBOX_MAX_EXECUTED_STEPS/,
    );
  });

  it('names a bad ceiling variable, and a bad ceiling given in code', () => {
    expect(() => parseEnv(StageEnv, { ...base, SIGNALBOX_MAX_REPLANS: '-1' }, 'test')).toThrow(
      /SIGNALBOX_MAX_REPLANS/,
    );
    expect(() => resolveCeilings({ maxReinjections: 1.5 })).toThrow(StageConfigError);
    expect(() => parseEnv(StageEnv, { ...base, SIGNALBOX_MAX_TASK_REVISIONS: '21' }, 'test')).toThrow(
      /SIGNALBOX_MAX_TASK_REVISIONS/,
    );
    expect(() => resolveCeilings({ maxTaskRevisions: -1 })).toThrow(/maxTaskRevisions/);
    expect(() => resolveCeilings({ maxPlanSteps: 0 })).toThrow(/maxPlanSteps/);
    expect(() => resolveCeilings({ maxCostUsd: 0 })).toThrow(/maxCostUsd/);
    expect(resolveCeilings({ maxDegradations: 0 }).maxDegradations).toBe(0);
  });
});
