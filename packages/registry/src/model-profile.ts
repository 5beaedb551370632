import { z } from 'zod';
import { Identifier } from './tool-definition.js';

/** MS-2 task labels the analyser emits and profiles and policies refer to. */
export const TaskLabel = z.enum([
  'extraction',
  'classification',
  'summarization',
  'multi_step_reasoning',
  'tool_use',
  'long_document',
  'vision',
  'calculation',
  'conversation',
]);
export type TaskLabel = z.infer<typeof TaskLabel>;

/** What a model can do, checked by the hard filters of the model selector (MS-3). */
export const ModelCapability = z.enum([
  'text_generation',
  'function_calling',
  'json_output',
  'vision',
  'long_context',
  'reasoning',
  'streaming',
]);
export type ModelCapability = z.infer<typeof ModelCapability>;

/** How a profile's model is reached (IF-4). Secrets are named by environment variable, never written here. */
export const ProviderEndpoint = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('openai_compatible'),
    /** The model name sent to the endpoint. */
    model: z.string().min(1),
    base_url_env: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]*$/)
      .default('SIGNALBOX_LLM_BASE_URL'),
    api_key_env: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]*$/)
      .default('SIGNALBOX_LLM_API_KEY'),
  }),
  z.strictObject({
    /** The deterministic path: no model is called (the default when no provider is configured). */
    kind: z.literal('deterministic'),
  }),
]);
export type ProviderEndpoint = z.infer<typeof ProviderEndpoint>;

/** A model profile (MS-4): what the selector knows about one model. */
export const ModelProfile = z.strictObject({
  id: Identifier,
  description: z.string().min(1).optional(),
  provider: ProviderEndpoint,
  capabilities: z.array(ModelCapability).min(1),
  modalities: z.array(z.enum(['text', 'image', 'audio'])).default(['text']),
  max_context: z.number().int().positive(),
  /** Cost in the tenant's billing currency per 1,000 tokens. */
  cost_per_1k_tokens: z.strictObject({ input: z.number().min(0), output: z.number().min(0) }),
  latency_class: z.enum(['low', 'medium', 'high']),
  strengths: z.array(z.string().min(1)).default([]),
  weaknesses: z.array(z.string().min(1)).default([]),
  recommended_for: z.array(TaskLabel).default([]),
  not_recommended_for: z.array(TaskLabel).default([]),
  /** Regions where data sent to this model is processed (MS-3 data policy filter). */
  regions: z.array(z.string().min(1)).default([]),
  /** True when the provider may retain prompts (tenants with a no-retention policy reject it). */
  retains_data: z.boolean().default(false),
});
/** A validated model profile. */
export type ModelProfile = z.infer<typeof ModelProfile>;
