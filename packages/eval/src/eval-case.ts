// The shapes the checker works on: evaluation cases (request, offered functions, expected calls) and predictions.
// BFCL lines are mapped onto these; seed boundary cases and exported traces (EVAL-2, EVAL-3) use them directly.
import { z } from 'zod';

/** One parameter of a function doc. Types use BFCL's names (`dict`, `float`, `tuple`, `any`, `String`…). */
export const ParameterDoc = z.looseObject({
  type: z.string().optional(),
  description: z.string().optional(),
  /** Element schema of an `array` / `tuple` parameter. */
  items: z.looseObject({ type: z.string().optional() }).optional(),
});
export type ParameterDoc = z.infer<typeof ParameterDoc>;

/** A function offered to the model, as BFCL documents it. */
export const FunctionDoc = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  parameters: z.looseObject({
    type: z.string().optional(),
    properties: z.record(z.string(), ParameterDoc).default({}),
    required: z.array(z.string()).default([]),
  }),
});
export type FunctionDoc = z.infer<typeof FunctionDoc>;

/**
 * One expected call: the function name and, per parameter, the acceptable values. An empty string `""` among them
 * means the parameter may be omitted. A plain object among them is a nested pattern of the same form
 * (`{ key: [acceptable values…] }`), as BFCL writes dict parameters.
 */
export const ExpectedCall = z.object({
  name: z.string().min(1),
  params: z.record(z.string(), z.array(z.unknown())),
});
export type ExpectedCall = z.infer<typeof ExpectedCall>;

/** One turn message of the request. */
export const CaseMessage = z.object({ role: z.string(), content: z.string() });
export type CaseMessage = z.infer<typeof CaseMessage>;

/**
 * What makes a case right: `calls` — the calls in `expected`, no more and no fewer (`expected: []` = call nothing,
 * irrelevance); `any_call` — at least one call of any offered function, whatever its arguments (BFCL's relevance
 * category, which has no gold answer; `expected` is then empty and ignored).
 */
export const CaseExpectation = z.enum(['calls', 'any_call']);
export type CaseExpectation = z.infer<typeof CaseExpectation>;

/** One evaluation case. `expected: []` means the right answer is to call nothing (irrelevance). */
export const EvalCase = z.object({
  id: z.string().min(1),
  /** The report groups by this: a BFCL set name (`simple_python`, `parallel`…) or a seed scenario name. */
  category: z.string().min(1),
  /** Language of the function docs; only changes the type names accepted. */
  language: z.enum(['python', 'javascript']),
  /** The request as turns of messages (BFCL: one turn, one user message). */
  question: z.array(z.array(CaseMessage)),
  functions: z.array(FunctionDoc),
  expected: z.array(ExpectedCall),
  /** @default 'calls' */
  expect: CaseExpectation.optional(),
});
export type EvalCase = z.infer<typeof EvalCase>;

/**
 * A call the system under evaluation produced (decider + injector). `arguments: null` stands for arguments that
 * could not be parsed (a provider's `argumentsError`); it fails as `invalid_arguments`.
 */
export interface PredictedCall {
  name: string;
  arguments: Record<string, unknown> | null;
}
