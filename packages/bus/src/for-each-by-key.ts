/**
 * Runs `fn` over `messages` with at most `concurrency` keys in flight: messages of one key run one after another in
 * their original order, different keys run concurrently (FL-1: one task's events stay ordered). Rejects with the
 * first error after every started call has settled, so nothing is left running behind the caller's back.
 */
export async function forEachByKey<M extends { key: string | null }>(
  messages: readonly M[],
  concurrency: number,
  fn: (message: M) => Promise<void>,
): Promise<void> {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${String(concurrency)}`);
  }
  const byKey = new Map<string | null, M[]>();
  for (const message of messages) {
    const lane = byKey.get(message.key);
    if (lane) lane.push(message);
    else byKey.set(message.key, [message]);
  }
  const lanes = [...byKey.values()];
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined) {
      const lane = lanes[next++];
      if (!lane) return;
      for (const message of lane) {
        try {
          await fn(message);
        } catch (error) {
          failure ??= { error };
          return;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, lanes.length) }, worker));
  if (failure) throw failure.error;
}
