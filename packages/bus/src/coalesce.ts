/**
 * Wraps `send` so that calls run one at a time and the calls made while one runs leave together as the next one:
 * their items concatenated in call order. Each caller's promise settles with the send that carried its items. The
 * first call of an idle sender goes out at once, so nothing waits that would not have waited anyway.
 */
export function coalescing<T>(send: (items: T[]) => Promise<void>): (items: readonly T[]) => Promise<void> {
  interface Group {
    items: T[];
    callers: { resolve: () => void; reject: (error: unknown) => void }[];
  }
  let next: Group | undefined;
  let draining = false;

  const drain = async (): Promise<void> => {
    draining = true;
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
    draining = false;
  };

  return (items) =>
    new Promise<void>((resolve, reject) => {
      next ??= { items: [], callers: [] };
      next.items.push(...items);
      next.callers.push({ resolve, reject });
      if (!draining) void drain();
    });
}
