import type { Declaration, Locator } from '../load.js';
import type { ItemKind } from '../problem.js';
import type { RegistryContent } from '../registry.js';

/** How seriously a rule's findings are taken; `off` disables the rule. */
export type Severity = 'error' | 'warning' | 'off';

/** Tunable thresholds of the rules. */
export interface LintThresholds {
  /** RG2-required-ceiling: most required parameters a tool may have. @default 4 */
  maxRequiredParameters: number;
  /** RG2-near-duplicate-description: cosine similarity of purposes from which two tools count as near duplicates. @default 0.5 */
  nearDuplicateThreshold: number;
  /** RG2-near-duplicate-description with the semantic model: the cosine from which purposes are near duplicates. */
  nearDuplicateCosine: number;
  /** The semantic model's cosine of two purposes, when the caller computed them (see LintOptions). */
  purposeSimilarity?: (a: string, b: string) => number;
}

/** What a rule sees. */
export interface RuleContext {
  content: RegistryContent;
  locate: Locator;
  declarations: readonly Declaration[];
  thresholds: LintThresholds;
}

/** A finding as a rule reports it (the linter adds severity and location). */
export interface RawFinding {
  kind: ItemKind;
  item: string;
  /** Dotted field path inside the item, used to find file:line. */
  field?: string;
  /** What is wrong, then how to fix it. */
  message: string;
  /** An explicit location, when the item's own declaration is not the right place (a duplicate). */
  location?: Declaration['location'];
}

/** One authoring rule of `registry lint` (RG-2). */
export interface LintRule {
  /** Stable id, e.g. `RG2-three-part-description`. */
  id: string;
  /** One line: what the rule enforces. */
  description: string;
  defaultSeverity: Exclude<Severity, 'off'>;
  /**
   * Structural rules guard what the rest of the system relies on (names resolve, no cycles): loading a registry
   * fails on their findings whatever the configured severity.
   */
  structural: boolean;
  check(context: RuleContext): RawFinding[];
}
