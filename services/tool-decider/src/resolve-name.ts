// TD-3: a proposed tool name is resolved to a *visible* tool — exact (name or alias) → normalised → similarity above
// a threshold — or rejected. A hallucinated tool is never executed.
import type { ToolDefinition } from '@signalbox/registry';
import { editDistance, normaliseName, words } from './text.js';

/** Similarity from which a proposed name resolves to a visible tool. @default 0.75 */
export const NAME_SIMILARITY_THRESHOLD = 0.75;

/** How a proposed name was resolved. */
export type NameResolution =
  | { kind: 'exact' | 'normalised'; tool: ToolDefinition; similarity: 1 }
  | { kind: 'similar'; tool: ToolDefinition; similarity: number }
  | { kind: 'rejected'; reason: string; closest: string | null; similarity: number };

/** Similarity of two names in 0..1: the better of edit similarity and word overlap. */
export function nameSimilarity(a: string, b: string): number {
  const x = normaliseName(a);
  const y = normaliseName(b);
  const edit = 1 - editDistance(x, y) / Math.max(1, x.length, y.length);
  const wa = new Set(words(a));
  const wb = new Set(words(b));
  const common = [...wa].filter((w) => wb.has(w)).length;
  const jaccard = common / Math.max(1, new Set([...wa, ...wb]).size);
  const containment = common / Math.max(1, Math.min(wa.size, wb.size));
  return Math.max(edit, (jaccard + containment) / 2);
}

/** Resolves one proposed name against the visible tools. */
export function resolveToolName(
  proposed: string,
  visible: readonly ToolDefinition[],
  threshold = NAME_SIMILARITY_THRESHOLD,
): NameResolution {
  const exact = visible.find((t) => t.name === proposed || t.aliases.includes(proposed));
  if (exact) return { kind: 'exact', tool: exact, similarity: 1 };
  const n = normaliseName(proposed);
  const normalised = visible.find((t) => [t.name, ...t.aliases].some((name) => normaliseName(name) === n));
  if (normalised) return { kind: 'normalised', tool: normalised, similarity: 1 };
  const ranked = visible
    .map((tool) => ({
      tool,
      similarity: Math.max(...[tool.name, ...tool.aliases].map((name) => nameSimilarity(proposed, name))),
    }))
    .sort((a, b) => b.similarity - a.similarity || a.tool.name.localeCompare(b.tool.name));
  const [best, second] = ranked;
  if (!best) return { kind: 'rejected', reason: 'no tool is visible', closest: null, similarity: 0 };
  const similarity = Math.round(best.similarity * 1000) / 1000;
  if (best.similarity < threshold)
    return {
      kind: 'rejected',
      reason: `not a visible tool; closest ${best.tool.name} at similarity ${similarity.toFixed(2)} < ${threshold.toFixed(2)}`,
      closest: best.tool.name,
      similarity,
    };
  if (second && best.similarity - second.similarity < 0.05)
    return {
      kind: 'rejected',
      reason: `ambiguous: ${best.tool.name} and ${second.tool.name} are equally close`,
      closest: best.tool.name,
      similarity,
    };
  return { kind: 'similar', tool: best.tool, similarity };
}
