import { describe, expect, it } from 'vitest';
import { ToolDefinition } from '@signalbox/registry';
import { fanOutValues, valueLists } from './listed-values.js';

/** A read tool of the given parameters (JSON Schema properties) and required names. */
function readTool(
  name: string,
  purpose: string,
  properties: Record<string, Record<string, unknown>>,
  required: readonly string[],
): ToolDefinition {
  return ToolDefinition.parse({
    name,
    version: '1.0.0',
    description: { purpose, returns: 'The result.', not_for: 'Anything else (use another tool).' },
    action: 'read',
    permission: 'read_only',
    scenarios: ['test'],
    visible_agents: ['*'],
    parameters: { type: 'object', properties, required: [...required] },
  });
}

const tides = readTool(
  'tide_table',
  'Look up the tide times for one harbour on a given day.',
  {
    harbour: { type: 'string', normalizers: ['trim', 'city_name'] },
    day: { type: 'string', format: 'date' },
  },
  ['harbour'],
);

const loan = readTool(
  'loan_repayment',
  'Compute the monthly repayment of a loan.',
  {
    principal: { type: 'number' },
    annual_rate: { type: 'number' },
    term_years: { type: 'integer' },
  },
  ['principal', 'annual_rate', 'term_years'],
);

describe('the lists of values a text gives', () => {
  it('reads English lists of names, numbers and quoted titles, with "and" before the last item', () => {
    expect(valueLists('When is high tide in Whitby, Filey and Scarborough tomorrow?')).toMatchObject([
      { shape: 'name', items: ['Whitby', 'Filey', 'Scarborough'] },
    ]);
    // (a comma before three digits groups thousands; one written unit is every item's)
    expect(valueLists('a loan of $250,000 over 12, 18 and 25 years')).toMatchObject([
      { shape: 'number', items: ['12', '18', '25'], written: ['12 years', '18 years', '25 years'] },
    ]);
    expect(valueLists('reviews of "Small Island" and "White Teeth", please')).toMatchObject([
      { shape: 'quoted', items: ['Small Island', 'White Teeth'] },
    ]);
  });

  it('reads Chinese lists joined by 和、与 and the enumeration comma', () => {
    expect(valueLists('帮我看看青岛、大连和厦门后天的潮汐')).toMatchObject([
      { shape: 'han', items: ['青岛', '大连', '厦门'] },
    ]);
    expect(valueLists('查一下TSLA与NVDA的收盘价')).toMatchObject([
      { shape: 'name', items: ['TSLA', 'NVDA'] },
    ]);
  });

  it('reads no list where the items are two ends of one relation or two different quantities', () => {
    expect(valueLists('How far is it between Leeds and York?')).toEqual([]);
    expect(valueLists('苏州和杭州之间有多远')).toEqual([]);
    // (a unit on the first item only: two quantities, not one quantity's values)
    expect(valueLists('she scored 31 points and 12 rebounds')).toEqual([]);
    // (a capital that opens the sentence is a verb's, not a name's)
    expect(valueLists('Compare Lisbon and Porto')).toMatchObject([{ items: ['Lisbon', 'Porto'] }]);
  });
});

describe('one call per listed value', () => {
  it('fans a read out over the values listed for its one required parameter, each call reading its own', () => {
    const calls = fanOutValues(tides, 'When is high tide in Whitby and Filey tomorrow?');
    expect(calls?.map((c) => c.values)).toEqual([{ harbour: 'Whitby' }, { harbour: 'Filey' }]);
    expect(calls?.map((c) => c.text)).toEqual([
      'When is high tide in Whitby tomorrow?',
      'When is high tide in Filey tomorrow?',
    ]);
    const zh = fanOutValues(tides, '青岛和大连明天几点涨潮？');
    expect(zh?.map((c) => c.text)).toEqual(['青岛明天几点涨潮？', '大连明天几点涨潮？']);
  });

  it('gives a list of numbers to the parameter whose name is written nearest it, the shared values to all calls', () => {
    const calls = fanOutValues(
      loan,
      'What would I repay each month on $300,000 at an annual rate of 6% over 10, 15 and 20 years?',
    );
    expect(calls?.map((c) => c.values)).toEqual([
      { term_years: '10' },
      { term_years: '15' },
      { term_years: '20' },
    ]);
    expect(calls?.[1]?.text).toBe(
      'What would I repay each month on $300,000 at an annual rate of 6% over 15 years?',
    );
  });

  it('pairs two lists item by item only when the text says "respectively"', () => {
    const fares = readTool(
      'bus_fare',
      'Look up the fare of one bus route for a number of riders.',
      { route: { type: 'string' }, riders: { type: 'integer' } },
      ['route', 'riders'],
    );
    const respective = fanOutValues(fares, 'Fares on Route A1 and Route B7 for 3 and 5 riders respectively');
    expect(respective?.map((c) => c.values)).toEqual([
      { route: 'Route A1', riders: '3' },
      { route: 'Route B7', riders: '5' },
    ]);
    // Without it the lists may be meant every way with every other: left to one call.
    expect(fanOutValues(fares, 'Fares on Route A1 and Route B7 for 3 and 5 riders')).toBeUndefined();
  });

  it('does not fan out where one call takes the values, or where the words are kinds of thing, not values', () => {
    const average = readTool(
      'average',
      'Compute the average of some numbers.',
      { numbers: { type: 'array', items: { type: 'number' } } },
      ['numbers'],
    );
    expect(fanOutValues(average, 'the average of 4, 8 and 15')).toBeUndefined();
    // Two numbers for two parameters, neither named: one call takes both.
    const gcd = readTool(
      'gcd',
      'Greatest common divisor of two integers.',
      { first: { type: 'integer' }, second: { type: 'integer' } },
      ['first', 'second'],
    );
    expect(fanOutValues(gcd, 'the gcd of 84 and 36')).toBeUndefined();
    // 订单 and 退款 are what the tool works on (its own words), not two values of its parameter.
    const status = readTool('case_status', '查询订单或退款的处理状态。', { query: { type: 'string' } }, [
      'query',
    ]);
    expect(fanOutValues(status, '查一下订单和退款')).toBeUndefined();
    // Lower-case words name values only where a parameter lists them.
    const paint = readTool(
      'paint_stock',
      'Look up the stock of one paint colour.',
      { colour: { type: 'string', enum: ['ochre', 'umber', 'sienna'] } },
      ['colour'],
    );
    expect(fanOutValues(paint, 'how much ochre and umber is left?')?.map((c) => c.values)).toEqual([
      { colour: 'ochre' },
      { colour: 'umber' },
    ]);
    expect(fanOutValues(tides, 'tides for surfing and sailing')).toBeUndefined();
    // A Chinese word is a value only for a parameter whose schema says what its values are (here a free query).
    const papers = readTool('paper_search', 'Search papers.', { query: { type: 'string' } }, ['query']);
    expect(fanOutValues(papers, '找一下强化学习和知识图谱方面的论文')).toBeUndefined();
  });
});
