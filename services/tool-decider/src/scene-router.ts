// TD-2 step one: route the request to a scene template (RG-4) lexically — keyword phrases and description/example
// words — unless the task names its scenario. The router picks scenes, never tool names.
import type { Registry, SceneTemplate } from '@signalbox/registry';
import { tokens } from './text.js';

/** A scene and how well the request matches it. */
export interface SceneScore {
  scene: SceneTemplate;
  score: number;
  hits: string[];
  /** The semantic model's cosine of the request and the scene's description or examples (null: no model). */
  semantic: number | null;
}

/**
 * Semantic part of a scene's score: cosine at or below `floor` adds 0, at or above `ceiling` adds `weight` — as much
 * as one keyword phrase, so a scene whose description or examples mean what the request asks is routed to even when
 * the request shares none of its words (a paraphrase, another language), while keywords still decide between scenes
 * that mean much the same. Floor and ceiling: all-MiniLM-L6-v2 cosines of unrelated and of paraphrased sentences.
 */
export const SCENE_SEMANTIC = { floor: 0.3, ceiling: 0.6, weight: 2 } as const;

/** The scenes the agent takes, in registry order. */
export function agentScenes(registry: Registry, agent: string): SceneTemplate[] {
  return registry.content.scenes.filter((s) => s.agents.length === 0 || s.agents.includes(agent));
}

/**
 * Scores the scenes the agent takes; best first. Keyword phrases weigh 2, description and example words 0.5, and —
 * with the semantic model (`similarity`: cosine by scene id) — meaning up to `SCENE_SEMANTIC.weight`.
 */
export function scoreScenes(
  registry: Registry,
  agent: string,
  request: string,
  similarity?: ReadonlyMap<string, number>,
): SceneScore[] {
  const text = request.toLowerCase();
  const words = new Set(tokens(request));
  return agentScenes(registry, agent)
    .map((scene) => {
      const hits: string[] = [];
      let score = 0;
      for (const keyword of scene.keywords) {
        const k = keyword.toLowerCase();
        const phrase = tokens(k);
        const matched = /[\u3400-\u9fff]/u.test(k)
          ? text.includes(k)
          : phrase.length > 0 && phrase.every((t) => words.has(t));
        if (matched) {
          score += 2;
          hits.push(keyword);
        }
      }
      const context = new Set(tokens(`${scene.description} ${scene.examples.join(' ')}`));
      for (const w of words) if (context.has(w)) score += 0.5;
      const semantic = similarity?.get(scene.id) ?? null;
      if (semantic !== null) {
        const { floor, ceiling, weight } = SCENE_SEMANTIC;
        score += weight * Math.min(1, Math.max(0, (semantic - floor) / (ceiling - floor)));
      }
      return { scene, score: Math.round(score * 1000) / 1000, hits, semantic };
    })
    .sort((a, b) => b.score - a.score || a.scene.id.localeCompare(b.scene.id));
}
