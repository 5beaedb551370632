import { parameterHints, type JsonSchema } from '../json-schema.js';
import type { ItemKind } from '../problem.js';
import {
  parameterNames,
  PERMISSION_RANK,
  requiredParameters,
  type ToolDefinition,
} from '../tool-definition.js';
import type { LintRule, RawFinding } from './rule.js';
import { mentions, textSimilarity } from './text.js';

/** Verbs a tool name may start or end with (RG2-naming): `refund_create`, `get_weather`, `web_search`. */
export const NAMING_VERBS: ReadonlySet<string> = new Set(
  (
    'add apply approve archive book calculate cancel check close compute convert create delete download estimate ' +
    'export fetch find generate get import issue list lookup notify open parse post publish query read reply ' +
    'request reserve schedule search send set submit summarize track translate update upload validate verify visit write'
  ).split(' '),
);

const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/;

function hasParameter(tool: ToolDefinition, path: string): boolean {
  return parameterHints(tool.parameters).some((h) => h.path === path);
}

/** Property names anywhere in a `returns` schema (through nested objects and array items). */
function returnedFields(schema: JsonSchema): Set<string> {
  const out = new Set<string>();
  const walk = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const s = node as JsonSchema;
    if (typeof s.properties === 'object' && s.properties !== null) {
      for (const [name, child] of Object.entries(s.properties as Record<string, unknown>)) {
        out.add(name);
        walk(child);
      }
    }
    if (s.items) walk(s.items);
  };
  walk(schema);
  return out;
}

const IDENTIFIER_LIKE = /(^|_)(id|ids|url|urls|token|ref|handle|key|number)$/;

const uniqueName: LintRule = {
  id: 'RG2-unique-name',
  description: 'Tool names (and aliases), agent, scene, tenant, profile and policy ids are unique.',
  defaultSeverity: 'error',
  structural: true,
  check({ declarations, content }) {
    const findings: RawFinding[] = [];
    const seen = new Map<string, (typeof declarations)[number]>();
    for (const d of declarations) {
      const key = `${d.kind}:${d.id}`;
      const first = seen.get(key);
      if (first) {
        findings.push({
          kind: d.kind,
          item: d.id,
          location: d.location,
          message: `${d.kind} "${d.id}" is declared twice (first at ${first.location.file}:${first.location.line}); rename or remove one`,
        });
      } else seen.set(key, d);
    }
    const names = new Map(content.tools.map((t) => [t.name, `tool "${t.name}"`]));
    for (const tool of content.tools) {
      tool.aliases.forEach((alias, i) => {
        const taken = names.get(alias);
        if (taken) {
          findings.push({
            kind: 'tool',
            item: tool.name,
            field: `aliases.${i}`,
            message: `alias "${alias}" is already the name or an alias of ${taken}; an alias must resolve to exactly one tool`,
          });
        } else names.set(alias, `an alias of tool "${tool.name}"`);
      });
    }
    return findings;
  },
};

const unknownRelationTarget: LintRule = {
  id: 'RG2-unknown-relation-target',
  description: 'Every tool, agent, profile and parameter a relation names exists.',
  defaultSeverity: 'error',
  structural: true,
  check({ content }) {
    const findings: RawFinding[] = [];
    const tools = new Set(content.tools.map((t) => t.name));
    const agents = new Set(content.agents.map((a) => a.id));
    const profiles = new Set(content.profiles.map((p) => p.id));
    const push = (
      kind: ItemKind,
      item: string,
      field: string,
      what: string,
      target: string,
      known: Set<string>,
    ) =>
      findings.push({
        kind,
        item,
        field,
        message: `${field} names ${what} "${target}", which the registry does not declare; declare it or fix the name (known: ${[...known].sort().slice(0, 12).join(', ') || 'none'})`,
      });
    for (const t of content.tools) {
      t.depends_on.forEach((d, i) => {
        if (!tools.has(d.tool)) push('tool', t.name, `depends_on.${i}.tool`, 'tool', d.tool, tools);
        else if (d.tool === t.name)
          findings.push({
            kind: 'tool',
            item: t.name,
            field: `depends_on.${i}.tool`,
            message: 'a tool cannot depend on itself; remove the entry',
          });
        if (!hasParameter(t, d.parameter))
          findings.push({
            kind: 'tool',
            item: t.name,
            field: `depends_on.${i}.parameter`,
            message: `depends_on feeds parameter "${d.parameter}", which is not in this tool's parameters; add the parameter or fix the name`,
          });
      });
      t.exclusive_with.forEach((x, i) => {
        if (!tools.has(x)) push('tool', t.name, `exclusive_with.${i}`, 'tool', x, tools);
      });
      t.alternatives.forEach((x, i) => {
        if (!tools.has(x)) push('tool', t.name, `alternatives.${i}`, 'tool', x, tools);
      });
      if (t.deprecation?.replaced_by && !tools.has(t.deprecation.replaced_by))
        push('tool', t.name, 'deprecation.replaced_by', 'tool', t.deprecation.replaced_by, tools);
      t.preconditions.forEach((p, i) => {
        const params =
          p.kind === 'needs_url' ? [p.parameter] : p.kind === 'needs_verified_inputs' ? p.parameters : [];
        for (const param of params)
          if (!hasParameter(t, param))
            findings.push({
              kind: 'tool',
              item: t.name,
              field: `preconditions.${i}`,
              message: `precondition names parameter "${param}", which is not in this tool's parameters; fix the name`,
            });
        if (p.kind === 'needs_prior_call' && !tools.has(p.tool))
          push('tool', t.name, `preconditions.${i}.tool`, 'tool', p.tool, tools);
      });
      if (t.owner_agent !== undefined && !agents.has(t.owner_agent))
        push('tool', t.name, 'owner_agent', 'agent', t.owner_agent, agents);
      t.visible_agents.forEach((a, i) => {
        if (a !== '*' && !agents.has(a)) push('tool', t.name, `visible_agents.${i}`, 'agent', a, agents);
      });
    }
    for (const s of content.scenes) {
      s.tools.forEach((x, i) => {
        if (!tools.has(x)) push('scene', s.id, `tools.${i}`, 'tool', x, tools);
      });
      s.agents.forEach((a, i) => {
        if (!agents.has(a)) push('scene', s.id, `agents.${i}`, 'agent', a, agents);
      });
    }
    for (const tenant of content.tenants) {
      for (const list of ['allow', 'deny'] as const)
        tenant[list].forEach((x, i) => {
          if (x !== '*' && !x.startsWith('tag:') && !tools.has(x))
            push('tenant', tenant.id, `${list}.${i}`, 'tool', x, tools);
        });
    }
    for (const p of content.policies) {
      p.rules.forEach((r, i) => {
        r.prefer.forEach((x, j) => {
          if (!profiles.has(x)) push('policy', p.id, `rules.${i}.prefer.${j}`, 'profile', x, profiles);
        });
      });
      for (const list of ['default', 'degrade_order'] as const)
        p[list].forEach((x, i) => {
          if (!profiles.has(x)) push('policy', p.id, `${list}.${i}`, 'profile', x, profiles);
        });
    }
    return findings;
  },
};

const dependencyCycle: LintRule = {
  id: 'RG2-dependency-cycle',
  description: 'depends_on relations form no cycle.',
  defaultSeverity: 'error',
  structural: true,
  check({ content }) {
    const edges = new Map(
      content.tools.map((t) => [
        t.name,
        [...new Set(t.depends_on.map((d) => d.tool))].filter((x) => x !== t.name),
      ]),
    );
    const findings: RawFinding[] = [];
    const reported = new Set<string>();
    const state = new Map<string, 'visiting' | 'done'>();
    const stack: string[] = [];
    const visit = (name: string): void => {
      state.set(name, 'visiting');
      stack.push(name);
      for (const next of edges.get(name) ?? []) {
        if (!edges.has(next)) continue;
        if (state.get(next) === 'visiting') {
          const cycle = stack.slice(stack.indexOf(next));
          const key = [...cycle].sort().join(',');
          if (!reported.has(key)) {
            reported.add(key);
            const index =
              content.tools.find((t) => t.name === name)?.depends_on.findIndex((d) => d.tool === next) ?? 0;
            findings.push({
              kind: 'tool',
              item: name,
              field: `depends_on.${index}`,
              message: `dependency cycle ${[...cycle, next].join(' → ')}; a plan could never order these tools — remove one depends_on entry`,
            });
          }
        } else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(name, 'done');
    };
    for (const name of [...edges.keys()].sort()) if (!state.has(name)) visit(name);
    return findings;
  },
};

const threePartDescription: LintRule = {
  id: 'RG2-three-part-description',
  description: 'A description has three parts: purpose and trigger, what it returns, when not to use it.',
  defaultSeverity: 'error',
  structural: false,
  check({ content }) {
    return content.tools
      .filter((t) => typeof t.description === 'string')
      .map((t) => ({
        kind: 'tool' as const,
        item: t.name,
        field: 'description',
        message:
          'the description is one string; write it as `description: { purpose: <what it does and when to call it>, returns: <what comes back>, not_for: <when not to use it, and which tool to use instead> }`',
      }));
  },
};

const notForNamesAlternative: LintRule = {
  id: 'RG2-not-for-names-alternative',
  description: '"not for" names the tool to use instead.',
  defaultSeverity: 'error',
  structural: false,
  check({ content }) {
    const names = content.tools.map((t) => t.name);
    return content.tools.flatMap((t) => {
      if (typeof t.description === 'string') return [];
      const notFor = t.description.not_for;
      if (names.some((n) => n !== t.name && mentions(notFor, n))) return [];
      return [
        {
          kind: 'tool' as const,
          item: t.name,
          field: 'description.not_for',
          message:
            'description.not_for names no other tool; say which registered tool to use instead (e.g. "for the delivery route use logistics_track_query")',
        },
      ];
    });
  },
};

const naming: LintRule = {
  id: 'RG2-naming',
  description: 'Tool names are snake_case verb_object or object_verb.',
  defaultSeverity: 'error',
  structural: false,
  check({ content }) {
    return content.tools.flatMap((t) => {
      const parts = t.name.split('_');
      const ok =
        SNAKE_CASE.test(t.name) &&
        (NAMING_VERBS.has(parts[0] ?? '') || NAMING_VERBS.has(parts[parts.length - 1] ?? ''));
      if (ok) return [];
      return [
        {
          kind: 'tool' as const,
          item: t.name,
          field: 'name',
          message: `"${t.name}" is not snake_case verb_object or object_verb; rename it like refund_create or get_weather (a verb such as ${[...NAMING_VERBS].slice(0, 6).join(', ')}… first or last)`,
        },
      ];
    });
  },
};

const requiredCeiling: LintRule = {
  id: 'RG2-required-ceiling',
  description: 'A tool has few required parameters.',
  defaultSeverity: 'error',
  structural: false,
  check({ content, thresholds }) {
    return content.tools.flatMap((t) => {
      const required = requiredParameters(t);
      if (required.length <= thresholds.maxRequiredParameters) return [];
      return [
        {
          kind: 'tool' as const,
          item: t.name,
          field: 'parameters.required',
          message: `${required.length} required parameters (${required.join(', ')}) exceed the ceiling of ${thresholds.maxRequiredParameters}; make the ones that can be looked up or defaulted optional`,
        },
      ];
    });
  },
};

const CLOSED_SET_HINTS = [
  /\bone of\b/i,
  /\beither\b[^.]*\bor\b/i,
  /\b[a-z_]+\s*\/\s*[a-z_]+\s*\/\s*[a-z_]+\b/i,
  /(['"`])[\w-]+\1\s*(,|or|\|)\s*(['"`])[\w-]+\3/i,
  /\b[a-z_]+\s*\|\s*[a-z_]+\b/i,
  /\ballowed values?\b/i,
];

const enumForClosedSet: LintRule = {
  id: 'RG2-enum-for-closed-set',
  description: 'A string parameter whose description lists its possible values declares them as an enum.',
  defaultSeverity: 'error',
  structural: false,
  check({ content }) {
    return content.tools.flatMap((t) =>
      parameterHints(t.parameters).flatMap((h) => {
        const description = typeof h.schema.description === 'string' ? h.schema.description : '';
        if (h.schema.type !== 'string' || h.enum || h.schema.const !== undefined) return [];
        if (!CLOSED_SET_HINTS.some((re) => re.test(description))) return [];
        return [
          {
            kind: 'tool' as const,
            item: t.name,
            field: `parameters.properties.${h.path.split('.').join('.properties.')}`,
            message: `parameter "${h.path}" describes a closed set of values ("${description.slice(0, 60)}") but declares no enum; add \`enum: [...]\` (and synonyms for the other spellings)`,
          },
        ];
      }),
    );
  },
};

const nearDuplicate: LintRule = {
  id: 'RG2-near-duplicate-description',
  description: 'Tools with near-duplicate descriptions point at each other in "not for".',
  defaultSeverity: 'error',
  structural: false,
  check({ content, thresholds }) {
    const findings: RawFinding[] = [];
    const purpose = (t: ToolDefinition) =>
      typeof t.description === 'string' ? t.description : t.description.purpose;
    const notFor = (t: ToolDefinition) => (typeof t.description === 'string' ? '' : t.description.not_for);
    const tools = content.tools;
    for (const [i, a] of tools.entries()) {
      for (const b of tools.slice(i + 1)) {
        const semantic = thresholds.purposeSimilarity;
        const similarity = semantic
          ? semantic(purpose(a), purpose(b))
          : textSimilarity(purpose(a), purpose(b));
        if (similarity < (semantic ? thresholds.nearDuplicateCosine : thresholds.nearDuplicateThreshold))
          continue;
        for (const [from, to] of [
          [a, b],
          [b, a],
        ] as const) {
          if (mentions(notFor(from), to.name)) continue;
          findings.push({
            kind: 'tool',
            item: from.name,
            field: 'description',
            message: `its purpose reads like ${to.name}'s (${semantic ? 'semantic' : 'word'} similarity ${similarity.toFixed(2)}); say in description.not_for when to use ${to.name} instead, and make the purposes distinct`,
          });
        }
      }
    }
    return findings;
  },
};

const undeclaredDependency: LintRule = {
  id: 'RG2-undeclared-dependency',
  description: "A parameter fed by another tool's output is declared in depends_on.",
  defaultSeverity: 'error',
  structural: false,
  check({ content }) {
    const findings: RawFinding[] = [];
    const produced = content.tools.map((u) => ({
      tool: u,
      fields: returnedFields(u.returns as JsonSchema),
      inputs: new Set(parameterNames(u)),
    }));
    for (const t of content.tools) {
      for (const h of parameterHints(t.parameters)) {
        if (h.path.includes('.')) continue;
        const declared = new Set(t.depends_on.filter((d) => d.parameter === h.path).map((d) => d.tool));
        const description = typeof h.schema.description === 'string' ? h.schema.description : '';
        const producers = produced.filter(
          (p) =>
            p.tool.name !== t.name &&
            IDENTIFIER_LIKE.test(h.path) &&
            p.fields.has(h.path) &&
            !p.inputs.has(h.path),
        );
        const mentioned = content.tools.filter((u) => u.name !== t.name && mentions(description, u.name));
        for (const u of mentioned) {
          if (declared.has(u.name)) continue;
          findings.push({
            kind: 'tool',
            item: t.name,
            field: `parameters.properties.${h.path}`,
            message: `parameter "${h.path}" says it comes from ${u.name} but depends_on does not declare it; add \`{ tool: ${u.name}, output: <path>, parameter: ${h.path}, required: <true|false> }\``,
          });
        }
        if (
          producers.length > 0 &&
          !producers.some((p) => declared.has(p.tool.name)) &&
          mentioned.length === 0
        ) {
          findings.push({
            kind: 'tool',
            item: t.name,
            field: `parameters.properties.${h.path}`,
            message: `parameter "${h.path}" is produced by ${producers.map((p) => p.tool.name).join(', ')} but depends_on does not say so; add \`{ tool: ${producers.map((p) => p.tool.name)[0] ?? ''}, output: ${h.path}, parameter: ${h.path}, required: false }\` (required: true if it must run first)`,
          });
        }
      }
    }
    return findings;
  },
};

const synonymTargetInEnum: LintRule = {
  id: 'RG2-synonym-target-in-enum',
  description: "Synonyms map onto values of the parameter's enum.",
  defaultSeverity: 'error',
  structural: false,
  check({ content }) {
    return content.tools.flatMap((t) =>
      parameterHints(t.parameters).flatMap((h) => {
        const entries = Object.entries(h.synonyms);
        if (entries.length === 0) return [];
        const field = `parameters.properties.${h.path.split('.').join('.properties.')}.synonyms`;
        const allowed = h.enum;
        if (!allowed)
          return [
            {
              kind: 'tool' as const,
              item: t.name,
              field,
              message: `parameter "${h.path}" declares synonyms but no enum; synonyms map onto enum values — add the enum`,
            },
          ];
        return entries
          .filter(([, target]) => !allowed.includes(target))
          .map(([synonym, target]) => ({
            kind: 'tool' as const,
            item: t.name,
            field,
            message: `synonym "${synonym}" maps to "${String(target)}", which is not in the enum [${allowed.map(String).join(', ')}]; map it to an enum value`,
          }));
      }),
    );
  },
};

const actionPermission: LintRule = {
  id: 'RG2-action-permission-consistency',
  description: 'action, permission, side effects, confirmation, evidence and cache agree with each other.',
  defaultSeverity: 'error',
  structural: false,
  check({ content }) {
    const findings: RawFinding[] = [];
    for (const t of content.tools) {
      const add = (field: string, message: string) =>
        findings.push({ kind: 'tool', item: t.name, field, message });
      if (t.action === 'read') {
        if (t.permission !== 'read_only' && t.permission !== 'sensitive')
          add(
            'permission',
            'a read tool needs only `permission: read_only` (or `sensitive` for personal data); a write permission would hide it from read-only agents for nothing',
          );
        if (t.side_effects !== 'none')
          add(
            'side_effects',
            'a read tool has `side_effects: none`; if it changes something, its action is write, append or delete',
          );
        if (t.evidence === 'action_receipt')
          add('evidence', 'a read tool does not produce an action_receipt; use lead, source or derived');
      } else {
        if (t.permission === 'read_only')
          add(
            'permission',
            `a ${t.action} tool cannot be read_only; use \`permission: write\` or \`sensitive\``,
          );
        if (t.side_effects === 'none')
          add('side_effects', `a ${t.action} tool changes something; summarise it in side_effects`);
        if (t.evidence !== 'action_receipt')
          add('evidence', `a ${t.action} tool's output is \`evidence: action_receipt\``);
        if (t.cache?.enabled)
          add('cache', 'only read tools may be cached; set cache.enabled: false or remove cache');
      }
      if (t.action === 'delete' && !t.requires_confirmation)
        add(
          'requires_confirmation',
          'a delete tool must set `requires_confirmation: true` (no delete in an automatic chain without confirmation)',
        );
      if (t.permission === 'sensitive' && t.action !== 'read' && !t.requires_confirmation)
        add('requires_confirmation', 'a sensitive write must set `requires_confirmation: true` (EX-2)');
    }
    return findings;
  },
};

const sceneConsistency: LintRule = {
  id: 'RG2-scene-consistency',
  description: "A scene's tools declare its scenario and are visible to its agents.",
  defaultSeverity: 'error',
  structural: false,
  check({ content }) {
    const findings: RawFinding[] = [];
    const tools = new Map(content.tools.map((t) => [t.name, t]));
    const agents = new Map(content.agents.map((a) => [a.id, a]));
    for (const s of content.scenes) {
      s.tools.forEach((name, i) => {
        const tool = tools.get(name);
        if (!tool) return;
        if (!tool.scenarios.includes(s.scenario))
          findings.push({
            kind: 'scene',
            item: s.id,
            field: `tools.${i}`,
            message: `tool ${name} does not list scenario "${s.scenario}" in its scenarios; add it there or drop the tool from the scene`,
          });
        for (const agentId of s.agents) {
          const agent = agents.get(agentId);
          const sees =
            tool.owner_agent === agentId ||
            tool.visible_agents.includes(agentId) ||
            tool.visible_agents.includes('*');
          const allowed = !agent || PERMISSION_RANK[tool.permission] <= PERMISSION_RANK[agent.max_permission];
          if (!sees || !allowed)
            findings.push({
              kind: 'scene',
              item: s.id,
              field: `tools.${i}`,
              message: `agent ${agentId} takes this scene but cannot see ${name} (${sees ? "its permission exceeds the agent's max_permission" : 'neither owner_agent nor visible_agents'}); make it visible or drop it`,
            });
        }
      });
    }
    return findings;
  },
};

const profileConsistency: LintRule = {
  id: 'RG2-profile-consistency',
  description:
    'Profiles do not recommend and advise against the same label; policy rules do not prefer a profile for a label it is not recommended for.',
  defaultSeverity: 'error',
  structural: false,
  check({ content }) {
    const findings: RawFinding[] = [];
    const profiles = new Map(content.profiles.map((p) => [p.id, p]));
    for (const p of content.profiles) {
      const both = p.recommended_for.filter((l) => p.not_recommended_for.includes(l));
      if (both.length > 0)
        findings.push({
          kind: 'profile',
          item: p.id,
          field: 'not_recommended_for',
          message: `labels ${both.join(', ')} are both recommended and not recommended; keep each label in one list`,
        });
    }
    for (const policy of content.policies) {
      policy.rules.forEach((rule, i) => {
        rule.prefer.forEach((id, j) => {
          const profile = profiles.get(id);
          const clash = profile ? rule.labels.filter((l) => profile.not_recommended_for.includes(l)) : [];
          if (clash.length > 0 && j === 0)
            findings.push({
              kind: 'policy',
              item: policy.id,
              field: `rules.${i}.prefer.${j}`,
              message: `first choice ${id} is not recommended for ${clash.join(', ')}; put a profile recommended for it first`,
            });
        });
      });
    }
    return findings;
  },
};

/** Every rule of `registry lint`, in reporting order. */
export const LINT_RULES: readonly LintRule[] = [
  uniqueName,
  unknownRelationTarget,
  dependencyCycle,
  threePartDescription,
  notForNamesAlternative,
  naming,
  requiredCeiling,
  enumForClosedSet,
  nearDuplicate,
  undeclaredDependency,
  synonymTargetInEnum,
  actionPermission,
  sceneConsistency,
  profileConsistency,
];
