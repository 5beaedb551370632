// TD-2 step one: route the request to a scene template (RG-4) lexically — keyword phrases and description/example
// words — unless the task names its scenario. The router picks scenes, never tool names.
import type { Registry, SceneTemplate } from '@signalbox/registry';
import { tokens } from './text.js';

/** A scene and how well the request matches it. */
export interface SceneScore {
  scene: SceneTemplate;
  score: number;
  hits: string[];
}

/** Scores the scenes the agent takes; best first. Keyword phrases weigh 2, description and example words 0.5. */
export function scoreScenes(registry: Registry, agent: string, request: string): SceneScore[] {
  const text = request.toLowerCase();
  const words = new Set(tokens(request));
  return registry.content.scenes
    .filter((s) => s.agents.length === 0 || s.agents.includes(agent))
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
      return { scene, score, hits };
    })
    .sort((a, b) => b.score - a.score || a.scene.id.localeCompare(b.scene.id));
}
