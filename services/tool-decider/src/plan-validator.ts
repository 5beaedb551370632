// TD-5: plan validation is code, not model. Each rule is a separate pure function over (draft plan, context) that
// returns its violations; `validatePlan` runs them all. Rules have the last word over any proposal (TD-2).
import type { InputFrom } from '@signalbox/contracts';
import { PERMISSION_RANK, type Permission, type ToolDefinition } from '@signalbox/registry';

/** The rules of TD-5, one id each (they appear in violations, decision reasons and rejected candidates). */
export const PLAN_RULE_IDS = [
  'visibility_permission',
  'depends_on',
  'exclusive_with',
  'reads_before_writes',
  'delete_confirmation',
  'intent_side_effect',
  'preconditions',
  'duplicate_step',
  'no_cycles',
] as const;
export type PlanRuleId = (typeof PLAN_RULE_IDS)[number];

/** Why a step may repeat an earlier one with the same arguments (TD-5 duplicates). */
export type RepeatReason = 'earlier_failure' | 'freshness';

/** A step as drafted, before it becomes a contract `PlanStep`. */
export interface DraftStep {
  tool: string;
  purpose: string;
  input_from: InputFrom[];
  /** Arguments the proposer already gave (model proposals); used by the duplicate rule. */
  arguments?: Record<string, unknown>;
  /** Set when a repeat of an earlier call is deliberate. */
  repeat_reason?: RepeatReason;
  /** The words of the request a `user_text` parameter takes (one search of several); absent → the whole request. */
  texts?: Record<string, string>;
  /** For a producer added for one step of several that need it: that step's tool (it feeds that step only). */
  feeds?: string;
}

/** A step that ran earlier in the task (from the carried history). */
export interface ExecutedStep {
  tool: string;
  arguments: Record<string, unknown>;
  ok: boolean;
}

/** What the rules may read besides the plan. */
export interface ValidationContext {
  /** The visible tool set, by name (RG-4). */
  visible: ReadonlyMap<string, ToolDefinition>;
  /** The most the agent (and tenant) may do. */
  maxPermission: Permission;
  /**
   * TD-5 no unasked writes: the write tools the request's acts ask for (see `readActs`), and why any other write is
   * unasked ("the request asks to delete "all tickets"; create_ticket would create").
   */
  writes: {
    allowed: ReadonlySet<string>;
    unasked: (tool: ToolDefinition) => string;
    /**
     * How many changes of each named kind the request asks for (send, create …), with the kind a write tool does:
     * each asked change is made by one tool, so a second tool of the same kind for one asked send is a write nobody
     * asked for (a model proposing email_send beside message_send for "发一句"). Absent: not counted.
     */
    asked?: { counts: ReadonlyMap<string, number>; kindOf: (tool: ToolDefinition) => string };
  };
  /**
   * The request asks for a calculation over figures it gives itself ("17% of 2,340"): the user's own figures are the
   * verified inputs a sandbox needs, and no source step has to find them first. @default false
   */
  givenFigures?: boolean;
  /** The request and conversation text (for "a URL from the user"). */
  requestText: string;
  /** The task asks for fresh data (a repeat for freshness is then allowed). */
  needsFreshData: boolean;
  /** Steps already executed in this task. */
  history: readonly ExecutedStep[];
  /** The chain runs without a human in the loop (true for every pipeline plan). */
  automatic: boolean;
  /**
   * The semantic model's cosine of two texts of the request (the words two steps take), when the decider runs with
   * the model; undefined for texts it did not embed. Two steps of one tool whose words mean the same and carry the
   * same values are near duplicates (see `duplicateStep`).
   */
  textSimilarity?: (a: string, b: string) => number | undefined;
}

/**
 * Cosine from which two phrasings count as one meaning (TD-5 near duplicates). Paraphrases of one short request
 * ("PostgreSQL 17 performance" / "the performance of postgresql-17", "weather in Paris tomorrow" / "tomorrow's
 * forecast for Paris") score 0.85–0.95 under all-MiniLM-L6-v2; different asks on one topic ("weather in Paris" /
 * "in Berlin", "order status" / "refund status") 0.4–0.6. Values are compared as well: "PostgreSQL 16 performance"
 * is 0.92 from "… 17 …" and still another search.
 */
export const NEAR_DUPLICATE_COSINE = 0.85;

/** The values a phrase names: numbers, codes and capitalised names, lower-cased, as a sorted key. */
function valuesOf(text: string): string {
  const values = text.match(/\p{N}+(?:[.,]\p{N}+)*|\b\p{Lu}[\p{L}\p{N}-]*/gu) ?? [];
  return [...new Set(values.map((v) => v.toLowerCase()))].sort().join('\u0000');
}

/** One broken rule. */
export interface Violation {
  rule: PlanRuleId;
  step_index: number;
  tool: string;
  reason: string;
}

/** A rule: pure, one concern. */
export type PlanRule = (steps: readonly DraftStep[], ctx: ValidationContext) => Violation[];

const WRITES = new Set(['write', 'append', 'delete']);
const URL_PATTERN = /\bhttps?:\/\/[^\s"'<>]+/i;

/**
 * A request that points at a link the user means to have given — "this link", "the page I just linked", 这个链接,
 * 刚才发的网址. With no URL in the request or its context, that link is missing: a search cannot find "this" page, so
 * the user is asked for it.
 */
export const REFERS_TO_LINK =
  /\b(?:this|that)\s+(?:link|url|web\s*address)\b|\b(?:the|this|that)\s+(?:[\p{L}\p{N}-]+\s+){0,2}?(?:link|url|page|web\s*page|site|article|doc(?:ument)?|post)\s+(?:i|we)\s+(?:just\s+|already\s+)?(?:linked|sent|shared|pasted|posted|gave|attached|mentioned)\b|(?:这个|那个|这条|那条|上面的?|刚才的?|刚刚的?|我发的|刚发的)(?:链接|网址|网页|页面|地址)/iu;

function v(rule: PlanRuleId, index: number, tool: string, reason: string): Violation {
  return { rule, step_index: index, tool, reason };
}

/** Visibility and permission: only tools in the visible set, never above the agent's / tenant's permission. */
export const visibilityPermission: PlanRule = (steps, ctx) =>
  steps.flatMap((step, i) => {
    const tool = ctx.visible.get(step.tool);
    if (!tool)
      return [v('visibility_permission', i, step.tool, `${step.tool} is not in the visible tool set`)];
    if (PERMISSION_RANK[tool.permission] > PERMISSION_RANK[ctx.maxPermission])
      return [
        v(
          'visibility_permission',
          i,
          step.tool,
          `${step.tool} needs ${tool.permission}, above the allowed ${ctx.maxPermission}`,
        ),
      ];
    return [];
  });

/** depends_on satisfied and ordered: a required producer runs earlier (or ran already); a planned one comes first. */
export const dependsOn: PlanRule = (steps, ctx) =>
  steps.flatMap((step, i) => {
    const tool = ctx.visible.get(step.tool);
    if (!tool) return [];
    return tool.depends_on.flatMap((dep) => {
      const at = steps.findIndex((s) => s.tool === dep.tool);
      const ranBefore = ctx.history.some((h) => h.ok && h.tool === dep.tool);
      if (at > i)
        return [
          v(
            'depends_on',
            i,
            step.tool,
            `${step.tool} needs ${dep.tool}.${dep.output} but ${dep.tool} comes after it`,
          ),
        ];
      if (dep.required && at === -1 && !ranBefore)
        return [
          v(
            'depends_on',
            i,
            step.tool,
            `${step.tool}.${dep.parameter} needs ${dep.tool}.${dep.output}, and ${dep.tool} is not planned before it`,
          ),
        ];
      return [];
    });
  });

/** exclusive_with respected: two mutually exclusive tools never share a plan. */
export const exclusiveWith: PlanRule = (steps, ctx) =>
  steps.flatMap((step, i) =>
    steps.slice(0, i).flatMap((earlier) => {
      const a = ctx.visible.get(step.tool);
      const b = ctx.visible.get(earlier.tool);
      const exclusive = a?.exclusive_with.includes(earlier.tool) || b?.exclusive_with.includes(step.tool);
      return exclusive
        ? [
            v(
              'exclusive_with',
              i,
              step.tool,
              `${step.tool} is exclusive with ${earlier.tool}, planned earlier`,
            ),
          ]
        : [];
    }),
  );

/** Reads before writes/deletes: a read after a write is refused unless it reads what that write produced. */
export const readsBeforeWrites: PlanRule = (steps, ctx) =>
  steps.flatMap((step, i) => {
    const tool = ctx.visible.get(step.tool);
    if (!tool || tool.action !== 'read') return [];
    return steps.slice(0, i).flatMap((earlier, j) => {
      const writer = ctx.visible.get(earlier.tool);
      if (!writer || !WRITES.has(writer.action)) return [];
      const readsItsOutput =
        tool.depends_on.some((d) => d.tool === earlier.tool) ||
        step.input_from.some((f) => f.source === 'step_output' && f.step_index === j);
      return readsItsOutput
        ? []
        : [
            v(
              'reads_before_writes',
              i,
              step.tool,
              `read ${step.tool} comes after ${writer.action} ${earlier.tool}; reads go first`,
            ),
          ];
    });
  });

/** No delete in an automatic chain unless the tool asks for a confirmation bound to the call (EX-2). */
export const deleteConfirmation: PlanRule = (steps, ctx) =>
  steps.flatMap((step, i) => {
    const tool = ctx.visible.get(step.tool);
    if (!tool || tool.action !== 'delete' || !ctx.automatic || tool.requires_confirmation) return [];
    return [
      v(
        'delete_confirmation',
        i,
        step.tool,
        `${step.tool} deletes without requiring confirmation; not allowed in an automatic chain`,
      ),
    ];
  });

/**
 * Intent vs side effect: a write, append or delete step needs an act of the request that asks for it — the act's
 * kind (delete is not create) and, for a change of unnamed kind, its words. A question or lookup admits no write.
 */
export const intentSideEffect: PlanRule = (steps, ctx) => {
  const out: Violation[] = [];
  // The distinct write tools already counted against each kind's asked changes, in plan order.
  const used = new Map<string, string[]>();
  steps.forEach((step, i) => {
    const tool = ctx.visible.get(step.tool);
    if (!tool || !WRITES.has(tool.action)) return;
    if (!ctx.writes.allowed.has(tool.name)) {
      out.push(v('intent_side_effect', i, step.tool, ctx.writes.unasked(tool)));
      return;
    }
    const asked = ctx.writes.asked;
    if (!asked) return;
    const kind = asked.kindOf(tool);
    // Only a named kind is counted: a change of unnamed kind ("I want …") names no number of tools.
    const limit = kind === 'act' ? undefined : asked.counts.get(kind);
    if (limit === undefined) return;
    const tools = used.get(kind) ?? [];
    if (!tools.includes(tool.name) && tools.length >= limit) {
      out.push(
        v(
          'intent_side_effect',
          i,
          step.tool,
          `the request asks for ${String(limit)} ${kind}${limit === 1 ? '' : 's'}, which ${tools.join(', ')} already ${tools.length === 1 ? 'does' : 'do'}; ${tool.name} would ${kind} again`,
        ),
      );
      return;
    }
    if (!tools.includes(tool.name)) used.set(kind, [...tools, tool.name]);
  });
  return out;
};

/** Preconditions satisfiable: a URL from the user or an earlier step; a prior call; verified (source) inputs. */
export const preconditions: PlanRule = (steps, ctx) =>
  steps.flatMap((step, i) => {
    const tool = ctx.visible.get(step.tool);
    if (!tool) return [];
    const earlier = steps.slice(0, i).map((s) => ctx.visible.get(s.tool));
    return tool.preconditions.flatMap((pre) => {
      switch (pre.kind) {
        case 'needs_url': {
          const fromUser = URL_PATTERN.test(ctx.requestText);
          const given = step.arguments?.[pre.parameter];
          const fromArgs =
            typeof given === 'string' && URL_PATTERN.test(given) && ctx.requestText.includes(given);
          const producer = tool.depends_on.find((d) => d.parameter === pre.parameter)?.tool;
          const fromStep =
            step.input_from.some((f) => f.parameter === pre.parameter && f.source === 'step_output') ||
            (producer !== undefined && steps.slice(0, i).some((s) => s.tool === producer)) ||
            earlier.some((t) => t?.evidence === 'lead');
          if (fromUser || fromArgs || fromStep) return [];
          return [
            v(
              'preconditions',
              i,
              step.tool,
              REFERS_TO_LINK.test(ctx.requestText)
                ? `the request points at a link it does not include: which URL should ${step.tool} read (${pre.parameter})?`
                : `${step.tool}.${pre.parameter} needs a URL from the user or an earlier search step; there is none`,
            ),
          ];
        }
        case 'needs_prior_call': {
          const ok =
            steps.slice(0, i).some((s) => s.tool === pre.tool) ||
            ctx.history.some((h) => h.ok && h.tool === pre.tool);
          return ok
            ? []
            : [v('preconditions', i, step.tool, `${step.tool} needs ${pre.tool} to have run first`)];
        }
        case 'needs_verified_inputs': {
          const ok =
            ctx.givenFigures === true ||
            earlier.some((t) => t?.evidence === 'source') ||
            ctx.history.some((h) => h.ok && ctx.visible.get(h.tool)?.evidence === 'source');
          return ok
            ? []
            : [
                v(
                  'preconditions',
                  i,
                  step.tool,
                  `${step.tool} needs verified inputs (${pre.parameters.join(', ')}) from a source-level step first`,
                ),
              ];
        }
        case 'custom':
          return [];
      }
    });
  });

/** Normalises a URL for duplicate detection: scheme, `www.`, default ports, fragment, trailing slash, query order. */
export function normaliseUrl(raw: string): string {
  try {
    const url = new URL(raw.trim());
    const params = [...url.searchParams.entries()]
      .filter(([k]) => !/^utm_/i.test(k))
      .sort(([a], [b]) => a.localeCompare(b));
    const query = params.map(([k, val]) => `${k}=${val}`).join('&');
    const host = url.hostname.toLowerCase().replace(/^www\./, '');
    const path = url.pathname.replace(/\/+$/, '') || '';
    return `${host}${path}${query ? `?${query}` : ''}`;
  } catch {
    return raw.trim().toLowerCase();
  }
}

/** Normalises an argument value: URLs as above; strings lower-cased, punctuation dropped, words sorted. */
export function normaliseArgument(value: unknown): unknown {
  if (typeof value === 'string') {
    if (/^\s*https?:\/\//i.test(value)) return normaliseUrl(value);
    return value
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .sort()
      .join(' ');
  }
  if (Array.isArray(value)) return value.map(normaliseArgument);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, val]) => [k, normaliseArgument(val)]),
    );
  return value;
}

function signature(
  tool: string,
  args: Record<string, unknown> | undefined,
  inputs: readonly InputFrom[],
): string {
  const body =
    args !== undefined
      ? normaliseArgument(args)
      : // (a parameter read from other words of the request is another call: `text`)
        [...inputs]
          .map((f) => `${f.parameter}<${f.source}:${String(f.step_index)}:${f.path ?? ''}:${f.text ?? ''}`)
          .sort();
  return `${tool}\u0000${JSON.stringify(body)}`;
}

/**
 * Two steps of one tool whose own words (`texts`, the part of the request each takes) mean the same under the
 * semantic model and name the same values: the same search asked twice in other words.
 */
function nearDuplicate(a: DraftStep, b: DraftStep, ctx: ValidationContext): boolean {
  if (a.tool !== b.tool || !a.texts || !b.texts || !ctx.textSimilarity) return false;
  const keys = Object.keys(b.texts);
  if (keys.length === 0) return false;
  return keys.every((k) => {
    const x = a.texts?.[k];
    const y = b.texts?.[k];
    if (x === undefined || y === undefined) return false;
    if (x === y) return true;
    const cos = ctx.textSimilarity?.(x, y);
    return cos !== undefined && cos >= NEAR_DUPLICATE_COSINE && valuesOf(x) === valuesOf(y);
  });
}

/**
 * Exact and near-duplicate steps (normalised arguments and URLs; with the semantic model also the same words in other
 * phrasing, see `nearDuplicate`) are refused unless a reason applies: the earlier
 * call failed, or the task needs fresh data. Compared with earlier steps of the plan and with executed history.
 */
export const duplicateStep: PlanRule = (steps, ctx) =>
  steps.flatMap((step, i) => {
    const own = signature(step.tool, step.arguments, step.input_from);
    const exact = steps.slice(0, i).findIndex((s) => signature(s.tool, s.arguments, s.input_from) === own);
    const near = exact === -1 ? steps.slice(0, i).findIndex((s) => nearDuplicate(s, step, ctx)) : -1;
    const planned = exact !== -1 ? exact : near;
    const executed =
      step.arguments === undefined
        ? undefined
        : ctx.history.find((h) => signature(h.tool, h.arguments, []) === own);
    if (planned === -1 && executed === undefined) return [];
    const excused =
      (step.repeat_reason === 'earlier_failure' && executed !== undefined && !executed.ok) ||
      (step.repeat_reason === 'freshness' && ctx.needsFreshData);
    if (excused) return [];
    const what = planned !== -1 ? `step ${String(planned)}` : 'a call already executed in this task';
    return [
      v(
        'duplicate_step',
        i,
        step.tool,
        near !== -1 && exact === -1
          ? `${step.tool} repeats ${what} in other words (the same meaning and values)`
          : `${step.tool} repeats ${what} with the same (normalised) arguments`,
      ),
    ];
  });

/** No cycles: `input_from` only points at earlier steps, and planned tools do not depend on each other in a loop. */
export const noCycles: PlanRule = (steps, ctx) => {
  const out: Violation[] = [];
  steps.forEach((step, i) => {
    for (const f of step.input_from) {
      if (f.source === 'step_output' && (f.step_index === null || f.step_index >= i || f.step_index < 0))
        out.push(
          v(
            'no_cycles',
            i,
            step.tool,
            `${step.tool}.${f.parameter} reads step ${String(f.step_index)}, not an earlier step`,
          ),
        );
    }
  });
  // Dependency cycles among the planned tools (the registry refuses them at load; a proposal may still loop).
  const planned = new Set(steps.map((s) => s.tool));
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, trail: string[]): string[] | null => {
    if (state.get(name) === 'done') return null;
    if (state.get(name) === 'visiting') return [...trail, name];
    state.set(name, 'visiting');
    for (const dep of ctx.visible.get(name)?.depends_on ?? []) {
      if (!planned.has(dep.tool)) continue;
      const cycle = visit(dep.tool, [...trail, name]);
      if (cycle) return cycle;
    }
    state.set(name, 'done');
    return null;
  };
  for (const name of planned) {
    const cycle = visit(name, []);
    if (cycle) {
      const index = steps.findIndex((s) => s.tool === name);
      out.push(v('no_cycles', index, name, `dependency cycle ${cycle.join(' → ')}`));
      break;
    }
  }
  // The same tool reading its own output through a chain of steps is caught above; repeated self-reference too.
  return out;
};

/** Every TD-5 rule, in the order they are reported. */
export const PLAN_RULES: Readonly<Record<PlanRuleId, PlanRule>> = {
  visibility_permission: visibilityPermission,
  depends_on: dependsOn,
  exclusive_with: exclusiveWith,
  reads_before_writes: readsBeforeWrites,
  delete_confirmation: deleteConfirmation,
  intent_side_effect: intentSideEffect,
  preconditions,
  duplicate_step: duplicateStep,
  no_cycles: noCycles,
};

/** Runs every rule; an empty list means the plan is valid. */
export function validatePlan(steps: readonly DraftStep[], ctx: ValidationContext): Violation[] {
  return PLAN_RULE_IDS.flatMap((id) => PLAN_RULES[id](steps, ctx));
}
