// The model exchanges of a decision (EL-7, EL-9) between their stored rows and what reads return.
import type { ModelExchange, ModelExchangeError } from '../event-store.js';
import { redactSecretValues, type EventSecret } from '../secrets.js';

/** A `model_exchanges` row as the read statements (and the archive) aggregate it: JSON values as JSON texts. */
export interface StoredExchangeRow {
  seq: number;
  profile_id: string;
  /** Null, with `response` and the tokens, when the call failed (migration 0006). */
  model: string | null;
  request_hash: string;
  request: string;
  response: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  latency_ms: number;
  /** The failure's JSON text; null when the call was answered. */
  error: string | null;
}

/** A stored `model_exchanges` row as a {@link ModelExchange}: answered, or failed (no `error` key when answered). */
export function toModelExchange(x: StoredExchangeRow): ModelExchange {
  const common = {
    profile_id: x.profile_id,
    request_hash: x.request_hash,
    request: JSON.parse(x.request) as unknown,
  };
  if (x.error !== null) {
    return {
      ...common,
      model: null,
      response: null,
      input_tokens: null,
      output_tokens: null,
      latency_ms: x.latency_ms,
      error: JSON.parse(x.error) as ModelExchangeError,
    };
  }
  return {
    ...common,
    model: x.model ?? '',
    response: JSON.parse(x.response ?? 'null') as unknown,
    input_tokens: x.input_tokens ?? 0,
    output_tokens: x.output_tokens ?? 0,
    latency_ms: x.latency_ms,
  };
}

/**
 * An exchange as operators read it (PI-5): the event's secret values redacted wherever they occur in the request,
 * the response and a failure's message (an endpoint's error may quote the prompt).
 */
export function redactExchange(x: ModelExchange, secrets: readonly EventSecret[]): ModelExchange {
  const request = redactSecretValues(x.request, secrets);
  if (x.error !== undefined) {
    return { ...x, request, error: { ...x.error, message: redactSecretValues(x.error.message, secrets) } };
  }
  return { ...x, request, response: redactSecretValues(x.response, secrets) };
}
