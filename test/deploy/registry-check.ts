import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadRegistryDir, type Registry } from '@signalbox/registry';

const loaded = new Map<string, Promise<Registry>>();

/**
 * A service that loads SIGNALBOX_REGISTRY_DIR needs that directory in its image and every `base_url_env` its HTTP
 * tools name in its environment (the executor resolves tool URLs from them at call time, so Env cannot require them).
 */
export async function registryEnvProblems(
  where: string,
  env: Record<string, unknown>,
  raw: Record<string, string>,
  options: { repoRoot: string; toolUrls: boolean },
): Promise<string[]> {
  const dir = env.SIGNALBOX_REGISTRY_DIR;
  if (typeof dir !== 'string') return [];
  const path = repoPathOf(dir, options.repoRoot);
  if (!path) return [`${where}: SIGNALBOX_REGISTRY_DIR ${dir} is not a registry directory the image holds`];
  if (!options.toolUrls) return [];
  let registry = loaded.get(path);
  if (!registry) {
    registry = loadRegistryDir(path);
    loaded.set(path, registry);
  }
  const problems: string[] = [];
  for (const tool of (await registry).content.tools) {
    const transport = tool.transport as { base_url_env?: string } | undefined;
    const name = transport?.base_url_env;
    if (name && raw[name] === undefined)
      problems.push(`${where}: env ${name} (base_url_env of tool ${tool.name}) is not set`);
  }
  return [...new Set(problems)];
}

/** The repository path of an image path under /app (the Dockerfile copies the workspace's registry/ there). */
export function repoPathOf(imagePath: string, repoRoot: string): string | undefined {
  if (!imagePath.startsWith('/app/')) return undefined;
  const path = join(repoRoot, imagePath.slice('/app/'.length));
  return existsSync(path) ? path : undefined;
}
