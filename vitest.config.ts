import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// One vitest project per workspace package (unit tests beside the code) plus the integration project in
// test/. Workspace packages are resolved to their TypeScript sources through the `@signalbox/source`
// export condition, so tests never need a build and never deep-import another package's src/.

const root = import.meta.dirname;

interface WorkspacePackage {
  name: string;
  dir: string;
  exports?: Record<string, string | Record<string, string>>;
}

function workspacePackages(): WorkspacePackage[] {
  const found: WorkspacePackage[] = [];
  for (const group of ['packages', 'services']) {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) continue;
    for (const entry of readdirSync(groupDir, { withFileTypes: true })) {
      const manifest = join(groupDir, entry.name, 'package.json');
      if (!entry.isDirectory() || !existsSync(manifest)) continue;
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as Omit<WorkspacePackage, 'dir'>;
      found.push({ ...pkg, dir: join(groupDir, entry.name) });
    }
  }
  // examples/ is a package of its own (run by the e2e suite, test/e2e/mcp.test.ts).
  const examples = join(root, 'examples', 'package.json');
  if (existsSync(examples)) {
    const pkg = JSON.parse(readFileSync(examples, 'utf8')) as Omit<WorkspacePackage, 'dir'>;
    found.push({ ...pkg, dir: join(root, 'examples') });
  }
  return found;
}

const packages = workspacePackages();

const alias = packages.flatMap((pkg) =>
  Object.entries(pkg.exports ?? {}).flatMap(([subpath, target]) => {
    const source = typeof target === 'string' ? undefined : target['@signalbox/source'];
    if (!source) return [];
    const specifier = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.replace(/^\.\//, '')}`;
    const escaped = specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    return [{ find: new RegExp(`^${escaped}$`), replacement: resolve(pkg.dir, source) }];
  }),
);

/** Projects whose tests talk to Kafka, the schema registry or PostgreSQL. */
const needsInfra = new Set([
  '@signalbox/contracts',
  '@signalbox/bus',
  '@signalbox/event-log',
  '@signalbox/stage-kit',
  '@signalbox/registry',
  '@signalbox/cli',
  '@signalbox/tool-decider',
  '@signalbox/parameter-injector',
  '@signalbox/executor',
  '@signalbox/demo-tools',
  '@signalbox/api',
]);
const globalSetup = resolve(root, 'packages/test-support/src/global-setup.ts');

export default defineConfig({
  resolve: { alias },
  test: {
    // Setup hooks start real things (PGlite with every migration takes 2–6 s on a busy 2-core machine); a slow
    // start is not a failure. Test bodies keep vitest's 5 s default unless a suite says otherwise.
    hookTimeout: 30_000,
    projects: [
      ...packages.map((pkg) => ({
        extends: true as const,
        test: {
          name: pkg.name.replace(/^@signalbox\//, ''),
          root: pkg.dir,
          include: ['src/**/*.test.ts'],
          globalSetup: needsInfra.has(pkg.name) ? [globalSetup] : [],
        },
      })),
      {
        extends: true as const,
        test: {
          name: 'integration',
          root: resolve(root, 'test'),
          include: ['**/*.test.ts'],
          globalSetup: [globalSetup],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
