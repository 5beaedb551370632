import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

// EL-4 retention: whole months of the log are archived to files and then pruned by DETACH + DROP of their
// partitions. No row is ever updated or deleted; event_keys keeps the ids of pruned events (EL-2).

/** The name of the manifest file in an archive directory. */
export const ARCHIVE_MANIFEST_FILE = 'manifest.json';

/** The format tag of {@link ArchiveManifest}; bumped on an incompatible change. */
export const ARCHIVE_FORMAT = 'signalbox.event-log.archive/v1';

/** One monthly partition of the log. */
export interface PartitionInfo {
  /**
   * The events partition, e.g. `events_2026_11`; its secrets live in `event_secrets_2026_11`, its model exchanges in
   * `model_exchanges_2026_11`.
   */
  partition: string;
  /** First instant of the month (UTC), inclusive. */
  from: Date;
  /** First instant of the next month, exclusive. */
  to: Date;
}

/** One archived partition in a manifest. */
export interface ArchivedPartition {
  partition: string;
  /** ISO instants of the partition's range. */
  from: string;
  to: string;
  /** The JSON-lines file in the archive holding one event per line. */
  file: string;
  /** Events (lines) in the file; prune compares this with the partition's row count. */
  rows: number;
  /** Secret values the partition's events had (in the file only when `secrets` is `included`). */
  secret_rows: number;
  secrets: 'included' | 'excluded';
  /**
   * Model exchanges the partition's events had (EL-7); always in the file, each line's `exchanges`, with the secret
   * values redacted unless `secrets` is `included`. Absent in manifests written before exchanges were stored: 0.
   */
  exchange_rows?: number;
  /** sha256 (hex) of the file's bytes. */
  sha256: string;
  bytes: number;
}

/** `manifest.json` of an archive. */
export interface ArchiveManifest {
  format: typeof ARCHIVE_FORMAT;
  /** When the last archive run wrote it (ISO). */
  written_at: string;
  partitions: ArchivedPartition[];
}

/** A file of an archive being written, sequentially. */
export interface ArchiveWriter {
  write(chunk: string): Promise<void>;
  close(): Promise<void>;
}

/** Where an archive goes: a directory ({@link createDirectorySink}), object storage, … */
export interface ArchiveSink {
  /** Opens `file` (a plain file name) for writing, replacing what was there. */
  create(file: string): Promise<ArchiveWriter>;
  /** The content of `file` if the archive already has it (used to keep earlier runs in the manifest). */
  read?(file: string): Promise<string | undefined>;
}

/** Options of {@link EventLogRetention.archive}. */
export interface ArchiveOptions {
  /**
   * Put each event's secret values (PI-5, RS-6) into its archived line, and its model exchanges as recorded. Off by
   * default: an archive file leaves the database's access control, so pruning a month then destroys its secret
   * values for good — which is usually what retention of personal data wants; the exchanges are then archived with
   * those values redacted wherever they occur.
   * @default false
   */
  includeSecrets?: boolean;
}

/** Options of {@link EventLogRetention.prune}. */
export interface PruneOptions {
  /**
   * The archive the partitions were written to: a directory (its manifest is read and every file's sha256
   * checked) or a manifest (rows checked only). A partition is pruned only when the manifest lists it with exactly
   * the rows it holds now.
   */
  archived?: string | ArchiveManifest;
  /**
   * Prune old partitions even when no archive vouches for them. Their events are lost.
   * @default false
   */
  force?: boolean;
}

/** What {@link EventLogRetention.prune} did. */
export interface PruneResult {
  /** Partitions detached and dropped (events, their secrets and model exchanges), with the rows that went with them. */
  pruned: { partition: string; rows: number; secret_rows: number; exchange_rows: number }[];
  /** Old partitions left in place, and why. */
  refused: { partition: string; reason: string }[];
}

/** Archive and prune of whole months (EL-4). Adapters: createPgEventLogRetention, createPgliteEventLogRetention. */
export interface EventLogRetention {
  /** The monthly partitions, oldest first. */
  partitions(): Promise<PartitionInfo[]>;
  /** Creates the partitions of the current month and `monthsAhead` after it when missing; returns those created. */
  ensurePartitions(monthsAhead?: number): Promise<string[]>;
  /**
   * Writes every partition that ends at or before `before` — and before the current month, which still receives
   * appends — to `target` (a directory or a sink): one `<partition>.jsonl` file each (one stored row per line,
   * claim-checked payloads resolved, model exchanges in `exchanges`) and `manifest.json` (row count and sha256 per
   * file). Reads only.
   */
  archive(before: Date, target: string | ArchiveSink, options?: ArchiveOptions): Promise<ArchiveManifest>;
  /**
   * Detaches and drops the partitions of events, secrets and model exchanges that end at or before `before` (never the current
   * month) and that the archive vouches for (see {@link PruneOptions}). Never an UPDATE or DELETE of a row;
   * `event_keys` keeps the pruned ids, so a redelivery is still recognised as decided.
   */
  prune(before: Date, options?: PruneOptions): Promise<PruneResult>;
  close(): Promise<void>;
}

/** An {@link ArchiveSink} writing plain files into `dir` (created when missing). */
export function createDirectorySink(dir: string): ArchiveSink {
  return {
    async create(file) {
      await mkdir(dir, { recursive: true });
      const stream = createWriteStream(join(dir, file));
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => {
          resolve();
        });
        stream.once('error', reject);
      });
      return {
        write: (chunk) =>
          new Promise<void>((resolve, reject) => {
            stream.write(chunk, (error) => {
              if (error) reject(error);
              else resolve();
            });
          }),
        close: () =>
          new Promise<void>((resolve, reject) => {
            stream.once('error', reject);
            stream.end(() => {
              resolve();
            });
          }),
      };
    },
    async read(file) {
      try {
        return await readFile(join(dir, file), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
  };
}

/** Reads and checks the manifest of an archive directory. */
export async function readArchiveManifest(dir: string): Promise<ArchiveManifest> {
  const text = await readFile(join(dir, ARCHIVE_MANIFEST_FILE), 'utf8');
  return parseArchiveManifest(text);
}

/** Parses manifest text, refusing another format. */
export function parseArchiveManifest(text: string): ArchiveManifest {
  const manifest = JSON.parse(text) as Partial<ArchiveManifest>;
  if (manifest.format !== ARCHIVE_FORMAT || !Array.isArray(manifest.partitions)) {
    throw new TypeError(`not a ${ARCHIVE_FORMAT} manifest`);
  }
  return manifest as ArchiveManifest;
}

/** sha256 (hex) of a file, streamed. */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
