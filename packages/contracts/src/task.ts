import { z } from 'zod';

/** Any JSON value (tool arguments and outputs). Recursive; see `jsonParser` for values already known to be JSON. */
export const Json = z.json();

/** A conversation turn given as context (MS-1). */
export const ContextMessage = z.object({
  role: z.enum(['user', 'assistant', 'system', 'tool']),
  content: z.string().max(100_000),
});
export type ContextMessage = z.infer<typeof ContextMessage>;

/** Metadata of an attachment; the bytes never travel on the bus. */
export const AttachmentMeta = z.object({
  name: z.string().min(1).max(512),
  media_type: z.string().min(1).max(255),
  size_bytes: z.number().int().min(0),
  ref: z.string().max(1024).nullable(),
});
export type AttachmentMeta = z.infer<typeof AttachmentMeta>;

/**
 * IF-1 (contract v5): one tool call an agent proposes instead of a request to plan (an MCP host's `tools/call`). The
 * tool decider resolves the name (TD-3) and validates the one-step plan (TD-5) — the intent against `conversation`
 * when the host passed one — and the parameter injector validates and coerces `arguments` (PI); nothing else of the
 * pipeline changes.
 */
export const ProposedCall = z.object({
  /** The tool name as the agent sent it; resolved to a visible tool or refused (TD-3). */
  tool: z.string().min(1).max(128),
  /** The arguments as the agent sent them, before validation and coercion. */
  arguments: z.record(z.string(), Json),
  /**
   * The conversation text the host passed with the call (the user's words the call serves), which the decider reads
   * the asked acts from (TD-5 intent vs side effect); null when the host passed none.
   */
  conversation: z.string().max(100_000).nullable(),
});
export type ProposedCall = z.infer<typeof ProposedCall>;

/** MS-1: the task as submitted. Travels with every message of the task (FL-5: stages keep no per-task state). */
export const TaskSpec = z.object({
  request: z.string().min(1).max(100_000),
  context: z.array(ContextMessage).max(200),
  locale: z.string().min(2).max(35),
  time_zone: z.string().min(1).max(64),
  /** "now" for relative dates, ISO-8601 with offset. */
  reference_time: z.iso.datetime({ offset: true }),
  cost_ceiling_usd: z.number().min(0).nullable(),
  required_modalities: z.array(z.enum(['text', 'image', 'audio', 'file'])).max(4),
  attachments: z.array(AttachmentMeta).max(50),
  /** A scenario hint from the caller; the decider's router decides when null. */
  scenario: z.string().max(128).nullable(),
  /** The caller needs fresh data (bypasses read caches, EX-6). */
  needs_fresh_data: z.boolean(),
  /** Set when this task re-drives a recorded one (EL-8). */
  redrive_of: z.string().max(128).nullable(),
  /** Contract v5: the call an agent proposed (MCP `tools/call`); absent or null for a request the decider plans. */
  proposed_call: ProposedCall.nullable().optional(),
});
export type TaskSpec = z.infer<typeof TaskSpec>;

/** A rejected candidate (model profile or tool) with its reason. */
export const Rejection = z.object({
  candidate: z.string().min(1).max(256),
  reason: z.string().min(1).max(2000),
});
export type Rejection = z.infer<typeof Rejection>;

/** MS-7: what the model selector chose. */
export const ModelSelection = z.object({
  primary: z.string().min(1).max(128),
  fallbacks: z.array(z.string().min(1).max(128)).max(20),
  labels: z.array(z.string().min(1).max(64)).max(20),
  token_estimate: z.number().int().min(0),
  estimated_cost_usd: z.number().min(0),
  rejected: z.array(Rejection).max(100),
  /** 0 for the policy's first choice; +1 per degradation (MS-6). */
  degrade_level: z.number().int().min(0),
});
export type ModelSelection = z.infer<typeof ModelSelection>;

/**
 * Where one argument of a step comes from (TD-4 `input_from`). Several `step_output` entries for one list parameter (one look-up
 * per recipient a send lists) give the list of all their values together, in order, each once.
 */
export const InputFrom = z.object({
  parameter: z.string().min(1).max(128),
  source: z.enum(['user_text', 'context', 'step_output', 'default']),
  /** For `step_output`: the index of the earlier step and a JSON path into its output. */
  step_index: z.number().int().min(0).nullable(),
  path: z.string().max(512).nullable(),
  /**
   * For `user_text` (contract v2): the words of the request this parameter takes when the request asks for several
   * things of one kind ("search for X and also look up Y": one search step per phrase). Absent: the whole request.
   */
  text: z.string().min(1).max(2000).optional(),
});
export type InputFrom = z.infer<typeof InputFrom>;

/** TD-4: one step of a plan. */
export const PlanStep = z.object({
  index: z.number().int().min(0),
  tool: z.string().min(1).max(128),
  /** RG-3: the definition hash of the tool as decided, so a silently changed definition is noticed. */
  tool_definition_hash: z.string().min(1).max(128),
  purpose: z.string().min(1).max(2000),
  input_from: z.array(InputFrom).max(50),
  expected_evidence: z.enum(['lead', 'source', 'derived', 'action_receipt']),
  fallback_tool: z.string().min(1).max(128).nullable(),
});
export type PlanStep = z.infer<typeof PlanStep>;

/** TD-5 (contract v4): the kinds of act a request may ask for. `act`: a change asked for by a verb of no kind of its own. */
export const AskedActKind = z.enum([
  'look_up',
  'create',
  'update',
  'cancel',
  'delete',
  'send',
  'compute',
  'produce',
  'act',
]);
export type AskedActKind = z.infer<typeof AskedActKind>;

/** TD-5 (contract v4): one act the request asks for, and the step that serves it. */
export const AskedAct = z.object({
  kind: AskedActKind,
  /** What the act is done to, in the request's words. */
  object: z.string().max(500),
  /** The words that asked for it. */
  phrase: z.string().max(1000),
  /** The plan step that serves it, or null when no visible tool can (`unserved` says why). */
  step_index: z.number().int().min(0).nullable(),
  unserved: z.string().max(1000).nullable(),
});
export type AskedAct = z.infer<typeof AskedAct>;

/** TD-8: the decider's plan. Zero steps means "answer directly or ask" (TD-6). */
export const Plan = z.object({
  scene: z.string().max(128).nullable(),
  steps: z.array(PlanStep).max(50),
  visible_tools: z.array(z.string().min(1).max(128)).max(200),
  candidate_scores: z.array(z.object({ tool: z.string().min(1).max(128), score: z.number() })).max(200),
  rejected: z.array(Rejection).max(200),
  /**
   * TD-2 (contract v2): the sentence-embedding model the candidates were ranked with — its catalog id and the sha256
   * of its model file, so re-decide and replay know what decided — or nulls when the decider ran without one (the
   * operator's SIGNALBOX_EMBEDDINGS=off). Absent on plans recorded before the model existed.
   */
  semantic_model: z
    .object({ model: z.string().min(1).max(128).nullable(), sha256: z.string().max(64).nullable() })
    .optional(),
  /**
   * TD-5 (contract v4): the acts the decider read in the request, each with the step that serves it. The evaluator
   * finishes a task `success` only when every act's step succeeded. Absent on plans recorded before v4.
   */
  asked_acts: z.array(AskedAct).max(50).optional(),
});
export type Plan = z.infer<typeof Plan>;

/** PI-6: how an argument got its value. */
export const ArgumentProvenance = z.enum([
  'user_text',
  'context',
  'default',
  'coerced',
  'step_output',
  'model',
]);
export type ArgumentProvenance = z.infer<typeof ArgumentProvenance>;

/** PI-6: the injector's prepared call for one step. */
export const PreparedCall = z.object({
  step_index: z.number().int().min(0),
  tool: z.string().min(1).max(128),
  arguments: z.record(z.string(), Json),
  provenance: z.record(z.string(), ArgumentProvenance),
  validation_log: z.array(z.string().max(2000)).max(100),
});
export type PreparedCall = z.infer<typeof PreparedCall>;

/** EX-5: error classes of a failed call. */
export const ErrorClass = z.enum([
  'parameter',
  'transient',
  'permission',
  'empty',
  'rate_limited',
  'capability_mismatch',
  'unknown_tool',
  'internal',
]);
export type ErrorClass = z.infer<typeof ErrorClass>;

/** EX-7: what one execution produced. Large outputs travel by reference (EL-3). */
export const StepResult = z.object({
  step_index: z.number().int().min(0),
  tool: z.string().min(1).max(128),
  ok: z.boolean(),
  output: Json.nullable(),
  /** Claim-check reference when the output was too large to travel inline. */
  output_ref: z.string().max(512).nullable(),
  output_kind: z.enum(['lead', 'source', 'derived', 'action_receipt', 'failure']),
  error_class: ErrorClass.nullable(),
  error_message: z.string().max(4000).nullable(),
  duration_ms: z.number().min(0),
  attempts: z.number().int().min(0),
  cache_hit: z.boolean(),
  fetched_at: z.iso.datetime({ offset: true }).nullable(),
  idempotency_key: z.string().max(128).nullable(),
});
export type StepResult = z.infer<typeof StepResult>;

/** EV-2: the evaluator's verdict on a step or task. */
export const EvaluationStatus = z.enum(['success', 'partial_success', 'failed', 'need_clarification']);
export type EvaluationStatus = z.infer<typeof EvaluationStatus>;

/** One finished step as it travels on with the task: call, result and verdict. */
export const StepRecord = z.object({
  call: PreparedCall,
  result: StepResult,
  status: EvaluationStatus,
  issues: z.array(z.string().max(2000)).max(50),
});
export type StepRecord = z.infer<typeof StepRecord>;

/** FL-6: counters the ceilings are checked against; they travel with the task. */
export const Progress = z.object({
  revisions: z.number().int().min(0),
  replans: z.number().int().min(0),
  /**
   * Contract v6: the re-injections of the task (a step sent back to the parameter injector to fix its arguments,
   * PI-4), counted by the result evaluator as it sends one, and the only count its re-injection ceiling compares
   * with (`revisions` also rises with re-plans, degradations and the injector's own re-asks). Absent until the first
   * re-injection and on tasks recorded before v6: absent is 0.
   */
  reinjections: z.number().int().min(0).optional(),
  degradations: z.number().int().min(0),
  steps_executed: z.number().int().min(0),
  cost_usd: z.number().min(0),
  started_at: z.iso.datetime({ offset: true }),
});
export type Progress = z.infer<typeof Progress>;

/** Why a feedback message (re-plan, re-inject, degrade) was sent. */
export const Feedback = z.object({
  reason: z.string().min(1).max(4000),
  issues: z.array(z.string().max(2000)).max(50),
  failed_tool: z.string().max(128).nullable(),
  error_class: ErrorClass.nullable(),
  /** Tools the next plan must not use (TD-7). */
  excluded_tools: z.array(z.string().max(128)).max(100),
  /** Fields the injector must fix (PI-4). */
  fields: z.array(z.string().max(256)).max(50),
});
export type Feedback = z.infer<typeof Feedback>;
