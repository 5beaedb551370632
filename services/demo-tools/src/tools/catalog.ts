import { AFTER_SALES_TOOLS } from './after-sales.js';
import { OFFICE_TOOLS } from './office.js';
import { REACH_TOOLS } from './reach.js';
import { RESEARCH_TOOLS } from './research.js';
import type { ToolSpec } from './tool-spec.js';

/** Every http-bound tool of the four scenario packs, in pack order. */
export const DEMO_TOOLS: readonly ToolSpec[] = [
  ...AFTER_SALES_TOOLS,
  ...OFFICE_TOOLS,
  ...RESEARCH_TOOLS,
  ...REACH_TOOLS,
];
