// The small JSON records the CLI leaves for its own later runs (the dev server's address, a `--data` folder's lock,
// `signalbox up`'s state) are read the same way: a missing, unreadable or malformed record is no record, and a record
// names the pid of the process that wrote it, which may be gone by the time it is read.
import { readFileSync } from 'node:fs';
import type { z } from 'zod';

/** Whether a process with this pid exists (also when it belongs to another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The record in `file` parsed by `schema`, or undefined when the file is missing, unreadable, not JSON or not valid. */
export function readRecord<T>(file: string, schema: z.ZodType<T>): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
