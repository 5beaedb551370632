import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { RegistryContent, createRegistry, loadRegistryDir, type Registry } from '@signalbox/registry';
import { readActs } from './acts.js';
import { askPieces, requestParts, searchedFor } from './intent.js';
import { planTools, type PlanRequest } from './planner.js';
import { createSemanticScorer, type SemanticScorer } from './semantic.js';
import { sharedOnnxEmbedder } from '@signalbox/embedder/testing';

const packs = fileURLToPath(new URL('../../../registry/packs/', import.meta.url));
// Each test plans one or more requests with the real embedding models, a few hundred ms each on a quiet 2-core
// machine and several seconds when the whole suite shares it: a slow machine is not a failure (no test here is timed).
vi.setConfig({ testTimeout: 30_000 });
const SP2 =
  "Turn the minutes of yesterday's meeting into the weekly report and send it to the Atlas project group.";
const SP3 = 'What do the PostgreSQL 17 release notes say about performance?';

let office: Registry;
let research: Registry;
let semantic: SemanticScorer;
const plan = (registry: Registry, req: PlanRequest) => planTools(registry, req, { semantic });
/** The plan when a model proposed `tools` (names only, no arguments) for `request`. */
const proposed = (registry: Registry, agent: string, request: string, tools: readonly string[]) =>
  plan(registry, {
    request,
    agent,
    tenant: 'default',
    scenario: null,
    proposals: tools.map((name) => ({ name, arguments: null })),
  });
beforeAll(async () => {
  semantic = createSemanticScorer(await sharedOnnxEmbedder());
  office = await loadRegistryDir(`${packs}office`);
  research = await loadRegistryDir(`${packs}research`);
});

describe('asked acts', () => {
  it('"turn … into …" produces, "… and send it …" sends; a plain question looks up', () => {
    expect(readActs(SP2).map((a) => [a.kind, a.object])).toEqual([
      ['produce', 'the weekly report'],
      ['send', 'it to the Atlas project group'],
    ]);
    expect(readActs('Find the minutes and tell me what was decided').map((a) => a.kind)).toEqual([
      'look_up',
      'look_up',
    ]);
    expect(readActs(SP3).map((a) => a.kind)).toEqual(['look_up']);
  });
});

describe('the asks of a request', () => {
  it('splits at sentence ends, "also", "then <verb>", ", and the" and "and <verb>", not inside a phrase', () => {
    expect(
      requestParts(
        'Find the area of a rectangle with length 7 and breadth 3. Also, calculate the area of a circle.',
      ),
    ).toEqual([
      'Find the area of a rectangle with length 7 and breadth 3.',
      'calculate the area of a circle.',
    ]);
    expect(requestParts('Calculate the GCD of 96 and 128, and the LCM of 15 and 25.')).toEqual([
      'Calculate the GCD of 96 and 128',
      'the LCM of 15 and 25.',
    ]);
    // ", and" before a question's own opening word starts a second question.
    expect(requestParts('Where is the parcel for order 1234, and has the refund on 7777 been paid?')).toEqual(
      ['Where is the parcel for order 1234', 'has the refund on 7777 been paid?'],
    );
    // The dot of a numbered item ends no sentence.
    expect(requestParts('Two things: 1. find the paper on RAG. 2. check the release notes.')).toEqual([
      'Two things: 1. find the paper on RAG.',
      '2. check the release notes.',
    ]);
    expect(requestParts('Look up the Toolformer paper, and separately check the benchmark page')).toEqual([
      'Look up the Toolformer paper',
      'check the benchmark page',
    ]);
    expect(requestParts('Invest $2000 in Google and withdraw $1000 from Apple.')).toEqual([
      'Invest $2000 in Google',
      'withdraw $1000 from Apple.',
    ]);
    expect(requestParts('Find all primes up to 150. Then get the fibonacci series up to 150.')).toEqual([
      'Find all primes up to 150.',
      'get the fibonacci series up to 150.',
    ]);
    // One ask: "and then accelerates" continues the description; "length and breadth" is one phrase.
    expect(
      requestParts(
        'Calculate the displacement of a car at 20 m/s that then accelerates at 10 m/s^2 for 5 s.',
      ),
    ).toHaveLength(1);
    expect(requestParts('What is the weather in Berlin today?')).toEqual([
      'What is the weather in Berlin today?',
    ]);
  });

  it('splits at ", then …", ", followed by …" and ", and finally …" whatever follows', () => {
    expect(
      requestParts(
        'Plan a route from Leeds to York, then another from York to Hull, followed by a hotel in Hull, and finally a table at a fish restaurant.',
      ),
    ).toEqual([
      'Plan a route from Leeds to York',
      'another from York to Hull',
      'a hotel in Hull',
      'a table at a fish restaurant.',
    ]);
    // "and then" without a comma still continues a description.
    expect(requestParts('Track a parcel that was sent and then returned to Leeds.')).toHaveLength(1);
  });

  it('lists the things one ask names, sharing its lead words and its qualifier', () => {
    expect(askPieces('Give me the population and the area of Norway.')).toEqual([
      'Give me the population of Norway.',
      'Give me the area of Norway.',
    ]);
    expect(askPieces('Find the mean, median and mode of 2, 9, 4.')).toEqual([
      'Find the mean of 2, 9, 4.',
      'Find the median of 2, 9, 4.',
      'Find the mode of 2, 9, 4.',
    ]);
    expect(
      askPieces('Show the opening hours of the Tate Modern and the ticket price of the Barbican'),
    ).toEqual(['Show the opening hours of the Tate Modern', 'Show the ticket price of the Barbican']);
  });

  it('keeps one thing whole: figures, names, quoted titles, appositions and modifiers', () => {
    for (const ask of [
      'Calculate the GCD of 96 and 128',
      'Find the judge of the case against Marks and Spencer',
      "Find 'Salt and Pepper' by the Hungry Duck",
      'Compare the rainfall in Bergen, Norway with the rainfall in Cork, Ireland',
      'Book a flight to Oslo, departing on Friday and returning on Monday',
      'Find a quiet cafe in Hull, and I would like one with a garden',
      'What is the weather in Berlin today?',
    ])
      expect(askPieces(ask)).toEqual([ask]);
  });

  it('plans the best tool of each ask: two asks about different things get two tools', async () => {
    const tools = ['area_circle', 'factorial_compute'].map((name) => ({
      name,
      description: {
        purpose:
          name === 'area_circle'
            ? 'Calculate the area of a circle from its radius.'
            : 'Compute the factorial of a whole number.',
        returns: 'The number.',
        not_for: 'Anything else (use another tool).',
      },
      action: 'read' as const,
      permission: 'read_only' as const,
      scenarios: ['math'],
      visible_agents: ['*'],
      parameters: {
        type: 'object',
        properties: { n: { type: 'number', description: 'The radius or number.' } },
        required: ['n'],
      },
    }));
    const math = createRegistry(
      RegistryContent.parse({
        tools,
        agents: [{ id: 'math_agent', description: 'Does arithmetic', max_permission: 'read_only' }],
        scenes: [],
        tenants: [{ id: 'default', allow: ['*'], deny: [], max_permission: 'read_only' }],
        settings: {},
        profiles: [],
        policies: [],
      }),
    );
    const out = await plan(math, {
      request: 'Calculate the area of a circle with radius 5. Also find the factorial of 7.',
      agent: 'math_agent',
      tenant: 'default',
      scenario: 'math',
    });
    expect(out.plan.steps.map((s) => s.tool).sort()).toEqual(['area_circle', 'factorial_compute']);
    expect(out.decision_reason).toContain('compute "Also find the factorial of 7." → factorial_compute');
    // Each tool reads its number from its own ask: 5 for the circle, 7 for the factorial.
    const textOf = (tool: string) => out.plan.steps.find((s) => s.tool === tool)?.input_from[0]?.text;
    expect(textOf('area_circle')).toBe('Calculate the area of a circle with radius 5.');
    expect(textOf('factorial_compute')).toBe('find the factorial of 7.');
  });
});

/** A registry of read-only tools in one scenario, from [name, purpose] pairs (each takes a list of numbers). */
function toolset(tools: readonly (readonly [string, string])[]): Registry {
  return createRegistry(
    RegistryContent.parse({
      tools: tools.map(([name, purpose]) => ({
        name,
        description: { purpose, returns: 'The result.', not_for: 'Anything else (use another tool).' },
        action: 'read' as const,
        permission: 'read_only' as const,
        scenarios: ['set'],
        visible_agents: ['*'],
        parameters: {
          type: 'object',
          properties: { values: { type: 'string', description: 'What the tool works on.' } },
          required: ['values'],
        },
      })),
      agents: [{ id: 'set_agent', description: 'Answers questions', max_permission: 'read_only' }],
      scenes: [],
      tenants: [{ id: 'default', allow: ['*'], deny: [], max_permission: 'read_only' }],
      settings: {},
      profiles: [],
      policies: [],
    }),
  );
}

describe('the things one ask lists', () => {
  const stats = () =>
    toolset([
      ['stats_mean', 'Compute the arithmetic mean (average) of a list of numbers.'],
      ['stats_standard_deviation', 'Compute the standard deviation of a list of numbers.'],
      ['stats_sum', 'Add up a list of numbers.'],
      ['unit_convert', 'Convert a quantity from one unit of measurement to another.'],
    ]);

  it('one verb over two things: a tool for each, each reading the values from its own words', async () => {
    const out = await plan(stats(), {
      request: 'Find the mean and the standard deviation of 4, 8, 15 and 16.',
      agent: 'set_agent',
      tenant: 'default',
      scenario: 'set',
    });
    expect(out.plan.steps.map((s) => s.tool).sort()).toEqual(['stats_mean', 'stats_standard_deviation']);
    // The tool for the second thing reads its values from that thing's words: the verb and the figures shared.
    const textOf = (tool: string) => out.plan.steps.find((s) => s.tool === tool)?.input_from[0]?.text;
    const [lead, second] = out.plan.steps.map((s) => s.tool);
    expect(textOf(lead ?? '')).toBeUndefined();
    expect(textOf(second ?? '')).toBe(
      second === 'stats_mean'
        ? 'Find the mean of 4, 8, 15 and 16.'
        : 'Find the standard deviation of 4, 8, 15 and 16.',
    );
    expect(out.decision_reason).toMatch(
      /piece "Find the (mean|standard deviation) of 4, 8, 15 and 16\." → stats_/,
    );
  });

  it('one thing asked for gets one tool, whatever else the request lists', async () => {
    const out = await plan(stats(), {
      request: 'Find the mean of 4, 8, 15 and 16.',
      agent: 'set_agent',
      tenant: 'default',
      scenario: 'set',
    });
    expect(out.plan.steps.map((s) => s.tool)).toEqual(['stats_mean']);
    // Values listed with "and" are not things of their own.
    const figures = await plan(stats(), {
      request: 'Find the mean of the heights of Anna, Ben and Carl: 150, 162 and 171.',
      agent: 'set_agent',
      tenant: 'default',
      scenario: 'set',
    });
    expect(figures.plan.steps.map((s) => s.tool)).toEqual(['stats_mean']);
  });

  it('a sentence that sets the scene does not keep the tool of each ask out', async () => {
    const out = await plan(stats(), {
      request:
        'I am baking for a party and the recipe is in ounces. Convert 12 ounces of flour to grams. Then find the mean of 4, 8, 15 and 16.',
      agent: 'set_agent',
      tenant: 'default',
      scenario: 'set',
    });
    expect(out.plan.steps.map((s) => s.tool).sort()).toEqual(['stats_mean', 'unit_convert']);
    const textOf = (tool: string) => out.plan.steps.find((s) => s.tool === tool)?.input_from[0]?.text;
    expect(textOf('stats_mean')).toBe('find the mean of 4, 8, 15 and 16.');
  });
});

describe('the texts a decision embeds', () => {
  it('embeds the asks and the things they list only when some tool fits the request', async () => {
    const shared = await sharedOnnxEmbedder();
    const embedded: string[] = [];
    const counting = createSemanticScorer({
      ...shared,
      modelFor: (text) => shared.modelFor(text),
      embed: (texts, model) => {
        embedded.push(...texts);
        return shared.embed(texts, model);
      },
    });
    const registry = toolset([
      ['stats_mean', 'Compute the arithmetic mean (average) of a list of numbers.'],
      ['stats_standard_deviation', 'Compute the standard deviation of a list of numbers.'],
      ['stats_sum', 'Add up a list of numbers.'],
    ]);
    const req = { agent: 'set_agent', tenant: 'default', scenario: 'set' };
    const asks = 'Book a table for two in Rome. Also order red roses and white lilies for Anna.';
    expect(requestParts(asks)).toHaveLength(2);
    const none = await planTools(registry, { ...req, request: asks }, { semantic: counting });
    expect(none.status).toBe('no_tool_fits');
    // (the request and its act are read, "Book a table for two in Rome"; its second ask and the things it lists are not)
    expect(embedded).toContain(asks);
    expect(embedded).not.toContain('order red roses and white lilies for Anna.');
    expect(embedded).not.toContain('white lilies for Anna.');

    embedded.length = 0;
    const pieces = 'Find the mean and the standard deviation of 4, 8, 15 and 16.';
    const both = await planTools(registry, { ...req, request: pieces }, { semantic: counting });
    expect(both.plan.steps.map((s) => s.tool).sort()).toEqual(['stats_mean', 'stats_standard_deviation']);
    expect(embedded).toEqual(expect.arrayContaining(askPieces(pieces)));
  });
});

describe('a part that refines the ask', () => {
  it('adds no sibling tool: "Can you find what is on?" only refines the film asked for', async () => {
    const films = toolset([
      ['movie_find', 'Find films showing in cinemas in a city, by genre.'],
      ['movie_tickets_buy', 'Buy cinema tickets for a film showing.'],
      ['restaurant_find', 'Find restaurants in a city by cuisine.'],
    ]);
    const out = await plan(films, {
      request: "I'm in the mood for a thriller in Leeds tonight. Can you find what's on?",
      agent: 'set_agent',
      tenant: 'default',
      scenario: 'set',
    });
    expect(out.plan.steps.map((s) => s.tool)).toEqual(['movie_find']);
  });
});

describe('planTools chains', () => {
  it("a send of a thing the records hold (a meeting's key points) sends what the maker of its message makes", async () => {
    for (const request of [
      "Share the main points of Monday's Beacon review in the Beacon chat.",
      '把周三Beacon会议的决定发到Beacon群里',
      '把周一例会的要点私聊发给Chen Jie',
      // (the thing put first as the clause's topic, without 把; or found by the ask before a send of "them")
      '周一例会的决定邮件发给Chen Jie',
      "Pull up the minutes of Monday's Beacon review, then email them to Chen Jie.",
      '周一Beacon例会的纪要调出来，然后私聊发给Chen Jie',
    ]) {
      const out = await plan(office, { request, agent: 'office_agent', tenant: 'default', scenario: null });
      const steps = out.plan.steps;
      const report = steps.findIndex((s) => s.tool === 'report_generate');
      expect(report).not.toBe(-1);
      expect(steps.map((s) => s.tool)).toContain('minutes_list');
      const send = steps.find((s) => s.tool === 'message_send' || s.tool === 'email_send');
      expect(send?.input_from).toContainEqual(
        expect.objectContaining({
          parameter: send?.tool === 'email_send' ? 'body' : 'text',
          source: 'step_output',
          step_index: report,
        }),
      );
    }
    // (a message given as a thing of its own words is sent as written: no report)
    const notice = await plan(office, {
      request: '把会议取消的消息发到群里',
      agent: 'office_agent',
      tenant: 'default',
      scenario: null,
    });
    expect(notice.plan.steps.map((s) => s.tool)).not.toContain('report_generate');
  });

  it('a send to several listed recipients looks each one up, and the send takes what all the look-ups found', async () => {
    for (const [request, names] of [
      ['Ping Li Wei and Wang Fang on chat that the demo moved to Thursday.', ['Li Wei', 'Wang Fang']],
      [
        'Email the budget note to Li Wei, Chen Jie and the Beacon group',
        ['Li Wei', 'Chen Jie', 'the Beacon group'],
      ],
      ['跟王芳和李伟说一声，明天的评审改到下午', ['王芳', '李伟']],
    ] as const) {
      const out = await plan(office, { request, agent: 'office_agent', tenant: 'default', scenario: null });
      const steps = out.plan.steps;
      const lookups = steps.flatMap((s, i) => (s.tool === 'contact_lookup' ? [i] : []));
      expect(lookups.map((i) => steps[i]?.input_from[0]?.text)).toEqual(names);
      const send = steps.find((s) => s.tool === 'message_send' || s.tool === 'email_send');
      const recipients = send?.tool === 'email_send' ? 'to' : 'chat_ids';
      expect(send?.input_from.filter((f) => f.parameter === recipients).map((f) => f.step_index)).toEqual(
        lookups,
      );
    }
  });

  it('two sends, each to a recipient of its own, each get a look-up of their own words, wired to them', async () => {
    for (const request of [
      "Write up this week's status report, send it by email to Li Wei and ping Wang Fang on chat once it's sent.",
      '把本周的纪要整理成报告，用邮件发给王芳，再在Beacon群里通知一下',
    ]) {
      const out = await plan(office, { request, agent: 'office_agent', tenant: 'default', scenario: null });
      const steps = out.plan.steps;
      const lookups = steps.flatMap((s, i) => (s.tool === 'contact_lookup' ? [i] : []));
      expect(lookups).toHaveLength(2);
      const texts = lookups.map((i) => steps[i]?.input_from.find((f) => f.parameter === 'query')?.text);
      const email = steps.find((s) => s.tool === 'email_send');
      const chat = steps.find((s) => s.tool === 'message_send');
      const fed = (step: typeof email, parameter: string) =>
        step?.input_from.find((f) => f.parameter === parameter)?.step_index;
      // Each send reads the recipients the look-up of its own words found.
      const toEmail = lookups.indexOf(fed(email, 'to') ?? -1);
      const toChat = lookups.indexOf(fed(chat, 'chat_ids') ?? -1);
      expect(toEmail).not.toBe(-1);
      expect(toChat).not.toBe(-1);
      expect(toEmail).not.toBe(toChat);
      expect(texts[toEmail]).toMatch(/Li Wei|王芳/u);
      expect(texts[toChat]).toMatch(/Wang Fang|Beacon/u);
    }
  });

  it('SP-2: minutes → report → contacts → send, producers first, reads before the write, outputs wired', async () => {
    const out = await plan(office, {
      request: SP2,
      agent: 'office_agent',
      tenant: 'default',
      scenario: null,
    });
    expect(out.status).toBe('planned');
    expect(out.plan.steps.map((s) => s.tool)).toEqual([
      'minutes_list',
      'report_generate',
      'contact_lookup',
      'email_send',
    ]);
    const [, report, , send] = out.plan.steps;
    expect(report?.input_from).toContainEqual({
      parameter: 'minutes_ids',
      source: 'step_output',
      step_index: 0,
      path: 'minutes[].minutes_id',
    });
    // "send it": the e-mail carries the report the chain made, to the addresses the lookup found.
    expect(send?.input_from).toEqual(
      expect.arrayContaining([
        { parameter: 'to', source: 'step_output', step_index: 2, path: 'contacts[].email' },
        { parameter: 'body', source: 'step_output', step_index: 1, path: 'body' },
      ]),
    );
    expect(out.decision_reason).toContain('produce "the weekly report" → report_generate');
    expect(out.decision_reason).toContain('send "it to the Atlas project group" → email_send');
  });

  it('a Chinese verb-object word said apart (退了吧 for 退款) asks for the write; a question about the order does not', async () => {
    const afterSales = await loadRegistryDir(`${packs}after-sales`);
    const asked = (request: string) =>
      plan(afterSales, { request, agent: 'refund_agent', tenant: 'default', scenario: null });
    expect((await asked('订单1234不想要了，退了吧')).plan.steps.map((s) => s.tool)).toEqual([
      'order_status_query',
      'refund_create',
    ]);
    expect(
      (await asked('1234这单超时了，先告诉我包裹在哪，然后直接退款')).plan.steps.map((s) => s.tool),
    ).toContain('refund_create');
    expect((await asked('订单1234退了没有？')).plan.steps.map((s) => s.tool)).not.toContain('refund_create');
    expect((await asked('订单1234的物流到哪了')).plan.steps.map((s) => s.tool)).not.toContain(
      'refund_create',
    );
    // A verb of transfer with its recipient (退给我) asks for the transfer, not to be shown the money.
    expect((await asked('5678那个台灯用不上了，钱退给我吧')).plan.steps.map((s) => s.tool)).toEqual([
      'order_status_query',
      'refund_create',
    ]);
  });

  it('making a document is producing it: the producing read serves "create a report", no write is asked', async () => {
    const out = await plan(office, {
      request: "Create a weekly report from yesterday's minutes",
      agent: 'office_agent',
      tenant: 'default',
      scenario: null,
    });
    expect(out.plan.steps.map((s) => s.tool)).toEqual(['minutes_list', 'report_generate']);
    expect(out.plan.asked_acts?.map((a) => [a.kind, a.unserved])).toEqual([['create', null]]);
    // Booking a room is no report, whatever the report tool's fit.
    const room = await plan(office, {
      request: '帮我订一间明天下午的会议室，10个人',
      agent: 'office_agent',
      tenant: 'default',
      scenario: null,
    });
    expect(room.plan.steps).toEqual([]);
  });

  it('asks for a link the request points at but does not include, instead of searching for some page', async () => {
    for (const request of ['Summarise the page I just linked', '帮我打开这个链接看看写了啥']) {
      const out = await plan(research, {
        request,
        agent: 'research_agent',
        tenant: 'default',
        scenario: null,
      });
      expect(out.status).toBe('invalid');
      expect(out.plan.steps.map((s) => s.tool)).not.toContain('web_search');
      expect(out.violations.map((v) => v.reason).join(' ')).toMatch(
        /which URL should page_visit read \(url\)/,
      );
    }
    // A page described by what it is is found by a search first.
    const described = await plan(research, {
      request: 'What does the PG17 release notes page say about vacuum?',
      agent: 'research_agent',
      tenant: 'default',
      scenario: null,
    });
    expect(described.plan.steps.map((s) => s.tool)).toEqual(['web_search', 'page_visit']);
  });

  it('SP-3: "what does <page> say" reaches page_visit; without a URL, web_search is planned before it', async () => {
    const out = await plan(research, {
      request: SP3,
      agent: 'research_agent',
      tenant: 'default',
      scenario: null,
    });
    expect(out.status).toBe('planned');
    expect(out.plan.steps.map((s) => s.tool)).toEqual(['web_search', 'page_visit']);
    // A single URL from the ranked list: its first (best) result.
    expect(out.plan.steps[1]?.input_from).toContainEqual({
      parameter: 'url',
      source: 'step_output',
      step_index: 0,
      path: 'results[0].url',
    });
    // The search ranks first; the visit joins as the reader of what it finds, on its own fit.
    expect(out.decision_reason).toMatch(/page_visit reads what web_search found \(own fit 0\.\d\d\)/);
    expect(out.plan.semantic_model?.model).toBe('all-minilm-l6-v2-q');
    expect(out.plan.semantic_model?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a page asked for by its URL is visited from the request, with no search before it', async () => {
    const out = await plan(research, {
      request:
        'Open https://docs.example.org/postgresql/17/release-notes and tell me what it says about performance.',
      agent: 'research_agent',
      tenant: 'default',
      scenario: null,
    });
    expect(out.plan.steps.map((s) => s.tool)).toEqual(['page_visit']);
    expect(out.plan.steps[0]?.input_from.find((f) => f.parameter === 'url')).toMatchObject({
      source: 'user_text',
      step_index: null,
    });
    // Where the search ranks first, the visit takes its place: the request already gives what it would find.
    const found = await plan(research, {
      request: 'Find the PostgreSQL 17 release date on https://www.postgresql.org/about/news/',
      agent: 'research_agent',
      tenant: 'default',
      scenario: null,
    });
    expect(found.plan.steps.map((s) => s.tool)).toEqual(['page_visit']);
    expect(found.decision_reason).toContain(
      'page_visit reads the URL the request gives; web_search is not needed',
    );
  });

  it('the computing tool serves an ask only when it names a calculation (issue 20)', async () => {
    const asked = async (request: string) =>
      (
        await plan(research, { request, agent: 'research_agent', tenant: 'default', scenario: null })
      ).plan.steps.map((s) => s.tool);
    // How much a thing improved, as its source states it, is a figure to look up …
    expect(await asked('PG16 批量导入的吞吐到底提升了多少？我要官方release notes里的原话')).not.toContain(
      'sandbox_compute',
    );
    // … a gap between two things the request compares is computed after the look-up.
    expect(
      await asked('In the sysbench MySQL 9 vs 8 run, how many more queries per hour does 9 answer than 8?'),
    ).toEqual(['web_search', 'page_visit', 'sandbox_compute']);
  });

  it('a question of what a source says is read from the source the search finds (issue 20)', async () => {
    for (const request of [
      'Did the Kubernetes 1.31 changelog mention sidecar containers?',
      'Does the vendor spec sheet say anything about idle power?',
    ]) {
      const out = await plan(research, {
        request,
        agent: 'research_agent',
        tenant: 'default',
        scenario: null,
      });
      expect(
        out.plan.steps.map((s) => s.tool),
        request,
      ).toEqual(['web_search', 'page_visit']);
      expect(
        out.plan.asked_acts?.every((a) => a.step_index !== null),
        request,
      ).toBe(true);
    }
  });

  it('each of several questions is served when their whole fits no tool; a reader follows its search (issue 20)', async () => {
    const out = await plan(research, {
      request:
        'quick pair: who wrote Toolformer, and what sequential write speed does the Q5 datasheet give?',
      agent: 'research_agent',
      tenant: 'default',
      scenario: null,
    });
    const tools = out.plan.steps.map((s) => s.tool);
    expect(tools).toContain('scholar_search');
    // the page to read is found by the web search, never taken from the papers found
    expect(tools.indexOf('web_search')).toBeGreaterThan(-1);
    expect(tools.indexOf('web_search')).toBeLessThan(tools.indexOf('page_visit'));
  });

  it('without the semantic model the plan records that it was ranked lexically', async () => {
    const lexical = await planTools(research, {
      request: SP3,
      agent: 'research_agent',
      tenant: 'default',
      scenario: null,
    });
    expect(lexical.plan.semantic_model).toEqual({ model: null, sha256: null });
    expect(lexical.decision_reason).toContain('ranked lexically (semantic model off)');
  });

  it('SP-3: the same search asked twice in other words is refused as duplicate_step; a different one runs with its own words', async () => {
    const twice = 'Search for PostgreSQL 17 performance and also look up the performance of postgresql-17.';
    expect(searchedFor(twice)).toEqual(['PostgreSQL 17 performance', 'the performance of postgresql-17']);
    const out = await plan(research, {
      request: twice,
      agent: 'research_agent',
      tenant: 'default',
      scenario: null,
    });
    expect(out.status).toBe('planned');
    expect(out.plan.steps.map((s) => s.tool)).toEqual(['web_search']);
    expect(out.refused).toEqual([
      expect.objectContaining({ rule: 'duplicate_step', step_index: 1, tool: 'web_search' }),
    ]);
    expect(out.decision_reason).toContain('refused on validation: web_search (duplicate_step)');

    const apart = 'Search for PostgreSQL 17 performance and also look up MySQL 9 replication.';
    const both = await plan(research, {
      request: apart,
      agent: 'research_agent',
      tenant: 'default',
      scenario: null,
    });
    // Two searches, each told its own words (input_from text, contract v2).
    expect(both.plan.steps.map((s) => s.tool)).toEqual(['web_search', 'web_search']);
    expect(both.refused).toEqual([]);
    expect(both.plan.steps.map((s) => s.input_from)).toEqual([
      [
        {
          parameter: 'query',
          source: 'user_text',
          step_index: null,
          path: null,
          text: 'PostgreSQL 17 performance',
        },
      ],
      [
        {
          parameter: 'query',
          source: 'user_text',
          step_index: null,
          path: null,
          text: 'MySQL 9 replication',
        },
      ],
    ]);
  });

  it('SP-3: a calculation asked for joins sandbox_compute after the visit that reads the figures, search first', async () => {
    const request = 'How much faster is PostgreSQL 17 than 16 on pgbench, in percent?';
    // Figures still to be found: a calculation after a look-up.
    expect(readActs(request).map((a) => [a.kind, a.figures])).toEqual([
      ['compute', 'found'],
      ['look_up', undefined],
    ]);
    const out = await plan(research, { request, agent: 'research_agent', tenant: 'default', scenario: null });
    expect(out.status).toBe('planned');
    expect(out.plan.steps.map((s) => s.tool)).toEqual(['web_search', 'page_visit', 'sandbox_compute']);
    // The sandbox's named inputs are every passage the visit quoted, not only the first.
    expect(out.plan.steps[2]?.input_from).toContainEqual({
      parameter: 'inputs',
      source: 'step_output',
      step_index: 1,
      path: 'passages[].text',
    });
    expect(out.decision_reason).toContain('→ sandbox_compute');
    // The look-up only a search fits gets the reader of its results planned with it (no precondition left to repair).
    expect(out.decision_reason).toContain('page_visit reads what answers look up');
    expect(out.refused).toEqual([]);

    // Without a source to read figures from (visit excluded), the calculation is dropped rather than run on nothing.
    const blind = await plan(research, {
      request,
      agent: 'research_agent',
      tenant: 'default',
      scenario: null,
      exclude: ['page_visit'],
    });
    expect(blind.plan.steps.map((s) => s.tool)).not.toContain('sandbox_compute');
    expect(blind.plan.rejected).toContainEqual(
      expect.objectContaining({
        candidate: 'sandbox_compute',
        reason: expect.stringContaining('needs verified inputs'),
      }),
    );
  });

  it('SP-3: a visit whose producer is excluded is dropped, not planned without a URL', async () => {
    const out = await plan(research, {
      request: SP3,
      agent: 'research_agent',
      tenant: 'default',
      scenario: 'research',
      exclude: ['web_search'],
    });
    expect(out.plan.steps.map((s) => s.tool)).not.toContain('page_visit');
  });
});

describe('a question about what is on record', () => {
  it('is answered by a read of the record, not by a tool named for producing a document', async () => {
    const out = await plan(office, {
      request: '上周的会上，写周报的活儿分给谁了？',
      agent: 'office_agent',
      tenant: 'default',
      scenario: null,
    });
    // (report_generate fits its words best: 写周报 "write the weekly report")
    expect(out.plan.candidate_scores[0]?.tool).toBe('report_generate');
    expect(out.plan.steps.map((s) => s.tool)).toEqual(['minutes_list', 'minutes_parse']);
  });
});

describe('TD-5 no unasked writes, by the acts the request asks for', () => {
  let reach: Registry;
  let afterSales: Registry;
  beforeAll(async () => {
    reach = await loadRegistryDir(`${packs}reach`);
    afterSales = await loadRegistryDir(`${packs}after-sales`);
  });
  const ask = (registry: Registry, agent: string, request: string, proposals?: PlanRequest['proposals']) =>
    plan(registry, {
      request,
      agent,
      tenant: 'default',
      scenario: null,
      ...(proposals ? { proposals } : {}),
    });

  it('"open a new one" makes the thing the request named before it; a bare "one" to delete stays unserved', async () => {
    const again = await ask(
      reach,
      'reach_agent',
      'The complaint I filed last month vanished. Can you open another one?',
    );
    expect(again.plan.steps.map((s) => s.tool)).toEqual(['create_ticket']);
    const remove = await ask(
      reach,
      'reach_agent',
      'The complaint I filed last month is wrong, delete that one.',
    );
    expect(remove.plan.steps).toEqual([]);
  });

  it('a read asked for several listed values is one step per value, each reading its own, none feeding another', async () => {
    for (const [request, cities] of [
      ['Which is warmer tomorrow, Oslo and Bergen? I need the forecast for both.', ['Oslo', 'Bergen']],
      ['杭州、苏州和南京明天会下雨吗？', ['杭州', '苏州', '南京']],
    ] as const) {
      const out = await ask(reach, 'reach_agent', request);
      const steps = out.plan.steps.filter((s) => s.tool === 'get_weather');
      expect(steps).toHaveLength(cities.length);
      expect(out.plan.steps.every((s) => s.input_from.every((f) => f.source !== 'step_output'))).toBe(true);
      // Each step's words name its own city and none of the others.
      steps.forEach((s, k) => {
        const text = s.input_from.find((f) => f.parameter === 'city')?.text ?? '';
        expect(text).toContain(cities[k]);
        for (const other of cities.filter((_, j) => j !== k)) expect(text).not.toContain(other);
      });
    }
    // One city: one step, reading the whole request.
    const one = await ask(reach, 'reach_agent', 'Will it rain in Bergen tomorrow?');
    expect(one.plan.steps.map((s) => s.tool)).toEqual(['get_weather']);
  });

  it('a read a model proposed beside an asked change it proposed no write for looks up what the look-up asks', async () => {
    const out = await proposed(
      research,
      'research_agent',
      "Who wrote the Reflexion paper? I'd like to email them about their findings.",
      ['scholar_search'],
    );
    const query = out.plan.steps[0]?.input_from.find((f) => f.parameter === 'query')?.text ?? '';
    expect(query).toContain('Reflexion');
    expect(query).not.toContain('findings');
    // A request of look-ups only reads whole, as before.
    const whole = await proposed(
      research,
      'research_agent',
      'Who wrote the Reflexion paper? Which venue published it?',
      ['scholar_search'],
    );
    expect(whole.plan.steps[0]?.input_from.find((f) => f.parameter === 'query')?.text).toBeUndefined();
    // A want of unnamed kind beside the question may be a want of information: the reads keep the whole request.
    const want = await proposed(
      research,
      'research_agent',
      'MySQL 9的复制延迟降低了多少？我要官方文档里的原文',
      ['web_search', 'page_visit'],
    );
    for (const step of want.plan.steps)
      expect(step.input_from.find((f) => f.source === 'user_text' && f.text !== undefined)).toBeUndefined();
  });

  it('a read a model proposed with no arguments fans out over listed values as a planned one; with its own, it stays one', async () => {
    const request = '广州和厦门后天哪个更暖和？我要决定穿什么去开会';
    const bare = await plan(reach, {
      request,
      agent: 'reach_agent',
      tenant: 'default',
      scenario: null,
      proposals: [{ name: 'get_weather', arguments: {} }],
    });
    const steps = bare.plan.steps.filter((s) => s.tool === 'get_weather');
    expect(steps).toHaveLength(2);
    steps.forEach((s, k) => {
      const text = s.input_from.find((f) => f.parameter === 'city')?.text ?? '';
      expect(text).toContain(['广州', '厦门'][k]);
      expect(text).not.toContain(['厦门', '广州'][k]);
    });
    const given = await plan(reach, {
      request,
      agent: 'reach_agent',
      tenant: 'default',
      scenario: null,
      proposals: [{ name: 'get_weather', arguments: { city: 'Guangzhou' } }],
    });
    expect(given.plan.steps.map((s) => s.tool)).toEqual(['get_weather']);
  });

  it('each ask of a request reads its own values: the look-up it names, the order check that feeds its write', async () => {
    const out = await ask(
      afterSales,
      'invoice_agent',
      '订单20240917001的电子发票开好了没？另外订单5678也帮我开张个人发票，抬头王芳',
    );
    const steps = out.plan.steps;
    const status = steps.find((s) => s.tool === 'invoice_status_query');
    const check = steps.find((s) => s.tool === 'order_status_query');
    expect(steps.map((s) => s.tool)).toEqual(
      expect.arrayContaining(['order_status_query', 'invoice_issue', 'invoice_status_query']),
    );
    // The status question names its order: it is not fed the invoice the other ask issues.
    expect(status?.input_from).toEqual([
      expect.objectContaining({
        parameter: 'order_id',
        source: 'user_text',
        text: expect.stringContaining('20240917001'),
      }),
    ]);
    expect(check?.input_from).toEqual([
      expect.objectContaining({
        parameter: 'order_id',
        source: 'user_text',
        text: expect.stringContaining('5678'),
      }),
    ]);
  });

  it('a change asked with a bare verb is served by no read its verb is not documented for', async () => {
    const out = await ask(afterSales, 'refund_agent', '订单7777的退款到账了吗？还有5678的发票也帮我开一下');
    expect(out.plan.steps.map((s) => s.tool)).not.toContain('refund_create');
    expect(out.plan.asked_acts).toContainEqual(
      expect.objectContaining({ kind: 'act', object: '5678的发票', step_index: null }),
    );
    // (a verb said apart from its documented word still asks for the write: 退 of 退款)
    const refund = await ask(afterSales, 'refund_agent', '订单5678不要了，麻烦帮我退一下');
    expect(refund.plan.steps.map((s) => s.tool)).toContain('refund_create');
  });

  it('a delete with only a create tool visible plans nothing, and names the act no tool serves', async () => {
    const out = await ask(reach, 'reach_agent', 'Delete all tickets.');
    expect(out.status).toBe('no_tool_fits');
    expect(out.plan.asked_acts).toEqual([
      expect.objectContaining({ kind: 'delete', object: 'all tickets', step_index: null }),
    ]);
    expect(out.plan.rejected).toContainEqual({
      candidate: 'create_ticket',
      reason: expect.stringContaining('asks to delete "all tickets"; create_ticket would create'),
    });
    // The same holds for a model's proposal: the rules keep the last word (IF-4).
    const proposed = await ask(reach, 'reach_agent', 'Delete all tickets.', [
      { name: 'create_ticket', arguments: null },
    ]);
    expect(proposed.plan.steps).toEqual([]);
    expect(proposed.refused).toContainEqual(
      expect.objectContaining({ rule: 'intent_side_effect', tool: 'create_ticket' }),
    );
  });

  it('asked for in English or Chinese, the write is planned and serves the act', async () => {
    for (const request of ['Please open a ticket, my printer is broken.', '帮我提交一个工单，打印机坏了']) {
      const out = await ask(reach, 'reach_agent', request);
      expect(
        out.plan.steps.map((s) => s.tool),
        request,
      ).toContain('create_ticket');
      const act = out.plan.asked_acts?.find((a) => a.kind === 'create');
      expect(act?.step_index, request).toBe(out.plan.steps.find((s) => s.tool === 'create_ticket')?.index);
    }
  });

  it('a change named by a verb the write does not do is not that write, though both speak of the same thing', async () => {
    // "Attach", "merge": the only write visible opens tickets, and its documents never use the verb.
    for (const request of [
      'Merge my two tickets about the login error into one.',
      'Attach the screenshot to ticket TK-3310.',
      // "add X to Y" makes X (a comment), put into a Y that exists; the write makes tickets.
      'Add a comment to ticket TK-3310 saying it happened again.',
    ]) {
      const out = await ask(reach, 'reach_agent', request);
      expect(
        out.plan.steps.map((s) => s.tool),
        request,
      ).not.toContain('create_ticket');
    }
    // A verb the write does do, or a want with no verb, is still served by it.
    for (const request of ['Raise a ticket for my broken printer.', 'Add a ticket for the broken printer.']) {
      const out = await ask(reach, 'reach_agent', request);
      expect(
        out.plan.steps.map((s) => s.tool),
        request,
      ).toContain('create_ticket');
    }
    const refund = await ask(afterSales, 'refund_agent', 'Refund order 1234, it arrived broken.');
    expect(refund.plan.steps.map((s) => s.tool)).toContain('refund_create');
  });

  it('a change the request says not to make is not planned, and the channel it names is not used', async () => {
    const office = await loadRegistryDir(`${packs}office`);
    const ask = (request: string) =>
      plan(office, { request, agent: 'office_agent', tenant: 'default', scenario: null });
    for (const request of [
      '把周三的纪要整理成一份周报，纯文本就行，我自己看，不用发',
      "Turn Wednesday's minutes into a weekly report, plain text is fine, no need to send it.",
    ]) {
      const out = await ask(request);
      expect(
        out.plan.steps.map((s) => s.tool),
        request,
      ).not.toContain('email_send');
      expect(
        out.plan.steps.map((s) => s.tool),
        request,
      ).not.toContain('message_send');
    }
    // "don't email, chat": the send asked goes by chat; the e-mail is refused with the words that forbid it.
    const chat = await ask('把周五的纪要给王芳，别发邮件，我要私聊');
    expect(chat.plan.steps.map((s) => s.tool)).toContain('message_send');
    expect(chat.plan.steps.map((s) => s.tool)).not.toContain('email_send');
  });

  it('a create makes only what the write documents: no ticket or repair booked for an invoice asked', async () => {
    // The repair tool's `issue` field and the request's verb "issue" share a word; the thing asked for is an invoice.
    for (const [registry, agent, tool, request] of [
      [reach, 'reach_agent', 'create_ticket', 'Could you issue a company invoice for order 4321, please?'],
      [afterSales, 'repair_agent', 'repair_create', 'Please issue an invoice for order 4321 in my name.'],
    ] as const) {
      const out = await ask(registry, agent, request);
      expect(
        out.plan.steps.map((s) => s.tool),
        request,
      ).not.toContain(tool);
    }
    // What the write documents it makes is still made by it, in either language.
    for (const request of [
      'Open a ticket about the late courier, I want to complain.',
      // (courtesy words after the object name nothing)
      'nobody can log in!! raise a ticket pls',
      '帮我提一个投诉工单，快递员态度很差',
    ]) {
      const out = await ask(reach, 'reach_agent', request);
      expect(
        out.plan.steps.map((s) => s.tool),
        request,
      ).toContain('create_ticket');
    }
    const repair = await ask(
      afterSales,
      'repair_agent',
      'Book a repair for order 4321, the screen flickers.',
    );
    expect(repair.plan.steps.map((s) => s.tool)).toContain('repair_create');
  });

  it("a question another agent's read answers best is not answered by this agent's reads in its place", async () => {
    const question = 'Has the refund for order 7777 been paid out?';
    // The invoice agent sees order and invoice look-ups, not refund_status_query: no order look-up in its place.
    const invoice = await ask(afterSales, 'invoice_agent', question);
    expect(invoice.plan.steps).toEqual([]);
    expect(invoice.decision_reason).toContain(
      'fits refund_status_query best, a tool invoice_agent may not use',
    );
    // The refund agent sees it, and uses it.
    const refund = await ask(afterSales, 'refund_agent', question);
    expect(refund.plan.steps.map((s) => s.tool)).toContain('refund_status_query');
    expect(refund.decision_reason).not.toContain('may not use');
  });

  it("a question another agent's read answers is its even when the order number beside it pulls toward an order look-up", async () => {
    // Read whole, the order number makes order_status_query the nearest tool; the question itself is a repair's.
    const out = await ask(
      afterSales,
      'refund_agent',
      'When is my blender coming back from the workshop? order 20261101001',
    );
    expect(out.plan.steps).toEqual([]);
    expect(out.decision_reason).toContain('fits repair_status_query best, a tool refund_agent may not use');
  });

  it("a question is the agent's when the words beside it say what it is about and its own tool fits that best", async () => {
    // (the question alone — when does it come back — reads like an invoice's mailing; the repair named before it is
    // what comes back)
    const out = await ask(afterSales, 'repair_agent', 'RP-SEED-0002寄去修了十来天，麻烦告诉我啥时候能寄回来');
    expect(out.plan.steps.map((s) => s.tool)).toEqual(['repair_status_query']);
    expect(out.decision_reason).not.toContain('may not use');
  });

  it('a cancel with no cancel tool is not a refund; a refund asked for is', async () => {
    const cancel = await ask(
      afterSales,
      'refund_agent',
      'Cancel my refund for order 1234, I changed my mind.',
    );
    expect(cancel.plan.steps.map((s) => s.tool)).not.toContain('refund_create');
    expect(cancel.plan.asked_acts).toContainEqual(
      expect.objectContaining({ kind: 'cancel', step_index: null }),
    );
    const refund = await ask(afterSales, 'refund_agent', '订单1234一直没到，我要退款');
    expect(refund.plan.steps.map((s) => s.tool)).toContain('refund_create');
    const question = await ask(afterSales, 'refund_agent', 'How do I apply for a refund?');
    expect(question.plan.steps.map((s) => s.tool)).not.toContain('refund_create');
  });

  it('a change of a named kind needs a write that does it to its object: 报修 asks no refund', async () => {
    // The logistics agent sees refund_create (another create) but no repair tool.
    const out = await ask(afterSales, 'logistics_agent', '咖啡机坏了要报修，订单20261101001，麻烦安排一下');
    expect(out.plan.steps.map((s) => s.tool)).not.toContain('refund_create');
    expect(out.plan.asked_acts).toContainEqual(expect.objectContaining({ kind: 'create', step_index: null }));
  });
});

describe('asks that add no tool of their own', () => {
  let afterSales: Registry;
  beforeAll(async () => {
    afterSales = await loadRegistryDir(`${packs}after-sales`);
  });
  it('a remark about the speaker, and a change wanted, add no read', async () => {
    for (const request of [
      'If order 1234 shows up even later than it already is, can I still get my money back? Just asking for now.',
      'The box for order 20261101001 had a different model in it. I want my money back.',
    ]) {
      const out = await plan(afterSales, {
        request,
        agent: 'refund_agent',
        tenant: 'default',
        scenario: null,
      });
      expect(
        out.plan.steps.map((s) => s.tool),
        request,
      ).not.toContain('refund_status_query');
    }
  });
});

describe('an act no tool of the routed scene does', () => {
  it('brings in the scene that has a tool of its kind: a calculation routed to the papers scene', async () => {
    const out = await plan(research, {
      request: '帮我算一下：从44100涨到52300，涨幅是百分之多少？保留两位小数',
      agent: 'research_agent',
      tenant: 'default',
      scenario: null,
    });
    expect(out.plan.steps.map((s) => s.tool)).toEqual(['sandbox_compute']);
  });
});

describe('a request of asks for different scenes', () => {
  let reach: Registry;
  beforeAll(async () => {
    reach = await loadRegistryDir(`${packs}reach`);
  });
  it('routes each ask on its own and serves both, naming no single scene (EN and ZH)', async () => {
    for (const request of [
      'What is the weather in Shenzhen today? Also please log a ticket, I was charged twice.',
      '深圳明天下雨吗？另外帮我提个投诉工单，客服一直没人理',
    ]) {
      const out = await plan(reach, { request, agent: 'reach_agent', tenant: 'default', scenario: null });
      expect(out.plan.steps.map((s) => s.tool).sort(), request).toEqual(['create_ticket', 'get_weather']);
      expect(out.plan.scene, request).toBeNull();
      expect(
        out.plan.asked_acts?.every((a) => a.step_index !== null),
        request,
      ).toBe(true);
    }
  });
});

describe('what the planned steps take', () => {
  let reach: Registry;
  beforeAll(async () => {
    reach = await loadRegistryDir(`${packs}reach`);
  });
  it('a thing asked for by name that is only a value a planned step takes is served by that step', async () => {
    const out = await plan(reach, {
      request: "What's the temperature in London right now? Celsius please.",
      agent: 'reach_agent',
      tenant: 'default',
      scenario: null,
    });
    expect(out.plan.steps.map((s) => s.tool)).toEqual(['get_weather']);
    expect(out.plan.asked_acts?.every((a) => a.step_index !== null)).toBe(true);
  });
  it('the items of a numbered list reach the scenes of each', async () => {
    const out = await plan(reach, {
      request: '1) raise a ticket: my login keeps failing 2) is it snowing in Tokyo?',
      agent: 'reach_agent',
      tenant: 'default',
      scenario: null,
    });
    expect(out.plan.steps.map((s) => s.tool).sort()).toEqual(['create_ticket', 'get_weather']);
  });
});

describe('a calculation over the figures the request gives', () => {
  it('goes to the sandbox alone: the user’s figures need no source step (EN and ZH)', async () => {
    for (const request of ['What is 17% of 2,340?', '两千三百四十的百分之十七是多少？']) {
      const out = await plan(research, {
        request,
        agent: 'research_agent',
        tenant: 'default',
        scenario: null,
      });
      expect(
        out.plan.steps.map((s) => s.tool),
        request,
      ).toEqual(['sandbox_compute']);
      expect(out.plan.asked_acts, request).toEqual([
        expect.objectContaining({ kind: 'compute', step_index: 0, unserved: null }),
      ]);
    }
  });

  it('is led by the sandbox alone when a read takes a number only as a filter (a year), or a clause asks its result', async () => {
    for (const request of [
      '900GB平摊到3个月，每天大概多少GB？',
      'If a backup copies 80 GB an hour, how many hours until 2 TB is done?',
    ]) {
      const out = await plan(research, {
        request,
        agent: 'research_agent',
        tenant: 'default',
        scenario: null,
      });
      expect(
        out.plan.steps.map((s) => s.tool),
        request,
      ).toEqual(['sandbox_compute']);
    }
  });

  it('is no search’s: a number with a default (how many results) is a setting, not a place for the figures', async () => {
    for (const request of [
      "what's 4,800 cut by 12 percent, then shared equally among 6 people?",
      'what is 950 increased by 8 percent, split across 4 quarters?',
    ]) {
      const out = await plan(research, {
        request,
        agent: 'research_agent',
        tenant: 'default',
        scenario: null,
      });
      expect(
        out.plan.steps.map((s) => s.tool),
        request,
      ).toContain('sandbox_compute');
      expect(
        (out.plan.asked_acts ?? []).filter((a) => a.kind === 'compute'),
        request,
      ).toEqual([expect.objectContaining({ unserved: null })]);
    }
  });
});

describe('a calculation comparing things named by code, over figures to be found', () => {
  it('searches for and reads each thing’s own source, and computes over what every reader read', async () => {
    for (const request of [
      'By how many percent is the A3’s measured write speed above the B5’s rated one?',
      'Q8的随机读比M2的随机读高百分之几？要以官网页面为准',
    ]) {
      const out = await plan(research, {
        request,
        agent: 'research_agent',
        tenant: 'default',
        scenario: null,
      });
      const steps = out.plan.steps;
      expect(
        steps.map((s) => s.tool),
        request,
      ).toEqual(['web_search', 'web_search', 'page_visit', 'page_visit', 'sandbox_compute']);
      // each reader reads its own search's first result; the calculator takes both readers' passages
      const fedBy = (i: number, parameter: string) =>
        steps[i]?.input_from.filter((f) => f.parameter === parameter).map((f) => f.step_index);
      expect(fedBy(2, 'url'), request).toEqual([0]);
      expect(fedBy(3, 'url'), request).toEqual([1]);
      expect(fedBy(4, 'inputs'), request).toEqual([2, 3]);
    }
  });

  it('keeps one source for a calculation over one thing', async () => {
    const out = await plan(research, {
      request: 'By what percent did the A3’s measured read fall short of its rated read?',
      agent: 'research_agent',
      tenant: 'default',
      scenario: null,
    });
    expect(out.plan.steps.filter((s) => s.tool === 'page_visit')).toHaveLength(1);
  });
});

describe('a page the request points at but does not include', () => {
  it('is not searched for: a search would find another page for the reader to read in its place', async () => {
    for (const request of [
      'Please go through the benchmark article I sent you and list the hardware used',
      'Could you go over the post I shared last week and list its main settings?',
    ]) {
      const out = await plan(research, {
        request,
        agent: 'research_agent',
        tenant: 'default',
        scenario: null,
      });
      expect(
        out.plan.steps.map((s) => s.tool),
        request,
      ).not.toContain('web_search');
    }
  });
});

describe('a change asked for that no step makes', () => {
  it('gets nothing in its place, alone or beside a look-up the plan serves', async () => {
    const afterSales = await loadRegistryDir(`${packs}after-sales`);
    const alone = await plan(afterSales, {
      request: '订单5678能改下收货地址吗，改成上海市徐汇区漕溪北路88号',
      agent: 'logistics_agent',
      tenant: 'default',
      scenario: null,
    });
    expect(alone.plan.steps).toEqual([]);
    expect(alone.plan.asked_acts).toEqual([expect.objectContaining({ kind: 'update', step_index: null })]);
    const beside = await plan(afterSales, {
      request: 'What is the status of order 7777? Also cancel my refund for it.',
      agent: 'refund_agent',
      tenant: 'default',
      scenario: null,
    });
    expect(beside.plan.steps.map((s) => s.tool)).toEqual(['order_status_query']);
    expect(beside.plan.asked_acts?.map((a) => [a.kind, a.step_index])).toEqual([
      ['look_up', 0],
      ['cancel', null],
    ]);
  });
});

describe('every asked act gets its own step, and only a step that does it serves it', () => {
  const ask = (registry: Registry, agent: string, request: string) =>
    plan(registry, { request, agent, tenant: 'default', scenario: null });

  it('two sends by two channels are two steps, each serving its own send (EN and ZH)', async () => {
    const en = await ask(
      office,
      'office_agent',
      "Make a project review report out of last week's minutes, email it to the Beacon group, and drop a note in the Atlas chat that it's out.",
    );
    const tools = en.plan.steps.map((s) => s.tool);
    expect(tools).toEqual(expect.arrayContaining(['email_send', 'message_send']));
    const sends = (en.plan.asked_acts ?? []).filter((a) => a.kind === 'send');
    expect(sends.map((a) => tools[a.step_index as number])).toEqual(['email_send', 'message_send']);
    const zh = await ask(
      office,
      'office_agent',
      '上周的纪要整理成周报，邮件发给Atlas项目组，然后在群里说一声',
    );
    const zhTools = zh.plan.steps.map((s) => s.tool);
    expect(zhTools).toEqual(expect.arrayContaining(['email_send', 'message_send']));
    expect(
      (zh.plan.asked_acts ?? []).filter((a) => a.kind === 'send').map((a) => zhTools[a.step_index as number]),
    ).toEqual(['email_send', 'message_send']);
  });

  it("a send's own words pick its channel: a quick chat reminder to two people is a chat message", async () => {
    const out = await ask(
      office,
      'office_agent',
      'Send Chen Jie and Zhang Min a quick chat reminder that the on-call rota is due this week.',
    );
    // (one look-up per person listed: the chat goes to both)
    expect(out.plan.steps.map((s) => s.tool)).toEqual(['contact_lookup', 'contact_lookup', 'message_send']);
    expect(out.plan.asked_acts?.[0]?.object).toContain('Chen Jie and Zhang Min');
  });

  it('one send asked once stays one step', async () => {
    const out = await ask(office, 'office_agent', 'Email the Atlas group that the release moved to Friday.');
    expect(out.plan.steps.filter((s) => s.tool.endsWith('_send')).map((s) => s.tool)).toEqual(['email_send']);
  });

  it('a verb-object word said apart with a measure word (报个修) is the act: the repair is booked', async () => {
    const afterSales = await loadRegistryDir(`${packs}after-sales`);
    const out = await ask(
      afterSales,
      'repair_agent',
      '上次送修的咖啡机（订单20261101001）进度帮我查一下；还有它的研磨器也老是卡豆，一起报个修',
    );
    expect(out.plan.steps.map((s) => s.tool)).toEqual(
      expect.arrayContaining(['repair_status_query', 'repair_create']),
    );
    expect(out.plan.asked_acts?.every((a) => a.step_index !== null)).toBe(true);
  });

  it('a look-up among several acts gets the read its own words fit, after "and separately"', async () => {
    const out = await ask(
      research,
      'research_agent',
      'Look up the Toolformer paper, and separately check the PG 17 vs 16 benchmark for how different read-only runs were.',
    );
    const tools = out.plan.steps.map((s) => s.tool);
    // (the search the second finds its page with, and the visit that reads the answer off it)
    expect(tools).toEqual(expect.arrayContaining(['scholar_search', 'web_search', 'page_visit']));
    expect(out.plan.asked_acts?.map((a) => a.kind)).toEqual(['look_up', 'look_up']);
    expect(out.plan.asked_acts?.every((a) => a.step_index !== null)).toBe(true);
  });

  it('a look-up no step of the plan fits stays unserved: another read is no evidence for it', async () => {
    const out = await ask(
      office,
      'office_agent',
      "Send the Atlas group a chat message that the release moved to Friday, and check tomorrow's weather in Shanghai for me.",
    );
    expect(out.plan.steps.map((s) => s.tool)).toEqual(['contact_lookup', 'message_send']);
    const weather = out.plan.asked_acts?.find((a) => a.kind === 'look_up');
    expect(weather).toEqual(expect.objectContaining({ step_index: null }));
    expect(weather?.unserved).toContain('no step of the plan does it');
  });

  it('a look-up that shares only its verb with a read is not served by it (查 of 查一下…邮箱 is no weather)', async () => {
    const out = await ask(office, 'office_agent', '在Atlas群里通知评审改到周五，顺便查下后天广州天气');
    expect(out.plan.steps.map((s) => s.tool)).toEqual(['contact_lookup', 'message_send']);
    const weather = out.plan.asked_acts?.find((a) => a.kind === 'look_up' && a.object.includes('天气'));
    expect(weather).toEqual(expect.objectContaining({ step_index: null }));
    expect(weather?.unserved).toContain('no step of the plan does it');
  });

  it('a look-up no read fits plans none in its place: a parcel question to the research agent (EN and ZH)', async () => {
    for (const request of [
      '帮我查下我的快递现在到哪里了',
      'Can you check where my parcel for order 1234 is?',
    ]) {
      const out = await ask(research, 'research_agent', request);
      expect(out.status, request).toBe('no_tool_fits');
      expect(out.plan.steps, request).toEqual([]);
      expect(
        out.plan.asked_acts?.map((a) => [a.kind, a.step_index]),
        request,
      ).toEqual([['look_up', null]]);
      expect(out.decision_reason, request).toContain('no step serves an asked act');
    }
  });

  it("a figure wanted from a paper's own text is a page's to give, never the search's metadata (EN and ZH)", async () => {
    const zhRequest = 'RAG论文在Natural Questions上的exact match是多少？要论文原文里的数字，不要摘要里的';
    for (const request of [
      'What exact-match score did the RAG paper report on Natural Questions? I want the number from the paper itself, not the abstract.',
      zhRequest,
    ]) {
      const out = await ask(research, 'research_agent', request);
      const tools = out.plan.steps.map((s) => s.tool);
      const wanted = out.plan.asked_acts?.find((a) => /原文|itself/u.test(a.object));
      expect(wanted, request).toBeDefined();
      // served by the visit that reads the paper, or named as undone — not by scholar_search's abstract
      if (wanted?.step_index === null)
        expect(wanted.unserved, request).toContain('no step of the plan does it');
      else expect(tools[wanted?.step_index as number], request).toBe('page_visit');
    }
    const zh = await ask(research, 'research_agent', zhRequest);
    expect(zh.plan.steps.map((s) => s.tool)).toEqual(
      expect.arrayContaining(['scholar_search', 'page_visit']),
    );
  });
});

describe('a change asked in words the rules must read generously', () => {
  let afterSales: Registry;
  beforeAll(async () => {
    afterSales = await loadRegistryDir(`${packs}after-sales`);
  });

  it('a verb with a typing slip ("refnd") is the verb of the tool its documents name', async () => {
    const out = await plan(afterSales, {
      request: 'order 1234 arrived a week late. please refnd the 50 now, I will keep the order',
      agent: 'logistics_agent',
      tenant: 'default',
      scenario: null,
    });
    expect(out.plan.steps.map((s) => s.tool)).toEqual(['order_status_query', 'refund_create']);
    // A short word one letter off says nothing: "fund" is no refund.
    const short = await plan(afterSales, {
      request: 'please fund order 1234 now',
      agent: 'logistics_agent',
      tenant: 'default',
      scenario: null,
    });
    expect(short.plan.steps.map((s) => s.tool)).not.toContain('refund_create');
  });

  it('a model proposing only the check an asked write depends on keeps it; the write stays named as undone', async () => {
    const out = await plan(afterSales, {
      request: 'Please refund order 7777 again, I think you only refunded part of it last time.',
      agent: 'refund_agent',
      tenant: 'default',
      scenario: null,
      proposals: [{ name: 'order_status_query', arguments: { order_id: '7777' } }],
    });
    expect(out.plan.steps.map((s) => s.tool)).toEqual(['order_status_query']);
    expect(out.plan.asked_acts).toEqual([expect.objectContaining({ step_index: null })]);
  });

  it("a read the model chose answers the question: the decider's own relevance reading does not veto it (IF-4)", async () => {
    // The refund agent's refund scene does not show the parcel tracker; another of its scenes does.
    const parcel = await plan(afterSales, {
      request: 'JD0011223344, order 4321: what date was it delivered on?',
      agent: 'refund_agent',
      tenant: 'default',
      scenario: null,
      proposals: [{ name: 'logistics_track_query', arguments: { order_id: '4321' } }],
    });
    expect(parcel.plan.steps.map((s) => s.tool)).toEqual(['logistics_track_query']);
    expect(parcel.plan.asked_acts?.every((a) => a.step_index === 0)).toBe(true);
    // A question the decider's words fit to no read is the proposed read's to answer.
    const office = await loadRegistryDir(`${packs}office`);
    const met = await plan(office, {
      request: '大前天开会了吗？',
      agent: 'office_agent',
      tenant: 'default',
      scenario: null,
      proposals: [{ name: 'minutes_list', arguments: null }],
    });
    expect(met.plan.steps.map((s) => s.tool)).toEqual(['minutes_list']);
    expect(met.plan.asked_acts?.every((a) => a.step_index === 0)).toBe(true);
    // Beside a change, a proposed read may be there for the change: a look-up it does not fit stays undone.
    const mixed = await plan(office, {
      request: '把周三Beacon会的结论私聊发给王芳，另外查一下深圳后天的天气',
      agent: 'office_agent',
      tenant: 'default',
      scenario: null,
      proposals: [
        { name: 'minutes_list', arguments: null },
        { name: 'contact_lookup', arguments: null },
        { name: 'message_send', arguments: null },
      ],
    });
    expect(mixed.plan.asked_acts?.find((a) => a.kind === 'look_up')).toEqual(
      expect.objectContaining({ step_index: null }),
    );
    // The rules keep the last word on writes: a write nobody asked for is still refused.
    const unasked = await plan(afterSales, {
      request: 'Parcel SF0099887766 for order 4321 - on which day did it reach me?',
      agent: 'refund_agent',
      tenant: 'default',
      scenario: null,
      proposals: [{ name: 'refund_create', arguments: { order_id: '4321', reason: 'other' } }],
    });
    expect(unasked.plan.steps.map((s) => s.tool)).not.toContain('refund_create');
  });
});

describe("a tool's not_for and the parts of a request of several", () => {
  let afterSales: Registry;
  beforeAll(async () => {
    afterSales = await loadRegistryDir(`${packs}after-sales`);
  });
  const ask = (agent: string, request: string) =>
    plan(afterSales, { request, agent, tenant: 'default', scenario: null });

  it('a question the best fitting tool says it is not for goes to the tool its not_for names', async () => {
    // refund_status_query's not_for: "… whether the customer's payment for it went through (use order_status_query)".
    const out = await ask('logistics_agent', 'Order 4321 has not shipped yet. Was my payment even received?');
    expect(out.plan.steps.map((s) => s.tool)).toEqual(['order_status_query']);
    expect(out.decision_reason).toContain('is what refund_status_query is not for');
    expect(out.plan.asked_acts?.every((a) => a.step_index !== null)).toBe(true);
    // A question its own words fit keeps it.
    const refund = await ask('logistics_agent', 'Has the refund for order 4321 reached my card yet?');
    expect(refund.plan.steps.map((s) => s.tool)).toContain('refund_status_query');
    expect(refund.decision_reason).not.toContain('is not for');
    // A not_for that names a tool of another kind ("Requesting a new invoice (use invoice_issue)") says which act to
    // ask for, not which read answers: the status question stays with the status look-up.
    const invoice = await ask('invoice_agent', 'Where can I get the PDF of invoice INV-2026-0042?');
    expect(invoice.plan.steps.map((s) => s.tool)).toEqual(['invoice_status_query']);
  });

  it("the request's lead tool gives way too, when its not_for names what the request asks", async () => {
    const tool = (name: string, purpose: string, notFor: string, examples: string[]) => ({
      name,
      description: { purpose, returns: 'What was found.', not_for: notFor },
      examples,
      action: 'read' as const,
      permission: 'read_only' as const,
      scenarios: ['bank'],
      visible_agents: ['*'],
      parameters: {
        type: 'object',
        properties: { account: { type: 'string', description: 'The account number.' } },
        required: ['account'],
      },
    });
    const bank = createRegistry(
      RegistryContent.parse({
        tools: [
          tool(
            'account_overview',
            "Show a bank account's balance, its recent card payments and transfers.",
            'Why a card payment was declined or blocked (use network_code_lookup).',
            ['What is the balance of account 12345?', 'Show my recent card payments'],
          ),
          tool(
            'network_code_lookup',
            'Look up the network response code of one card transaction.',
            'The balance of an account (use account_overview).',
            [],
          ),
        ],
        agents: [{ id: 'bank_agent', description: 'Answers banking questions', max_permission: 'read_only' }],
        scenes: [],
        tenants: [{ id: 'default', allow: ['*'], deny: [], max_permission: 'read_only' }],
        settings: {},
        profiles: [],
        policies: [],
      }),
    );
    const out = await plan(bank, {
      request: 'Account 12345: why was my card payment declined yesterday?',
      agent: 'bank_agent',
      tenant: 'default',
      scenario: 'bank',
    });
    expect(out.decision_reason).toContain('is what account_overview is not for');
    expect(out.plan.steps.map((s) => s.tool)).toEqual(['network_code_lookup']);
    expect(out.plan.asked_acts?.every((a) => a.step_index !== null)).toBe(true);
  });

  it("a tool chosen by words of one part only reads that part's values", async () => {
    const out = await ask(
      'refund_agent',
      '5555那笔退款到了没？还有订单20240917001的发票也帮我开一下，抬头张伟',
    );
    const textOf = (tool: string) =>
      out.plan.steps.find((s) => s.tool === tool)?.input_from.find((i) => i.parameter === 'order_id')?.text ??
      '';
    expect(textOf('refund_status_query')).toContain('5555');
    // The order look-up was chosen by 订单, which only the invoice part says: it reads 20240917001 there.
    expect(textOf('order_status_query')).toContain('20240917001');
    expect(textOf('order_status_query')).not.toContain('5555');
  });

  it("a model's proposed tools each read the ask they serve; a required producer reads its consumer's", async () => {
    const out = await proposed(
      afterSales,
      'invoice_agent',
      '订单5678开一张个人发票，抬头王芳；另外订单20240917001的发票开好了没？',
      ['invoice_status_query', 'order_status_query', 'invoice_issue'],
    );
    const textOf = (tool: string) =>
      out.plan.steps.find((s) => s.tool === tool)?.input_from.find((i) => i.text !== undefined)?.text ?? '';
    expect(textOf('invoice_status_query')).toContain('20240917001');
    expect(textOf('invoice_issue')).toContain('5678');
    // The order check invoice_issue requires is of the order to invoice.
    expect(textOf('order_status_query')).toContain('5678');
  });

  it('帮我把X开一下 asks for 开 done to X: no write of another kind serves it', async () => {
    const out = await ask('refund_agent', '5555的退款到账了吗？另外帮我把订单20240917001的发票开一下');
    expect(out.plan.steps.map((s) => s.tool)).not.toContain('refund_create');
    expect(out.plan.asked_acts?.find((a) => a.kind === 'act')?.unserved).toContain(
      'no step of the plan does it',
    );
  });
});

describe('a send to several listed people', () => {
  it('goes by the channel its words ask for, not by what the names do to their meaning', async () => {
    for (const [request, tool] of [
      ['给陈杰和张敏各发一条消息，提醒他们周五前提交周报', 'message_send'],
      ['给李雷和韩梅梅发封邮件，附上本周的周报', 'email_send'],
    ] as const) {
      const out = await plan(office, { request, agent: 'office_agent', tenant: 'default', scenario: null });
      const writes = out.plan.steps.filter((s) => s.tool === 'message_send' || s.tool === 'email_send');
      expect(
        writes.map((s) => s.tool),
        request,
      ).toEqual([tool]);
      expect(
        out.plan.steps.filter((s) => s.tool === 'contact_lookup'),
        request,
      ).toHaveLength(2);
    }
  });
});

describe('a send to several listed recipients on the model path', () => {
  it('one proposed look-up becomes one per recipient, each reading its name (EN and ZH)', async () => {
    for (const [request, names] of [
      ['Tell Wang Fang and Li Wei on chat that the demo moves to 3pm tomorrow.', ['Wang Fang', 'Li Wei']],
      ['给王芳和李伟发个消息，说明天的评审改到下午三点', ['王芳', '李伟']],
    ] as const) {
      const out = await proposed(office, 'office_agent', request, ['contact_lookup', 'message_send']);
      const lookups = out.plan.steps.filter((s) => s.tool === 'contact_lookup');
      expect(
        lookups.map((s) => s.input_from[0]?.text),
        request,
      ).toEqual(names);
      expect(
        out.plan.steps.filter((s) => s.tool === 'message_send'),
        request,
      ).toHaveLength(1);
    }
  });

  it('two sends the model proposed with one look-up get a look-up each, reading their own words', async () => {
    const out = await proposed(
      office,
      'office_agent',
      "Turn this week's minutes into a status report, mail it to the Atlas group and post a heads-up in the Beacon chat.",
      ['minutes_list', 'report_generate', 'contact_lookup', 'email_send', 'message_send'],
    );
    const lookups = out.plan.steps.filter((s) => s.tool === 'contact_lookup');
    expect(lookups.map((s) => s.input_from[0]?.text)).toEqual([
      'mail it to the Atlas group',
      'post a heads-up in the Beacon chat',
    ]);
  });

  it('each proposed tool reads the ask it fits best, never one left over for it', async () => {
    const out = await proposed(
      office,
      'office_agent',
      '把上周三Beacon会的结论发到Beacon群里，顺便查下后天广州天气',
      ['minutes_list', 'contact_lookup', 'message_send'],
    );
    const text = out.plan.steps.find((s) => s.tool === 'minutes_list')?.input_from[0]?.text ?? '';
    expect(text).not.toContain('天气');
    // The conclusions sent are made from the minutes: the maker of the message joins though the model left it out.
    expect(out.decision_reason).toMatch(/sends "上周三Beacon会的结论" → \w+ makes it/);
  });

  it('a proposed search that finds the page a proposed visit reads searches for what the visit’s ask wants', async () => {
    // No link in the request: the visit reads a page the search finds, so both read the same ask (EN and ZH).
    for (const [request, wanted] of [
      [
        'First, who wrote the BERT paper? Second, what do the Redis 8 release notes say about streams?',
        'Redis 8',
      ],
      ['帮我看两件事：Transformer论文的作者是谁；还有Node 22的更新说明里fetch改了什么', 'Node 22'],
    ] as const) {
      const out = await proposed(research, 'research_agent', request, [
        'scholar_search',
        'web_search',
        'page_visit',
      ]);
      const textOf = (tool: string) =>
        out.plan.steps.find((s) => s.tool === tool)?.input_from.find((i) => i.text !== undefined)?.text ?? '';
      expect(textOf('web_search'), request).toContain(wanted);
      expect(textOf('web_search'), request).toBe(textOf('page_visit'));
    }
  });
});

describe('known failure causes', () => {
  let reach: Registry;
  let afterSales: Registry;
  beforeAll(async () => {
    reach = await loadRegistryDir(`${packs}reach`);
    afterSales = await loadRegistryDir(`${packs}after-sales`);
  });
  const chain = async (registry: Registry, agent: string, request: string) =>
    (await plan(registry, { request, agent, tenant: 'default', scenario: null })).plan.steps.map(
      (s) => s.tool,
    );

  it('a read the lead’s not_for names leads when their fits tie and it is nearer in meaning (a refund’s progress)', async () => {
    expect(await chain(afterSales, 'refund_agent', '那单退掉的耳机(4321)，钱退回我卡里了没有？')).toEqual([
      'refund_status_query',
    ]);
  });

  it('a look-up no chosen read serves gets the read its own words fit', async () => {
    expect(await chain(afterSales, 'refund_agent', '订单4321付款成功了吗？之前那笔退款到账没有？')).toEqual([
      'order_status_query',
      'refund_status_query',
    ]);
  });

  it('a change said with a Chinese verb apart from its object brings the scene whose write documents the word', async () => {
    expect(
      await chain(afterSales, 'logistics_agent', '订单5678一直没发货，先查下物流，再帮我把钱退了'),
    ).toEqual(expect.arrayContaining(['logistics_track_query', 'order_status_query', 'refund_create']));
  });

  it('a phrasal verb of no topic of its own ("get back to me") is done by the tool documented with it', async () => {
    expect(
      await chain(
        reach,
        'reach_agent',
        'Printer keeps jamming. Could one of your engineers get back to me today? lee@example.com',
      ),
    ).toEqual(['create_ticket']);
  });

  it('a list whose not_for sends reading to the parse is followed by it when the question names what the parse reads', async () => {
    expect(
      await chain(office, 'office_agent', "Remind me what tasks I got from Monday's planning meeting"),
    ).toEqual(['minutes_list', 'minutes_parse']);
    expect(await chain(office, 'office_agent', 'Which meetings did we have on Wednesday?')).toEqual([
      'minutes_list',
    ]);
  });

  it('私信 sends a chat message', async () => {
    expect(readActs('私信王芳，说方案已经定了').map((a) => a.kind)).toContain('send');
    expect(await chain(office, 'office_agent', '另外私信陈杰一下，提醒他交周报')).toEqual([
      'contact_lookup',
      'message_send',
    ]);
  });
});
