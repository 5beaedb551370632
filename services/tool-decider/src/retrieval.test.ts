import { describe, expect, it } from 'vitest';
import { ToolDefinition } from '@signalbox/registry';
import {
  RETRIEVAL_CONFIG,
  createLexicalIndex,
  fitsRequest,
  nameHead,
  semanticFeatures,
  semanticFit,
  targetPhrase,
  type ScoredTool,
} from './retrieval.js';
import { stem } from './text.js';

function tool(name: string, description: string, properties: Record<string, unknown>, required: string[]) {
  return ToolDefinition.parse({
    name,
    description,
    parameters: { type: 'object', properties, required },
    scenarios: ['s'],
    visible_agents: ['*'],
    action: 'read',
    permission: 'read_only',
    side_effects: 'none',
    idempotent: true,
    evidence: 'source',
  });
}

const boiling = tool(
  'thermodynamics.calculate_boiling_point',
  'Calculate the boiling point of a given substance at a specific pressure.',
  {
    substance: { type: 'string', description: 'The substance.' },
    pressure: { type: 'number', description: 'The pressure.' },
  },
  ['substance', 'pressure'],
);

const decrypt = tool(
  'crypto.decrypt_message',
  'Decrypt a ciphertext with the given key back into plain text.',
  {
    message: { type: 'string', description: 'The encrypted message.' },
    key: { type: 'string', description: 'The key.' },
  },
  ['message', 'key'],
);

describe('createLexicalIndex fit', () => {
  it('a contradicting qualifier costs conflictPenalty and is explained', () => {
    const index = createLexicalIndex([decrypt]);
    const [same] = index.score("Decrypt the message 'xq7Lp' with the key 'K1'.");
    const [opposite] = index.score("Encrypt the message 'hello' with the key 'K1'.");
    expect(same?.features.conflict).toBe(0);
    expect(opposite?.features.conflict).toBe(1);
    expect(opposite?.explain).toContain('cipher_direction qualifier contradicts');
    expect((same?.fit ?? 0) - (opposite?.fit ?? 0)).toBeGreaterThanOrEqual(
      RETRIEVAL_CONFIG.conflictPenalty - 0.1,
    );
    expect(fitsRequest(same!, [same!])).toBe(true);
    expect(fitsRequest(opposite!, [opposite!])).toBe(false);
  });

  it('an advice question costs advicePenalty', () => {
    const [s] = createLexicalIndex([boiling]).score(
      'What is the best way to find the boiling point of water?',
    );
    expect(s?.features.advice).toBe(1);
    expect(s?.explain).toContain('asks for advice');
  });

  it('an id written with a letter prefix names the kind whose word the prefix abbreviates', () => {
    const shipment = tool(
      'shipment_status_get',
      'Show where a shipment is.',
      { shipment_id: { type: 'string', description: 'The id.' } },
      [],
    );
    const booking = tool(
      'booking_status_get',
      'Show the state of a booking.',
      { booking_no: { type: 'string', description: 'The number.' } },
      [],
    );
    const index = createLexicalIndex([shipment, booking]);
    const top = (request: string) => index.score(request)[0]?.tool.name;
    expect(top('any news on SHP-20417?')).toBe('shipment_status_get');
    expect(top('any news on BKG_0088?')).toBe('booking_status_get');
    // (letters that start no kind's word, or stand in it out of order, name none)
    const [plain] = index.score('what about XR-20417?');
    expect(plain?.features.name).toBe(0);
  });

  it('scores the name head noun', () => {
    const [present] = createLexicalIndex([boiling]).score('boiling point of water at 2 atm');
    const [absent] = createLexicalIndex([boiling]).score('boiling temperature of water at 2 atm');
    expect(present?.features.head).toBe(1);
    expect(absent?.features.head).toBe(0);
  });
});

describe('fitsRequest (relative fit)', () => {
  const scoredAt = (name: string, fit: number): ScoredTool => ({
    tool: ToolDefinition.parse({ ...boiling, name }),
    bm25: 0,
    features: {
      name: 0,
      request: 0,
      target: 0,
      arguments: 0,
      head: 0,
      conflict: 0,
      advice: 0,
      act: 0,
      unnamed: 0,
      semantic: null,
      semanticTarget: null,
      semanticLead: null,
      lexicalLead: 0,
      lexical: fit,
    },
    fit,
    ownFit: fit,
    matched: [],
    explain: '',
  });
  const { fitThreshold, leadFloor, leadMargin } = RETRIEVAL_CONFIG;
  const low = (fitThreshold + leadFloor) / 2;

  it('fits at the threshold whatever the alternatives', () => {
    const top = scoredAt('a', fitThreshold);
    expect(fitsRequest(top, [top, scoredAt('b', fitThreshold)])).toBe(true);
  });

  it('lets a top candidate below the threshold fit when it leads every alternative by leadMargin', () => {
    const top = scoredAt('a', low);
    const runnerUp = scoredAt('b', low - leadMargin);
    expect(fitsRequest(top, [top, runnerUp])).toBe(true);
    expect(fitsRequest(runnerUp, [top, runnerUp])).toBe(false);
    const close = scoredAt('c', low - leadMargin / 2);
    expect(fitsRequest(top, [top, runnerUp, close])).toBe(false);
  });

  it('never lets a lone candidate below the threshold fit (no alternative to lead), nor one below leadFloor', () => {
    const alone = scoredAt('a', low);
    expect(fitsRequest(alone, [alone])).toBe(false);
    const weak = scoredAt('a', leadFloor - 0.01);
    expect(fitsRequest(weak, [weak, scoredAt('b', 0)])).toBe(false);
  });
});

describe('helpers', () => {
  it('nameHead takes the last topic word of the last segment that has one', () => {
    expect(nameHead('get_closest_prime')).toBe(stem('prime'));
    expect(nameHead('music.generate')).toBe(stem('music'));
    expect(nameHead('get')).toBeNull();
  });

  it('targetPhrase strips question words and stops at the first qualifier', () => {
    expect(targetPhrase('What is the freezing point of water at 10 kPa?').trim()).toBe(
      'freezing point of water',
    );
  });

  it('targetPhrase strips a contracted question word whole (What’s, Who’s)', () => {
    expect(targetPhrase("What's the magnetic field at a point 4m away?").trim()).toBe('magnetic field');
    expect(targetPhrase('Who’s the author of Dune?').trim()).toBe('author of Dune');
  });

  it('stems plurals of derived words like their singulars', () => {
    expect(stem('probabilities')).toBe(stem('probability'));
    expect(stem('ratings')).toBe(stem('rating'));
  });
});

describe('the act feature', () => {
  // Both imported as reads, as BFCL's functions are: only the names say that one of them makes a change.
  const add = tool('add_server', 'Add a server configuration.', { host: { type: 'string' } }, ['host']);
  const list = tool('list_servers', 'List the server configurations.', {}, []);

  it('marks a tool named for a change when the request only asks something', () => {
    const scored = createLexicalIndex([add, list]).score('Could you retrieve a list of all the servers?');
    expect(scored.find((s) => s.tool === add)?.features.act).toBe(1);
    expect(scored.find((s) => s.tool === list)?.features.act).toBe(0);
  });

  it('leaves it unmarked when the request asks for that change', () => {
    const scored = createLexicalIndex([add, list]).score('Add a new server with host db.example.org');
    expect(scored.find((s) => s.tool === add)?.features.act).toBe(0);
  });

  it('lowers the semantic fit: the same evidence with the contradiction fits less', () => {
    const [scored] = createLexicalIndex([add]).score('Could you retrieve a list of all the servers?', {
      request: () => 0.6,
      target: () => 0.6,
    });
    const f = (scored as ScoredTool).features;
    expect(f.act).toBe(1);
    const fit = (act: number) => semanticFit(semanticFeatures({ ...f, act }, true, true));
    expect(fit(1)).toBeLessThan(fit(0));
    expect((scored as ScoredTool).fit).toBeCloseTo(fit(1), 2);
  });
});

describe('the rule of the asked thing (TD-6)', () => {
  const bmi = tool(
    'determine_body_mass_index',
    'Calculate body mass index given weight and height.',
    {
      weight: { type: 'number', description: 'Weight of the person in kilograms.' },
      height: { type: 'number', description: 'Height of the person in meters.' },
    },
    ['weight', 'height'],
  );
  const request = 'Calculate the area of a triangle given the base is 10 meters and height is 5 meters.';

  it('refuses a tool that names the asked thing neither in words nor in meaning, whatever its arguments', () => {
    const [scored] = createLexicalIndex([bmi]).score(request, { request: () => 0.4, target: () => 0.2 });
    expect(scored?.features.arguments).toBe(1);
    expect(scored?.features.unnamed).toBe(1);
    expect(scored?.fit).toBe(0);
    expect(scored?.explain).toContain('names neither in words nor in meaning the asked "area of a triangle"');
    expect(fitsRequest(scored as ScoredTool, [scored as ScoredTool])).toBe(false);
  });

  it('keeps it when the asked phrase is as near to it in meaning as a request is to the tool that serves it', () => {
    const near = RETRIEVAL_CONFIG.askedMeaningFloor;
    const [scored] = createLexicalIndex([bmi]).score(request, { request: () => 0.6, target: () => near });
    expect(scored?.features.unnamed).toBe(0);
    expect(scored?.fit).toBeGreaterThan(0);
  });

  it('refuses a tool that names the opposite sense of a qualifier of the one thing asked, near as it is', () => {
    const irr = tool(
      'calculate_internal_rate_of_return',
      'Calculate the internal rate of return for a project given its cash flows.',
      { cash_flows: { type: 'array', items: { type: 'number' }, description: 'The cash flows.' } },
      ['cash_flows'],
    );
    const near = { request: () => 0.75, target: () => 0.65 };
    const [external] = createLexicalIndex([irr]).score(
      'What is the external rate of return for a project with cash flows of -100, 40, 60?',
      near,
    );
    expect(external?.features.conflict).toBe(1);
    expect(external?.features.unnamed).toBe(1);
    expect(external?.fit).toBe(0);
    const [internal] = createLexicalIndex([irr]).score(
      'What is the internal rate of return for a project with cash flows of -100, 40, 60?',
      near,
    );
    expect(internal?.features.unnamed).toBe(0);
    expect(internal?.fit).toBeGreaterThan(0.5);
  });

  it('keeps a tool that names the thing, and reads nothing without the model', () => {
    const [named] = createLexicalIndex([bmi]).score(
      'What is the body mass index of a person of 70 kg and 1.8 m?',
      {
        request: () => 0.4,
        target: () => 0.1,
      },
    );
    expect(named?.features.unnamed).toBe(0);
    const [lexical] = createLexicalIndex([bmi]).score(request);
    expect(lexical?.features.unnamed).toBe(0);
  });
});
