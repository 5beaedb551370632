import { describe, expect, it } from 'vitest';
import { requestArithmetic } from './request-arithmetic.js';

const program = (text: string) => requestArithmetic(text)?.expression;

describe('requestArithmetic (the request writes its own calculation)', () => {
  it('reads a percentage of a figure in English and Chinese', () => {
    expect(program('What is 17% of 2,340?')).toBe('17 / 100 * 2340');
    expect(program('两千三百四十的百分之十七是多少？')).toBe('17 / 100 * 2340');
    expect(program('2340的17%是多少')).toBe('17 / 100 * 2340');
  });

  it('reads one operation between two figures', () => {
    expect(program('what is 3.5 times 12')).toBe('3.5 * 12');
    expect(program('12乘以3等于多少')).toBe('12 * 3');
    expect(program('1,000 divided by 8')).toBe('1000 / 8');
  });

  it('reads a change from one figure to another as a per cent of the first, rounded when asked', () => {
    expect(program('帮我算一下：从44100涨到52300，涨幅是百分之多少？保留两位小数')).toBe(
      'Math.round((52300 - 44100) / 44100 * 100 * 100) / 100',
    );
    expect(program('sales went from 1,200 to 900, what percentage drop is that?')).toBe(
      '(900 - 1200) / 1200 * 100',
    );
    // No per cent asked for: "from … to" alone names no operation.
    expect(requestArithmetic('move it from 10 to 20')).toBeUndefined();
  });

  it('reads a figure raised or lowered by a percentage it names', () => {
    expect(program('a 4,800 euro laptop cut by 12 percent costs how much now?')).toBe(
      '4800 * (1 - 12 / 100)',
    );
    expect(program('if my 3,150 salary is raised by 4%, what do I get?')).toBe('3150 * (1 + 4 / 100)');
    expect(program('房租四千五降了百分之八，现在多少')).toBe('4500 * (1 - 8 / 100)');
    expect(program('预算1.2万增加了15%是多少')).toBe('12000 * (1 + 15 / 100)');
    // A percentage with no figure it changes is no calculation of the request's own.
    expect(requestArithmetic('the price rose by 3% last year')).toBeUndefined();
  });

  it('reads the mean of the one list of figures written, rounded when asked', () => {
    expect(requestArithmetic('what is the mean of 12, 15 and 21?')?.expression).toBe('(12 + 15 + 21) / 3');
    expect(
      requestArithmetic('四次称重分别是2.5、2.7、2.6、2.8公斤，平均多少？保留两位小数')?.expression,
    ).toBe('Math.round((2.5 + 2.7 + 2.6 + 2.8) / 4 * 100) / 100');
    expect(requestArithmetic('the average delivery time is too long')).toBeUndefined();
  });

  it('writes nothing when the request names no operation over figures of its own', () => {
    expect(requestArithmetic('How much faster is PostgreSQL 17 than 16, in percent?')).toBeUndefined();
    expect(requestArithmetic('帮我算一下增长率')).toBeUndefined();
  });
});

describe('requestArithmetic: a figure in other units (issue 20)', () => {
  it('converts a figure to the units asked, and a rate to the amount over a time named', () => {
    expect(program('1.5 TB expressed in GB?')).toBe('1.5 * 1000');
    expect(program('convert 90 minutes to hours')).toBe('90 / 60');
    expect(program('450 MB/s 换算成 GB/s 是多少')).toBe('450 / 1000');
    expect(program('1.2 GB/s in MB/s, and how many GB is that in an hour?')).toBe(
      '({ "MB/s": 1.2 * 1000, "GB in hour": 1.2 * 1 * 3600 })',
    );
  });

  it('converts nothing between kinds, or a count', () => {
    expect(program('3 GB in minutes')).toBeUndefined();
    expect(program('12 apples in pears')).toBeUndefined();
  });
});

describe('requestArithmetic: rates, spreads and splits the request gives', () => {
  it.each([
    [
      'A pump moves 40 litres a minute; if it copies 80 GB an hour, how many hours until 2 TB is done?',
      'Math.round(2000 / 80 * 100) / 100',
    ],
    ['at 250 MB per second, how long until 3 GB is transferred?', 'Math.round(3000 / 250 * 100) / 100'],
    ['每小时备份30GB，多少天能备份完1.44TB？', 'Math.round(1440 / 30 * 0.0416666666667 * 100) / 100'],
  ])('the time to reach a total at a rate given: %s', (text, expression) => {
    expect(program(text)).toBe(expression);
  });

  it.each([
    ['800 TBW spread over 4 years, how many GB per day is that?', 'Math.round(800000 / 1460 * 100) / 100'],
    ['3600GB分摊到30天，每天多少GB', 'Math.round(3600 / 30 * 100) / 100'],
  ])('a total spread over a time given, per the time asked: %s', (text, expression) => {
    expect(program(text)).toBe(expression);
  });

  it.each([
    [
      'what is 1,500 raised by 10 percent, then divided equally among 3 teams?',
      '(1500 * (1 + 10 / 100)) / 3',
    ],
    ['预算两万增加了百分之五，再平摊到4个季度', '(20000 * (1 + 5 / 100)) / 4'],
  ])('a result then split over a count given: %s', (text, expression) => {
    expect(program(text)).toBe(expression);
  });

  it('writes nothing for a rate without a total, or a time asked of nothing given', () => {
    expect(requestArithmetic('it writes 650 GB a day; how many days is the warranty?')).toBeUndefined();
    expect(requestArithmetic('how long until the 2 TB drive arrives?')).toBeUndefined();
  });
});
