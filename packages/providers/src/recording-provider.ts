// Recording and replay of model exchanges (EL-7, EL-9): a stage records every (request, response) pair next to its
// decision; re-decide and the frozen-corpus tests replay them so a decision function runs on exactly the answers it
// got in production and never reaches a live model.
import { z } from 'zod';
import { hashModelRequest } from './canonical-json.js';
import { InvalidModelRequestError, UnrecordedRequestError } from './errors.js';
import { RecordedModelError, modelErrorFromRecord } from './model-error-record.js';
import { ModelRequest, ModelResponse, type ModelProvider } from './model-types.js';

/** One recorded call: the request, its stable hash and what the model answered. */
export const RecordedExchange = z.object({
  /** sha256 of the canonical JSON of `request`. */
  requestHash: z.string().regex(/^[0-9a-f]{64}$/),
  request: ModelRequest,
  response: ModelResponse,
});
export type RecordedExchange = z.infer<typeof RecordedExchange>;

/** One recorded call that failed: the request, its stable hash and the error it rejected with (as data). */
export const RecordedFailure = z.object({
  /** sha256 of the canonical JSON of `request`. */
  requestHash: z.string().regex(/^[0-9a-f]{64}$/),
  request: ModelRequest,
  error: RecordedModelError,
});
export type RecordedFailure = z.infer<typeof RecordedFailure>;

/** A model response together with the hash of the request it answers. */
export type RecordedResponse = ModelResponse & { requestHash: string };

/** A provider whose answers carry their `requestHash` (a `ModelProvider` still: the hash is an extra field). */
export interface HashingProvider extends ModelProvider {
  complete(request: ModelRequest): Promise<RecordedResponse>;
}

/** A provider that records every successful exchange of the provider it wraps. */
export interface RecordingProvider extends HashingProvider {
  /** The exchanges recorded so far, oldest first (copies: mutating them changes nothing here). */
  exchanges(): RecordedExchange[];
}

/** A provider that answers only from recorded exchanges. */
export interface ReplayProvider extends HashingProvider {
  /** How many calls were answered so far (a recorded failure replayed counts: it was answered as recorded). */
  readonly callCount: number;
}

/**
 * Wraps `inner` so that each response comes back with its `requestHash` and each exchange is kept. Failed calls are
 * not recorded (nothing was answered); the error passes through unchanged.
 */
export function createRecordingProvider(inner: ModelProvider): RecordingProvider {
  const recorded: RecordedExchange[] = [];
  return {
    async complete(request) {
      const requestHash = hashModelRequest(request);
      const snapshot = structuredClone(request);
      const response = await inner.complete(request);
      recorded.push({ requestHash, request: snapshot, response: structuredClone(response) });
      return { ...response, requestHash };
    },
    exchanges() {
      return structuredClone(recorded);
    },
  };
}

/**
 * Creates a provider that answers from `recorded` by request hash and throws `UnrecordedRequestError` for any other
 * request. A recorded failure is answered by rejecting with the error it recorded (`modelErrorFromRecord`: same
 * class where it can be rebuilt, same message), so a decision that fell back then falls back again. When one request
 * was recorded several times (a stage asked the same thing twice, or again after a failure), the outcomes are given
 * in recorded order and the last one is repeated after that — an identical request gets its recorded outcome.
 * The exchanges are validated (zod) and their hashes recomputed at construction; a mismatch throws there.
 */
export function createReplayProvider(
  recorded: readonly (RecordedExchange | RecordedFailure)[],
): ReplayProvider {
  const byHash = new Map<string, (RecordedExchange | RecordedFailure)[]>();
  recorded.forEach((exchange, index) => {
    // Checked against the one schema it claims to follow, so a malformed corpus is told what is wrong where.
    const value: unknown = exchange;
    const isFailure = typeof value === 'object' && value !== null && 'error' in value;
    const parsed = (isFailure ? RecordedFailure : RecordedExchange).safeParse(exchange);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InvalidModelRequestError(
        `recorded exchange #${index}: invalid at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? ''}`,
      );
    }
    const actual = hashModelRequest(parsed.data.request);
    if (actual !== parsed.data.requestHash) {
      throw new InvalidModelRequestError(
        `recorded exchange #${index}: requestHash ${parsed.data.requestHash} does not match its request (${actual})`,
      );
    }
    const outcomes = byHash.get(actual) ?? [];
    outcomes.push(parsed.data);
    byHash.set(actual, outcomes);
  });
  const served = new Map<string, number>();
  let callCount = 0;
  return {
    get callCount() {
      return callCount;
    },
    complete(request) {
      const requestHash = hashModelRequest(request);
      const outcomes = byHash.get(requestHash) ?? [];
      const index = served.get(requestHash) ?? 0;
      const outcome = outcomes[Math.min(index, outcomes.length - 1)];
      if (outcome === undefined) {
        return Promise.reject(new UnrecordedRequestError(requestHash, { known: byHash.size }));
      }
      served.set(requestHash, index + 1);
      callCount += 1;
      if ('error' in outcome) return Promise.reject(modelErrorFromRecord(outcome.error));
      return Promise.resolve({ ...structuredClone(outcome.response), requestHash });
    },
  };
}
