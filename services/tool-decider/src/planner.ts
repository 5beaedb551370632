// The decider's pure core (TD-2..TD-6, TD-8): visible set (scene routing or the given scenario) → candidates
// (lexical retrieval, or model proposals resolved by TD-3) → an ordered chain → the TD-5 rules, with bounded repair
// rounds fed by the violations → a contract Plan. Used by the stage's decide and by `signalbox eval bfcl`.
import type { AskedAct, AskedActKind, InputFrom, Plan, PlanStep, Rejection } from '@signalbox/contracts';
import {
  requiredParameters,
  toolHash,
  toolsFor,
  toolsForAnyScenario,
  toolsForScene,
  type Permission,
  type Registry,
  type ToolDefinition,
} from '@signalbox/registry';
import {
  actLabel,
  chineseClauses,
  forbiddenActs,
  readActs,
  toolActKind,
  WRITE_ACT_KINDS,
  type AskedActRead,
  type ForbiddenAct,
} from './acts.js';
import { EN_SAYING_VERBS, ZH_SAYING_VERBS } from './vocabulary/saying-verbs.js';
import { askPieces, requestParts, searchedFor, type RequestIntent } from './intent.js';
import {
  REFERS_TO_LINK,
  validatePlan,
  type DraftStep,
  type ExecutedStep,
  type ValidationContext,
  type Violation,
} from './plan-validator.js';
import { fanOutValues } from './listed-values.js';
import { resolveToolName } from './resolve-name.js';
import {
  GENERIC_VERBS,
  RETRIEVAL_CONFIG,
  createLexicalIndex,
  fitsRequest,
  targetPhrase,
  type ScoredTool,
  type SemanticInput,
} from './retrieval.js';
import { oncePerDefinition } from './once-per-definition.js';
import { agentScenes, scoreScenes } from './scene-router.js';
import type { SemanticScorer } from './semantic.js';
import { STOP_WORDS, stem, tokens } from './text.js';
import {
  COLLECTIVE_RECIPIENT_NOUNS,
  ZH_DISTRIBUTIVES,
  ZH_LIST_JOINERS,
  ZH_RECIPIENT_COVERBS,
  ZH_SEND_TO_VERBS,
  ZH_SEND_VERBS,
} from './vocabulary/recipient-lists.js';

/** A tool call a model proposed (names unresolved). */
export interface ProposedCall {
  name: string;
  arguments: Record<string, unknown> | null;
}

/** What to plan for. */
export interface PlanRequest {
  request: string;
  /** Conversation text (preconditions such as "a URL from the user" look here too). */
  context?: string;
  agent: string;
  tenant: string;
  /** The task's scenario; null lets the scene router pick. */
  scenario: string | null;
  needsFreshData?: boolean;
  history?: readonly ExecutedStep[];
  /** TD-7: tools the plan must not use. */
  exclude?: readonly string[];
  /** Model proposals, in order; absent for the deterministic path. */
  proposals?: readonly ProposedCall[];
  /** Steps kept at the head of the plan (a re-plan keeps the steps already done). */
  keep?: readonly DraftStep[];
}

/** Options of the planner. */
export interface PlannerOptions {
  /**
   * The semantic model's scorer (TD-2): candidates rank by lexical and semantic fit together. null: decide by
   * lexical fit alone — an explicit setting (SIGNALBOX_EMBEDDINGS=off) that the plan records. @default null
   */
  semantic?: SemanticScorer | null;
  /** Repair rounds after a validation failure (TD-5: violations fed back, bounded). @default 3 */
  maxValidationRounds?: number;
  /** Most steps in a plan (FL-6). @default 8 */
  maxSteps?: number;
}

/** The planner's outcome. */
export interface PlanOutcome {
  status: 'planned' | 'no_tool_fits' | 'invalid';
  plan: Plan;
  intent: RequestIntent;
  /** Violations left after the repair rounds (status `invalid`). */
  violations: Violation[];
  /** Every violation met along the way (fed back into repairs). */
  refused: Violation[];
  /** TD-3 route hits: proposed names that resolved exactly, of all proposed (null without proposals). */
  routeHits: { exact: number; total: number } | null;
  decision_reason: string;
}

/**
 * Most tools the decider ranks for one request: every tool the agent may see (agent, scenario, tenant, permission —
 * RG-4), up to the plan contract's 200. The registry's `visibility_cap` bounds what a model is shown: the top of this
 * ranking (`shortlistFor`), not the first tools by priority, so the tool a request needs is in the shortlist
 * whenever the ranking finds it.
 */
export const RANKED_LIMIT = 200;

/** The most asks of one request routed to scenes of their own (each costs an embedding; later asks are still served). */
export const MAX_ROUTED_ASKS = 8;

/** The shortlist a model is shown (IF-4): the first `visibility_cap` tools of the decider's ranking. */
export function shortlistFor(registry: Registry, ranking: readonly string[]): string[] {
  return ranking.slice(0, registry.content.settings.visibility_cap);
}

/**
 * A tool the model proposes by its exact name from another scene the agent takes (RG-4: the agent may use it) joins
 * that scene to the visible set: a scene narrows what the model is shown, it does not veto what the model chose
 * ("what day did this get delivered?" to the refund agent, routed to its refund scene, answered by the parcel
 * tracker of its late-delivery scene). Whether the step may run is still the TD-5 rules' decision.
 */
function withProposedScenes(
  registry: Registry,
  req: PlanRequest,
  routed: { scene: string | null; tools: ToolDefinition[]; why: string },
): { scene: string | null; tools: ToolDefinition[]; why: string } {
  if (!req.proposals || req.scenario) return routed;
  const names = new Set(routed.tools.map((t) => t.name));
  const tools = [...routed.tools];
  const joined: string[] = [];
  for (const p of req.proposals) {
    if (names.has(p.name)) continue;
    for (const scene of agentScenes(registry, req.agent)) {
      const sceneTools = toolsForScene(registry, {
        agent: req.agent,
        scene: scene.id,
        tenant: req.tenant,
        cap: RANKED_LIMIT,
      }).tools;
      if (!sceneTools.some((t) => t.name === p.name)) continue;
      for (const t of sceneTools)
        if (!names.has(t.name)) {
          names.add(t.name);
          tools.push(t);
        }
      joined.push(scene.id);
      break;
    }
  }
  if (joined.length === 0) return routed;
  return {
    scene: null,
    tools,
    why: `${routed.why} + ${joined.map((j) => `scene ${j}`).join(', ')} for the model's proposal`,
  };
}

function visibleSet(
  registry: Registry,
  req: PlanRequest,
  sceneSimilarity: ReadonlyMap<string, number> | undefined,
  askRoutes: readonly { ask: string; similarity: ReadonlyMap<string, number> | undefined }[] = [],
  acts: readonly AskedActRead[] = [],
): { scene: string | null; tools: ToolDefinition[]; why: string } {
  if (req.scenario) {
    const set = toolsFor(registry, {
      agent: req.agent,
      scenario: req.scenario,
      tenant: req.tenant,
      cap: RANKED_LIMIT,
    });
    return { scene: null, tools: set.tools, why: `scenario ${req.scenario} given by the task` };
  }
  const scenes = scoreScenes(registry, req.agent, req.request, sceneSimilarity);
  const best = scenes[0];
  if (best && best.score > 0) {
    const tools = new Map(
      toolsForScene(registry, {
        agent: req.agent,
        scene: best.scene.id,
        tenant: req.tenant,
        cap: RANKED_LIMIT,
      }).tools.map((t) => [t.name, t]),
    );
    const joined: string[] = [];
    for (const { ask, similarity } of askRoutes) {
      const own = scoreScenes(registry, req.agent, ask, similarity);
      const top = own[0];
      const mainScore = own.find((o) => o.scene.id === best.scene.id)?.score ?? 0;
      if (!top || top.score <= 0 || top.scene.id === best.scene.id || top.score <= mainScore) continue;
      if (joined.includes(top.scene.id)) continue;
      joined.push(top.scene.id);
      for (const t of toolsForScene(registry, {
        agent: req.agent,
        scene: top.scene.id,
        tenant: req.tenant,
        cap: RANKED_LIMIT,
      }).tools)
        tools.set(t.name, t);
    }
    // An act of a named kind (a calculation, a send, a create …) no tool of the scene does: the agent's scene that has
    // a tool of that kind joins, best for the act's words first — a scene narrows what is shown, it does not hide
    // the one kind of tool the request needs. (Whether the act may run is still the TD-5 rules' decision.)
    const doesKind = (t: ToolDefinition, kind: AskedActKind) =>
      kind === 'compute' ? computes(t) || toolActKind(t) === 'compute' : toolActKind(t) === kind;
    for (const act of acts) {
      if (act.kind === 'look_up' || act.kind === 'act') continue;
      if ([...tools.values()].some((t) => doesKind(t, act.kind))) continue;
      for (const option of scoreScenes(registry, req.agent, act.phrase)) {
        const sceneTools = toolsForScene(registry, {
          agent: req.agent,
          scene: option.scene.id,
          tenant: req.tenant,
          cap: RANKED_LIMIT,
        }).tools;
        if (!sceneTools.some((t) => doesKind(t, act.kind))) continue;
        if (!joined.includes(option.scene.id)) joined.push(option.scene.id);
        for (const t of sceneTools) tools.set(t.name, t);
        break;
      }
    }
    // Likewise a change of unnamed kind said with a Chinese verb apart from its object (把钱退了: 退 of 退款 — see
    // `splitCompound`) that no write of the scene documents: the agent's scene with a write whose documents use that
    // verb-object word joins, best for the act's words first.
    for (const act of acts) {
      const verb = act.kind === 'act' ? act.verb : undefined;
      if (verb === undefined || !/^\p{Script=Han}$/u.test(verb)) continue;
      const writesIt = (t: ToolDefinition) => t.action !== 'read' && compoundHeads(t).has(verb);
      if ([...tools.values()].some(writesIt)) continue;
      for (const option of scoreScenes(registry, req.agent, act.phrase)) {
        const sceneTools = toolsForScene(registry, {
          agent: req.agent,
          scene: option.scene.id,
          tenant: req.tenant,
          cap: RANKED_LIMIT,
        }).tools;
        if (!sceneTools.some(writesIt)) continue;
        if (!joined.includes(option.scene.id)) joined.push(option.scene.id);
        for (const t of sceneTools) tools.set(t.name, t);
        break;
      }
    }
    return {
      // A plan over several scenes names none: the executor then checks each tool against the agent's own scenes.
      scene: joined.length ? null : best.scene.id,
      tools: [...tools.values()],
      why:
        `scene ${best.scene.id} (score ${best.score.toFixed(1)}` +
        (best.hits.length ? `, keywords ${best.hits.join(', ')}` : '') +
        `${best.semantic !== null ? `, semantic ${best.semantic.toFixed(2)}` : ''})` +
        (joined.length
          ? ` + ${joined.map((j) => `scene ${j}`).join(', ')} for an ask or act of its own`
          : ''),
    };
  }
  // No scene speaks to the request: every scene the agent takes, so a fitting tool is still found (or none is).
  const tools = new Map<string, ToolDefinition>();
  for (const s of scenes)
    for (const t of toolsForScene(registry, {
      agent: req.agent,
      scene: s.scene.id,
      tenant: req.tenant,
      cap: RANKED_LIMIT,
    }).tools)
      tools.set(t.name, t);
  return { scene: null, tools: [...tools.values()], why: 'no scene matched; all of the agent’s scenes' };
}

function maxPermission(registry: Registry, agent: string, tenant: string): Permission {
  const a = registry.agent(agent)?.max_permission ?? 'read_only';
  const t =
    registry.content.tenants.find((x) => x.id === tenant)?.max_permission ??
    registry.content.tenants.find((x) => x.id === 'default')?.max_permission ??
    'sensitive';
  const rank = { read_only: 0, write: 1, sensitive: 2 } as const;
  return rank[a] <= rank[t] ? a : t;
}

/**
 * input_from of a step: dependency-fed parameters from the producing step, required ones from the user text — the
 * part of it the draft names for that parameter (`texts`), when it names one. A tool that requires one of several
 * parameters (`anyOf`) takes those, too, from the words the draft names. An optional dependency does not feed a step
 * whose own words already give a value for one of them ("the invoice of order 20261101001" is that order's, not the
 * one a step before it issued for another order).
 */
function inputsFor(
  tool: ToolDefinition,
  earlier: readonly string[],
  texts: Readonly<Record<string, string>> = {},
  feeders: readonly (string | undefined)[] = [],
  nth = 0,
): InputFrom[] {
  const out: InputFrom[] = [];
  const fed = new Set<string>();
  const alternatives = alternativeParameters(tool);
  const ownValue = alternatives.some((p) => {
    const text = texts[p];
    return text !== undefined && givesValue(tool, p, text);
  });
  for (const dep of tool.depends_on) {
    // A producer added for this step (`feeds`) feeds it; else the last of the producer's steps added for no one.
    const ofTool = earlier.flatMap((name, j) => (name === dep.tool ? [j] : []));
    const own = ofTool.filter((j) => feeders[j] === tool.name);
    // (several producers added for steps of this tool, each for one of them: the nth step of the tool takes the nth)
    const at =
      (own.length > 1 && !takesList(tool, dep.parameter) ? own[nth] : undefined) ??
      own.at(-1) ??
      ofTool.filter((j) => feeders[j] === undefined).at(-1) ??
      ofTool.at(-1) ??
      -1;
    if (at === -1 || (!dep.required && ownValue)) continue;
    fed.add(dep.parameter);
    // Several producers added for this step (one per listed value) feed a list parameter together.
    for (const j of own.length > 1 && takesList(tool, dep.parameter) ? own : [at])
      out.push({ parameter: dep.parameter, source: 'step_output', step_index: j, path: pathFor(tool, dep) });
  }
  for (const p of requiredParameters(tool)) {
    if (fed.has(p)) continue;
    const text = texts[p];
    out.push({ parameter: p, source: 'user_text', step_index: null, path: null, ...(text ? { text } : {}) });
  }
  for (const p of alternatives) {
    const text = texts[p];
    if (fed.has(p) || text === undefined || !givesValue(tool, p, text)) continue;
    out.push({ parameter: p, source: 'user_text', step_index: null, path: null, text });
  }
  return out;
}

/** The parameters of a tool's `anyOf` alternatives (each alternative's `required`): one of them must be given. */
function alternativeParameters(tool: ToolDefinition): string[] {
  const anyOf = (tool.parameters as { anyOf?: unknown }).anyOf;
  if (!Array.isArray(anyOf)) return [];
  const names = anyOf.flatMap((branch: unknown) => {
    const required = (branch as { required?: unknown } | null)?.required;
    return Array.isArray(required) ? required.filter((r): r is string => typeof r === 'string') : [];
  });
  return [...new Set(names)].filter((n) => !requiredParameters(tool).includes(n));
}

/**
 * Whether a text holds a value of a parameter that declares its form (`pattern`): one of its runs of letters, digits,
 * `_` and `-` matches. Without a pattern the text is not known to give one.
 */
function givesValue(tool: ToolDefinition, parameter: string, text: string): boolean {
  const schema = (tool.parameters as { properties?: Record<string, { pattern?: unknown }> }).properties?.[
    parameter
  ];
  if (typeof schema?.pattern !== 'string') return false;
  let pattern: RegExp;
  try {
    pattern = new RegExp(schema.pattern, 'u');
  } catch {
    return false;
  }
  return (text.match(/[A-Za-z0-9_-]+/g) ?? []).some((run) => pattern.test(run));
}

/**
 * The output path a dependency feeds: a single-valued parameter fed by a list (`results[].url` → a `url` string)
 * takes the list's first item (`results[0].url`) — the producer ranks its results, so the first is its best.
 */
function pathFor(tool: ToolDefinition, dep: ToolDefinition['depends_on'][number]): string {
  const schema = (tool.parameters as { properties?: Record<string, { type?: unknown }> }).properties?.[
    dep.parameter
  ];
  // Only a scalar takes one item; an object parameter (named inputs) is fed the whole list, to be read into names.
  const single =
    schema !== undefined && schema.type !== undefined && schema.type !== 'array' && schema.type !== 'object';
  return single ? dep.output.replace('[]', '[0]') : dep.output;
}

function draft(tool: ToolDefinition, purpose: string, args?: Record<string, unknown>): DraftStep {
  return { tool: tool.name, purpose, input_from: [], ...(args ? { arguments: args } : {}) };
}

/** Orders steps: producers before consumers (depends_on), reads before writes, otherwise as given. */
function order(steps: DraftStep[], visible: ReadonlyMap<string, ToolDefinition>, fixed: number): DraftStep[] {
  const head = steps.slice(0, fixed);
  const rest = steps.slice(fixed);
  const result: DraftStep[] = [];
  const placed = new Set<DraftStep>();
  const writes = (s: DraftStep) => (visible.get(s.tool)?.action ?? 'read') !== 'read';
  const ready = (s: DraftStep) =>
    (visible.get(s.tool)?.depends_on ?? []).every(
      (d) => !rest.some((o) => o.tool === d.tool && !placed.has(o) && o !== s),
    );
  while (result.length < rest.length) {
    const pool = rest.filter((s) => !placed.has(s));
    const next =
      pool.find((s) => ready(s) && !writes(s)) ??
      pool.find(
        (s) => ready(s) && !pool.some((o) => o !== s && !writes(o) && dependsOnStep(o, s, visible)),
      ) ??
      pool.find(ready) ??
      pool[0];
    if (!next) break;
    placed.add(next);
    result.push(next);
  }
  return [...head, ...result];
}

function dependsOnStep(
  reader: DraftStep,
  writer: DraftStep,
  visible: ReadonlyMap<string, ToolDefinition>,
): boolean {
  return (visible.get(reader.tool)?.depends_on ?? []).some((d) => d.tool === writer.tool);
}

/** Recomputes input_from after the order changed (step indexes move). Keeps proposer arguments. */
function rewire(
  steps: DraftStep[],
  visible: ReadonlyMap<string, ToolDefinition>,
  fixed: number,
): DraftStep[] {
  return steps.map((s, i) => {
    if (i < fixed) return s;
    const tool = visible.get(s.tool);
    return tool
      ? {
          ...s,
          input_from: inputsFor(
            tool,
            steps.slice(0, i).map((x) => x.tool),
            s.texts,
            steps.slice(0, i).map((x) => x.feeds),
            steps.slice(fixed, i).filter((x) => x.tool === s.tool).length,
          ),
        }
      : s;
  });
}

/** Plans one request. Pure: same registry, request, proposals and model files → same outcome. */
export async function planTools(
  registry: Registry,
  req: PlanRequest,
  options: PlannerOptions = {},
): Promise<PlanOutcome> {
  const maxRounds = options.maxValidationRounds ?? 3;
  const maxSteps = options.maxSteps ?? 8;
  // TD-5: the acts the request asks for. A write needs an act that asks for it; a request of no write act is a
  // question or lookup.
  const acts = readActs(req.request);
  const writeActs = acts.filter((a) => WRITE_ACT_KINDS.has(a.kind));
  const intent: RequestIntent = writeActs.length > 0 ? 'action' : 'question';
  const cue = writeActs[0]?.cue ?? null;
  // TD-2 step one by meaning too: the scenes' descriptions and examples under the semantic model.
  const sceneSimilarity =
    options.semantic && !req.scenario
      ? await options.semantic.sceneSimilarities(req.request, agentScenes(registry, req.agent))
      : undefined;
  // A request of several asks may ask things of several scenes ("what's the weather in Shenzhen? Also log a ticket"):
  // each ask is routed on its own too, and a scene that serves an ask better than the request's scene joins it.
  const asks = requestParts(req.request);
  // In Chinese, whose asks requestParts does not split, its clauses are the asks.
  // The first MAX_ROUTED_ASKS of them are routed to scenes (each costs an embedding); all of them are served.
  const clauses = chineseClauses(req.request);
  const routedAsks = clauses.length > 1 ? clauses : asks.length > 1 ? asks : [];
  // Each of the first MAX_ROUTED_ASKS texts with its scenes' similarities (none when the request names its scenario).
  const routesOf = async (texts: readonly string[]) =>
    req.scenario
      ? []
      : Promise.all(
          texts.slice(0, MAX_ROUTED_ASKS).map(async (ask) => ({
            ask,
            similarity: options.semantic
              ? await options.semantic.sceneSimilarities(ask, agentScenes(registry, req.agent))
              : undefined,
          })),
        );
  const askRoutes = await routesOf(routedAsks);
  // A thing a send names (把周三评审会的重点发到群里) is routed too: the scene of the records it names joins the send's, so
  // the tool that makes the message from them is visible.
  const sentThings = acts.flatMap((a) => {
    const thing = a.kind === 'send' ? sentThing(a, req.request, acts) : undefined;
    return thing === undefined || routedAsks.includes(thing) ? [] : [thing];
  });
  const thingRoutes = await routesOf(sentThings);
  const routed = withProposedScenes(
    registry,
    req,
    visibleSet(registry, req, sceneSimilarity, [...askRoutes, ...thingRoutes], acts),
  );
  const excluded = new Set(req.exclude ?? []);
  const visibleTools = routed.tools;
  const visible = new Map(visibleTools.map((t) => [t.name, t]));
  const usable = visibleTools.filter((t) => !excluded.has(t.name));
  const rejected: Rejection[] = [...excluded].map((t) => ({
    candidate: t,
    reason: 'excluded by feedback (TD-7)',
  }));
  // Every visible tool is scored, the excluded ones too, then set aside: a re-plan's alternative must fit the request
  // on its merits, not lead merely because the tool that fitted best was excluded (TD-7).
  const index = createLexicalIndex(visibleTools);
  // The things each ask names ("the median and the variance of …"), each a text scored on its own.
  const pieces = asks.map(askPieces);
  // The texts a decision may compare with the tools by meaning: each with its target phrase. The request and its acts
  // are read by every decision; its asks and the things they list only once some tool fits the request, and only when
  // there are several of them (`serve` below). Each is embedded when it is first needed (an inference per text, the
  // most of a new decision's CPU), never changing a similarity: a vector is its text's alone.
  const withTargets = (texts: readonly string[]) => [
    ...texts,
    ...texts.map(targetPhrase).filter((t) => t.trim() !== ''),
  ];
  const partTexts = withTargets([
    ...(routedAsks.length > 1 ? routedAsks : []),
    ...pieces.filter((listed) => listed.length > 1).flat(),
  ]);
  // Every text the decision may read: the rest only through the duplicate rule, which compares the words two steps of
  // one tool take (TD-5) — the asks, the things listed, and the phrases of a request that asks for several searches.
  // The words that say which channel a send to several listed people asks for: its phrase without their names. Whom
  // a send reaches says nothing of how it is sent, and names blur the words' meaning (给陈杰和张敏各发一条消息 asks for a
  // chat message). Only the choice between tools of the send's kind reads them: the names stay evidence that the
  // request gives the send its recipients.
  const channelText = new Map(
    acts.flatMap((act) => {
      const names = act.kind === 'send' ? listedRecipients(act, req.request) : [];
      if (names.length < 2) return [];
      const rest = names
        .reduce((text, name) => text.split(name).join(' '), act.phrase)
        .replace(/\s+/g, ' ')
        .trim();
      return rest === '' ? [] : [[act, rest] as const];
    }),
  );
  const everyText = new Set([
    ...withTargets([req.request, ...asks, ...routedAsks, ...pieces.flat(), ...acts.map((a) => a.phrase)]),
    ...channelText.values(),
    ...searchedFor(req.request),
  ]);
  const similarities = options.semantic
    ? await options.semantic.similarities(
        req.request,
        withTargets([req.request, ...acts.map((a) => a.phrase), ...channelText.values()]),
        visibleTools,
      )
    : null;
  // The texts of steps the duplicate rule compares by meaning, embedded before it reads them.
  const embedCompared = async (draftSteps: readonly DraftStep[]) => {
    const compared = comparedTexts(draftSteps).filter((t) => everyText.has(t));
    if (similarities && compared.length > 0) await similarities.including(compared);
  };
  const similarityTo = (text: string): SemanticInput | undefined => {
    if (!similarities) return undefined;
    const target = targetPhrase(text);
    return {
      request: (tool) => similarities.of(text, tool),
      target: (tool) => (target.trim() === '' ? undefined : similarities.of(target, tool)),
    };
  };
  const scored = index
    .score(req.request, similarityTo(req.request))
    .filter((s) => !excluded.has(s.tool.name));
  const fits = scored.filter((s) => fitsRequest(s, scored));
  // A request of several questions whose whole fits no tool fits the tools that fit one of its questions on its own
  // ("two quick ones: who wrote ReAct, and what … does the datasheet list?"): each is a request of its own, and the
  // others' words dilute every tool's fit to the whole. They are then served one by one, as for any request of several.
  if (
    fits.length === 0 &&
    routedAsks.length > 1 &&
    acts.length > 1 &&
    acts.every((a) => a.kind === 'look_up')
  ) {
    if (similarities && partTexts.length > 0) await similarities.including(partTexts);
    for (const ask of routedAsks) {
      const local = index.score(ask, similarityTo(ask)).filter((s) => !excluded.has(s.tool.name));
      const top = local[0];
      const whole = top && fitsRequest(top, local) ? scored.find((s) => s.tool === top.tool) : undefined;
      if (whole && !fits.includes(whole)) fits.push(whole);
    }
  }
  // Each act's phrase scored on its own words: which tools can serve it, and which writes it asks for.
  const actScores = new Map<AskedActRead, ScoredTool[]>(
    acts.map((act) => [
      act,
      index.score(act.phrase, similarityTo(act.phrase)).filter((s) => !excluded.has(s.tool.name)),
    ]),
  );
  const channelScores = new Map(
    [...channelText].map(([act, text]) => [
      act,
      index.score(text, similarityTo(text)).filter((s) => !excluded.has(s.tool.name)),
    ]),
  );
  const forbidden = forbiddenActs(req.request);
  const allowedWrites = asksForWrites(acts, actScores, fits, forbidden);
  const writeAdmitted = (tool: ToolDefinition) => tool.action === 'read' || allowedWrites.has(tool.name);
  for (const s of scored)
    if (!fits.includes(s))
      rejected.push({
        candidate: s.tool.name,
        reason: `below fit threshold ${String(
          s.features.semantic === null
            ? RETRIEVAL_CONFIG.fitThreshold
            : RETRIEVAL_CONFIG.semanticFitThreshold,
        )}: ${s.explain}`,
      });
  const keep = [...(req.keep ?? [])];
  let steps: DraftStep[] = [...keep];
  // The write act each write step was chosen for, by tool: what its own producers read ("email it to the Beacon
  // group, and drop a note in the Atlas chat": each send's recipients are found from its own words).
  const doneFor = new Map<string, AskedActRead>();
  let routeHits: PlanOutcome['routeHits'] = null;
  const reasons: string[] = [
    routed.why,
    `intent ${intent}${cue ? ` ("${cue}")` : ''}`,
    similarities
      ? `ranked with ${similarities.model.id} (sha256 ${similarities.model.sha256.slice(0, 12)})`
      : 'ranked lexically (semantic model off)',
  ];

  // The texts a tool's not_for sent to another tool (see `redirected`), by the tool they went to.
  const sentTexts = new Map<string, string[]>();
  if (req.proposals) {
    // Model proposals (TD-2 hybrid): resolve every name to a visible tool (TD-3) or reject it.
    let exact = 0;
    for (const p of req.proposals) {
      const r = resolveToolName(p.name, usable);
      if (r.kind === 'rejected') {
        rejected.push({
          candidate: p.name,
          reason: `proposed by the model, not resolved (TD-3): ${r.reason}`,
        });
        continue;
      }
      if (r.kind === 'exact') exact++;
      else
        rejected.push({
          candidate: p.name,
          reason: `proposed by the model, resolved to ${r.tool.name} (${r.kind}, similarity ${r.similarity.toFixed(2)})`,
        });
      if (steps.some((s) => s.tool === r.tool.name && p.arguments === null)) continue;
      steps.push(draft(r.tool, `model proposal ${p.name}`, p.arguments ?? undefined));
    }
    // A request of several asks: each proposed tool reads its values from the ask it serves, as a planned one does —
    // the ask whose words single it out among the proposed tools ("订单X的发票下载地址给我；另外订单Y也帮我开张发票": the
    // order check before the invoice is of Y).
    // A producer of another proposed step (the order check an invoice requires) reads that step's ask; a finder the
    // step may do without (web_search for page_visit) is its producer too when the request gives no link, as on the
    // planned path. A tool and the tools it feeds are one unit: a request whose proposed tools are one unit is one
    // ask of theirs, read whole ("…降了多少？给我原文出处": the search is for the figure and its source together).
    const givesLink = REQUEST_URL.test(req.request) || REFERS_TO_LINK.test(req.request);
    const dependsOn = (c: { tool: string }, name: string, required: boolean) =>
      c.tool !== name &&
      (visible.get(c.tool)?.depends_on.some((d) => d.tool === name && d.required === required) ?? false);
    const needs = (c: { tool: string }, name: string) => dependsOn(c, name, true);
    const finds = (c: { tool: string }, name: string) =>
      !givesLink && visible.get(name)?.evidence === 'lead' && dependsOn(c, name, false);
    const unitOf = (name: string, seen = new Set<string>()): string => {
      const c = steps.find((x) => needs(x, name) || finds(x, name));
      return c && !seen.has(c.tool) ? unitOf(c.tool, seen.add(name)) : name;
    };
    if (routedAsks.length > 1 && new Set(steps.map((s) => unitOf(s.tool))).size > 1) {
      if (similarities) await similarities.including(routedAsks);
      const proposed = new Set(steps.map((s) => s.tool));
      // (the model chose the tools: only which ask each serves is read here, so no fit threshold applies)
      const fits = routedAsks.flatMap((ask) =>
        index
          .score(ask, similarityTo(ask))
          .filter((l) => proposed.has(l.tool.name))
          .map((l) => ({ ask, tool: l.tool.name, fit: l.fit })),
      );
      const fitOf = (tool: string, ask: string) =>
        fits.find((f) => f.tool === tool && f.ask === ask)?.fit ?? -Infinity;
      // Each tool reads the ask it fits best — never one left over for it: a tool the request's other asks do not
      // concern keeps its own reading ("…的要点发到群里，顺便查下明天上海天气": the minutes are of Friday, not of tomorrow).
      const askOf = new Map<string, string>();
      const best = new Map<string, number>();
      for (const pair of fits)
        if (!steps.some((c) => needs(c, pair.tool)) && pair.fit > (best.get(pair.tool) ?? -Infinity)) {
          best.set(pair.tool, pair.fit);
          askOf.set(pair.tool, pair.ask);
        }
      // A finder searches for what the ask it fits best wants, and its reader reads what it finds — unless a tool of
      // another unit serves that ask better (a paper search for the paper): then it finds what its reader's ask wants.
      for (const finder of steps) {
        const reader = steps.find((c) => finds(c, finder.tool));
        if (!reader) continue;
        const own = askOf.get(finder.tool);
        const servedElsewhere =
          own !== undefined &&
          steps.some(
            (t) => unitOf(t.tool) !== unitOf(finder.tool) && fitOf(t.tool, own) > fitOf(finder.tool, own),
          );
        const ask = servedElsewhere || own === undefined ? askOf.get(reader.tool) : own;
        if (ask === undefined) continue;
        askOf.set(finder.tool, ask);
        askOf.set(reader.tool, ask);
      }
      const textsFor = (tool: ToolDefinition, ask: string) =>
        Object.fromEntries(
          [...requiredParameters(tool), ...alternativeParameters(tool)].map((p) => [p, ask]),
        );
      steps = steps.map((step) => {
        const tool = visible.get(step.tool);
        if (!tool || step.texts) return step;
        const consumer = steps.find((c) => needs(c, step.tool));
        const ask = (consumer && askOf.get(consumer.tool)) ?? askOf.get(step.tool);
        return ask ? { ...step, texts: textsFor(tool, ask) } : step;
      });
    }
    // A request of several asks, some asking for a change the model proposed no write for and some asking only to look
    // something up: the proposed reads look up what the look-ups ask. A read does nothing a change asks, so the words of
    // the change are no values of its ("Who wrote the Reflexion paper? I'd like to email them about their findings": the
    // search is for the paper's authors, not for "findings").
    const proposedSteps = steps.slice(keep.length);
    if (
      routedAsks.length > 1 &&
      proposedSteps.length > 0 &&
      proposedSteps.every((s) => visible.get(s.tool)?.action === 'read' && s.texts === undefined)
    ) {
      const askKinds = routedAsks.map((ask) => readActs(ask).map((a) => a.kind));
      const lookUps = routedAsks.filter(
        (_, k) => (askKinds[k]?.length ?? 0) > 0 && (askKinds[k] ?? []).every((x) => x === 'look_up'),
      );
      // (a change of a named kind only: a want of unnamed kind — 我要官方release notes里的原话 — may be a want of
      // information the reads are there for)
      const named = (x: AskedActKind) => WRITE_ACT_KINDS.has(x) && x !== 'act';
      if (lookUps.length > 0 && askKinds.some((k) => k.some(named))) {
        const text = lookUps.join(' ');
        steps = steps.map((step, i) => {
          const tool = visible.get(step.tool);
          if (i < keep.length || !tool) return step;
          return {
            ...step,
            texts: Object.fromEntries(
              [...requiredParameters(tool), ...alternativeParameters(tool)].map((p) => [p, text]),
            ),
          };
        });
        reasons.push(`the proposed reads look up what "${text.slice(0, 60)}" asks, not the asked change`);
      }
    }
    // The write act each proposed write serves (the first of its kind not yet taken): what its producers read, as on
    // the planned path (a send to several listed recipients looks each one up).
    for (const act of acts) {
      if (!WRITE_ACT_KINDS.has(act.kind)) continue;
      const step = steps.slice(keep.length).find((s) => {
        const t = visible.get(s.tool);
        return t !== undefined && t.action !== 'read' && toolActKind(t) === act.kind && !doneFor.has(s.tool);
      });
      if (step) doneFor.set(step.tool, act);
    }
    routeHits = { exact, total: req.proposals.length };
    reasons.push(
      `model proposed [${req.proposals.map((p) => p.name).join(', ')}]; route hits ${String(exact)}/${String(req.proposals.length)}`,
    );
  } else {
    // Deterministic: the best fitting tool, then tools that close gaps it leaves (new request words covered).
    const chosen: ScoredTool[] = [];
    const covered = new Set<string>();
    // A question another agent's tool answers better than any of this agent's: none of its reads answers it in its
    // place (RG-4 — "has my refund been paid out?" to the invoice agent is not an order-status look-up).
    // Only a request read as asking something: one of no act read at all ("坏了，退钱！！") may be a change in words
    // the reader does not know.
    const asksOnly = acts.length > 0 && acts.every((a) => a.kind === 'look_up');
    const elsewhere = asksOnly
      ? await fitsElsewhere(
          registry,
          req,
          visibleTools,
          options.semantic,
          acts.map((a) => a.phrase).filter((p) => p.trim() !== req.request.trim()),
        )
      : undefined;
    if (elsewhere)
      reasons.push(
        `the request fits ${elsewhere.name} best, a tool ${req.agent} may not use; none of its reads answers it`,
      );
    // A question admits no side effect (TD-5): writes are not candidates, so the best read can take the lead.
    // A request that only asks something is led by a fitting tool whose name says no change before one whose name
    // does ("retrieve a list of the servers": list_servers, not add_server) — the act feature only weighs against it.
    const admittedFits = fits.filter(
      (s) => writeAdmitted(s.tool) && !(elsewhere && s.tool.action === 'read'),
    );
    // Likewise a tool whose name says it produces something new (a report, a summary, a translation): a question
    // about what is on record (who took a task, when it is due) is answered by a read of the record, and what a
    // producer makes is an act of its own that the request does not ask for. It leads only when no such read fits.
    const answersAsIs = (s: ScoredTool) => s.features.act === 0 && toolActKind(s.tool) !== 'produce';
    const pool = asksOnly
      ? [
          ...admittedFits.filter(answersAsIs),
          ...admittedFits.filter((s) => s.features.act === 0 && !answersAsIs(s)),
          ...admittedFits.filter((s) => s.features.act !== 0),
        ]
      : admittedFits;
    for (const s of fits)
      if (!pool.includes(s))
        rejected.push({
          candidate: s.tool.name,
          reason: `intent_side_effect: ${unaskedWrite(s.tool, acts, forbidden)}`,
        });
    // The tool's own `not_for` sends a text like this one to another tool, and the text is nearer in meaning to that
    // clause than to anything the tool says it does ("did my payment even go through": refund_status_query is not for
    // "whether the customer's payment for it went through (use order_status_query)"): the tool its author names serves
    // the text, if the request may use it (undefined: none may); the tool that is not for it never does.
    const redirected = (text: string, top: ScoredTool, local: readonly ScoredTool[]) => {
      const sent = similarities?.redirect(text, top.tool);
      if (!sent) return top;
      const to = local.find((l) => l.tool.name === sent.to);
      if (to) sentTexts.set(to.tool.name, [...(sentTexts.get(to.tool.name) ?? []), text]);
      const reason =
        `"${text.slice(0, 60)}" is what ${top.tool.name} is not for (${sent.cosine.toFixed(2)} > ${sent.own.toFixed(2)})` +
        (to ? `: ${to.tool.name}` : '');
      if (!reasons.includes(reason)) reasons.push(reason);
      return to;
    };
    // A read the lead's own not_for names, fitting the request as well as the lead does (equal at the precision a fit
    // is shown), leads when it is nearer in meaning: the author says the lead is not for some requests, the fit cannot
    // tell the two apart, and the order by priority says nothing of this request ("钱是原路退回的吗": the refund's
    // status, not the order's).
    const tiedNamedRead = (top: ScoredTool, local: readonly ScoredTool[]) =>
      local.find(
        (o) =>
          o !== top &&
          o.tool.action === 'read' &&
          top.tool.action === 'read' &&
          Math.round(o.fit * 100) === Math.round(top.fit * 100) &&
          (o.features.semantic ?? -Infinity) > (top.features.semantic ?? Infinity) &&
          notForNames(top.tool, o.tool.name),
      ) ?? top;
    // A request whose only acts are calculations over figures it gives needs no source for them (SP-3: the user's own
    // figures are the inputs): a read its words fit is a look-up nobody asked for, so only a tool that does the
    // calculation leads.
    const givenOnly = acts.length > 0 && acts.every((a) => a.kind === 'compute' && a.figures === 'given');
    for (const s of pool) {
      if (
        chosen.length === 0 &&
        givenOnly &&
        !acts.some((a) => serves(a, s.tool, actScores.get(a) ?? [], allowedWrites))
      )
        continue;
      if (chosen.length === 0) {
        // (the lead too: the request may be what the best fitting tool's not_for sends elsewhere)
        const sent = redirected(req.request, s, pool);
        const lead = sent === s ? tiedNamedRead(s, pool) : sent;
        if (!lead) continue;
        if (lead !== s) {
          chosen.push(lead);
          lead.matched.forEach((t) => covered.add(t));
          continue;
        }
        chosen.push(s);
        s.matched.forEach((t) => covered.add(t));
        continue;
      }
      // Lexically, a tool that covers request words the chosen ones leave out closes a gap. With the semantic model
      // it does not: sibling tools of one domain (search a hotel, reserve a hotel) share the request's words without
      // being asked for, so a further tool joins only through an ask or an act of its own (below).
      if (similarities) continue;
      const fresh = s.matched.filter((t) => !covered.has(t));
      if (s.features.lexical >= RETRIEVAL_CONFIG.chainFit && fresh.length >= RETRIEVAL_CONFIG.chainNewTerms) {
        chosen.push(s);
        s.matched.forEach((t) => covered.add(t));
      }
    }
    // A question of what a source says ("Does the datasheet say anything about …?", 发布说明里有没有提到 …) that no tool's
    // documents fit is answered by reading the source: the reader of found pages, after the search that finds it.
    // Neither names what the page holds — a reader returns whatever the page says — so their fit to the question's
    // words cannot show it.
    if (chosen.length === 0 && asksOnly && !elsewhere && asksWhatSourceSays(req.request)) {
      const reader = scored.find((s) => writeAdmitted(s.tool) && readsFoundPages(s.tool, visible));
      if (reader) {
        chosen.push(reader);
        reasons.push(`the request asks what a source says: ${reader.tool.name} reads it`);
      }
    }
    // A chosen tool that only finds leads (evidence `lead`: a search's results) does not answer the request by itself;
    // a tool that reads what it found (depends_on it, giving evidence of its own) and fits the request on its own
    // evidence continues the chain ("what do the release notes say": the search finds the page, the visit reads it).
    // A request that itself asks for a search ("search for …", "look up …") is answered by the leads: no reader.
    // A question the chosen leads alone would answer is answered by none of them: leads are where an answer may be,
    // not the answer ("what TPS did 16 get in that benchmark?"), so a reader of their results follows whatever its
    // own fit to the question's words.
    const leadsOnly =
      chosen.length > 0 &&
      chosen.every((c) => c.tool.evidence === 'lead') &&
      acts.length > 0 &&
      acts.every((a) => a.kind === 'look_up');
    if (similarities && searchedFor(req.request).length === 0)
      for (const s of scored) {
        if (chosen.includes(s) || !writeAdmitted(s.tool) || s.tool.evidence === 'lead') continue;
        if (s.ownFit < RETRIEVAL_CONFIG.semanticFitThreshold && !leadsOnly) continue;
        const lead = chosen.find(
          (c) => c.tool.evidence === 'lead' && s.tool.depends_on.some((d) => d.tool === c.tool.name),
        );
        if (!lead) continue;
        // The request itself gives the URL the search would find ("open https://… and tell me …"): the reader
        // takes it from the request, and the search has nothing left to do.
        const fedUrls = s.tool.depends_on
          .filter((d) => d.tool === lead.tool.name)
          .map(
            (d) =>
              (s.tool.parameters.properties as Record<string, { format?: unknown }> | undefined)?.[
                d.parameter
              ],
          )
          .filter((p) => p?.format === 'uri');
        if (fedUrls.length > 0 && REQUEST_URL.test(req.request) && chosen[0] === lead) {
          chosen.splice(chosen.indexOf(lead), 1, s);
          s.matched.forEach((t) => covered.add(t));
          reasons.push(`${s.tool.name} reads the URL the request gives; ${lead.tool.name} is not needed`);
          continue;
        }
        chosen.push(s);
        s.matched.forEach((t) => covered.add(t));
        reasons.push(`${s.tool.name} reads what ${lead.tool.name} found (own fit ${s.ownFit.toFixed(2)})`);
      }
    // A chosen read whose own not_for sends to a read that requires its output ("Reading what a meeting decided (use
    // minutes_parse on an id from this list)") only finds what that read reads: when the read fits the question too,
    // it follows when the question names things the reader's documents say and the chosen tools' do not (what it
    // reads out: "action items"), since the finder's results are not the answer its author says it does not give.
    if (asksOnly && !elsewhere)
      for (const finder of [...chosen]) {
        if (finder.tool.action !== 'read') continue;
        const reader = fits.find(
          (s) =>
            !chosen.includes(s) &&
            writeAdmitted(s.tool) &&
            s.tool.action === 'read' &&
            s.tool.depends_on.some((d) => d.tool === finder.tool.name && d.required) &&
            notForNames(finder.tool, s.tool.name) &&
            s.matched.filter((t) => !covered.has(t)).length >= RETRIEVAL_CONFIG.chainNewTerms,
        );
        if (!reader) continue;
        reasons.push(
          `${reader.tool.name} reads what ${finder.tool.name} finds (its not_for sends there; fit ${reader.fit.toFixed(2)}, ` +
            `words ${reader.matched.filter((t) => !covered.has(t)).join(', ')})`,
        );
        chosen.push(reader);
        reader.matched.forEach((t) => covered.add(t));
      }
    // The acts the request names besides its lead (produce, send, compute, create …): each gets the tool that does
    // it, unless a chosen tool already does.
    const forActs: ToolDefinition[] = [];
    // The acts given a tool here, by their words: an ask that is one of them is served ("I want my money back.").
    const actsServed = new Set<string>();
    // Which act of its kind each chosen tool already does: a second act of that kind ("email it to the group, and
    // drop a note in the chat") is another step's when another tool of the kind fits its own words better — two
    // channels, two sends — and the same tool's when none does ("email Li Wei, and also email Chen Jie").
    const doneBy = new Map<ToolDefinition, AskedActKind>();
    for (const act of acts) {
      // Look-ups are the lead's and the asks' (below): they are scored on their own words there.
      if (act.kind === 'look_up') continue;
      const local = actScores.get(act) ?? [];
      const servers = chosen.filter((c) => serves(act, c.tool, local, allowedWrites));
      const free = servers.find((c) => doneBy.get(c.tool) !== act.kind);
      if (free && doneBy.has(free.tool)) continue;
      const s = toolForAct(
        act,
        local,
        scored.filter((x) => writeAdmitted(x.tool)),
        chosen,
        allowedWrites,
      );
      // Whether `tool`, of the act's kind, ranks above `than` in `ranking`.
      const ranksAbove = (
        tool: ScoredTool | undefined,
        than: ScoredTool,
        ranking: readonly ScoredTool[],
      ): tool is ScoredTool => {
        const rankOf = (t: ToolDefinition) => ranking.findIndex((l) => l.tool === t);
        return (
          tool !== undefined &&
          toolActKind(tool.tool) === act.kind &&
          rankOf(tool.tool) !== -1 &&
          (rankOf(than.tool) === -1 || rankOf(tool.tool) < rankOf(than.tool))
        );
      };
      // Another tool of the act's kind whose words fit the act better than `than`.
      const fitsBetter = (than: ScoredTool) => ranksAbove(s, than, local);
      if (free) {
        // A write chosen for the request as a whole gives way to its sibling of the same kind that the act's own
        // words fit better ("a quick chat reminder": the chat message, not the e-mail) — not one that takes what the
        // chain made, which the other cannot ("send it" sends the report).
        const takes = (tool: ToolDefinition) =>
          tool.depends_on.filter((d) => chosen.some((c) => c.tool.name === d.tool)).map((d) => d.tool);
        // (for a send to several listed people, the words without their names say which of its tools it asks for)
        const channel = channelScores.get(act);
        const sibling = channel
          ? scored.find(
              (x) =>
                x.tool ===
                channel.find(
                  (l) =>
                    l.tool.action !== 'read' && toolActKind(l.tool) === act.kind && writeAdmitted(l.tool),
                )?.tool,
            )
          : s;
        if (
          ranksAbove(sibling, free, channel ?? local) &&
          free.tool.action !== 'read' &&
          sibling.tool.action !== 'read' &&
          toolActKind(free.tool) === act.kind &&
          takes(free.tool).every((t) => takes(sibling.tool).includes(t))
        ) {
          chosen.splice(chosen.indexOf(free), 1, sibling);
          doneBy.set(sibling.tool, act.kind);
          doneFor.set(sibling.tool.name, act);
          reasons.push(
            `${actLabel(act)} → ${sibling.tool.name} (its words fit it better than ${free.tool.name})`,
          );
        } else {
          doneBy.set(free.tool, act.kind);
          if (!doneFor.has(free.tool.name)) doneFor.set(free.tool.name, act);
        }
        continue;
      }
      if (!s) continue;
      // (every tool that serves the act already serves another of its kind: a second one only when it fits better)
      if (servers.length > 0 && !servers.every(fitsBetter)) continue;
      doneBy.set(s.tool, act.kind);
      doneFor.set(s.tool.name, act);
      chosen.push(s);
      forActs.push(s.tool);
      actsServed.add(act.phrase);
      reasons.push(`${actLabel(act)} → ${s.tool.name}`);
    }
    // A request of several asks ("… Also, …", "…, and find …"): each ask's own best fitting tool joins the chain,
    // scored on the ask's words alone so one ask's vocabulary does not drown the other's — unless the ask is already
    // served: its best tool is chosen, or a tool chosen for a named act fits it ("… and send it": email_send).
    // A tool that serves one ask reads its required values from that ask's words (input_from text), so two asks
    // naming two cities or two numbers each get their own.
    const askOf = new Map<string, string>();
    // A tool that serves one part of the request need not fit the whole of it (the other parts' words dilute it):
    // every tool the intent admits may serve a part — once some tool fits the request at all (TD-6) — when the part's
    // meaning singles it out (`singledOut`). Sibling tools of one domain (find a movie, buy its tickets) are close in
    // meaning to the same words, so none of them is singled out by a part that only refines the ask.
    const admitted = scored.filter((s) => writeAdmitted(s.tool));
    const serve = (part: string, kind: 'ask' | 'piece') => {
      const local = index
        .score(part, similarityTo(part))
        .filter((s) => admitted.some((a) => a.tool === s.tool));
      const first = local[0];
      if (!first || !fitsRequest(first, local)) return;
      const top = redirected(part, first, local);
      if (!top) return;
      // An ask for a change ("… also cancel my refund") is served by a tool that makes it, never by a read of the
      // same thing in its place.
      const partActs = readActs(part);
      if (kind === 'ask' && partActs.some((a) => actsServed.has(a.phrase))) return;
      const changes = partActs.filter((a) => WRITE_ACT_KINDS.has(a.kind));
      if (changes.length > 0 && !changes.some((a) => serves(a, top.tool, local, allowedWrites))) return;
      // A tool that computes works over figures with an operation: an ask that names no calculation ("PG17 的吞吐
      //提升了多少" — how much it improved, as the source states it) asks for a figure, which a look-up gives.
      if (kind === 'ask' && computes(top.tool) && !partActs.some((a) => a.kind === 'compute')) return;
      // A Chinese clause is an ask of its own only as a question or an act of a named kind: 保留两位小数 (keep two
      // decimals), 给我标题和作者就行 (titles and authors will do) say how to answer, not what else to do.
      // A thing wanted (把Zhang Min的邮箱给我) is an ask too, unless the clause only says what will do (…就行).
      if (
        kind === 'ask' &&
        /\p{Script=Han}/u.test(part) &&
        !partActs.some(
          (a) =>
            (a.kind !== 'act' && a.cue !== 'request' && a.cue !== 'directive') ||
            (a.kind === 'act' && a.cue !== 'directive' && !/(?:就行|就好|就可以|即可)[。！!]*$/u.test(part)),
        )
      )
        return;
      // A remark about the speaker ("Just asking for now.", "I'll keep the order") asks nothing of its own.
      if (
        kind === 'ask' &&
        partActs.every((a) => a.cue === 'request') &&
        /^(?:i|i'm|i'll|i've|i'd|im|we|we're|we'll|just|it's|that's|this is|thanks|thank you)\b/iu.test(
          part.trim(),
        ) &&
        tokens(part).length <= 2
      )
        return;
      if (chosen.some((c) => c.tool === top.tool)) {
        // A chosen tool reads its values from the first ask it serves; a thing listed in an ask is only a detail of
        // the words it already reads.
        if (kind === 'ask' && !askOf.has(top.tool.name)) askOf.set(top.tool.name, part);
        return;
      }
      // Already served: a tool chosen for a named act fits the ask ("… and send it": email_send), or, for one of the
      // things an ask lists, any chosen tool fits it (the thing is a detail of what that tool does).
      const served = kind === 'ask' ? forActs : chosen.map((c) => c.tool);
      if (local.some((l) => served.includes(l.tool) && fitsRequest(l, local))) return;
      const s = admitted.find((a) => a.tool === top.tool);
      if (!s) return;
      const inPool = pool.includes(s);
      if ((kind === 'piece' || !inPool) && !singledOut(top, inPool)) return;
      chosen.push(s);
      askOf.set(s.tool.name, part);
      reasons.push(`${kind} "${part.slice(0, 60)}" → ${s.tool.name} (fit ${top.fit.toFixed(2)})`);
    };
    if (chosen.length > 0) {
      if (similarities && partTexts.length > 0) await similarities.including(partTexts);
      if (routedAsks.length > 1) for (const ask of routedAsks) serve(ask, 'ask');
      // An ask that lists several things ("the median and the variance of …", "the temperature for Boston and the
      // rain for Rome"): each thing is a part of its own, served from its own words.
      for (const listed of pieces) if (listed.length > 1) for (const piece of listed) serve(piece, 'piece');
      // One look-up among several acts that no chosen tool's fit covers ("Look up the Toolformer paper, and separately
      // check the benchmark"): the read its own words fit best joins, so the act it asks is not left undone.
      if (acts.length > 1)
        for (const act of acts) {
          // (one that points back at a thing already asked for — "can you find the one from 2022?", "find them" —
          // only refines that ask)
          if (act.kind !== 'look_up' || REFERS_BACK.test(act.object)) continue;
          const local = (actScores.get(act) ?? []).filter((l) => admitted.some((a) => a.tool === l.tool));
          // (a chosen tool whose own not_for sends the act's words to another tool is no evidence for them: a look-up of
          // the wrong kind answers nothing — as the asked acts' check reads it)
          const fitting = (c: ScoredTool) => {
            const l = local.find((x) => x.tool === c.tool);
            return (
              l !== undefined &&
              fitsLookUp(act, l, local) &&
              similarities?.redirect(act.phrase, c.tool) === undefined
            );
          };
          // A chosen tool that fits the act's words serves it — unless another read fits them clearly better (its
          // meaning leads by the margin that singles a tool out): "发票下载地址给我" is the invoice's status, not the
          // order's.
          const first = local[0];
          // (a fitting read its not_for says is not for these words gives way to the one it names)
          const firstFits = first !== undefined && fitsLookUp(act, first, local);
          const top = first && firstFits ? redirected(act.phrase, first, local) : first;
          if (first && !top) continue;
          if (
            chosen.some(fitting) &&
            (top === undefined || chosen.some((c) => c.tool === top.tool) || !singledOut(top, true))
          )
            continue;
          // (a tool that computes works over figures with an operation, which a look-up does not name: a calculation
          // is read as an act of its own)
          const s =
            top &&
            top.tool.action === 'read' &&
            !computes(top.tool) &&
            (top === first ? firstFits : firstFits && fitsRequest(top, local))
              ? top
              : undefined;
          const pick = s ? admitted.find((a) => a.tool === s.tool) : undefined;
          // (and fit it on their own, not only better than the rest: "can you find what's available?" fits no tool)
          if (
            !pick ||
            chosen.includes(pick) ||
            (s as ScoredTool).ownFit < RETRIEVAL_CONFIG.semanticFitThreshold
          )
            continue;
          chosen.push(pick);
          askOf.set(pick.tool.name, act.phrase);
          reasons.push(`${actLabel(act)} → ${pick.tool.name} (fit ${(s as ScoredTool).fit.toFixed(2)})`);
        }
      // A question among several acts that only a search fits ("… and separately check the benchmark for how the
      // runs differed") is answered by what the search finds, read: the reader of its results follows — unless the
      // act itself asks for the search ("look up the Toolformer paper").
      if (acts.length > 1)
        for (const act of acts) {
          if (act.kind !== 'look_up' || searchedFor(act.phrase).length > 0) continue;
          const local = actScores.get(act) ?? [];
          const serving = chosen.filter((c) => {
            const l = local.find((x) => x.tool === c.tool);
            return l !== undefined && fitsRequest(l, local);
          });
          if (serving.length === 0 || !serving.every((c) => c.tool.evidence === 'lead')) continue;
          const reader = admitted.find(
            (a) =>
              a.tool.evidence !== 'lead' &&
              a.tool.action === 'read' &&
              serving.some((c) => a.tool.depends_on.some((d) => d.tool === c.tool.name)),
          );
          if (!reader || chosen.includes(reader)) continue;
          chosen.push(reader);
          reasons.push(`${reader.tool.name} reads what answers ${actLabel(act)}`);
        }
      // A reader chosen for an ask of its own reads what the tool it depends on finds (page_visit the URLs web_search
      // finds): when the request gives no URL and no chosen tool is one it depends on, that tool finds it first — a
      // search for papers does not find the datasheet a visit is to read.
      if (!REQUEST_URL.test(req.request) && !REFERS_TO_LINK.test(req.request))
        for (const c of [...chosen]) {
          const feeds = c.tool.depends_on.filter((d) => d.tool !== c.tool.name);
          if (c.tool.action !== 'read' || c.tool.evidence === 'lead') continue;
          if (feeds.length === 0 || chosen.some((x) => feeds.some((d) => d.tool === x.tool.name))) continue;
          const finder = admitted.find(
            (a) => a.tool.evidence === 'lead' && feeds.some((d) => d.tool === a.tool.name),
          );
          if (!finder) continue;
          chosen.splice(chosen.indexOf(c), 0, finder);
          const ask = askOf.get(c.tool.name);
          if (ask) askOf.set(finder.tool.name, ask);
          reasons.push(`${finder.tool.name} finds what ${c.tool.name} reads`);
        }
    }
    // A request that points at a page it does not include ("the article I mentioned yesterday", 我刚发的链接) means that
    // page: a search finds some other one, which its reader would read in its place. The finder that would feed a
    // chosen reader its URL is dropped; the reader asks for the link (needs_url) instead.
    if (!REQUEST_URL.test(req.request) && REFERS_TO_LINK.test(req.request))
      for (const finder of [...chosen]) {
        if (finder.tool.evidence !== 'lead') continue;
        const fed = chosen.some(
          (c) =>
            c !== finder &&
            c.tool.action === 'read' &&
            c.tool.depends_on.some((d) => d.tool === finder.tool.name && !d.required),
        );
        if (!fed) continue;
        chosen.splice(chosen.indexOf(finder), 1);
        reasons.push(
          `${finder.tool.name} dropped: the request points at a page of its own, which a search does not find`,
        );
      }
    // The asks of a request of several (its sentences or Chinese clauses): a tool the whole request's words chose,
    // whose matched words all stand in one ask only, serves that ask and reads its values there ("7777的退款到了没？
    // 还有订单20261101001的发票也帮我开一下": the order look-up 订单 chose is of 20261101001, not of 7777). The acts of one
    // sentence are not asks of their own here: they share its values.
    const partTokens = routedAsks.length > 1 ? routedAsks.map((p) => new Set(tokens(p))) : [];
    const onePartOf = (s: ScoredTool): string | undefined => {
      if (s.matched.length === 0 || partTokens.length === 0) return undefined;
      const holding = routedAsks.filter((_, i) => s.matched.every((m) => partTokens[i]?.has(m)));
      return holding.length === 1 ? holding[0] : undefined;
    };
    for (const s of chosen) {
      if (steps.some((x) => x.tool === s.tool.name)) continue;
      const part = askOf.get(s.tool.name) ?? onePartOf(s);
      // (a send's words as the act reader joined them hold what it says: "Email Li Wei … and tell him …" is one send,
      // though the request splits into two parts at its "and")
      const act = doneFor.get(s.tool.name);
      const ask =
        act?.kind === 'send' &&
        part !== undefined &&
        act.phrase.length > part.length &&
        act.phrase.includes(part)
          ? act.phrase
          : part;
      steps.push({
        ...draft(
          s.tool,
          `closes the request's ${s.matched.slice(0, 4).join(', ') || 'need'} (fit ${s.fit.toFixed(2)})`,
        ),
        ...(ask
          ? {
              texts: Object.fromEntries(
                [...requiredParameters(s.tool), ...alternativeParameters(s.tool)].map((p) => [p, ask]),
              ),
            }
          : {}),
      });
    }
    steps = draftSearches(steps, keep.length, visible, searchedFor(req.request));
  }

  // A read asked for several values its parameter takes one of a call ("the weather in Beijing and Shanghai", "the
  // factorial of 5, 10 and 15", 北京和上海明天天气怎么样): one step per value, each reading its own value's words — the
  // same fan-out as a send's look-up per listed recipient, for the read itself. The steps are independent: none
  // feeds another. Only reads: a write repeated per value is a write per value, which the request must ask for as such
  // (a send to listed recipients already looks each one up, below). A step a model gave its arguments is the model's;
  // one it proposed with none leaves every value to the request's words, as a planned step does.
  steps = steps.flatMap((step, i) => {
    const tool = visible.get(step.tool);
    // (a read that feeds a write of the plan is the write's to fan out: one look-up per listed recipient, below)
    const feedsWrite = steps.some(
      (o) =>
        (visible.get(o.tool)?.action ?? 'read') !== 'read' &&
        (visible.get(o.tool)?.depends_on ?? []).some((d) => d.tool === step.tool),
    );
    if (
      i < keep.length ||
      !tool ||
      tool.action !== 'read' ||
      (step.arguments !== undefined && Object.keys(step.arguments).length > 0) ||
      step.feeds ||
      feedsWrite
    )
      return [step];
    const own = step.texts ? Object.values(step.texts)[0] : undefined;
    const fed = new Set(
      tool.depends_on.filter((d) => d.required && visible.has(d.tool)).map((d) => d.parameter),
    );
    const calls = fanOutValues(tool, own ?? req.request, fed);
    if (!calls || calls.length < 2 || steps.length + calls.length - 1 > maxSteps) return [step];
    const each = calls.map((c) => Object.values(c.values).join(' / '));
    reasons.push(`${tool.name} once for each of ${each.join(', ')}`);
    // Each call reads the request with the list in it reduced to its own value, for every value it takes from the
    // user's words: its listed value and the values all calls share ("… at 5%, for 20 years").
    // (a model's empty arguments are no values of the step's: each call's are its own words', or two calls would read
    // as one repeated)
    const { arguments: _none, ...words } = step;
    return calls.map((call, k) => ({
      ...words,
      purpose: `${step.purpose} (${each[k] ?? ''})`,
      texts: Object.fromEntries(
        [...requiredParameters(tool), ...alternativeParameters(tool)].map((p) => [p, call.text]),
      ),
    }));
  });

  // What a send sends, when the request names it as a thing (把上周五Atlas会的要点发到Atlas群里, "post the key points of
  // Friday's meeting in the chat") rather than giving the words: the tool that makes the send's message (an optional
  // producer of it, `depends_on`) joins when the thing's own words fit that producer's chain best of all the visible
  // tools — the message is made from the records the thing names, not taken from the request's words. On the model
  // path too: a model that proposed the send but not the maker of its message leaves the message to no one.
  for (const step of [...steps.slice(keep.length)]) {
    const act = doneFor.get(step.tool);
    const sender = visible.get(step.tool);
    const thing = act?.kind === 'send' ? sentThing(act, req.request, acts) : undefined;
    if (!sender || !act || thing === undefined) continue;
    for (const dep of sender.depends_on) {
      const producer = visible.get(dep.tool);
      if (
        dep.required ||
        !producer ||
        excluded.has(producer.name) ||
        !requiredParameters(sender).includes(dep.parameter) ||
        // (a message the model wrote itself is the send's)
        step.arguments?.[dep.parameter] !== undefined ||
        steps.some((s) => s.tool === dep.tool)
      )
        continue;
      if (similarities) await similarities.including(withTargets([thing]));
      const local = index.score(thing, similarityTo(thing)).filter((l) => !excluded.has(l.tool.name));
      const top = local[0];
      // (the thing may be what another read of the same records gives — a meeting's key points, read from its
      // minutes — so a tool that shares a producer with the maker's chain fits as well as the chain's own)
      const chain = upstream(producer, visible);
      if (!top || !fitsRequest(top, local) || ![...upstream(top.tool, visible)].some((t) => chain.has(t)))
        continue;
      steps.push(draft(producer, `makes ${sender.name}.${dep.parameter} from ${thing.slice(0, 80)}`));
      reasons.push(`${actLabel(act)} sends "${thing.slice(0, 60)}" → ${producer.name} makes it`);
    }
  }

  // Required producers (depends_on) join the chain when visible.
  for (let i = keep.length; i < steps.length; i++) {
    const step = steps[i];
    const tool = visible.get(step?.tool ?? '');
    for (const dep of tool?.depends_on ?? []) {
      const producer = visible.get(dep.tool);
      if (!step || !dep.required || !producer || excluded.has(producer.name)) continue;
      // Two writes of the request's, each for an act of its own, that need the same producer ("email it to the Beacon
      // group, and drop a note in the Atlas chat"): each act names its own recipient, so each write gets a producer
      // that reads its act's words — one look-up shared by both would give both the first act's recipient.
      const act = doneFor.get(step.tool);
      // A producer of one value (its one required parameter) that feeds a list (chat_ids, to) for a send to several
      // listed recipients ("send Chen Jie and Zhang Min a reminder", 给陈杰和张敏发消息) runs once per recipient, each
      // reading its own name; the send takes what all of them found.
      const listed = act?.kind === 'send' ? listedRecipients(act, req.request) : [];
      const [one, ...more] = requiredParameters(producer);
      if (
        act &&
        one !== undefined &&
        more.length === 0 &&
        listed.length > 1 &&
        takesList(tool, dep.parameter)
      ) {
        if (steps.some((s) => s.tool === dep.tool && s.feeds === step.tool)) continue;
        const each = listed.map((recipient) => ({
          ...draft(producer, `provides ${dep.output} for ${step.tool}.${dep.parameter} (${recipient})`),
          texts: { [one]: recipient },
          feeds: step.tool,
        }));
        // (a look-up a model proposed — for the send: the model saw one send — or one planned for no ask of its own
        // is the first of them)
        const proposed = steps.findIndex(
          (s, j) =>
            j >= keep.length &&
            s.tool === dep.tool &&
            s.feeds === undefined &&
            (req.proposals !== undefined || s.texts === undefined),
        );
        if (proposed !== -1) steps.splice(proposed, 1, ...each.slice(0, 1));
        steps.push(...each.slice(proposed !== -1 ? 1 : 0));
        reasons.push(`${producer.name} once for each of ${listed.join(', ')}`);
        continue;
      }
      const shared = steps.some(
        (o) =>
          o !== step &&
          doneFor.has(o.tool) &&
          doneFor.get(o.tool)?.phrase !== act?.phrase &&
          (visible.get(o.tool)?.depends_on ?? []).some((d) => d.required && d.tool === dep.tool),
      );
      if (act && shared && requiredParameters(producer).length > 0) {
        const own = {
          ...draft(producer, `provides ${dep.output} for ${step.tool}.${dep.parameter} (${actLabel(act)})`),
          texts: Object.fromEntries(requiredParameters(producer).map((p) => [p, act.phrase])),
          feeds: step.tool,
        };
        // (one look-up a model proposed for both sends — it saw one — becomes the first send's own)
        const proposed =
          req.proposals !== undefined
            ? steps.findIndex((s, j) => j >= keep.length && s.tool === dep.tool && s.feeds === undefined)
            : -1;
        if (proposed !== -1) {
          steps.splice(proposed, 1, own);
          continue;
        }
        if (steps.some((s) => s.tool === dep.tool && (s.feeds === step.tool || s.feeds === undefined)))
          continue;
        steps.push(own);
        continue;
      }
      if (steps.some((s) => s.tool === dep.tool)) continue;
      // A producer added for a step that serves one ask of the request reads its own values from that ask's words
      // ("… also invoice order 1234": the order look-up that feeds the invoice is of 1234).
      const ask = Object.values(steps[i]?.texts ?? {})[0];
      steps.push({
        ...draft(producer, `provides ${dep.output} for ${tool?.name ?? '?'}.${dep.parameter}`),
        ...(ask
          ? {
              texts: Object.fromEntries(
                [...requiredParameters(producer), ...alternativeParameters(producer)].map((p) => [p, ask]),
              ),
            }
          : {}),
      });
    }
  }
  steps = sourcePerThing(steps, keep.length, visible, acts, req.request, reasons);
  steps = rewire(order(steps, visible, keep.length), visible, keep.length);

  const ctx: ValidationContext = {
    visible,
    maxPermission: maxPermission(registry, req.agent, req.tenant),
    writes: {
      allowed: allowedWrites,
      unasked: (tool: ToolDefinition) => unaskedWrite(tool, acts, forbidden),
      asked: {
        counts: actCounts(acts),
        kindOf: (tool: ToolDefinition) => toolActKind(tool),
      },
    },
    givenFigures:
      acts.some((a) => a.kind === 'compute' && a.figures === 'given') &&
      !acts.some((a) => a.kind === 'compute' && a.figures === 'found'),
    requestText: `${req.request}\n${req.context ?? ''}`,
    needsFreshData: req.needsFreshData ?? false,
    history: req.history ?? [],
    automatic: true,
    ...(similarities ? { textSimilarity: (a: string, b: string) => similarities.between(a, b) } : {}),
  };
  const refused: Violation[] = [];
  await embedCompared(steps);
  let violations = validatePlan(steps, ctx);
  for (let round = 0; round < maxRounds && violations.length > 0; round++) {
    refused.push(...violations);
    steps = repair(steps, violations, visible, excluded, keep.length, ctx.requestText);
    // (a repair may add the finder and reader a calculation needs: each thing compared still gets its own)
    steps = sourcePerThing(steps, keep.length, visible, acts, req.request, reasons);
    steps = rewire(order(steps, visible, keep.length), visible, keep.length);
    await embedCompared(steps);
    violations = validatePlan(steps, ctx);
  }
  for (const r of refused) rejected.push({ candidate: r.tool, reason: `plan rule ${r.rule}: ${r.reason}` });
  if (steps.length > maxSteps) {
    violations.push({
      rule: 'no_cycles',
      step_index: maxSteps,
      tool: steps[maxSteps]?.tool ?? '?',
      reason: `plan has ${String(steps.length)} steps, above the ceiling ${String(maxSteps)}`,
    });
  }

  let planSteps: PlanStep[] =
    violations.length > 0 ? [] : steps.map((s, index) => toPlanStep(s, index, visible, excluded));
  // With a model, which read answers a question is the model's call (IF-4): the rules keep the last word on writes,
  // visibility, permissions and preconditions — not on the relevance of a read the model chose.
  const modelReads = req.proposals !== undefined;
  // Where a tool's own not_for sends an act's words (see `redirected`).
  const sentTo = (text: string, tool: ToolDefinition) =>
    sentTexts.get(tool.name)?.some((t) => t.includes(text))
      ? undefined
      : similarities?.redirect(text, tool)?.to;
  const sentWith = (text: string, tool: ToolDefinition) =>
    sentTexts.get(tool.name)?.some((t) => t.includes(text)) ?? false;
  let askedActs = assignActs(
    acts,
    actScores,
    planSteps,
    visible,
    allowedWrites,
    modelReads,
    sentTo,
    sentWith,
  );
  // TD-5: a request that asks for a change no step makes, and for nothing a step does, gets nothing in its place —
  // not a look-up nobody asked for ("change the delivery address of 5678" with no tool that changes one).
  // Steps that only prepare a write the request does ask for (the order check refund_create depends on, proposed
  // alone by a model) are not in its place: they are its first steps, and the act stays named as undone.
  const asked = [...allowedWrites].map((name) => visible.get(name)).filter((t) => t !== undefined);
  const prepares = (step: PlanStep) =>
    asked.some((w) => w.depends_on.some((d) => d.required && d.tool === step.tool));
  if (
    planSteps.length > keep.length &&
    askedActs.length > 0 &&
    askedActs.every((a) => a.step_index === null) &&
    // (a request of look-ups only, none of which a planned read fits, is asked of no step either when the look-ups
    // say all the request says: the reads chosen for its words answer some other question — "查一下我的订单到哪了" is
    // no paper search. Words outside them — "I'm in the mood for a thriller in Leeds. Can you find what's on?" — may
    // be what the reads were chosen for.)
    (askedActs.some((a) => WRITE_ACT_KINDS.has(a.kind)) ||
      (askedActs.every((a) => a.kind === 'look_up') && saysAll(acts, req.request) && !modelReads)) &&
    !planSteps.slice(keep.length).every(prepares)
  ) {
    reasons.push(
      `no step serves an asked act; ${planSteps.map((s) => s.tool).join(', ')} not run in their place`,
    );
    planSteps = planSteps.slice(0, keep.length);
    askedActs = assignActs(acts, actScores, planSteps, visible, allowedWrites, modelReads, sentTo, sentWith);
  }
  const plan: Plan = {
    scene: routed.scene,
    steps: planSteps,
    visible_tools: visibleTools.map((t) => t.name),
    candidate_scores: scored.map((s) => ({ tool: s.tool.name, score: s.fit })),
    rejected: dedupe(rejected).slice(0, 200),
    semantic_model: similarities
      ? { model: similarities.model.id, sha256: similarities.model.sha256 }
      : { model: null, sha256: null },
    asked_acts: askedActs,
  };
  for (const act of plan.asked_acts ?? [])
    if (act.unserved !== null) reasons.push(`unserved: ${actLabel(act)} (${act.unserved})`);
  const status: PlanOutcome['status'] =
    violations.length > 0 ? 'invalid' : planSteps.length - keep.length <= 0 ? 'no_tool_fits' : 'planned';
  if (status === 'planned') reasons.push(`chain ${planSteps.map((s) => s.tool).join(' → ')}`);
  else if (status === 'no_tool_fits') {
    const top = scored[0];
    reasons.push(
      `no visible tool fits (TD-6)${top ? `; best ${top.tool.name} ${top.explain}` : '; no tool is visible'}` +
        (refused.length ? `; refused: ${refused.map((r) => `${r.tool} (${r.rule})`).join(', ')}` : ''),
    );
  } else
    reasons.push(
      `plan still invalid after ${String(maxRounds)} repair rounds: ${violations.map((x) => `${x.rule}: ${x.reason}`).join('; ')}`,
    );
  if (refused.length && status === 'planned')
    reasons.push(`refused on validation: ${refused.map((r) => `${r.tool} (${r.rule})`).join(', ')}`);
  return { status, plan, intent, violations, refused, routeHits, decision_reason: reasons.join('; ') };
}

/**
 * The texts the duplicate rule may compare by meaning (`nearDuplicate`): those of steps whose tool has another step with
 * texts of its own.
 */
function comparedTexts(steps: readonly DraftStep[]): string[] {
  const withTexts = steps.filter((s) => s.texts !== undefined);
  return withTexts
    .filter((s) => withTexts.some((o) => o !== s && o.tool === s.tool))
    .flatMap((s) => Object.values(s.texts ?? {}));
}

/**
 * "Search for X and also look up Y": when the lead step is a search (it takes a `query`), one search per phrase,
 * each carrying its content words as `query` — what the duplicate rule compares, so the same search in other words
 * is refused rather than run twice.
 */
function draftSearches(
  steps: DraftStep[],
  lead: number,
  visible: ReadonlyMap<string, ToolDefinition>,
  phrases: readonly string[],
): DraftStep[] {
  const first = steps[lead];
  const tool = first ? visible.get(first.tool) : undefined;
  const properties = tool?.parameters.properties;
  if (
    !first ||
    !tool ||
    phrases.length < 2 ||
    typeof properties !== 'object' ||
    properties === null ||
    !('query' in properties)
  )
    return steps;
  // Content words with numbers kept ("17" tells PostgreSQL 17 from 16), stemmed, stop words dropped.
  const query = (phrase: string) => ({
    query: phrase
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 0 && !STOP_WORDS.has(w))
      .map(stem)
      .join(' '),
  });
  const [head = '', ...more] = phrases;
  // Each search carries its own phrase to the injector (input_from text, contract v2); a repeat of one in other
  // words has the same normalised query and is refused by the duplicate rule.
  return [
    ...steps.slice(0, lead),
    { ...first, arguments: query(head), texts: { query: head } },
    ...steps.slice(lead + 1),
    ...more.map((phrase) => ({
      ...draft(tool, `searches "${phrase.slice(0, 200)}" as well`, query(phrase)),
      texts: { query: phrase },
    })),
  ];
}

/** The producer a failed `needs_url` / `needs_prior_call` / `needs_verified_inputs` precondition asks for, if it can join. */
function producerFor(
  tool: ToolDefinition | undefined,
  steps: readonly DraftStep[],
  added: readonly DraftStep[],
  visible: ReadonlyMap<string, ToolDefinition>,
  excluded: ReadonlySet<string>,
): DraftStep | undefined {
  if (!tool) return undefined;
  for (const pre of tool.preconditions) {
    const dep =
      pre.kind === 'needs_url'
        ? tool.depends_on.find((d) => d.parameter === pre.parameter)
        : pre.kind === 'needs_prior_call'
          ? { tool: pre.tool, output: '$', parameter: '' }
          : pre.kind === 'needs_verified_inputs'
            ? tool.depends_on.find(
                (d) => pre.parameters.includes(d.parameter) && visible.get(d.tool)?.evidence === 'source',
              )
            : undefined;
    const producer = dep ? visible.get(dep.tool) : undefined;
    if (
      !dep ||
      !producer ||
      excluded.has(producer.name) ||
      [...steps, ...added].some((s) => s.tool === producer.name)
    )
      continue;
    return draft(
      producer,
      dep.parameter
        ? `provides ${dep.output} for ${tool.name}.${dep.parameter} (${pre.kind})`
        : `runs before ${tool.name} (${pre.kind})`,
    );
  }
  return undefined;
}

/**
 * Whether a part of a request (one ask of several, one thing an ask lists) singles a tool out by meaning: the tool's
 * cosine to the part leads every other visible tool's by `leadMargin` — the margin by which a request singles out a
 * tool in the relative fit rule — or by twice that when the tool does not fit the request as a whole, whose words
 * then say nothing for it. Without the semantic model nothing is singled out (lexical overlap cannot tell a new
 * thing from a detail of the one asked for).
 */
function singledOut(top: ScoredTool, fitsWhole: boolean): boolean {
  const lead = top.features.semanticLead;
  if (top.features.semantic === null || lead === null) return false;
  return lead >= (fitsWhole ? 1 : 2) * RETRIEVAL_CONFIG.leadMargin - 1e-9;
}

/**
 * Whether a tool takes a number (a figure to work on): a numeric or numeric-array parameter, or named inputs. A number
 * with a default is a setting of the call (how many results, which page), not a figure it works on: the tool runs
 * without one, so it has no place for the figures a request gives.
 */
function takesNumbers(tool: ToolDefinition): boolean {
  const numeric = (schema: unknown): boolean => {
    if (typeof schema !== 'object' || schema === null) return false;
    const s = schema as { type?: unknown; items?: unknown; default?: unknown };
    if (s.default !== undefined) return false;
    const types = Array.isArray(s.type) ? s.type : [s.type];
    return (
      types.includes('number') ||
      types.includes('integer') ||
      types.includes('object') ||
      (types.includes('array') && numeric(s.items))
    );
  };
  const properties = (tool.parameters as { properties?: Record<string, unknown> }).properties ?? {};
  return Object.values(properties).some(numeric);
}

/** An act's object that points back at a thing named before it: the act refines that thing's ask. */
const REFERS_BACK =
  /^(?:it|its|them|they|this|that|these|those|the\s+ones?|ones?)\b|^(?:它|它们|这个|那个|这些|那些)/iu;

// A question of what a source says: an auxiliary, the source, a verb of saying ("does the X9 datasheet say", "what
// did the changelog mention"); in Chinese a verb of saying after a place in a text (里 / 上 / 中: 手册里有没有提到).
const SOURCE_SAYS_EN = new RegExp(
  String.raw`\b(?:does|do|did|will|would)\s+(?:[\p{L}\p{N}'’.-]+\s+){1,8}?(?:${EN_SAYING_VERBS.join('|')})\b`,
  'iu',
);
const SOURCE_SAYS_ZH = new RegExp(
  `(?:里|上|中|里面)(?:有没有|是否|都|有|没有)?(?:${ZH_SAYING_VERBS.join('|')})`,
  'u',
);

function asksWhatSourceSays(request: string): boolean {
  return SOURCE_SAYS_EN.test(request) || SOURCE_SAYS_ZH.test(request);
}

/** A reader of what a search finds: a read giving evidence of its own that depends on a visible tool of leads. */
function readsFoundPages(tool: ToolDefinition, visible: ReadonlyMap<string, ToolDefinition>): boolean {
  return (
    tool.action === 'read' &&
    tool.evidence !== 'lead' &&
    tool.depends_on.some((d) => visible.get(d.tool)?.evidence === 'lead')
  );
}

/** An http(s) URL written in a request. */
const REQUEST_URL = /\bhttps?:\/\/\S+/i;

/**
 * The thing a send act sends when the request names it: what 把 puts before the verb (把X发到…), the object before
 * the preposition that introduces the recipient or channel ("the key points of the meeting to / in …"), or the topic
 * a Chinese clause puts first (X的Y发给…). A send of a pronoun or of nothing named ("then email them to …") sends the
 * object of the look-up or product asked just before it. Undefined for a message given in words (after a colon, in
 * quotes, "that …"), or no such phrase.
 */
function sentThing(act: AskedActRead, request: string, acts: readonly AskedActRead[]): string | undefined {
  // (the act's phrase may start after a verb of manner before the send's own: 把X私聊发给… — the clause says what 把 puts)
  const at = request.indexOf(act.phrase);
  const cue = act.phrase.indexOf(act.cue);
  const clause =
    at === -1 || cue === -1
      ? ''
      : (request
          .slice(0, at + cue)
          .split(/[，。；！？,;!?\n]/u)
          .pop() ?? '');
  const zh = /把(.+)$/u.exec(clause)?.[1];
  const en = /\p{Script=Han}/u.test(act.phrase)
    ? undefined
    : /^(.+?)\s+(?:to|in|into|on|with)\s/iu.exec(act.object)?.[1];
  // (a Chinese clause may put the thing first as its topic, without 把: 27号会上的决议邮件发给李伟 — a noun phrase, 的 and
  // all, before the way it is sent)
  const topic = /\p{Script=Han}/u.test(act.phrase)
    ? /^(?:然后|再|另外|并且|并)?(.+的\p{Script=Han}+?)(?:用邮件|通过邮件|邮件|私聊|私信|微信)?$/u.exec(
        clause,
      )?.[1]
    : undefined;
  const thing = (zh ?? en ?? topic)?.trim();
  // (an apostrophe inside a word is a possessive, not a quote: "yesterday's meeting")
  const quoted = (text: string) => /[:：“”"‘「]|(?<!\p{L})'|'(?!\p{L})/u.test(text);
  if (thing && !quoted(thing) && !REFERS_BACK.test(thing) && tokens(thing).length > 0) return thing;
  // A send that names no thing of its own and gives no words ("…, then email them to Wang Fang", 纪要找出来，然后用邮件
  // 发给王芳) sends what the ask before it found or made.
  const own = (zh ?? en)?.trim();
  if ((own !== undefined && !REFERS_BACK.test(own)) || quoted(act.phrase) || GIVES_WORDS.test(act.object))
    return undefined;
  const before = acts.slice(0, acts.indexOf(act)).at(-1);
  return before &&
    (before.kind === 'look_up' || before.kind === 'produce') &&
    tokens(before.object).length > 0
    ? before.object
    : undefined;
}

// Words that say what a send says after its recipient ("… that the meeting moved", 王芳说明天开会): its message.
const GIVES_WORDS = /\b(?:that|saying|about|re)\b|说|讲|告诉|提醒|通知/iu;

/** Whether a tool's parameter takes a list (an array schema). */
function takesList(tool: ToolDefinition | undefined, parameter: string): boolean {
  const schema = (
    tool?.parameters as
      { properties?: Record<string, { type?: unknown; additionalProperties?: unknown }> } | undefined
  )?.properties?.[parameter];
  // (named inputs — an object of any names — take what several producers give, read into names: see pathFor)
  return (
    schema?.type === 'array' || (schema?.type === 'object' && typeof schema.additionalProperties === 'object')
  );
}

// A name written as letters and digits ("X9", "Z7", "RTX4090"): a product or model code.
const CODE = /\b[A-Za-z]+\d+[A-Za-z\d]*\b/gu;

/**
 * A calculation over figures to be found that compares things the request names by code ("the X9's rated read
 * against the Z7's measured one", X9比Z7快百分之多少) needs each thing's own source: a search finds pages for the words
 * it is given and its reader opens the first — one page, of one thing. The finder and the reader feeding the
 * calculator run once per thing: the finder searches for the thing by its code, the reader reads its page for the
 * words of the calculation that name that thing (up to the next thing's code), and the calculator takes what every
 * reader read. A request that gives a link reads that.
 */
function sourcePerThing(
  steps: DraftStep[],
  fixed: number,
  visible: ReadonlyMap<string, ToolDefinition>,
  acts: readonly AskedActRead[],
  request: string,
  reasons: string[],
): DraftStep[] {
  const act = acts.find((a) => a.kind === 'compute' && a.figures === 'found');
  if (!act || REQUEST_URL.test(request)) return steps;
  const seen = new Set<string>();
  const codes = [...act.phrase.matchAll(CODE)].filter((m) => {
    const key = m[0].toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (codes.length < 2) return steps;
  const open = steps.slice(fixed);
  const calc = open.find((s) => {
    const t = visible.get(s.tool);
    return t !== undefined && computes(t);
  });
  const calcTool = calc ? visible.get(calc.tool) : undefined;
  const readers = open.filter((s) => calcTool?.depends_on.some((d) => d.tool === s.tool));
  const reader = readers.length === 1 ? readers[0] : undefined;
  const readerTool = reader ? visible.get(reader.tool) : undefined;
  const finders = open.filter(
    (s) => visible.get(s.tool)?.evidence === 'lead' && readerTool?.depends_on.some((d) => d.tool === s.tool),
  );
  const finder = finders.length === 1 ? finders[0] : undefined;
  const finderTool = finder ? visible.get(finder.tool) : undefined;
  if (!calc || !calcTool || !reader || !readerTool || !finder || !finderTool) return steps;
  const parts = codes.map((m, i) =>
    act.phrase.slice(i === 0 ? 0 : m.index, codes[i + 1]?.index ?? act.phrase.length).trim(),
  );
  const textsOf = (tool: ToolDefinition, text: string) =>
    Object.fromEntries(requiredParameters(tool).map((p) => [p, text]));
  const added = parts.flatMap((text, i) => [
    {
      ...draft(finderTool, `finds the source of ${codes[i]?.[0] ?? ''} for ${reader.tool}`),
      // (by the thing's name: the words of the comparison are the same for every thing and find the same pages)
      texts: textsOf(finderTool, codes[i]?.[0] ?? text),
      feeds: reader.tool,
    },
    {
      ...draft(readerTool, `reads the figures of ${codes[i]?.[0] ?? ''} for ${calc.tool}`),
      texts: textsOf(readerTool, text),
      feeds: calc.tool,
    },
  ]);
  reasons.push(
    `${finder.tool} → ${reader.tool} once for each of ${codes.map((m) => m[0]).join(', ')} (each thing's own source)`,
  );
  return [...steps.filter((s) => s !== finder && s !== reader), ...added];
}

// Recipients a send lists: after the verb in English's double-object form ("send Chen Jie and Zhang Min a note"),
// after "to" ("… to Li Wei and the Beacon group"); in Chinese after a coverb before the verb (给陈杰和张敏发消息) or after
// a verb of sending (发给陈杰、张敏). Each item of the list is a name: capitalised in English (a "the" before it and a
// collective noun after it allowed), any run of Han or Latin letters in Chinese. The words are data
// (vocabulary/recipient-lists.ts).
const alternation = (words: readonly string[]) => words.map(escapeRegExp).join('|');
const EN_NAME = String.raw`(?:the\s+)?\p{Lu}[\p{L}'’-]*(?:\s+(?:\p{Lu}[\p{L}'’-]*|${alternation(COLLECTIVE_RECIPIENT_NOUNS)}))*`;
const EN_LIST = new RegExp(String.raw`(${EN_NAME}(?:\s*,\s*${EN_NAME})*\s*,?\s+and\s+${EN_NAME})`, 'u');
const ZH_ITEM = String.raw`[\p{Script=Han}A-Za-z ]{1,12}?`;
const ZH_JOIN = alternation(ZH_LIST_JOINERS);
const ZH_LIST = String.raw`(${ZH_ITEM}(?:(?:${ZH_JOIN})${ZH_ITEM})+)`;
const ZH_LIST_BEFORE = new RegExp(
  String.raw`(?:${alternation(ZH_RECIPIENT_COVERBS)})${ZH_LIST}(?:${alternation(ZH_DISTRIBUTIVES)})?(?:${alternation(ZH_SEND_VERBS)})`,
  'u',
);
const ZH_LIST_AFTER = new RegExp(
  String.raw`(?:${alternation(ZH_SEND_TO_VERBS)})${ZH_LIST}(?=[，。；！？,;!?]|$)`,
  'u',
);
const LIST_SPLIT = new RegExp(String.raw`\s*(?:,\s*and\s+|,|\band\b|${ZH_JOIN})\s*`, 'u');

function escapeRegExp(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const CLAUSE_MARK = /[，。；！？,;!?\n]/u;

/** The recipients a send act lists ({@link EN_LIST}), two or more, or none. */
function listedRecipients(act: AskedActRead, request: string): string[] {
  const clauseOf = (text: string) => {
    const at = request.indexOf(text);
    if (at === -1) return text;
    const before = request.slice(0, at).split(CLAUSE_MARK).pop() ?? '';
    const after = request.slice(at + text.length).split(CLAUSE_MARK)[0] ?? '';
    return `${before}${text}${after}`;
  };
  let list: string | undefined;
  if (/\p{Script=Han}/u.test(act.phrase)) {
    const clause = clauseOf(act.phrase);
    list = (ZH_LIST_BEFORE.exec(clause) ?? ZH_LIST_AFTER.exec(clause))?.[1];
  } else {
    // (the list may run past the act's phrase, which ends at a comma: "to Li Wei, Chen Jie and the Beacon group")
    const at = request.indexOf(act.phrase);
    const from = (at === -1 ? 0 : at) + Math.max(0, act.phrase.indexOf(act.cue)) + act.cue.length;
    const text = at === -1 ? act.phrase : request;
    const rest = text.slice(from).split(/[.!?;\n]/u)[0] ?? '';
    // (right after the verb, or after "to")
    const m = new RegExp(String.raw`^\s+${EN_LIST.source}|\bto\s+${EN_LIST.source}`, 'u').exec(rest);
    list = m?.[1] ?? m?.[2];
  }
  if (list === undefined) return [];
  const items = list
    .split(LIST_SPLIT)
    .map((i) => i.trim())
    .filter((i) => i !== '');
  return items.length > 1 ? items : [];
}

/** A tool and the tools it needs, transitively (its required producers). */
function upstream(tool: ToolDefinition, visible: ReadonlyMap<string, ToolDefinition>): Set<string> {
  const out = new Set<string>([tool.name]);
  const queue = [tool];
  while (queue.length > 0) {
    const next = queue.pop() as ToolDefinition;
    for (const dep of next.depends_on) {
      const producer = visible.get(dep.tool);
      if (!dep.required || !producer || out.has(producer.name)) continue;
      out.add(producer.name);
      queue.push(producer);
    }
  }
  return out;
}

/** Tags that mark a tool as the place for arithmetic (the research pack's sandbox). */
const COMPUTE_TAGS: ReadonlySet<string> = new Set(['compute', 'calculation']);

/** A tool for arithmetic of any kind: tagged for it, or giving derived figures (the research pack's sandbox). */
function computes(tool: ToolDefinition): boolean {
  return tool.tags.some((t) => COMPUTE_TAGS.has(t)) || tool.evidence === 'derived';
}

/**
 * The registry's read that fits a question best when it is one the agent may not use (RG-4): scored, by the same
 * retrieval, among the agent's visible tools and every read of the registry outside all of the agent's scenarios.
 * Undefined when the agent's own tool fits best, when nothing fits, or when the registry has no other tools.
 */
async function fitsElsewhere(
  registry: Registry,
  req: PlanRequest,
  own: readonly ToolDefinition[],
  semantic: SemanticScorer | null | undefined,
  phrases: readonly string[] = [],
): Promise<ToolDefinition | undefined> {
  const agents = new Set(
    toolsForAnyScenario(registry, { agent: req.agent, tenant: req.tenant, scenario: null }).map(
      (t) => t.name,
    ),
  );
  for (const t of own) agents.add(t.name);
  // A question is answered by a read, so only other agents' reads are candidates; the agent's own writes stay in the
  // comparison — a request closer to one of them than to any read ("坏了，退钱！！") is no question for another agent.
  const others = registry.content.tools.filter((t) => !agents.has(t.name) && t.action === 'read');
  if (others.length === 0) return undefined;
  const all = [...own, ...others];
  const index = createLexicalIndex(all);
  const scoredFor = async (text: string) => {
    const target = targetPhrase(text);
    const sims = semantic
      ? await semantic.similarities(text, [text, ...(target.trim() ? [target] : [])], all)
      : null;
    return index.score(
      text,
      sims
        ? {
            request: (tool) => sims.of(text, tool),
            target: (tool) => (target.trim() === '' ? undefined : sims.of(target, tool)),
          }
        : undefined,
    );
  };
  const best = async (text: string): Promise<ToolDefinition | undefined> => {
    const scoredAll = await scoredFor(text);
    const top = scoredAll[0];
    return top && others.includes(top.tool) && fitsRequest(top, scoredAll) ? top.tool : undefined;
  };
  const whole = await best(req.request);
  if (whole || phrases.length === 0) return whole;
  // The request's words beside its questions (an order number, "two things") may pull it toward a tool of the
  // agent's: when every question, read by itself, is another agent's tool's, none is this agent's to answer —
  // unless the words beside them are what the question is about: when the agent's best tool for the whole request
  // fits it better than the other agent's tool does (RP-0001送修一周了，告诉我啥时候能寄回来 — the repair the first
  // clause names is what comes back), the question is the agent's.
  const each = await Promise.all(phrases.map(best));
  const first = each[0];
  if (!each.every((t) => t !== undefined) || first === undefined) return undefined;
  const wholeScores = await scoredFor(req.request);
  const ownTop = wholeScores.find((s) => !others.includes(s.tool));
  const theirs = wholeScores.find((s) => s.tool === first);
  return ownTop && fitsRequest(ownTop, wholeScores) && ownTop.fit > (theirs?.fit ?? 0) ? undefined : first;
}

/** The verb of an act's cue, stemmed, when it is one English word ("send", "book"). */
function cueVerb(act: AskedActRead): string | undefined {
  const words = tokens(act.cue);
  return words.length === 1 ? words[0] : undefined;
}

/**
 * Whether a tool does an act: a calculation by a tool that computes; a thing to produce by a tool that produces, or
 * whose name's topic words all stand in the act's words ("the weekly report" → report_generate); a change of a
 * named kind by a tool of that kind, or one whose name carries the act's verb ("send" → email_send); a change of
 * unnamed kind ("refund my order", 我要退款) by a tool the act's words fit; a look-up by a read tool they fit.
 */
function serves(
  act: AskedActRead,
  tool: ToolDefinition,
  local: readonly ScoredTool[],
  allowed: ReadonlySet<string> = new Set(),
): boolean {
  const fit = () => {
    const s = local.find((l) => l.tool === tool);
    return s !== undefined && fitsRequest(s, local);
  };
  const kind = toolActKind(tool);
  switch (act.kind) {
    case 'compute':
      // A general calculator does any; a tool named for computing, or any tool over the figures given, when the act's
      // words fit it (area_circle for "the area of a circle of radius 5").
      // Over the figures given, only a tool that takes a number can work on them: a search for papers computes nothing.
      // With a tool that computes anything among the candidates, the figures are its to work on: a number another
      // tool takes there is a filter of what it looks up (papers from a year on), not an operand.
      return (
        computes(tool) ||
        (kind === 'compute' && fit()) ||
        (act.figures === 'given' && takesNumbers(tool) && !local.some((l) => computes(l.tool)) && fit())
      );
    case 'produce': {
      if (kind === 'produce' && fit()) return true;
      return namesItsProduct(act, tool);
    }
    case 'look_up':
      return tool.action === 'read' && fit();
    case 'act': {
      if (allowed.has(tool.name)) return true;
      // A clause said as a directive (直接退款吧, 马上给我换货) orders a thing done: no read does it, whatever its words
      // fit — a look-up of the order is not the refund (a want of information names what it wants: 订单状态发我).
      if (act.cue === 'directive' && tool.action === 'read') return false;
      if (!fit()) return false;
      // A change of unnamed kind ("直接退款吧", "I want my money back") is no read's to serve when a write it asks for
      // fits its words; a want of information ("I need my order status") is, when no such write does.
      if (tool.action !== 'read') return true;
      // An order with a verb of its own ("Put a call in my calendar") is a declared look-up's only when its documents
      // use that verb: a read that lists minutes puts nothing anywhere. (A read that makes something — a report — may
      // be what "pull together a report" asks.)
      if (act.verb !== undefined && kind === 'look_up' && tool.origin?.effects !== 'assumed') {
        const s = local.find((l) => l.tool === tool);
        if (!s || !doesVerb(act, s)) return false;
      }
      // (the write asked for first, as asksForWrites reads a short want, counts even when its fit is low)
      const firstWrite = local.find((l) => l.tool.action !== 'read');
      return !local.some(
        (l) =>
          l.tool.action !== 'read' &&
          allowed.has(l.tool.name) &&
          sharesWords(act, l) &&
          (fitsRequest(l, local) || l === firstWrite),
      );
    }
    default: {
      const verb = cueVerb(act);
      // A tool of the act's kind does it; one of no named kind, or one whose name merely carries the verb (an
      // imported `Hotels_2_BookHouse` for "book …"), only when the act's words fit it too.
      // Making a document ("make a project review report") is producing it: a tool that produces it makes it — one
      // whose name's topic words all stand in the act's object (report_generate for "… review report", never for
      // "订一间会议室").
      // An imported tool whose effects were only assumed (`origin.effects: assumed`) has a kind only its name's verb
      // guesses: a change asked in other words is its when the words fit ("send $29 to Thomas": MakePayment) — unless
      // its name says it only looks something up (`list_files` deletes nothing).
      return (
        kind === act.kind ||
        (act.kind === 'create' && kind === 'produce' && namesItsProduct(act, tool)) ||
        ((kind === 'act' ||
          (tool.origin?.effects === 'assumed' && kind !== 'look_up') ||
          (verb !== undefined && tokens(tool.name).includes(verb))) &&
          fit())
      );
    }
  }
}

/** Whether every word of the request stands in one of its acts' phrases (nothing is said beside the acts). */
function saysAll(acts: readonly AskedActRead[], request: string): boolean {
  const said = new Set(acts.flatMap((a) => tokens(a.phrase)));
  return tokens(request).every((t) => said.has(t));
}

/**
 * Whether a tool fits a look-up's words on what is looked up. The verb by which the look-up was read (查, "find",
 * "look up") says that something is asked, not what: a tool whose documents share only that verb with the act, and
 * that the act's meaning does not single out either (another tool is nearer), answers some other question —
 * "查下明天上海天气" is no job for the read whose example says "查一下市场部王经理的邮箱".
 */
function fitsLookUp(act: AskedActRead, scored: ScoredTool, local: readonly ScoredTool[]): boolean {
  if (!fitsRequest(scored, local)) return false;
  const cue = new Set(tokens(act.cue));
  const cueOnly = scored.matched.length > 0 && scored.matched.every((w) => cue.has(w));
  return !cueOnly || (scored.features.semanticLead ?? 0) >= 0;
}

/** Whether the topic words of a tool's name all stand in an act's object ("the weekly report" → report_generate). */
function namesItsProduct(act: AskedActRead, tool: ToolDefinition): boolean {
  const wanted = new Set(tokens(act.object));
  const object = tokens(tool.name).filter((t) => !GENERIC_VERBS.has(t));
  return object.length > 0 && object.every((t) => wanted.has(t));
}

/**
 * The write tools the request asks for (TD-5): for an act of a named kind, the visible writes of that kind (and
 * writes of unnamed kind its words fit); for a change of unnamed kind, the writes its words fit — but none of a kind
 * the request says not to make (`forbidden`: 不用发, "no need to send it"). Any other write is unasked, whoever
 * proposes it.
 */
function asksForWrites(
  acts: readonly AskedActRead[],
  actScores: ReadonlyMap<AskedActRead, readonly ScoredTool[]>,
  wholeFits: readonly ScoredTool[],
  forbiddenActs: readonly ForbiddenAct[],
): Set<string> {
  const allowed = new Set<string>();
  const forbidden = new Set(forbiddenActs.map((f) => f.kind));
  for (const act of acts) {
    if (!WRITE_ACT_KINDS.has(act.kind)) continue;
    const local = actScores.get(act) ?? [];
    // A short want ("我要退款", "I want a refund") says little by itself: the write that fits the whole request and
    // ranks first among the writes for the want's own words is the one it asks for.
    const firstWrite = local.find((s) => s.tool.action !== 'read');
    for (const s of local) {
      if (s.tool.action === 'read') continue;
      const kind = toolActKind(s.tool);
      // Meaning alone is not enough for a write: the act's words must share a word with what the tool documents.
      const fits =
        sharesWords(act, s) &&
        (fitsRequest(s, local) || (s === firstWrite && wholeFits.some((w) => w.tool === s.tool)));
      // A change of a named kind is asked of the tools of that kind that do it to its object: "报修" (book a repair)
      // asks no refund_create, though both create. A send with no object of its own ("send it", 发一句) sends what
      // the chain made.
      const bare = /^(?:it|them|this|that|these|those|它|这个|那个|一下)?$/iu.test(act.object.trim());
      // "open a new one", "file another": the pronoun "one" stands for the thing the request named before it, so the
      // tool that fits the whole request makes it.
      const another =
        act.kind === 'create' &&
        /^(?:(?:a|another)\s+(?:new\s+|fresh\s+|second\s+)?one|another|one)\b/iu.test(act.object.trim()) &&
        wholeFits.some((w) => w.tool === s.tool);
      const onItsObject =
        (act.kind === 'send' && bare) ||
        another ||
        (fitsRequest(s, local) &&
          s.matched.length > 0 &&
          (act.kind !== 'create' || namesWhatIsMade(act, s.tool)));
      if (
        act.kind === 'act'
          ? fits && doesVerb(act, s) && !forbidden.has(kind)
          : (kind === act.kind && onItsObject) || (kind === 'act' && fits)
      )
        allowed.add(s.tool.name);
    }
  }
  // A write the negated words name ("don't email him" → email_send, 别发邮件 → the tool documented with 邮件) is
  // not asked for, whichever act would have it.
  for (const f of forbiddenActs) {
    const said = new Set(tokens(f.phrase));
    for (const name of allowed) {
      const s =
        wholeFits.find((w) => w.tool.name === name) ??
        [...actScores.values()].flat().find((w) => w.tool.name === name);
      if (s && toolActKind(s.tool) === f.kind && documentWords(s.tool).some((w) => said.has(w)))
        allowed.delete(name);
    }
  }
  return allowed;
}

/**
 * Whether an act's words share a word with what a tool documents: one of the same, or, for a change of unnamed
 * kind, a Chinese verb-object word said apart ({@link splitCompound}).
 */
function sharesWords(act: AskedActRead, scored: ScoredTool): boolean {
  return (
    scored.matched.length > 0 ||
    (act.kind === 'act' && splitCompound(act, scored.tool)) ||
    tokens(act.phrase).some((w) => misspells(w, scored.tool))
  );
}

// The stemmed words of each tool's own documents (name, purpose, examples, tags).
const documentWords = oncePerDefinition((tool): readonly string[] => {
  const d = tool.description;
  const purpose = typeof d === 'string' ? d : d.purpose;
  return [...new Set(tokens([tool.name, purpose, ...tool.examples, ...tool.tags].join(' ')))];
});

/**
 * Whether a word of a request is a typing slip for a word of the tool's documents ("refnd" for refund, "cancle" for
 * cancel): one letter left out, added, changed or two swapped, in a Latin word of five letters or more — shorter words
 * are one edit from too many others to tell.
 */
function misspells(word: string, tool: ToolDefinition): boolean {
  if (word.length < 5 || !/^[a-z]+$/u.test(word)) return false;
  const known = documentWords(tool).filter((t) => /^[a-z]{4,}$/u.test(t));
  return !known.includes(word) && known.some((k) => oneEditApart(word, k));
}

/**
 * The words naming what a create act makes: in English the content words of its object before the first
 * preposition, relative word or comma ("a personal invoice for order 1234, made out to …" → personal, invoice), without
 * the courtesy and time words that may follow an object ("a ticket pls", "a repair asap"). Undefined when the object
 * names nothing ("book it"), or is Chinese: a Chinese object is often a clause (安排师傅来取件, 安排人联系我) whose head
 * a word breaker cannot find — there, meaning decides.
 */
function madeThing(act: AskedActRead): string[] | undefined {
  if (/\p{Script=Han}/u.test(act.object)) return undefined;
  const noun =
    act.object.split(
      /[,;:(]|\s(?:for|to|of|with|on|in|about|from|by|at|that|which|who|so|because|and|or)\s/iu,
    )[0] ?? '';
  // "open a new one", "file another one": the pronoun "one" stands for a thing said before and names nothing itself.
  if (/\bones?\s*$/iu.test(noun.trim())) return undefined;
  const named = tokens(noun).filter((t) => !COURTESY.has(t));
  return named.length > 0 ? named : undefined;
}

// Words that may follow an object without naming it: courtesy, urgency and time ("raise a ticket pls", "… asap").
const COURTESY: ReadonlySet<string> = new Set(
  [
    'pls',
    'plz',
    'please',
    'thanks',
    'thank',
    'thx',
    'asap',
    'now',
    'today',
    'tomorrow',
    'again',
    'urgently',
  ].map((w) => tokens(w)[0] ?? w),
);

/**
 * Whether a tool's documents name what a create act makes (TD-5): a tool makes the things it documents — a tool that
 * books repairs issues no invoice because its `issue` field shares the request's verb, and a tool that opens tickets
 * makes no invoice. A word of the object's noun phrase must stand in the tool's own documents (by stem, or one stem a
 * prefix of the other: "reservation" / reserve; or a typing slip of one).
 */
function namesWhatIsMade(act: AskedActRead, tool: ToolDefinition): boolean {
  const named = madeThing(act);
  if (named === undefined) return true;
  const known = documentWords(tool);
  return named.some(
    (word) =>
      known.some(
        (d) =>
          d === word || (Math.min(d.length, word.length) >= 4 && (d.startsWith(word) || word.startsWith(d))),
      ) || misspells(word, tool),
  );
}

/** Whether two words differ by one insertion, deletion, substitution or swap of two neighbouring letters. */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const rest = (x: string, n: number) => x.slice(i + n);
  if (a.length === b.length)
    return rest(a, 1) === rest(b, 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && rest(a, 2) === rest(b, 2));
  return a.length > b.length ? rest(a, 1) === rest(b, 0) : rest(a, 0) === rest(b, 1);
}

// The two-character Chinese words of each tool's own documents (purpose, examples, tags), by their first character.
const compoundHeads = oncePerDefinition((tool): ReadonlySet<string> => {
  const d = tool.description;
  const purpose = typeof d === 'string' ? d : d.purpose;
  return new Set(
    tokens([purpose, ...tool.examples, ...tool.tags].join(' '))
      .filter((t) => /^\p{Script=Han}{2}$/u.test(t))
      .map((t) => t.charAt(0)),
  );
});

/**
 * Whether a change of unnamed kind says, split, a Chinese verb-object word of the tool's documents. Such words (离合词:
 * 退款 "refund", 报修 "report for repair", 换货 "exchange goods") come apart in speech — 退了吧, 退我80块, 报个修 — leaving
 * their verb as a word of its own: a one-character word of the act that opens a two-character word of the tool's is
 * that word said apart.
 */
function splitCompound(act: AskedActRead, tool: ToolDefinition): boolean {
  const known = compoundHeads(tool);
  // Said apart, the verb takes what a verb takes before its object: an aspect particle, a measure word, a pronoun
  // or a number (退了款, 报个修, 退我80块), the 给 that brings its recipient (钱退给我), or the clause ends on it (退了吧).
  // (ICU's lexicon writes a verb and its 给 as one word — 退给, 寄给 — whose verb is the first character)
  return tokens(act.phrase).some((word) => {
    const t = /^\p{Script=Han}给$/u.test(word) ? word.charAt(0) : word;
    return (
      /^\p{Script=Han}$/u.test(t) &&
      known.has(t) &&
      new RegExp(`${t}(?:[了过着个我你他她吧啊呀给]|一下|[0-9一二三四五六七八九十两]|$)`, 'u').test(
        act.phrase,
      )
    );
  });
}

/**
 * Whether a write does the verb of a change of unnamed kind. A verb names the change ("merge my tickets", "refund my
 * order"): a tool whose kind is named (it creates, updates, cancels …) does a verb outside its kind's verbs only when
 * its documents use that verb — a tool that makes tickets does not merge them, though both speak of tickets. A want
 * with no verb ("I want a refund", 我要退款, "… please") is decided by the tools its words fit, and so is a tool of
 * no named kind.
 */
function doesVerb(act: AskedActRead, scored: ScoredTool): boolean {
  if (act.verb === undefined || toolActKind(scored.tool) === 'act') return true;
  return (
    scored.matched.includes(act.verb) ||
    saysPhrasalVerb(act, scored.tool) ||
    misspells(act.verb, scored.tool) ||
    // (a Chinese verb said apart from its object: 退 of 退款, {@link splitCompound})
    (/^\p{Script=Han}$/u.test(act.verb) && compoundHeads(scored.tool).has(act.verb))
  );
}

// The particles that make a verb of no topic of its own a phrasal verb ("get back to me", "look into it").
const EN_PARTICLE = /^(back|up|in|into|out|over|down|through|after)\b/iu;

/**
 * Whether the act's verb is a verb of no topic of its own (get, take, set) said with its particle, and the tool's own
 * documents (purpose, examples) say that phrasal verb: "get back to me" is what a tool documented to "get back to them"
 * does, though "get" alone is no topic word of any tool.
 */
function saysPhrasalVerb(act: AskedActRead, tool: ToolDefinition): boolean {
  if (act.verb === undefined || !STOP_WORDS.has(act.verb)) return false;
  const particle = EN_PARTICLE.exec(act.object.trim())?.[1]?.toLowerCase();
  if (particle === undefined) return false;
  const d = tool.description;
  const prose = [typeof d === 'string' ? d : d.purpose, ...tool.examples].join(' ').toLowerCase();
  return new RegExp(`\\b${act.verb}s?\\s+${particle}\\b`, 'u').test(prose);
}

/** How many changes of each kind the request asks for (named kinds, and `act` for changes of unnamed kind). */
function actCounts(acts: readonly AskedActRead[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const act of acts)
    if (WRITE_ACT_KINDS.has(act.kind)) counts.set(act.kind, (counts.get(act.kind) ?? 0) + 1);
  return counts;
}

/** Why a write is not asked for: what the request does ask for, and what the tool would do. */
function unaskedWrite(
  tool: ToolDefinition,
  acts: readonly AskedActRead[],
  forbidden: readonly ForbiddenAct[] = [],
): string {
  const writes = acts.filter((a) => WRITE_ACT_KINDS.has(a.kind));
  const does = toolActKind(tool);
  const would = does === 'act' ? tool.action : does;
  const refused = forbidden.find((f) => f.kind === does);
  if (refused) return `the request says not to: "${refused.phrase}"; ${tool.name} would ${would}`;
  return writes.length === 0
    ? `the request asks for no change (${acts.map(actLabel).join(', ') || 'nothing'}); ${tool.name} would ${would}`
    : `the request asks to ${writes.map(actLabel).join(', ')}; ${tool.name} would ${would}, which it does not ask for`;
}

/**
 * The tool that carries out one act, among the candidates not chosen yet: for a calculation, a tool that computes
 * (it rarely shares the request's topic words); otherwise the best fit of the act's own words among the tools that
 * do it — a tool that consumes an output of one already chosen first ("send it": it is what the chain made).
 */
function toolForAct(
  act: AskedActRead,
  local: readonly ScoredTool[],
  pool: readonly ScoredTool[],
  chosen: readonly ScoredTool[],
  allowed: ReadonlySet<string>,
): ScoredTool | undefined {
  const open = pool.filter((s) => !chosen.includes(s));
  // A tool that does the act only by its words (one whose name carries the verb, a tool of no named kind) must fit
  // them better than every tool already chosen: "book train tickets" is what the chosen train tool does, not a job
  // for Hotels_2_BookHouse.
  const rankOf = (tool: ToolDefinition) => local.findIndex((l) => l.tool === tool);
  const firstChosen = Math.min(...chosen.map((c) => rankOf(c.tool)).filter((i) => i >= 0), Infinity);
  const ranked = local.filter(
    (l, i) =>
      open.some((o) => o.tool === l.tool) &&
      serves(act, l.tool, local, allowed) &&
      (toolActKind(l.tool) === act.kind || computes(l.tool) || allowed.has(l.tool.name) || i < firstChosen),
  );
  // A change wanted ("I want a refund") is made by the write it asks for; what it reads is the lead's and the asks'.
  if (act.kind === 'act')
    return open.find((o) => ranked.some((r) => r.tool === o.tool && allowed.has(o.tool.name)));
  const made = new Set(chosen.map((s) => s.tool.name));
  const consumes = (s: ScoredTool) => s.tool.depends_on.some((d) => made.has(d.tool));
  // Only a change or a product acts on what the chain made ("send it"); a look-up asks about its own words.
  const lookUp = act.kind === 'look_up';
  const pick =
    (lookUp ? undefined : ranked.find(consumes)) ??
    ranked.find((s) => !lookUp || fitsRequest(s, local)) ??
    // A calculation no fitting tool does goes to the tool that computes anything (it rarely shares the words).
    (act.kind === 'compute' ? open.find((s) => computes(s.tool)) : undefined);
  return pick ? open.find((o) => o.tool === pick.tool) : undefined;
}

/**
 * Which step serves each act (TD-5): the best fit, among the plan's steps that do the act, of the act's own words.
 * An act no step does is named, with what was visible, so the evaluator can say what was left undone.
 */
function assignActs(
  acts: readonly AskedActRead[],
  actScores: ReadonlyMap<AskedActRead, readonly ScoredTool[]>,
  steps: readonly PlanStep[],
  visible: ReadonlyMap<string, ToolDefinition>,
  allowed: ReadonlySet<string>,
  modelReads = false,
  sentTo: (text: string, tool: ToolDefinition) => string | undefined = () => undefined,
  sentWith: (text: string, tool: ToolDefinition) => boolean = () => false,
): AskedAct[] {
  const taken = new Set<string>();
  const out: AskedAct[] = [];
  const questionsOnly = acts.every((a) => a.kind === 'look_up');
  for (const act of acts.slice(0, 50)) {
    const local = actScores.get(act) ?? [];
    // A change wanted is served by the write it asks for first; otherwise by the best fit of the act's words.
    const rank = (tool: string) => {
      const i = local.findIndex((l) => l.tool.name === tool);
      const first = act.kind === 'act' && allowed.has(tool) ? 0 : 1;
      return first * 1000 + (i === -1 ? 999 : i);
    };
    const doing = steps.filter((s) => {
      const tool = visible.get(s.tool);
      if (!tool) return false;
      // A look-up is served by a read its words fit — or by a change whose result it asks about ("退完把退款单号告诉我":
      // the refund's own answer). A read its words do not fit answers some other question: it is no evidence for
      // this one, and the act stays unserved rather than finishing a task `success` on the wrong query.
      if (act.kind === 'look_up') {
        const fit = local.find((l) => l.tool === tool);
        // (a question of what a source says is answered by the reader of the source, whatever its fit: see planTools)
        if (asksWhatSourceSays(act.phrase) && readsFoundPages(tool, visible)) return true;
        // (or the read that a fitting tool's not_for sends these words, or the text holding them, to)
        if (sentWith(act.phrase, tool)) return true;
        if (
          local.some(
            (l) => l.tool !== tool && fitsLookUp(act, l, local) && sentTo(act.phrase, l.tool) === tool.name,
          )
        )
          return true;
        // (a read whose not_for names these words is not evidence for them)
        return fit !== undefined && fitsLookUp(act, fit, local) && sentTo(act.phrase, tool) === undefined;
      }
      return serves(act, tool, local, allowed);
    });
    const reads = doing.filter((s) => visible.get(s.tool)?.action === 'read');
    const ranked = [...(act.kind === 'look_up' && reads.length > 0 ? reads : doing)].sort(
      (a, b) => rank(a.tool) - rank(b.tool),
    );
    // Two acts of one kind (two sends) are two steps' when the plan has two that do it: each step answers for one.
    const previous = out.at(-1);
    let best =
      act.kind === 'look_up'
        ? (ranked[0] ??
          // a look-up that points back at what the act before it asked for is served with it
          (REFERS_BACK.test(act.object) && previous?.step_index != null
            ? steps.find((s) => s.index === previous.step_index)
            : undefined) ??
          // A look-up the decider's own reading fits to no read is served, on the model path, by a read the model
          // chose for the request — the first one no other look-up took — when the request only asks things: beside
          // a change, a proposed read may be there for the change (its recipients, its content), not for this.
          (modelReads && questionsOnly
            ? (steps.find(
                (s) => visible.get(s.tool)?.action === 'read' && !taken.has(`look_up:${String(s.index)}`),
              ) ?? steps.find((s) => visible.get(s.tool)?.action === 'read'))
            : undefined))
        : (ranked.find((s) => !taken.has(`${act.kind}:${String(s.index)}`)) ?? ranked[0]);
    // A thing asked for by name that is only a value a planned step takes ("Fahrenheit please" beside a weather
    // question, "company one please" beside an invoice): it says how that step is done, and that step serves it.
    // A send to an e-mail address, beside a step whose tool takes that address (an invoice issued "发到 a@b.cn"), is
    // that step's: the tool sends what it makes there.
    const qualified =
      best === undefined && act.kind === 'act'
        ? steps.find((s) => {
            const tool = visible.get(s.tool);
            return tool !== undefined && namesParameterValues(act.object, tool);
          })
        : best === undefined && act.kind === 'send' && EMAIL_ADDRESS.test(act.object)
          ? steps.find((s) => {
              const tool = visible.get(s.tool);
              return tool !== undefined && tool.action !== 'read' && takesEmailAddress(tool);
            })
          : undefined;
    if (qualified) best = qualified;
    if (best) taken.add(`${act.kind}:${String(best.index)}`);
    const unserved =
      best === undefined
        ? `no step of the plan does it; visible: ${[...visible.keys()].slice(0, 12).join(', ') || 'none'}`
        : null;
    out.push({
      kind: act.kind,
      object: act.object.slice(0, 500),
      phrase: act.phrase.slice(0, 1000),
      step_index: best?.index ?? null,
      unserved,
    });
  }
  return out;
}

const EMAIL_ADDRESS = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/u;

/** Whether a tool takes an e-mail address to send to (a parameter of `format: email`). */
function takesEmailAddress(tool: ToolDefinition): boolean {
  const properties = (tool.parameters as { properties?: Record<string, unknown> }).properties ?? {};
  return Object.values(properties).some((schema) => (schema as { format?: unknown }).format === 'email');
}

/**
 * Whether every word of a text is a value one of a tool's parameters takes: an `enum` value or a word its `synonyms`
 * map to one ("fahrenheit", "company"). Such words pick how the tool is called; they name no act of their own.
 */
function namesParameterValues(text: string, tool: ToolDefinition): boolean {
  const properties = (tool.parameters as { properties?: Record<string, unknown> }).properties ?? {};
  const values = new Set<string>();
  for (const schema of Object.values(properties)) {
    const s = schema as { enum?: unknown; synonyms?: unknown };
    if (Array.isArray(s.enum)) for (const v of s.enum) if (typeof v === 'string') values.add(v.toLowerCase());
    if (s.synonyms && typeof s.synonyms === 'object')
      for (const k of Object.keys(s.synonyms)) values.add(k.toLowerCase());
  }
  const said = tokens(text).filter((t) => !STOP_WORDS.has(t));
  return said.length > 0 && said.every((t) => values.has(t));
}

function repair(
  steps: DraftStep[],
  violations: readonly Violation[],
  visible: ReadonlyMap<string, ToolDefinition>,
  excluded: ReadonlySet<string>,
  fixed: number,
  requestText: string,
): DraftStep[] {
  const drop = new Set<number>();
  const add: DraftStep[] = [];
  for (const v of violations) {
    if (v.step_index < fixed) continue; // steps already done are history, not up for repair
    switch (v.rule) {
      case 'reads_before_writes':
        break; // the re-order fixes it
      case 'depends_on': {
        const tool = visible.get(v.tool);
        const missing = tool?.depends_on.find(
          (d) => d.required && !steps.some((s) => s.tool === d.tool) && !add.some((s) => s.tool === d.tool),
        );
        const producer = missing ? visible.get(missing.tool) : undefined;
        if (missing && producer && !excluded.has(producer.name))
          add.push(draft(producer, `provides ${missing.output} for ${v.tool}.${missing.parameter}`));
        else if (missing) drop.add(v.step_index);
        break;
      }
      case 'preconditions': {
        // A step whose input must come from an earlier step (a visit needs a URL, and none is in the request; a
        // calculation needs verified figures) gets that producer — the tool its depends_on names for the parameter —
        // planned before it, instead of being dropped: search before visit, visit before compute. Without such a
        // producer the step is dropped.
        // A link the request points at but does not give is the user's to give: a search would find some other page.
        const tool = visible.get(v.tool);
        if (REFERS_TO_LINK.test(requestText) && tool?.preconditions.some((p) => p.kind === 'needs_url'))
          break;
        const producer = producerFor(tool, steps, add, visible, excluded);
        if (producer) add.push(producer);
        else drop.add(v.step_index);
        break;
      }
      case 'no_cycles': {
        const step = steps[v.step_index];
        if (step) {
          const fixedInputs = step.input_from.filter(
            (f) => f.source !== 'step_output' || (f.step_index !== null && f.step_index < v.step_index),
          );
          if (fixedInputs.length === step.input_from.length) drop.add(v.step_index);
          else steps[v.step_index] = { ...step, input_from: fixedInputs };
        }
        break;
      }
      default:
        drop.add(v.step_index);
    }
  }
  return [...steps.filter((_, i) => !drop.has(i)), ...add];
}

function toPlanStep(
  s: DraftStep,
  index: number,
  visible: ReadonlyMap<string, ToolDefinition>,
  excluded: ReadonlySet<string>,
): PlanStep {
  const tool = visible.get(s.tool) as ToolDefinition;
  const fallback = tool.alternatives.find((a) => visible.has(a) && !excluded.has(a)) ?? null;
  return {
    index,
    tool: tool.name,
    tool_definition_hash: toolHash(tool),
    purpose: s.purpose.slice(0, 2000),
    input_from: s.input_from,
    expected_evidence: tool.evidence,
    fallback_tool: fallback,
  };
}

function dedupe(rejected: Rejection[]): Rejection[] {
  const seen = new Set<string>();
  return rejected.filter((r) => {
    const key = `${r.candidate}\u0000${r.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Whether `tool`'s `description.not_for` names the tool `name` (as the one to use instead). */
function notForNames(tool: ToolDefinition, name: string): boolean {
  if (typeof tool.description === 'string') return false;
  return new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`, 'u').test(tool.description.not_for);
}
