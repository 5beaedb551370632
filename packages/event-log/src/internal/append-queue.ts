// The store's append queue: appends made while one is running leave together as the next statement (per group —
// `withSecrets`, which changes what the results carry). A stage appends from several partitions' batches at once, and
// one statement of many rows costs PostgreSQL about what one of a few rows does: one transaction, one commit flush.
// The first append of an idle queue goes out at once, or, with `lingerMs`, waits that long for company: when
// decisions trickle in, fewer, fuller statements — each costs a round trip, a commit and CPU in this process and in
// PostgreSQL. Should a combined statement fail for a reason that is not everyone's (the database unreachable, the
// store closed), each caller's rows are appended on their own, so every caller gets its own outcome. The bus's
// `coalescing` does the same for publishes.

/** A queue made by {@link createAppendQueue}. */
export interface AppendQueue<Row, Result> {
  /** Appends `rows` with the other appends of `group` that join them; resolves with this caller's results. */
  append(group: boolean, rows: Row[]): Promise<Result[]>;
  /** Sends what lingers at once and resolves when nothing is queued or in flight (before the store closes). */
  flush(): Promise<void>;
}

export interface AppendQueueOptions<Row, Result> {
  /** How long the first append of an idle queue waits for others to share its statement. */
  lingerMs: number;
  /** One statement for `rows` of `group`: a result per row, in order. */
  appendRows: (rows: readonly Row[], group: boolean) => Promise<Result[]>;
  /** Whether a combined statement's failure is every caller's outcome rather than possibly one caller's rows'. */
  failsEveryone: (error: unknown) => boolean;
}

interface PendingAppend<Row, Result> {
  rows: Row[];
  resolve: (results: Result[]) => void;
  reject: (error: unknown) => void;
}

/** The append queue of one store (see the top of this file). */
export function createAppendQueue<Row, Result>(
  options: AppendQueueOptions<Row, Result>,
): AppendQueue<Row, Result> {
  const { lingerMs, appendRows, failsEveryone } = options;
  const queued = new Map<boolean, PendingAppend<Row, Result>[]>();
  let appending = false;
  let lingering: NodeJS.Timeout | undefined;
  let drained: Promise<void> = Promise.resolve();

  async function drainAppends(): Promise<void> {
    appending = true;
    try {
      for (;;) {
        const next = [...queued].find(([, callers]) => callers.length > 0);
        if (!next) return;
        const [group, callers] = next;
        queued.delete(group);
        await appendTogether(callers, group);
      }
    } finally {
      appending = false;
    }
  }

  function startAppends(): void {
    clearTimeout(lingering);
    lingering = undefined;
    drained = drainAppends();
  }

  async function appendTogether(callers: PendingAppend<Row, Result>[], group: boolean): Promise<void> {
    if (callers.length === 1) {
      const [only] = callers as [PendingAppend<Row, Result>];
      await appendRows(only.rows, group).then(only.resolve, only.reject);
      return;
    }
    let results: Result[];
    try {
      results = await appendRows(
        callers.flatMap((c) => c.rows),
        group,
      );
    } catch (error) {
      if (failsEveryone(error)) {
        for (const caller of callers) caller.reject(error);
        return;
      }
      for (const caller of callers) await appendRows(caller.rows, group).then(caller.resolve, caller.reject);
      return;
    }
    let offset = 0;
    for (const caller of callers) {
      caller.resolve(results.slice(offset, offset + caller.rows.length));
      offset += caller.rows.length;
    }
  }

  return {
    append(group, rows) {
      return new Promise<Result[]>((resolve, reject) => {
        const callers = queued.get(group) ?? [];
        callers.push({ rows, resolve, reject });
        queued.set(group, callers);
        if (appending || lingering) return;
        if (lingerMs > 0) lingering = setTimeout(startAppends, lingerMs);
        else startAppends();
      });
    },
    flush() {
      if (lingering) startAppends();
      return drained;
    },
  };
}
