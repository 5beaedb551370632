import { agentRegistry } from '@signalbox/api';
import type { Bus } from '@signalbox/bus';
import type { EmbeddedPipeline } from './embedded.js';

/**
 * The bus the dev server's API publishes on. Each registry runs its own pipeline over its own in-memory bus (packs
 * declare the same profile and tenant ids, so they cannot be merged into one registry); a message goes to the first
 * pipeline, in `pipelines()` order, whose registry declares its `agent_id` — the user's registries come before the
 * demo packs, so a user's agent of the same id replaces the demo's (the dev server's `/mcp` serves an agent from the
 * same registry). A message of an agent no registry declares goes
 * to the first pipeline, whose stages answer it as production would (the model selector finds no such agent).
 */
export function createRouterBus(pipelines: () => readonly EmbeddedPipeline[]): Bus {
  const route = (agentId: unknown): EmbeddedPipeline => {
    const all = pipelines();
    const declaring =
      typeof agentId === 'string'
        ? agentRegistry(
            all.map((p) => p.registry()),
            agentId,
          )
        : undefined;
    // The rule /mcp picks an agent's registry by (agentRegistry), so a connection's tools and its calls' stages agree.
    const owner = all.find((p) => declaring !== undefined && p.registry() === declaring) ?? all[0];
    if (!owner) throw new Error('the dev server runs no pipeline (no registry loaded)');
    return owner;
  };
  return {
    // Every pipeline's bus holds every topic from its start; there is nothing to create, and "the broker answers"
    // (the API's readiness probe) is always true in-process.
    ensureTopics: () => Promise.resolve(),
    async publish(messages) {
      const byPipeline = new Map<EmbeddedPipeline, (typeof messages)[number][]>();
      for (const message of messages) {
        const pipeline = route((message.value as { agent_id?: unknown } | null)?.agent_id);
        byPipeline.set(pipeline, [...(byPipeline.get(pipeline) ?? []), message]);
      }
      for (const [pipeline, batch] of byPipeline) await pipeline.bus.publish(batch);
    },
    consume: () =>
      Promise.reject(
        new TypeError("the dev server's router bus only publishes; consume on a pipeline's bus"),
      ),
    // The pipelines own their buses and close them when they stop.
    close: () => Promise.resolve(),
  };
}
