// The provider port and the data it speaks. The data types are zod schemas so recorded exchanges read back from
// the event log (EL-7, EL-9) are validated before a replay trusts them.
import { z } from 'zod';

const JsonObject = z.record(z.string(), z.unknown());

/** A tool call as it travels back to the model inside an assistant message of the history. */
export const AssistantToolCall = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  /** The arguments exactly as the model produced them (JSON text). */
  rawArguments: z.string(),
});
export type AssistantToolCall = z.infer<typeof AssistantToolCall>;

/** One message of the conversation sent to the model. */
export const ModelMessage = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({
    role: z.literal('assistant'),
    content: z.string().nullable(),
    toolCalls: z.array(AssistantToolCall).optional(),
  }),
  z.object({ role: z.literal('tool'), toolCallId: z.string().min(1), content: z.string() }),
]);
export type ModelMessage = z.infer<typeof ModelMessage>;

/** A function tool offered to the model (OpenAI function-calling shape). */
export const ModelTool = z.object({
  /** The tool name the model must answer with. */
  name: z.string().min(1),
  /** What the tool does and when to use it; sent to the model verbatim. */
  description: z.string().optional(),
  /** JSON Schema of the arguments object. */
  parameters: JsonObject,
  /** Ask the endpoint for strict schema adherence (OpenAI structured outputs); omitted when undefined. */
  strict: z.boolean().optional(),
});
export type ModelTool = z.infer<typeof ModelTool>;

/** Whether the model may, must or must not call a tool — or must call one named tool. */
export const ToolChoice = z.union([
  z.enum(['auto', 'none', 'required']),
  z.object({ name: z.string().min(1) }),
]);
export type ToolChoice = z.infer<typeof ToolChoice>;

/** Structured output: the model's content must be JSON matching `schema`. */
export const ResponseFormat = z.object({
  /** Name of the format (a-z, A-Z, 0-9, `_`, `-`; at most 64). @default 'response' */
  name: z.string().min(1).max(64).optional(),
  /** JSON Schema the content must match. */
  schema: JsonObject,
  /** Strict schema adherence. @default true */
  strict: z.boolean().optional(),
});
export type ResponseFormat = z.infer<typeof ResponseFormat>;

/** What a stage asks a model. The model itself is chosen by the provider (one provider per model profile). */
export const ModelRequest = z.object({
  messages: z.array(ModelMessage).min(1),
  tools: z.array(ModelTool).optional(),
  toolChoice: ToolChoice.optional(),
  responseFormat: ResponseFormat.optional(),
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.number().int().positive().optional(),
});
export type ModelRequest = z.infer<typeof ModelRequest>;

/**
 * A tool call the model proposed. Arguments that are not a JSON object are reported (`arguments: null` and
 * `argumentsError`), never silently dropped: the raw text stays in `rawArguments` for the decision log.
 */
export const ToolCall = z.object({
  id: z.string(),
  name: z.string(),
  /** The parsed arguments object; null when `rawArguments` is not a JSON object. */
  arguments: JsonObject.nullable(),
  /** The arguments exactly as the model produced them. */
  rawArguments: z.string(),
  /** Why `rawArguments` could not be parsed; null when they could. */
  argumentsError: z.string().nullable(),
});
export type ToolCall = z.infer<typeof ToolCall>;

/** Token counts of one completion. */
export const ModelUsage = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
});
export type ModelUsage = z.infer<typeof ModelUsage>;

/** What the model answered. */
export const ModelResponse = z.object({
  /** The text content (JSON text under a `responseFormat`); null when the model only called tools. */
  content: z.string().nullable(),
  toolCalls: z.array(ToolCall),
  usage: ModelUsage,
  /** The model that answered, as the endpoint reports it. */
  model: z.string(),
  /** `stop`, `length`, `tool_calls`, `content_filter`, or whatever else the endpoint reports. */
  finishReason: z.string(),
});
export type ModelResponse = z.infer<typeof ModelResponse>;

/** The port every stage uses to ask a model (IF-4). One provider serves one model profile. */
export interface ModelProvider {
  /** Sends one request; rejects with a `ProviderError` whose `retriable` says whether to try again. */
  complete(request: ModelRequest): Promise<ModelResponse>;
}
