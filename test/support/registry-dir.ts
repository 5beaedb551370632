import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadRegistryDir, type Registry } from '@signalbox/registry';

/**
 * Writes `content` (YAML, or JSON, which is YAML) as the one registry file of a fresh `dir` and loads it: the
 * registry a worker given `SIGNALBOX_REGISTRY_DIR=dir` will load, with the definition hashes its plans must pin.
 */
export async function writeRegistryDir(dir: string, content: string): Promise<Registry> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'registry.yaml'), content);
  return loadRegistryDir(dir);
}
