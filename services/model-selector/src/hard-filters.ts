import type { Rejection } from '@signalbox/contracts';
import type { ModelProfile } from '@signalbox/registry';
import type { TaskAnalysis } from './task-analysis.js';

/** What a tenant requires of the models its tasks use (MS-3 data policy / region / allow-list, MS-5 ceiling). */
export interface TenantModelPolicy {
  /** Only these profiles may serve the tenant; all when absent. */
  allowed_profiles?: readonly string[];
  /** The region the tenant's data must stay in; a profile listing regions must include it. */
  region?: string;
  /** The tenant forbids providers that retain prompts. */
  no_retention?: boolean;
  /** Cost ceiling per task when the task sets none (MS-5). */
  max_task_cost?: number;
}

/** Head-room kept free in the context window for the answer and tool schemas. */
export const CONTEXT_RESERVE_TOKENS = 2_000;

/** One hard filter (MS-3): pure code; a reason when the profile is rejected, null when it passes. */
export type HardFilter = (
  profile: ModelProfile,
  analysis: TaskAnalysis,
  tenant: TenantModelPolicy,
) => string | null;

/** The hard filters in the order they run; each is exported so it can be tested alone. */
export const HARD_FILTERS: Readonly<Record<string, HardFilter>> = {
  context_window: (profile, analysis) => {
    const needed = analysis.token_estimate + analysis.output_token_estimate + CONTEXT_RESERVE_TOKENS;
    return profile.max_context < needed
      ? `context window ${String(profile.max_context)} tokens < ~${String(needed)} needed`
      : null;
  },
  modalities: (profile, analysis) => {
    if (!analysis.needs_vision) return null;
    return profile.modalities.includes('image') && profile.capabilities.includes('vision')
      ? null
      : 'no image input (the task has images)';
  },
  tool_calling: (profile, analysis) =>
    analysis.labels.includes('tool_use') && !profile.capabilities.includes('function_calling')
      ? 'no function calling (the task needs tools)'
      : null,
  data_policy: (profile, _analysis, tenant) => {
    if (tenant.no_retention && profile.retains_data)
      return 'the provider retains prompts; the tenant forbids it';
    if (tenant.region && profile.regions.length > 0 && !profile.regions.includes(tenant.region)) {
      return `processes data in ${profile.regions.join(', ')}, not in the tenant's region ${tenant.region}`;
    }
    return null;
  },
  tenant_allow_list: (profile, _analysis, tenant) =>
    tenant.allowed_profiles && !tenant.allowed_profiles.includes(profile.id)
      ? "not on the tenant's allow-list"
      : null,
};

/** Runs every hard filter over every profile; every rejected candidate is recorded with its reason. */
export function applyHardFilters(
  profiles: readonly ModelProfile[],
  analysis: TaskAnalysis,
  tenant: TenantModelPolicy,
): { survivors: ModelProfile[]; rejected: Rejection[] } {
  const survivors: ModelProfile[] = [];
  const rejected: Rejection[] = [];
  for (const profile of profiles) {
    const reasons = Object.entries(HARD_FILTERS).flatMap(([name, filter]) => {
      const reason = filter(profile, analysis, tenant);
      return reason ? [`${name}: ${reason}`] : [];
    });
    if (reasons.length === 0) survivors.push(profile);
    else rejected.push({ candidate: profile.id, reason: reasons.join('; ') });
  }
  return { survivors, rejected };
}
