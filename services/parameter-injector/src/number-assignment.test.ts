import type { ParameterHints } from '@signalbox/registry';
import { describe, expect, it } from 'vitest';
import { assignNumbers } from './number-assignment.js';

const dates = { referenceTime: '2024-11-04T09:00:00.000Z', timeZone: 'UTC' };

function param(path: string, type = 'integer', required = true, description?: string): ParameterHints {
  return {
    path,
    schema: { type, ...(description ? { description } : {}) },
    required,
    enum: undefined,
    synonyms: {},
    normalizers: [],
  };
}

function assigned(text: string, params: ParameterHints[]): Record<string, number> {
  return Object.fromEntries([...assignNumbers(params, text, dates)].map(([k, v]) => [k, v.value]));
}

describe('numbers matched to parameters', () => {
  it('a number goes to the parameter whose name stands next to it, before or after', () => {
    expect(
      assigned('A box 30 wide with depth of 12 and height = 8', [
        param('depth'),
        param('height'),
        param('width'),
      ]),
    ).toEqual({
      width: 30,
      depth: 12,
      height: 8,
    });
    // "length 7 and width 3": the name before a number wins over a name after the previous one.
    expect(assigned('a rug of length 7 and width 3', [param('width'), param('length')])).toEqual({
      length: 7,
      width: 3,
    });
  });
  it('names listed, then numbers in the same order ("x and y as 1 and 2")', () => {
    expect(
      assigned('the rectangle has its width and length as 4m and 9m', [param('length'), param('width')]),
    ).toEqual({
      width: 4,
      length: 9,
    });
  });
  it('the rest in order of mention, only for required parameters of one kind and as many numbers', () => {
    expect(
      assigned('What is the least common multiple of 8 and 14?', [param('first'), param('second')]),
    ).toEqual({
      first: 8,
      second: 14,
    });
    // Three numbers for two parameters: nothing is guessed.
    expect(assigned('Multiply 2, 3 and 4', [param('left'), param('right')])).toEqual({});
    // A lone number and a lone required parameter go together; the sentence's full stop is not a decimal point.
    expect(assigned('How many divisors does 84 have.', [param('n')])).toEqual({ n: 84 });
  });
  it('a unit in the description ties a number; an optional parameter never takes a loose number', () => {
    expect(
      assigned('Cool the tank for 40 seconds down by 6', [
        param('duration', 'integer', true, 'How long, in seconds.'),
        param('step', 'integer', false),
      ]),
    ).toEqual({ duration: 40 });
  });
  it('single-letter names count as "a = 1"; exponents and scale words are read as written', () => {
    expect(assigned('Evaluate with p = 2, q=-7 over x^2', [param('p'), param('q')])).toEqual({ p: 2, q: -7 });
    expect(assigned('a city of 4.5 million people', [param('population', 'number')])).toEqual({
      population: 4_500_000,
    });
  });
  it('a percentage for a rate documented as a decimal is the same value as a decimal', () => {
    expect(
      assigned('the savings grow by 7% a year', [
        param('yearly_rate', 'number', true, 'The rate, as a decimal.'),
      ]),
    ).toEqual({ yearly_rate: 0.07 });
  });
  it('a percentage for a real-valued rate is a fraction, unless the parameter is documented in percent', () => {
    expect(assigned('a loan with 6% interest', [param('interest_rate', 'number')])).toEqual({
      interest_rate: 0.06,
    });
    expect(
      assigned('a loan with 6% interest', [param('interest_rate', 'number', true, 'The rate in percent.')]),
    ).toEqual({ interest_rate: 6 });
    expect(assigned('dim the lamp to 40%', [param('brightness', 'integer')])).toEqual({ brightness: 40 });
  });
  it('the count of a relative time ("in 4 years", "within 30 seconds") is a number, not a date', () => {
    expect(assigned('What will 900 dollars be worth in 4 years?', [param('years'), param('amount')])).toEqual(
      {
        years: 4,
        amount: 900,
      },
    );
    expect(
      assigned('The tank drains 60 litres within 30 seconds', [
        param('volume'),
        param('duration', 'integer', true, 'Duration in seconds.'),
      ]),
    ).toEqual({ volume: 60, duration: 30 });
  });
});

describe('numbers written as words and ordinals', () => {
  it('a number word is a number: "three nights", "twenty-five guests", "a dozen", by the name beside it', () => {
    expect(
      assigned('Reserve three nights for twenty-five guests', [param('nights'), param('guests')]),
    ).toEqual({ nights: 3, guests: 25 });
    expect(assigned('Order a dozen roses', [param('roses')])).toEqual({ roses: 12 });
    expect(assigned('Bake half a dozen muffins', [param('muffins')])).toEqual({ muffins: 6 });
    expect(assigned('a table for two adults and one child', [param('adults'), param('children')])).toEqual({
      adults: 2,
      children: 1,
    });
  });
  it('a numeral that counts the numbers after it is not one of them ("two numbers: 8 and 12")', () => {
    expect(
      assigned('Find the least common multiple of two numbers: 8 and 12', [param('a'), param('b')]),
    ).toEqual({ a: 8, b: 12 });
    expect(assigned('its three angles are 30, 60 and 90', [param('x'), param('y'), param('z')])).toEqual({
      x: 30,
      y: 60,
      z: 90,
    });
  });
  it('"one" as a pronoun and a capitalised numeral inside a name are no numbers', () => {
    expect(assigned('Pick the one with a garden', [param('count')])).toEqual({});
    expect(assigned('Show me one of the offers', [param('count')])).toEqual({});
    expect(assigned('Stream Ocean Eleven tonight', [param('count')])).toEqual({});
  });
  it('an ordinal is a number for the parameter it names ("the 18th century")', () => {
    expect(assigned('Paintings of the 18th century', [param('century')])).toEqual({ century: 18 });
  });
});

describe('numbers of a request in Chinese (issue 20)', () => {
  it('an amount in yuan goes to the money parameter; a count to the count', () => {
    expect(
      assigned('退我两百块，一共三件', [
        param('amount', 'number', false),
        param('quantity', 'integer', true),
      ]),
    ).toEqual({ amount: 200, quantity: 3 });
    expect(assigned('预算1.5万元', [param('budget', 'number', false)])).toEqual({ budget: 15000 });
  });
  it('a percentage in Chinese goes to a percent parameter as written, and as a fraction to a decimal rate', () => {
    expect(assigned('折扣百分之十七', [param('discount_percent', 'number')])).toEqual({
      discount_percent: 17,
    });
    expect(assigned('年利率百分之五', [param('rate', 'number', true, 'Enter as a decimal')])).toEqual({
      rate: 0.05,
    });
  });
  it('digits of a date are not numbers: 3天后 gives the count 3 to days, 11月3日 gives nothing', () => {
    expect(assigned('11月3日的订单', [param('count')])).toEqual({});
    expect(assigned('3天后出发', [param('days')])).toEqual({ days: 3 });
    expect(assigned('in 3 days', [param('days')])).toEqual({ days: 3 });
  });
});

describe('a number by what it counts', () => {
  it('an integer documented as "number of <things>" takes the number written before those things', () => {
    const limit = param('limit', 'integer', false, 'The number of hotels to return. Default is 3.');
    expect(assigned('List eight cheap hotels near the station', [param('city_id'), limit])).toEqual({
      limit: 8,
    });
    expect(
      assigned('Show the top 4 songs of the week', [param('size', 'integer', false, 'Top n songs to list.')]),
    ).toEqual({ size: 4 });
  });
  it('not when the number counts something else, or two parameters count the same things', () => {
    expect(
      assigned('Show reviews of 3 hotels', [
        param('limit', 'integer', false, 'Maximum number of reviews shown.'),
      ]),
    ).toEqual({});
    expect(
      assigned('List 5 hotels', [
        param('max_hotels', 'integer', false, 'Largest number of hotels.'),
        param('min_hotels', 'integer', false, 'Smallest number of hotels.'),
      ]),
    ).toEqual({});
  });
});

describe('a code the description explains', () => {
  const region = param(
    'region_id',
    'integer',
    true,
    'The region code. For example, 1 for Lisbon, 2 for Porto, 3 for Faro.',
  );
  const plan = param(
    'plan_id',
    'integer',
    false,
    'Id of the plan: 1 represents the basic plan, 2 represents the family plan, 3 represents the pro plan.',
  );
  it('takes the code of the one meaning the request names', () => {
    expect(assigned('Find a plumber in Porto for tomorrow', [region])).toEqual({ region_id: 2 });
    // The words the meanings share ("plan") tell none apart.
    expect(assigned('Switch me to the family plan', [plan])).toEqual({ plan_id: 2 });
  });
  it('not when the request names two meanings, none, or the description gives one example only', () => {
    expect(assigned('Find a plumber in Porto or Faro', [region])).toEqual({});
    expect(assigned('Which plan do I have?', [plan])).toEqual({});
    expect(
      assigned('Find a plumber in Porto', [
        param('region_id', 'integer', true, 'The region code, e.g. 2 for Porto.'),
      ]),
    ).toEqual({});
  });
});

describe('the kind of quantity a parameter names', () => {
  it('an acceleration, a time, a height take the one number written in a unit of that kind', () => {
    expect(
      assigned('it started from rest, accelerated at a rate of 9.8 m/s^2 for a duration of 5 seconds', [
        param('initial_velocity'),
        param('acceleration', 'number'),
        param('time'),
      ]),
      // "started from rest" states the initial velocity: 0 (see "a body at rest has an initial velocity of 0").
    ).toEqual({ initial_velocity: 0, acceleration: 9.8, time: 5 });
    expect(
      assigned('a ball dropped from a tower 120 ft tall, 3 kg heavy', [param('height'), param('mass')]),
    ).toEqual({ height: 120, mass: 3 });
  });
  it('two parameters of one kind, or two numbers of it, settle nothing', () => {
    expect(
      assigned('from 10 m/s to 30 m/s in 4 seconds', [
        param('initial_velocity', 'integer', false),
        param('final_velocity', 'integer', false),
        param('time', 'integer', false),
      ]),
    ).toEqual({ time: 4 });
    expect(assigned('a walk of 3 km, then 5 km', [param('distance', 'integer', false)])).toEqual({});
  });
  it('years, months and weeks are time units ("for 10 years" to a time documented in years)', () => {
    expect(
      assigned('an investment of $10,000 at an interest rate of 5% compounded yearly for 10 years', [
        param('principle', 'integer', true, 'The initial amount of the investment.'),
        param('interest_rate', 'number'),
        param('time', 'integer', true, 'The time, in years, the money is invested or borrowed for.'),
        param('compounds_per_year', 'integer', false, 'Number of times the interest is compounded per year.'),
      ]),
      // "compounded yearly" names the count per year (see "a count of times per year takes the frequency …").
    ).toEqual({ principle: 10000, interest_rate: 0.05, time: 10, compounds_per_year: 1 });
  });
  it('a parameter documented as an amount of money takes the amount in a currency; one that mentions money does not', () => {
    expect(
      assigned('an initial deposit of $5000 for 5 years', [
        param('principal', 'integer', true, 'The initial amount of money that is being invested or loaned.'),
        param('time', 'integer', true, 'The number of time periods the money is invested or loaned for.'),
      ]),
    ).toEqual({ principal: 5000, time: 5 });
  });
});

describe('numbers joined to the word they count', () => {
  it('"a 2-bedroom, 1-bathroom flat", "a two-bedroom apartment" count bedrooms and bathrooms', () => {
    const beds = param('number_of_beds', 'integer', true, 'The number of bedrooms required in the property.');
    const baths = param(
      'number_of_baths',
      'integer',
      true,
      'The number of bathrooms required in the property.',
    );
    expect(assigned('a 2-bedroom, 1-bathroom apartment with a garage', [beds, baths])).toEqual({
      number_of_beds: 2,
      number_of_baths: 1,
    });
    expect(assigned('Find a two-bedroom, one-bathroom apartment for rent', [beds, baths])).toEqual({
      number_of_beds: 2,
      number_of_baths: 1,
    });
  });
  it('an id with letters after a hyphen is still no number', () => {
    expect(assigned('ticket 12-AB', [param('count', 'integer', false)])).toEqual({});
  });
});

describe('pairs and scientific notation (issue 19)', () => {
  it('an ordered pair in one unit takes its two numbers in the order written', () => {
    expect(
      assigned('The tank went from 20°C at noon to 85°C by evening, holding 3 kg', [
        param('start_temp', 'number', true, 'Starting temperature in degrees Celsius.'),
        param('end_temp', 'number', true, 'Ending temperature in degrees Celsius.'),
        param('mass', 'number', true, 'Mass in kilograms.'),
      ]),
    ).toEqual({ start_temp: 20, end_temp: 85, mass: 3 });
  });

  it('numbers in scientific notation are numbers', () => {
    expect(
      assigned('Two dust grains carry 3e-12 and 4.5E-12', [param('q1', 'number'), param('q2', 'number')]),
    ).toEqual({
      q1: 3e-12,
      q2: 4.5e-12,
    });
  });
});

describe('frequencies, bodies at rest and clock times (issue 19)', () => {
  it('a count of times per year takes the frequency the request writes', () => {
    expect(
      assigned('Grow $2000 at 4% for 6 years, compounded semi-annually', [
        param('periods', 'integer', true, 'How many times per year interest is added.'),
      ]),
    ).toEqual({ periods: 2 });
    // Optional too: the word is the cue. Two different frequencies settle nothing.
    expect(
      assigned('Pay it weekly', [param('payments_per_year', 'integer', false, 'Payments made per year.')]),
    ).toEqual({ payments_per_year: 52 });
    expect(
      assigned('monthly or quarterly, either', [
        param('n', 'integer', true, 'Number of times compounded per year.'),
      ]),
    ).toEqual({});
  });

  it('a body at rest has an initial velocity of 0', () => {
    expect(
      assigned('A cart starts from rest and rolls for 4 seconds', [
        param('initial_speed', 'number'),
        param('duration', 'number', true, 'Time in seconds.'),
      ]),
    ).toEqual({ initial_speed: 0, duration: 4 });
  });

  it('a time on the clock gives its hour and its minutes', () => {
    expect(assigned('Where do the hands point at 9:45?', [param('hour'), param('minutes')])).toEqual({
      hour: 9,
      minutes: 45,
    });
  });
});

describe('a quantity in another unit of the same kind (issue 19)', () => {
  it('is converted to the unit the parameter is documented in', () => {
    expect(
      assigned('Render a clip with a length of 2 minutes', [
        param('clip_length', 'integer', true, 'Length of the clip in seconds.'),
      ]),
    ).toEqual({ clip_length: 120 });
    expect(
      assigned('The hike took 2 hours 15 minutes', [
        param('duration', 'integer', true, 'Duration in seconds.'),
      ]),
    ).toEqual({ duration: 8100 });
    expect(
      assigned('A parcel of 2 kg', [param('weight', 'number', true, 'Weight of the parcel in pounds.')])
        .weight,
    ).toBeCloseTo(4.40924524, 6);
  });
  it('is not converted when a value in the documented unit is written, or the result does not fit', () => {
    expect(
      assigned('Wait 90 seconds, then 2 minutes', [param('delay', 'integer', true, 'Delay in seconds.')]),
    ).toEqual({ delay: 90 });
    expect(assigned('A run of 1 mile', [param('distance', 'integer', false, 'Distance in meters.')])).toEqual(
      {},
    );
  });
});

describe('a year counted back from now (issue 20)', () => {
  const since = [
    param('since_year', 'integer', false, 'Only items from this year on.'),
    param('limit', 'integer', false),
  ];
  it('is the reference year less the count, in English and Chinese', () => {
    expect(assigned('reviews of the camera from the past four years', since)).toEqual({ since_year: 2020 });
    expect(assigned('patents filed 2 years ago', since)).toEqual({ since_year: 2022 });
    expect(assigned('近五年的专利', since)).toEqual({ since_year: 2019 });
    expect(assigned('两年前到现在的专利', since)).toEqual({ since_year: 2022 });
  });
  it('is the named past year a period starts from (去年以来, 大前年起, "since the year before last")', () => {
    expect(assigned('去年以来关于电池回收的专利', since)).toEqual({ since_year: 2023 });
    expect(assigned('大前年起公开的专利有哪些', since)).toEqual({ since_year: 2021 });
    expect(assigned('patents on solid-state batteries since the year before last', since)).toEqual({
      since_year: 2022,
    });
  });
  it('is not read for a count of years', () => {
    expect(assigned('growth over the past 4 years', [param('years')])).toEqual({ years: 4 });
  });
});
