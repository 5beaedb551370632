import { describe, expect, it } from 'vitest';
import { calculationFor, readFigures } from './figures.js';

const BENCHMARK = [
  'Setup: 16 vCPU, 64 GB RAM, NVMe storage, pgbench scale 1000, 64 clients, 10 minutes per run.',
  'PostgreSQL 16 averaged 44,100 transactions per second with a mean latency of 1.45 ms.',
  'PostgreSQL 17 averaged 52,300 transactions per second with a mean latency of 1.22 ms.',
  'Read-only runs differed by less than 3% between the two versions.',
];

const values = (texts: readonly string[]) =>
  Object.fromEntries(readFigures(texts).map((f) => [f.name, f.value]));

describe('readFigures', () => {
  it('names each quoted number by whose it is and its unit; names and unit-less numbers are not figures', () => {
    expect(values(BENCHMARK)).toEqual({
      setup_vcpu: 16,
      setup_gb: 64,
      setup_clients: 64,
      setup_minutes_per_run: 10,
      postgresql_16_transactions_per_second: 44100,
      postgresql_16_ms: 1.45,
      postgresql_17_transactions_per_second: 52300,
      postgresql_17_ms: 1.22,
      read_only_percent: 3,
    });
  });

  it('keeps decimals across sentence ends, reads "X: value" leads, and numbers a repeated name', () => {
    expect(
      values([
        'Sequential read: 3.2 GB/s. Sequential write: 2.9 GB/s.',
        'Random read: 650,000 IOPS at queue depth 32.',
        'The Z7 reached 2800 MB/s sequential read in our tests, slightly under its rated 3000 MB/s.',
        'PostgreSQL 17 was released on 2024-09-26.',
      ]),
    ).toEqual({
      sequential_read_gb_s: 3.2,
      sequential_write_gb_s: 2.9,
      random_read_iops: 650000,
      z7_mb_s: 2800,
      z7_mb_s_2: 3000,
    });
  });
});

describe('calculationFor', () => {
  const figures = readFigures(BENCHMARK);
  const tps = (v: number) => `inputs.postgresql_${String(v)}_transactions_per_second`;

  it('"how much faster is 17 than 16, in percent": percent change of the throughput figures, 17 against 16', () => {
    const out = calculationFor('How much faster is PostgreSQL 17 than 16 on pgbench, in percent?', figures);
    expect(out.expression).toBe(`Math.round(((${tps(17)} - ${tps(16)}) / ${tps(16)}) * 10000) / 100`);
    expect(out.note).toBe(
      'percent change of PostgreSQL 17 52,300 transactions per second vs PostgreSQL 16 44,100 transactions per second',
    );
  });

  it('"how many times" is a ratio; "difference in latency" takes the time unit; "from A to B" makes A the base', () => {
    expect(calculationFor('How many times faster is PostgreSQL 17 than 16?', figures).expression).toBe(
      `Math.round((${tps(17)} / ${tps(16)}) * 100) / 100`,
    );
    expect(
      calculationFor('What is the difference in latency between PostgreSQL 16 and 17 in ms?', figures)
        .expression,
    ).toBe('inputs.postgresql_16_ms - inputs.postgresql_17_ms');
    expect(
      calculationFor('What is the percentage change in transactions per second from 16 to 17?', figures)
        .expression,
    ).toBe(`Math.round(((${tps(17)} - ${tps(16)}) / ${tps(16)}) * 10000) / 100`);
  });

  it('writes nothing when the wording names no operation, no figures match, or two units tie', () => {
    expect(calculationFor('What do the notes say about PostgreSQL 17?', figures)).toEqual({
      expression: undefined,
      note: 'the request names no calculation',
    });
    expect(
      calculationFor('How much faster is MySQL 8 than 5, in percent?', figures).expression,
    ).toBeUndefined();
    expect(calculationFor('What is the difference between PostgreSQL 16 and 17?', figures)).toEqual({
      expression: undefined,
      note: 'ambiguous: the request could compare transactions_per_second or ms',
    });
  });
});
