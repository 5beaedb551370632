import { describe, expect, it } from 'vitest';
import { readActs } from './acts.js';
import {
  actConflict,
  adviceCue,
  argumentCoverage,
  askedUnnamed,
  givesRecord,
  nameChangeKind,
  namedAsk,
  namesRecord,
  qualifierConflict,
  qualifierSenses,
  readsOpenContent,
  requestValues,
  type RequiredParameter,
} from './fit-features.js';
import { targetPhrase } from './target.js';
import { tokens } from './text.js';

function param(
  name: string,
  type: string | undefined,
  description = '',
  temporal = false,
): RequiredParameter {
  return { name, type, terms: new Set(tokens(`${name} ${description}`)), temporal };
}

describe('qualifierConflict', () => {
  it('finds a sense the tool contradicts: external vs internal, lowest vs highest, sell vs buy, decrypt vs encrypt', () => {
    expect(qualifierConflict('external rate of return', 'calculate internal rate of return')).toBe('scope');
    expect(qualifierConflict('lowest score', 'game tracker high score: the highest score recorded')).toBe(
      'extreme',
    );
    expect(qualifierConflict('sell my shares of ACME', 'buy shares of a listed company')).toBe('trade_side');
    expect(qualifierConflict('decrypt this message', 'encrypt a message with a key')).toBe(
      'cipher_direction',
    );
  });

  it('matches phrases on word boundaries and through stemming (downloading, exports)', () => {
    expect(qualifierSenses('downloading the report').get('transfer_direction')).toEqual(new Set([1]));
    expect(qualifierConflict('downloading the report', 'upload a file to the drive')).toBe(
      'transfer_direction',
    );
  });

  it('stays quiet when the tool names the same sense, names no sense of the class, or the request names none', () => {
    expect(qualifierConflict('internal rate of return', 'calculate internal rate of return')).toBeNull();
    expect(qualifierConflict('greatest common divisor', 'greatest common divisor of two numbers')).toBeNull();
    expect(qualifierConflict('sell my car', 'estimate the value of a used car')).toBeNull();
    expect(qualifierConflict('weather in Paris', 'the highest temperature forecast')).toBeNull();
  });
});

describe('requestValues', () => {
  it('counts numbers (digits and number words) and sees dates', () => {
    const v = requestValues('Split 12.5 kg into two bags by March 3');
    expect(v.numbers).toBe(3);
    expect(v.temporal).toBe(true);
  });

  it('takes capitalised words as names only when they do not start a sentence', () => {
    expect(requestValues('What is a holy book?').names).toBe(false);
    expect(requestValues('Find restaurants in London.').names).toBe(true);
    expect(requestValues('Is it late? Where am I').names).toBe(false);
  });

  it('sees quoted values (not apostrophes) and codes', () => {
    expect(requestValues("What's the time? It's late").quoted).toBe(false);
    expect(requestValues("Find the book 'Dune'").quoted).toBe(true);
    expect(requestValues('Weigh C6H12O6').codes).toBe(true);
  });

  it('counts qualifier words outside what the request asks for', () => {
    expect(requestValues('names of proteins in the plasma membrane', ['name', 'protein']).qualifiers).toBe(2);
    expect(requestValues("what's the time right now", ['time', 'right']).qualifiers).toBe(0);
  });
});

describe('argumentCoverage', () => {
  const request = (text: string, askedFor: string[] = []) =>
    [new Set(tokens(text)), requestValues(text, askedFor)] as const;

  it('gives each number to one numeric parameter', () => {
    const params = [param('weight', 'number'), param('height', 'number')];
    expect(argumentCoverage(params, ...request('weight is 70'))).toBe(0.5);
    expect(argumentCoverage(params, ...request('weight is 70, height unknown'))).toBe(0.75);
    expect(argumentCoverage(params, ...request('70 kg and 1.8 m'))).toBe(1);
  });

  it('needs a date-like expression or a number for a temporal parameter', () => {
    const params = [param('date', 'string', 'the date', true)];
    expect(argumentCoverage(params, ...request("what's the time right now", ['time', 'right']))).toBe(0);
    expect(argumentCoverage(params, ...request('weather next Tuesday'))).toBe(1);
  });

  it('fills a string parameter from its own words, a quote, a name, a code or a qualifier — else not', () => {
    const params = [param('location', 'string', 'the city')];
    expect(argumentCoverage(params, ...request('what time is it', ['time']))).toBe(0);
    expect(argumentCoverage(params, ...request('time in the city', ['time']))).toBe(1);
    expect(argumentCoverage(params, ...request('time in Sydney', ['time']))).toBe(1);
    expect(argumentCoverage(params, ...request('time in tokyo', ['time']))).toBe(1);
  });

  it("fills a parameter that takes the question itself (a search's query) from the question's own words", () => {
    const params = [param('query', 'string', 'The search query.')];
    const q = 'how many more transactions per hour does 17 push than 16?';
    expect(argumentCoverage(params, ...request(q, [...tokens(q)]))).toBe(1);
    // (a parameter that takes a value, not the question, still needs one)
    expect(argumentCoverage([param('location', 'string', 'the city')], ...request(q, [...tokens(q)]))).toBe(
      0,
    );
    const act = 'the music is too loud, could you turn it down to 70?';
    expect(argumentCoverage(params, ...request(act, [...tokens(act)]))).toBe(0);
    const mine = 'Can you check where my parcel for order 1234 is?';
    expect(argumentCoverage(params, ...request(mine, [...tokens(mine)]))).toBe(0);
    const told = 'tell me what it says about performance.';
    expect(argumentCoverage(params, ...request(told, [...tokens(told)]))).toBe(0);
  });

  it('is 1 without required parameters and counts booleans as defaulted', () => {
    expect(argumentCoverage([], ...request('anything'))).toBe(1);
    expect(argumentCoverage([param('verbose', 'boolean')], ...request('x'))).toBe(1);
  });
});

describe('adviceCue', () => {
  it('recognises advice and opinion questions', () => {
    expect(adviceCue('What is the best way to reduce CO2 emissions?')).toBe('What is the best');
    expect(adviceCue('How can I sell my acoustic guitar?')).toBe('How can I');
    expect(adviceCue('Which colors should I mix?')).toBe('should I');
  });

  it('leaves lookups and computations alone', () => {
    expect(adviceCue('Find the best Italian restaurants in New York')).toBeNull();
    expect(adviceCue('Calculate the derivative of 2x^2')).toBeNull();
  });
});

describe('nameChangeKind', () => {
  it('reads the change a name says it makes, first or last word or first of the last segment', () => {
    expect(nameChangeKind('add_server')).toBe('create');
    expect(nameChangeKind('refund_create')).toBe('create');
    expect(nameChangeKind('Hotels_4_ReserveHotel')).toBe('create');
    expect(nameChangeKind('crm.setWebsiteRules')).toBe('update');
    expect(nameChangeKind('delete_ticket')).toBe('delete');
  });

  it('is null for names of look-ups and of no verb', () => {
    expect(nameChangeKind('get_weather')).toBeNull();
    expect(nameChangeKind('Hotels_4_SearchHotel')).toBeNull();
    expect(nameChangeKind('list_servers')).toBeNull();
    expect(nameChangeKind('weather')).toBeNull();
  });
});

describe('actConflict', () => {
  const asked = (request: string) => new Set(readActs(request).map((a) => a.kind));

  it('finds a question put to a tool named for a change', () => {
    expect(
      actConflict(asked('Could you retrieve a list of all the servers?'), nameChangeKind('add_server')),
    ).toBe(1);
    expect(
      actConflict(asked('What are the mapping rules of my website?'), nameChangeKind('set_mapping_rules')),
    ).toBe(1);
  });

  it('leaves changes to the intent rules, and look-ups to tools that look up', () => {
    expect(actConflict(asked('Cancel my hotel booking'), nameChangeKind('book_hotel'))).toBe(0);
    expect(
      actConflict(asked('Could you retrieve a list of all the servers?'), nameChangeKind('list_servers')),
    ).toBe(0);
    expect(actConflict(asked('Add a new server called X'), nameChangeKind('add_server'))).toBe(0);
    expect(
      actConflict(asked('Book a hotel in Rome for two nights'), nameChangeKind('Hotels_4_ReserveHotel')),
    ).toBe(0);
    expect(actConflict(asked('What is the weather in Rome?'), nameChangeKind('get_weather'))).toBe(0);
    expect(actConflict(new Set(), nameChangeKind('add_server'))).toBe(0);
  });
});

describe('namedAsk', () => {
  const named = (request: string, oneAsk = true) => namedAsk(request, targetPhrase(request), () => oneAsk);

  it('reads the one thing a question or command names with "the", before its "of"', () => {
    expect(named('Calculate the area of a triangle given the base is 10 meters.')).toEqual(tokens('area'));
    expect(named("What's the magnetic field at a point 4m away from a wire?")).toEqual(
      tokens('magnetic field'),
    );
    expect(named('What is the mean of an experiment with 50 successes out of 500 trials?')).toEqual(
      tokens('mean'),
    );
  });

  it('reads past a general or quantifying noun to the thing it stands for', () => {
    expect(named('What is the total quantity of paint needed for a wall of 30 m2?')).toEqual(
      tokens('paint needed'),
    );
    expect(named('Find the name of the movie directed by Joel Zwick.')).toEqual(tokens('movie directed'));
  });

  it('names nothing for a record, a list of things, several asks, several sentences or other question forms', () => {
    expect(named('Give me the detailed profile of basketball player Lebron James.')).toEqual([]);
    expect(named('What is the wind speed and temperature in Paris?')).toEqual([]);
    expect(named('Find the area of a circle of radius 5', false)).toEqual([]);
    expect(named('I have a triangle. What is the area of it?')).toEqual([]);
    expect(named('How many championships did Michael Jordan win?')).toEqual([]);
    expect(named('What is the result of the factorial of 5?')).toEqual(tokens('factorial'));
    expect(named('深圳明天的天气怎么样')).toEqual([]);
  });

  it('reads the thing a what/which question names before its verb', () => {
    expect(named('Which galleries are free on Sundays in Madrid?')).toEqual(tokens('galleries'));
    expect(named('What vegan dishes does the cafe on Elm Street serve?')).toEqual(tokens('vegan dishes'));
    // No auxiliary after the words: not this form; a second sentence: not one ask.
    expect(named('What happened in Madrid yesterday?')).toEqual([]);
    expect(named('I am in Madrid. Which galleries are free on Sundays?')).toEqual([]);
  });

  it('reads the thing a Chinese question names after its question word, past a general noun', () => {
    expect(named('杭州这个周末有什么好看的展览')).toEqual(tokens('好看 展览'));
    expect(named('你们店里有哪些口味的蛋糕？')).toEqual(tokens('口味 蛋糕'));
    expect(named('西湖边有什么好吃的东西吗')).toEqual(tokens('好吃'));
    // Not a thing: "when", "why", a question of two clauses, a question with no question word.
    expect(named('新版本什么时候上线')).toEqual([]);
    expect(named('为什么我的快递还没到')).toEqual([]);
    expect(named('杭州明天冷不冷？另外西湖边有什么好吃的')).toEqual([]);
    expect(named('杭州明天冷不冷')).toEqual([]);
    expect(named('我借的书里，有哪些是下周就到期的？')).toEqual([]);
    // After a subject and its verb the question word asks an attribute of the subject: which floor the office is on.
    expect(named('你们的办公室是在哪个楼层')).toEqual([]);
  });
});

describe('readsOpenContent', () => {
  const parameter = (name: string, extra: Partial<RequiredParameter> = {}): RequiredParameter => ({
    name,
    type: 'string',
    terms: new Set(tokens(name)),
    temporal: false,
    ...extra,
  });

  it('is true for a page reader (it requires a URL) and a search (it requires only the question as text)', () => {
    expect(readsOpenContent([parameter('link', { url: true }), parameter('focus')])).toBe(true);
    expect(readsOpenContent([parameter('search_query')])).toBe(true);
    expect(readsOpenContent([parameter('q')])).toBe(true);
    expect(readsOpenContent([parameter('keywords')])).toBe(true);
  });

  it('is false for a tool that needs a value of its own domain, and for one that requires nothing', () => {
    expect(readsOpenContent([parameter('query'), parameter('cuisine')])).toBe(false);
    expect(readsOpenContent([parameter('city')])).toBe(false);
    expect(readsOpenContent([parameter('query', { type: 'integer' })])).toBe(false);
    expect(readsOpenContent([])).toBe(false);
  });
});

describe('askedUnnamed', () => {
  const vocabulary = (text: string) => new Set(tokens(text));

  it('is 1 when no asked word is in what the tool says it does and gives', () => {
    expect(
      askedUnnamed(tokens('area'), vocabulary('determine body mass index Calculate body mass index'), false),
    ).toBe(1);
  });

  it('is 0 when one is, also in another form the light stemmer leaves apart, or abbreviated', () => {
    expect(askedUnnamed(tokens('movie'), vocabulary('Movies 3 FindMovies'), false)).toBe(0);
    expect(askedUnnamed(tokens('probability'), vocabulary('calc prob of event'), false)).toBe(0);
    expect(askedUnnamed(tokens('percentage preferring'), vocabulary('get preference'), false)).toBe(0);
  });

  it('is 0 for a tool that returns a record of something, and when nothing is named', () => {
    expect(askedUnnamed(tokens('rating'), vocabulary('board game info'), true)).toBe(0);
    expect(askedUnnamed([], vocabulary('anything'), false)).toBe(0);
  });
});

describe('namesRecord', () => {
  const verbs = new Set(tokens('get fetch calculate value'));

  it('reads the last segment that says more than a verb', () => {
    expect(namesRecord('get_game_item_stats', verbs)).toBe(true);
    expect(namesRecord('sculpture.get_details', verbs)).toBe(true);
    expect(namesRecord('history_fact.fetch', verbs)).toBe(true);
    expect(namesRecord('statistics.calculate_p_value', verbs)).toBe(false);
    expect(namesRecord('determine_body_mass_index', verbs)).toBe(false);
  });

  it('reads what a purpose says it gives, before its qualifiers', () => {
    expect(
      givesRecord(targetPhrase('Retrieves the current weather information for a specified location.')),
    ).toBe(true);
    expect(
      givesRecord(targetPhrase('Predict the revenue of a company for a period based on historical data.')),
    ).toBe(false);
  });
});
