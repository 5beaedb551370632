/** A sender made by {@link coalescing}: call it with items; `flush()` sends what lingers now and waits for idle. */
export interface CoalescingSender<T> {
  (items: readonly T[]): Promise<void>;
  /** Sends what is lingering at once and resolves when nothing is queued or in flight (e.g. before closing). */
  flush(): Promise<void>;
}

/** Options of {@link coalescing}. */
export interface CoalescingOptions {
  /**
   * How long the first call of an idle sender waits for others to share its send (Kafka's `linger.ms`). Calls made
   * while a send is out already wait for it, so this matters only when items trickle in: then it trades a few
   * milliseconds for fewer, fuller sends, each of which costs a round trip and CPU on both sides. 0: the first call
   * of an idle sender goes out at once. @default 0
   */
  lingerMs?: number;
}

/**
 * Wraps `send` so that calls run one at a time and the calls made while one runs leave together as the next one:
 * their items concatenated in call order. Each caller's promise settles with the send that carried its items. An
 * idle sender's first call goes out at once, or after `lingerMs` with whatever joined it meanwhile.
 */
export function coalescing<T>(
  send: (items: T[]) => Promise<void>,
  options: CoalescingOptions = {},
): CoalescingSender<T> {
  const lingerMs = options.lingerMs ?? 0;
  if (!Number.isInteger(lingerMs) || lingerMs < 0) {
    throw new RangeError(`coalescing: lingerMs must be a non-negative integer, got ${String(lingerMs)}`);
  }
  interface Group {
    items: T[];
    callers: { resolve: () => void; reject: (error: unknown) => void }[];
  }
  let next: Group | undefined;
  // `active` is cleared in the same turn the loop finds nothing left, so a call made right after starts a new drain.
  let active = false;
  let draining: Promise<void> = Promise.resolve();
  let lingering: NodeJS.Timeout | undefined;

  const drain = async (): Promise<void> => {
    active = true;
    try {
      while (next) {
        const group = next;
        next = undefined;
        try {
          await send(group.items);
          for (const caller of group.callers) caller.resolve();
        } catch (error) {
          for (const caller of group.callers) caller.reject(error);
        }
      }
    } finally {
      active = false;
    }
  };
  const startDrain = () => {
    clearTimeout(lingering);
    lingering = undefined;
    draining = drain();
  };

  const sender = (items: readonly T[]) =>
    new Promise<void>((resolve, reject) => {
      next ??= { items: [], callers: [] };
      next.items.push(...items);
      next.callers.push({ resolve, reject });
      if (active || lingering) return;
      if (lingerMs > 0) lingering = setTimeout(startDrain, lingerMs);
      else startDrain();
    });
  sender.flush = async (): Promise<void> => {
    if (lingering) startDrain();
    await draining;
  };
  return sender;
}
