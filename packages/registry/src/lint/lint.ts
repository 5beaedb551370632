import type { Locator, ParsedRegistry, RegistrySource } from '../load.js';
import { parseRegistrySources } from '../load.js';
import type { ItemKind, Problem, SourceLocation } from '../problem.js';
import type { LintRule, LintThresholds, RuleContext, Severity } from './rule.js';
import { LINT_RULES } from './rules.js';

/** Options of {@link lintRegistry}. */
export interface LintOptions {
  /** Severity per rule id, overriding each rule's default; `off` disables a rule. */
  rules?: Readonly<Record<string, Severity>>;
  /** @default 4 */
  maxRequiredParameters?: number;
  /** @default 0.5 */
  nearDuplicateThreshold?: number;
  /**
   * The semantic model's cosine of two purposes (the tool decider's sentence embeddings, TD-9), precomputed by the
   * caller. When given, RG2-near-duplicate-description compares purposes by meaning with
   * `nearDuplicateCosine` instead of by words with `nearDuplicateThreshold`. @default words only
   */
  purposeSimilarity?: (a: string, b: string) => number;
  /** @default 0.85 (paraphrases of one sentence score 0.85–0.95; distinct tools of one pack stay below 0.75) */
  nearDuplicateCosine?: number;
}

/** One lint finding: the rule, how serious it is, where, and how to fix it. */
export interface LintFinding {
  rule: string;
  severity: 'error' | 'warning';
  message: string;
  location: SourceLocation | undefined;
  kind: ItemKind | undefined;
  item: string | undefined;
  field: string | undefined;
}

/** The result of linting one registry. */
export interface LintReport {
  findings: LintFinding[];
  errors: number;
  warnings: number;
  files: string[];
}

/** Thrown by {@link resolveLintOptions} for an unknown rule id or a bad threshold. */
export class LintOptionsError extends RangeError {}

/** Validates lint options once, before any file is read. */
export function resolveLintOptions(options: LintOptions = {}): {
  severities: Map<string, Severity>;
  thresholds: LintThresholds;
} {
  const known = new Map(LINT_RULES.map((r) => [r.id, r]));
  const severities = new Map<string, Severity>(LINT_RULES.map((r) => [r.id, r.defaultSeverity]));
  for (const [id, severity] of Object.entries(options.rules ?? {})) {
    if (!known.has(id))
      throw new LintOptionsError(`unknown lint rule "${id}"; rules: ${[...known.keys()].join(', ')}`);
    if (!['error', 'warning', 'off'].includes(severity))
      throw new LintOptionsError(
        `severity of ${id} must be error, warning or off, got "${severity as string}"`,
      );
    severities.set(id, severity);
  }
  const maxRequiredParameters = options.maxRequiredParameters ?? 4;
  const nearDuplicateThreshold = options.nearDuplicateThreshold ?? 0.5;
  if (!Number.isInteger(maxRequiredParameters) || maxRequiredParameters < 0)
    throw new LintOptionsError(
      `maxRequiredParameters must be a non-negative integer, got ${maxRequiredParameters}`,
    );
  if (!(nearDuplicateThreshold > 0 && nearDuplicateThreshold <= 1))
    throw new LintOptionsError(`nearDuplicateThreshold must be in (0, 1], got ${nearDuplicateThreshold}`);
  const nearDuplicateCosine = options.nearDuplicateCosine ?? 0.85;
  if (!(nearDuplicateCosine > 0 && nearDuplicateCosine <= 1))
    throw new LintOptionsError(`nearDuplicateCosine must be in (0, 1], got ${nearDuplicateCosine}`);
  return {
    severities,
    thresholds: {
      maxRequiredParameters,
      nearDuplicateThreshold,
      nearDuplicateCosine,
      ...(options.purposeSimilarity ? { purposeSimilarity: options.purposeSimilarity } : {}),
    },
  };
}

function context(parsed: ParsedRegistry, thresholds: LintThresholds): RuleContext {
  return { content: parsed.content, locate: parsed.locate, declarations: parsed.declarations, thresholds };
}

function where(locate: Locator, finding: ReturnType<LintRule['check']>[number]): SourceLocation | undefined {
  return finding.location ?? locate(finding.kind, finding.item, finding.field);
}

/**
 * Problems that make a registry unusable (duplicate names, dangling relations, cycles), whatever the lint
 * configuration; `loadRegistry` refuses a registry that has any.
 */
export function structuralProblems(parsed: ParsedRegistry): Problem[] {
  const ctx = context(parsed, resolveLintOptions().thresholds);
  return LINT_RULES.filter((r) => r.structural).flatMap((rule) =>
    rule.check(ctx).map((f) => ({
      code: rule.id,
      message: f.message,
      location: where(parsed.locate, f),
      kind: f.kind,
      item: f.item,
      field: f.field,
    })),
  );
}

/**
 * Runs every authoring rule (RG-2) over parsed registry YAML. When the YAML itself does not load (syntax, unknown
 * field, wrong type), those problems are the findings (rule `yaml-syntax` / `schema`) and no rule runs, since rules
 * over a partial registry would report phantom dangling references.
 */
export function lintRegistry(parsed: ParsedRegistry, options: LintOptions = {}): LintReport {
  const { severities, thresholds } = resolveLintOptions(options);
  let findings: LintFinding[];
  if (parsed.problems.length > 0) {
    findings = parsed.problems.map((p) => ({
      rule: p.code,
      severity: 'error',
      message: p.message,
      location: p.location,
      kind: p.kind,
      item: p.item,
      field: p.field,
    }));
  } else {
    const ctx = context(parsed, thresholds);
    findings = [];
    for (const rule of LINT_RULES) {
      const severity = severities.get(rule.id) ?? rule.defaultSeverity;
      if (severity === 'off') continue;
      for (const f of rule.check(ctx)) {
        findings.push({
          rule: rule.id,
          severity,
          message: f.message,
          location: where(parsed.locate, f),
          kind: f.kind,
          item: f.item,
          field: f.field,
        });
      }
    }
  }
  return {
    findings,
    errors: findings.filter((f) => f.severity === 'error').length,
    warnings: findings.filter((f) => f.severity === 'warning').length,
    files: parsed.files,
  };
}

/** Parses and lints YAML sources. */
export function lintSources(sources: readonly RegistrySource[], options: LintOptions = {}): LintReport {
  return lintRegistry(parseRegistrySources(sources), options);
}

/** `file:line:col severity message [rule]` — one line per finding. */
export function formatFinding(f: LintFinding): string {
  const loc = f.location ? `${f.location.file}:${f.location.line}:${f.location.column}` : '(registry)';
  const item = f.kind && f.item !== undefined ? ` ${f.kind} "${f.item}"` : '';
  return `${loc} ${f.severity}${item}: ${f.message} [${f.rule}]`;
}

/** Every rule with its id, default severity and description (for `registry lint --rules`). */
export function lintRules(): {
  id: string;
  severity: 'error' | 'warning';
  structural: boolean;
  description: string;
}[] {
  return LINT_RULES.map((r) => ({
    id: r.id,
    severity: r.defaultSeverity,
    structural: r.structural,
    description: r.description,
  }));
}
