// `signalbox dev --registry DIR`: a user's registry folder, loaded at start and again after each change. A folder that
// loads is served; one that does not (a YAML syntax error, an unknown field, a dangling relation) is reported and the
// last registry that loaded keeps serving. RG-2 authoring rules (lint) are reported without stopping it: the workers
// themselves serve any registry that loads.
import { watch, type FSWatcher } from 'node:fs';
import { resolve } from 'node:path';
import {
  formatFinding,
  formatProblem,
  lintSources,
  loadRegistrySources,
  readRegistryDir,
  RegistryLoadError,
  type LintFinding,
  type Registry,
} from '@signalbox/registry';

/** What the dev server reports about one `--registry` folder (`GET /dev/status`). */
export interface RegistryDirStatus {
  dir: string;
  /** `serving`: the latest content loaded; `stale`: a later edit did not load and the last good one serves; `failed`: nothing ever loaded. */
  state: 'serving' | 'stale' | 'failed';
  /** The version being served, or null when nothing loaded yet. */
  registry_version: string | null;
  agents: string[];
  tools: string[];
  /** When the served registry was loaded (ISO-8601), or null. */
  loaded_at: string | null;
  /** Why the latest content did not load (`file:line:col message`), empty when it did. */
  problems: string[];
  /** The RG-2 findings of the latest content (`registry lint`'s lines). */
  lint: string[];
  /** When the folder was last read (ISO-8601). */
  checked_at: string;
}

/** Options of {@link watchRegistryDir}. */
export interface RegistryWatchOptions {
  dir: string;
  /** Called with each newly loaded registry (not with a content that did not change its version). */
  onLoad: (registry: Registry, status: RegistryDirStatus) => Promise<void>;
  /** Called after every read of the folder, loaded or not. */
  onChecked?: (status: RegistryDirStatus) => void;
  /** Edits closer together than this are read once (editors write a file in several steps). @default 250 */
  debounceMs?: number;
}

/** A watched registry folder. */
export interface WatchedRegistry {
  readonly dir: string;
  status(): RegistryDirStatus;
  /** The registry being served, or undefined when none ever loaded. */
  current(): Registry | undefined;
  /** Reads the folder now (and waits for a reload it causes). */
  check(): Promise<RegistryDirStatus>;
  close(): void;
}

function lintLines(findings: readonly LintFinding[]): string[] {
  return findings.map(formatFinding);
}

/** Loads `dir`, then watches it (recursively) and loads it again after each change. */
export async function watchRegistryDir(options: RegistryWatchOptions): Promise<WatchedRegistry> {
  const dir = resolve(options.dir);
  const debounceMs = options.debounceMs ?? 250;
  let current: Registry | undefined;
  let loadedAt: string | null = null;
  let status: RegistryDirStatus = {
    dir,
    state: 'failed',
    registry_version: null,
    agents: [],
    tools: [],
    loaded_at: null,
    problems: [],
    lint: [],
    checked_at: new Date().toISOString(),
  };
  const served = (): Pick<RegistryDirStatus, 'registry_version' | 'agents' | 'tools' | 'loaded_at'> => ({
    registry_version: current?.versions.registry_version ?? null,
    agents: current?.content.agents.map((a) => a.id) ?? [],
    tools: current?.content.tools.map((t) => t.name) ?? [],
    loaded_at: loadedAt,
  });

  const read = async (): Promise<RegistryDirStatus> => {
    const checkedAt = new Date().toISOString();
    let problems: string[] = [];
    let lint: string[] = [];
    let next: Registry | undefined;
    try {
      const sources = await readRegistryDir(dir);
      if (sources.length === 0) throw new Error(`${dir} holds no *.yaml or *.yml file`);
      lint = lintLines(lintSources(sources).findings);
      next = loadRegistrySources(sources);
    } catch (error) {
      problems =
        error instanceof RegistryLoadError
          ? error.problems.map(formatProblem)
          : [`${dir}: ${(error as Error).message}`];
    }
    if (next && next.versions.registry_version !== current?.versions.registry_version) {
      const previous = { current, loadedAt };
      current = next;
      loadedAt = checkedAt;
      const candidate: RegistryDirStatus = {
        dir,
        state: 'serving',
        ...served(),
        problems,
        lint,
        checked_at: checkedAt,
      };
      try {
        await options.onLoad(next, candidate);
      } catch (error) {
        // The stages could not start under it: keep reporting the one that serves.
        ({ current, loadedAt } = previous);
        problems = [`${dir}: the registry loaded but its stages did not start: ${(error as Error).message}`];
      }
    }
    status = {
      dir,
      state: problems.length === 0 ? 'serving' : current ? 'stale' : 'failed',
      ...served(),
      problems,
      lint,
      checked_at: checkedAt,
    };
    options.onChecked?.(status);
    return status;
  };

  // One read at a time; a change during a read is read again after it.
  let reading: Promise<RegistryDirStatus> = read();
  await reading;
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    reading = reading.then(read, read);
    return reading;
  };
  let watcher: FSWatcher;
  try {
    watcher = watch(dir, { recursive: true }, () => {
      clearTimeout(timer);
      timer = setTimeout(() => void check(), debounceMs);
    });
    watcher.on('error', () => undefined);
  } catch (error) {
    throw new Error(`cannot watch the registry folder ${dir}: ${(error as Error).message}`, { cause: error });
  }
  return {
    dir,
    status: () => status,
    current: () => current,
    check,
    close() {
      clearTimeout(timer);
      watcher.close();
    },
  };
}
