import type { Registry, RegistryStore } from '@signalbox/registry';

/** `GET /v1/registry/versions`: what the API reports about registry versions. */
export interface RegistryVersionsReport {
  /** The registry directory this API loaded at start (SIGNALBOX_REGISTRY_DIR), or null. */
  loaded: {
    registry_version: string;
    profiles_version: string;
    policy_version: string;
    tool_hashes: Readonly<Record<string, string>>;
  } | null;
  /** The latest publication (RG-3) of each configured registry name; names never published are left out. */
  published: {
    registry: string;
    registry_version: string;
    profiles_version: string;
    policy_version: string;
    label: string | null;
    published_at: string;
    seq: number;
    /** How many times this name was published. */
    publications: number;
  }[];
}

/** Reads the report: the loaded registry's versions plus each name's latest publication in PostgreSQL. */
export async function registryVersions(
  loaded: Registry | undefined,
  store: RegistryStore | undefined,
  names: readonly string[],
): Promise<RegistryVersionsReport> {
  const published: RegistryVersionsReport['published'] = [];
  if (store) {
    for (const name of names) {
      const history = await store.history(name);
      const latest = history[history.length - 1];
      if (latest) published.push({ ...latest, publications: history.length });
    }
  }
  return {
    loaded: loaded
      ? {
          registry_version: loaded.versions.registry_version,
          profiles_version: loaded.versions.profiles_version,
          policy_version: loaded.versions.policy_version,
          tool_hashes: loaded.versions.tool_hashes,
        }
      : null,
    published,
  };
}
