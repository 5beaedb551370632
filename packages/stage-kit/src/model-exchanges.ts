// The model side of EL-7 / EL-9. A decision function asks a model only through `DecisionContext.models`, so whoever
// builds the context decides what answers: the runtime hands out the stage's live providers wrapped to record every
// exchange, which it appends with the decision; re-decide and replay hand out providers that answer only from those
// recorded exchanges. The decision function cannot tell the difference, which is what makes it replayable.
import type { ModelExchange } from '@signalbox/event-log';
import {
  UnrecordedRequestError,
  createReplayProvider,
  hashModelRequest,
  recordModelError,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
  type RecordedExchange,
  type RecordedFailure,
} from '@signalbox/providers';

/**
 * The model of a model profile (IF-4), or undefined when none is configured for it — the decision then takes its
 * deterministic path.
 */
export type ModelLookup = (profileId: string) => ModelProvider | undefined;

/** The models of one decision attempt, and the exchanges they had. */
export interface ExchangeRecorder {
  /** The stage's models, each wrapped to record its exchanges; the same wrapper per profile. */
  readonly models: ModelLookup;
  /**
   * The finished exchanges so far, in the order they were asked — answered ones and failed ones (with the error,
   * without response, model or tokens), since a decision may rest on a failure as much as on an answer.
   */
  exchanges(): ModelExchange[];
}

/**
 * Wraps `models` for one decision attempt, recording request, profile and latency of every call, and its response,
 * model and tokens when answered or its error (`recordModelError`) when it failed; the error is rethrown unchanged.
 */
export function recordExchanges(
  models: ModelLookup,
  clock: () => number = () => performance.now(),
): ExchangeRecorder {
  // Slots are taken when a call starts, so concurrent calls keep the order they were asked in.
  const slots: (ModelExchange | undefined)[] = [];
  const wrapped = new Map<string, ModelProvider | undefined>();
  return {
    models(profileId) {
      if (wrapped.has(profileId)) return wrapped.get(profileId);
      const inner = models(profileId);
      const provider: ModelProvider | undefined = inner && {
        async complete(request) {
          const slot = slots.push(undefined) - 1;
          // What the event log keeps is JSON: the request as it serializes (undefined members dropped), hashed the
          // way a replay will look it up.
          const asked = JSON.parse(JSON.stringify(request)) as ModelRequest;
          const started = clock();
          const request_hash = hashModelRequest(asked);
          let response: ModelResponse;
          try {
            response = await inner.complete(request);
          } catch (error) {
            // EL-9: the decision sees this failure (it may fall back on it), so a replay must show it the same one.
            slots[slot] = {
              profile_id: profileId,
              model: null,
              request_hash,
              request: asked,
              response: null,
              input_tokens: null,
              output_tokens: null,
              latency_ms: Math.max(0, clock() - started),
              error: recordModelError(error),
            };
            throw error;
          }
          slots[slot] = {
            profile_id: profileId,
            model: response.model,
            request_hash,
            request: asked,
            response: JSON.parse(JSON.stringify(response)) as unknown,
            input_tokens: response.usage.inputTokens,
            output_tokens: response.usage.outputTokens,
            latency_ms: Math.max(0, clock() - started),
          };
          return response;
        },
      };
      wrapped.set(profileId, provider);
      return provider;
    },
    exchanges: () => slots.filter((x): x is ModelExchange => x !== undefined),
  };
}

/**
 * `models` with at most `limit` calls in flight at once across all of them (IF-4): a worker decides many inputs at
 * once (`STAGE_CONCURRENCY` × `PARTITIONS_CONCURRENTLY`), and its model calls should not follow that number up to the
 * provider's rate limits. Calls beyond the limit wait their turn, first come first served; a call that fails frees its
 * slot like one that answers. The same wrapper per profile.
 */
export function limitModelCalls(models: ModelLookup, limit: number): ModelLookup {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`the model call limit must be a positive integer, got ${String(limit)}`);
  }
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const acquire = async (): Promise<void> => {
    if (inFlight < limit) {
      inFlight++;
      return;
    }
    // The slot is handed over by release(): inFlight stays as it is.
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else inFlight--;
  };
  const wrapped = new Map<string, ModelProvider | undefined>();
  return (profileId) => {
    if (wrapped.has(profileId)) return wrapped.get(profileId);
    const inner = models(profileId);
    const provider: ModelProvider | undefined = inner && {
      async complete(request) {
        await acquire();
        try {
          return await inner.complete(request);
        } finally {
          release();
        }
      },
    };
    wrapped.set(profileId, provider);
    return provider;
  };
}

/** A request the replay could not answer from the recorded exchanges. */
export interface UnrecordedModelCall {
  profile_id: string;
  /** sha256 of the request's canonical JSON. */
  request_hash: string;
  /** Whether it was then asked of the live model (only with `live`). */
  asked_live: boolean;
}

/** Options of {@link replayExchanges}. */
export interface ReplayExchangesOptions {
  /**
   * Profiles that have a model configured now, besides those with recorded exchanges: a decision that asks one of
   * them something not recorded learns so (`UnrecordedRequestError`), instead of quietly taking the deterministic
   * path it would not take in production. A profile in neither stays deterministic, as when it was recorded.
   * @default none
   */
  configured?: Iterable<string>;
  /**
   * Live models to ask what was not recorded (an explicit choice: re-decide never reaches a live model otherwise).
   * Their profiles count as configured.
   * @default none
   */
  live?: ModelLookup;
}

/** The models of one replayed decision. */
export interface ExchangeReplay {
  readonly models: ModelLookup;
  /** The requests no recorded exchange answered, in the order they were asked. */
  unrecorded(): UnrecordedModelCall[];
  /** How many calls were answered from the recording (a recorded failure, replayed as that failure, counts). */
  readonly replayed: number;
}

/**
 * Models that answer a re-taken decision from the exchanges `recorded` with it (EL-7, EL-9): a request is answered
 * by the recorded response to the same request (same canonical hash) of the same profile — or, when that call
 * failed, rejected with an error equivalent to the recorded one (same class where the providers package can rebuild
 * it, same message, same `retriable`), so the decision takes the path it took; a request never recorded
 * rejects with `UnrecordedRequestError` (or goes to `live`) and is listed in `unrecorded()`. The recorded exchanges
 * are validated (hash recomputed) on first use of their profile.
 */
export function replayExchanges(
  recorded: readonly ModelExchange[],
  options: ReplayExchangesOptions = {},
): ExchangeReplay {
  const byProfile = new Map<string, (RecordedExchange | RecordedFailure)[]>();
  for (const x of recorded) {
    const list = byProfile.get(x.profile_id) ?? [];
    const asked = { requestHash: x.request_hash, request: x.request as ModelRequest };
    list.push(
      x.error === undefined
        ? { ...asked, response: x.response as ModelResponse }
        : { ...asked, error: x.error },
    );
    byProfile.set(x.profile_id, list);
  }
  const configured = new Set(options.configured ?? []);
  const misses: UnrecordedModelCall[] = [];
  const providers = new Map<string, ModelProvider | undefined>();
  let replayed = 0;
  return {
    get replayed() {
      return replayed;
    },
    unrecorded: () => misses.map((m) => ({ ...m })),
    models(profileId) {
      if (providers.has(profileId)) return providers.get(profileId);
      const live = options.live?.(profileId);
      const exchanges = byProfile.get(profileId);
      let provider: ModelProvider | undefined;
      if (exchanges || live || configured.has(profileId)) {
        const replay = createReplayProvider(exchanges ?? []);
        provider = {
          async complete(request) {
            try {
              const { requestHash: _hash, ...answer } = await replay.complete(request);
              replayed++;
              return answer;
            } catch (error) {
              // Anything but "not recorded" is the recorded failure itself, answered from the recording as then.
              if (!(error instanceof UnrecordedRequestError)) {
                replayed++;
                throw error;
              }
              misses.push({
                profile_id: profileId,
                request_hash: error.requestHash,
                asked_live: live !== undefined,
              });
              if (!live) throw error;
              return live.complete(request);
            }
          },
        };
      }
      providers.set(profileId, provider);
      return provider;
    },
  };
}
