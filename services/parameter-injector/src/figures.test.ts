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

describe('calculationFor: requests nobody wrote for these pages (issue 20)', () => {
  const figures = readFigures(BENCHMARK);
  const REVIEW = [
    'The Y3 reached 1,850 MB/s sequential read in our tests, slightly under its rated 2000 MB/s.',
    'Sustained writes drop to 600 MB/s once the 100 GB cache is full.',
  ];

  it('reads the operation and the base of a comparison in Chinese (A比B: B is the base)', () => {
    expect(calculationFor('PostgreSQL 16比17的延迟高了百分之几？', figures).expression).toBe(
      'Math.round(((inputs.postgresql_16_ms - inputs.postgresql_17_ms) / inputs.postgresql_17_ms) * 10000) / 100',
    );
    expect(calculationFor('17的吞吐是16的几倍？', figures).expression).toBe(
      'Math.round((inputs.postgresql_17_transactions_per_second / inputs.postgresql_16_transactions_per_second) * 100) / 100',
    );
  });

  it('gives the answer in the time the request asks per', () => {
    expect(
      calculationFor('How many fewer transactions per minute does 16 do than 17?', figures).expression,
    ).toBe(
      'inputs.postgresql_16_transactions_per_second * 60 - inputs.postgresql_17_transactions_per_second * 60',
    );
  });

  it('names operands by the words of their clauses, and states a factor as larger over smaller', () => {
    const review = readFigures(REVIEW);
    expect(
      calculationFor(
        'By what factor is the write speed after the cache fills lower than the measured sequential read?',
        review,
      ).expression,
    ).toBe('Math.round((inputs.y3_mb_s / inputs.sustained_mb_s) * 100) / 100');
  });

  it('compares figures in different units of one kind after converting them', () => {
    const both = readFigures(['Sequential read: 3.2 GB/s.', 'The Q5 reached 2800 MB/s sequential read.']);
    expect(
      calculationFor('By what percentage is the sequential read of the datasheet above the Q5?', both)
        .expression,
    ).toBe(
      'Math.round(((inputs.sequential_read_gb_s - inputs.q5_mb_s * 0.001) / (inputs.q5_mb_s * 0.001)) * 10000) / 100',
    );
  });

  it('spreads a quantity over a time the request gives, per the time it asks, in its unit', () => {
    const sheet = readFigures(['Endurance: 600 TBW over a 3-year warranty.']);
    expect(calculationFor('按3年算，平均每天能写多少GB？', sheet).expression).toBe(
      'Math.round(inputs.endurance_tbw * 1000 / 1095 * 100) / 100',
    );
    expect(calculationFor('On average, how many GB a day can I write over 3 years?', sheet).expression).toBe(
      'Math.round(inputs.endurance_tbw * 1000 / 1095 * 100) / 100',
    );
  });

  it('writes nothing when two things compared by code are not both among the figures', () => {
    expect(
      calculationFor('By what percentage does the A1 beat the Y3 on sequential read?', readFigures(REVIEW)),
    ).toEqual({ expression: undefined, note: 'no two figures of one unit match what the request compares' });
  });
});

describe('calculationFor: a unit named by its initials, and a base the request gives', () => {
  const figures = readFigures(BENCHMARK);
  const SHEET = [
    'Sequential read: 3.2 GB/s. Sequential write: 2.9 GB/s.',
    'Random read: 650,000 IOPS at queue depth 32.',
  ];

  it.each([
    [
      '16比17的TPS低了百分之几？',
      'Math.round(((inputs.postgresql_16_transactions_per_second - inputs.postgresql_17_transactions_per_second) / inputs.postgresql_17_transactions_per_second) * 10000) / 100',
    ],
    [
      'By what percentage is the TPS of 17 above 16?',
      'Math.round(((inputs.postgresql_17_transactions_per_second - inputs.postgresql_16_transactions_per_second) / inputs.postgresql_16_transactions_per_second) * 10000) / 100',
    ],
  ])('an acronym of the unit’s words names it (TPS: transactions per second): %s', (request, expression) => {
    expect(calculationFor(request, figures).expression).toBe(expression);
  });

  it.each([
    [
      '随机读IOPS比40万多出百分之几？',
      'Math.round(((inputs.random_read_iops - 400000) / 400000) * 10000) / 100',
    ],
    [
      'How many times higher than 200k is its random read IOPS?',
      'Math.round((inputs.random_read_iops / 200000) * 100) / 100',
    ],
    ['随机读的IOPS比七十万少多少', 'inputs.random_read_iops - 700000'],
  ])(
    'compares the one figure whose unit the request names with the number it gives: %s',
    (request, expression) => {
      expect(calculationFor(request, readFigures(SHEET)).expression).toBe(expression);
    },
  );

  it('writes nothing when the unit named is not the only one, or no number follows the comparison', () => {
    expect(calculationFor('比3 GB/s快百分之几？', readFigures(SHEET)).expression).toBeUndefined();
    expect(calculationFor('随机读IOPS比上一代高百分之几？', readFigures(SHEET)).expression).toBeUndefined();
  });
});

describe('calculationFor: the time to move an amount the request gives at a rate a source states', () => {
  const SHEET = ['Sequential read: 3.2 GB/s. Sequential write: 2.9 GB/s.'];

  it.each([
    [
      'How many minutes to copy 600 GB at its sequential write speed?',
      'Math.round(600 / inputs.sequential_write_gb_s * 0.0166666666667 * 100) / 100',
    ],
    [
      'how long would reading 1.6 TB take at the sequential read rate?',
      'Math.round(1600 / inputs.sequential_read_gb_s * 100) / 100',
    ],
  ])('%s', (request, expression) => {
    expect(calculationFor(request, readFigures(SHEET)).expression).toBe(expression);
  });

  it('writes nothing when the rate meant is not named, or two amounts are given', () => {
    expect(
      calculationFor('how long to move 600 GB at its speed?', readFigures(SHEET)).expression,
    ).toBeUndefined();
    expect(
      calculationFor('how many hours to read 1 TB and 2 TB at its sequential read speed?', readFigures(SHEET))
        .expression,
    ).toBeUndefined();
  });
});

describe('calculationFor: things compared by code, over the pages of each', () => {
  const SHEET = ['Sequential write: 1.8 GB/s. Sequential read: 2.1 GB/s.'];
  const REVIEW = ['The K4 managed 1500 MB/s sequential write in our runs, under its rated 1700 MB/s.'];
  const figures = readFigures(
    [...SHEET, ...REVIEW],
    [...SHEET.map(() => 'M1 SSD datasheet'), ...REVIEW.map(() => 'Review: K4 SSD')],
  );

  it.each([
    [
      "By what percentage is the M1's sequential write above the K4's measured one?",
      'Math.round(((inputs.sequential_write_gb_s - inputs.k4_mb_s * 0.001) / (inputs.k4_mb_s * 0.001)) * 10000) / 100',
    ],
    [
      'Compared with the K4, how many percent faster is the M1 at sequential write?',
      'Math.round(((inputs.sequential_write_gb_s - inputs.k4_mb_s * 0.001) / (inputs.k4_mb_s * 0.001)) * 10000) / 100',
    ],
  ])('one figure of each thing, its page’s title naming it: %s', (request, expression) => {
    expect(calculationFor(request, figures).expression).toBe(expression);
  });

  it('keeps the title of the page each figure was read from', () => {
    expect(figures.map((f) => f.source)).toEqual([
      'M1 SSD datasheet',
      'M1 SSD datasheet',
      'Review: K4 SSD',
      'Review: K4 SSD',
    ]);
  });
});
