import { describe, expect, it } from 'vitest';
import { cosine } from '@signalbox/embedder';
import { createFakeEmbedder } from '@signalbox/embedder/testing';
import { ToolDefinition } from '@signalbox/registry';
import {
  cosinesTo,
  createSemanticScorer,
  meaningOf,
  notForClauses,
  requestMeaning,
  toolTexts,
} from './semantic.js';

const tool = (name: string, purpose: string, examples: string[] = []) =>
  ToolDefinition.parse({
    name,
    description: purpose,
    examples,
    parameters: { type: 'object', properties: {} },
    scenarios: ['s'],
    visible_agents: ['*'],
    action: 'read',
    permission: 'read_only',
    side_effects: 'none',
    idempotent: true,
    evidence: 'source',
  });

const tools = [
  tool('get_weather', 'The weather forecast for a city.', ['Will it rain in Oslo tomorrow?']),
  tool('get_stock_price', 'The latest price of a listed share.'),
  tool('convert_currency', 'Convert an amount between two currencies.'),
];

describe('createSemanticScorer', () => {
  it("computes a tool's vectors once per definition hash and reuses them", async () => {
    const embedder = createFakeEmbedder();
    const scorer = createSemanticScorer(embedder);
    await scorer.similarities('rain in Oslo?', ['rain in Oslo?'], tools);
    const first = embedder.calls;
    // 4 tool texts (one tool has an example) + 1 request.
    expect(first).toBe(5);
    await scorer.similarities('price of ACME', ['price of ACME'], tools);
    expect(embedder.calls - first).toBe(1);
    // A changed definition is a new hash: only that tool is embedded again (with the request).
    const changed = [
      ...tools.slice(0, 2),
      tool('convert_currency', 'Convert money from one currency into another.'),
    ];
    const before = embedder.calls;
    await scorer.similarities('price of ACME', ['price of ACME'], changed);
    expect(embedder.calls - before).toBe(1);
  });

  it('adds texts to similarities as if they had been given at once, embedding only the new ones', async () => {
    const embedder = createFakeEmbedder();
    const scorer = createSemanticScorer(embedder);
    const texts = ['rain in Oslo?', 'the price of ACME', 'convert 10 EUR'];
    const whole = await createSemanticScorer(createFakeEmbedder()).similarities(texts[0] ?? '', texts, tools);
    const sims = await scorer.similarities(texts[0] ?? '', texts.slice(0, 1), tools);
    expect(sims.of('the price of ACME', tools[1]!)).toBeUndefined();
    expect(sims.between('rain in Oslo?', 'convert 10 EUR')).toBeUndefined();
    const before = embedder.calls;
    await sims.including(texts);
    expect(embedder.calls - before).toBe(2);
    for (const text of texts) for (const t of tools) expect(sims.of(text, t)).toBe(whole.of(text, t));
    expect(sims.between('rain in Oslo?', 'convert 10 EUR')).toBe(
      whole.between('rain in Oslo?', 'convert 10 EUR'),
    );
  });

  it('never loses a vector it returns when its caches are trimmed', async () => {
    const scorer = createSemanticScorer(createFakeEmbedder(), { cacheSize: 1 });
    const texts = ['weather in Oslo', 'the price of ACME', 'weather in Oslo', 'convert 10 EUR'];
    const sims = await scorer.similarities(texts[0] ?? '', texts, tools);
    for (const text of texts) for (const t of tools) expect(sims.of(text, t)).toEqual(expect.any(Number));
    expect(sims.between('weather in Oslo', 'convert 10 EUR')).toEqual(expect.any(Number));
    const scenes = await scorer.sceneSimilarities('weather in Oslo', [
      {
        id: 'a',
        description: 'Weather questions',
        examples: ['Is it sunny?'],
        keywords: [],
        scenario: 's',
        tools: ['get_weather'],
        agents: [],
      },
      {
        id: 'b',
        description: 'Share prices',
        examples: [],
        keywords: [],
        scenario: 's',
        tools: ['get_weather'],
        agents: [],
      },
    ]);
    expect([...scenes.keys()]).toEqual(['a', 'b']);
  });

  it('embeds URLs and e-mail addresses as their kind, and compares a tool by its purpose and examples', () => {
    expect(meaningOf('Open https://example.com/a?b=1 and mail ana@example.org')).toBe(
      'Open a URL and mail an e-mail address',
    );
    // A request's identifiers say nothing of what it asks; short numbers (amounts, years) and dates stay.
    expect(requestMeaning('快递单SF1234567890和订单998877665到哪了')).toBe('快递单和订单到哪了');
    expect(requestMeaning('Where is parcel 4412345678 now? It cost 129 euros on 2026-11-02')).toBe(
      'Where is parcel now? It cost 129 euros on 2026-11-02',
    );
    expect(toolTexts(tools[0]!)).toEqual([
      'get weather: The weather forecast for a city.',
      'Will it rain in Oslo tomorrow?',
    ]);
  });
});

describe('notForClauses', () => {
  it('splits not_for at each tool it names, with the parts of a clause, the names and "use" left out', () => {
    const t = ToolDefinition.parse({
      ...tool('refund_status_query', 'x'),
      description: {
        purpose: 'Report how a refund is progressing.',
        returns: 'The refunds found.',
        not_for:
          "Starting a new refund (use refund_create) or asking about the order itself, such as whether the customer's payment went through (use order_status_query).",
      },
    });
    const names = new Set(['refund_status_query', 'refund_create', 'order_status_query']);
    expect(notForClauses(t, names)).toEqual([
      { texts: ['Starting a new refund'], tools: ['refund_create'] },
      {
        texts: [
          "asking about the order itself, such as whether the customer's payment went through",
          'asking about the order itself',
          "whether the customer's payment went through",
        ],
        tools: ['order_status_query'],
      },
    ]);
    // A tool not among the names compared is no clause; a plain-string description has none.
    expect(notForClauses(t, new Set(['refund_create']))).toEqual([
      { texts: ['Starting a new refund'], tools: ['refund_create'] },
    ]);
    expect(notForClauses(tool('x', 'plain'), names)).toEqual([]);
  });
});

describe('cosinesTo', () => {
  it('gives cosine bit for bit, four at a time and for the rest one by one', () => {
    let seed = 1;
    const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647 - 0.5;
    const vector = (d: number) => Float32Array.from({ length: d }, random);
    const v = vector(384);
    const us = [...Array.from({ length: 11 }, () => vector(384)), vector(3)];
    expect([...cosinesTo(v, us)]).toEqual(us.map((u) => cosine(v, u)));
    expect(cosinesTo(v, [])).toHaveLength(0);
  });
});
