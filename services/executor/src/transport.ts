import type { ToolDefinition } from '@signalbox/registry';

/** One call as a transport adapter receives it. */
export interface ToolInvocation {
  tool: ToolDefinition;
  arguments: Record<string, unknown>;
  /** Passed on to the tool (HTTP `Idempotency-Key`, MCP `_meta.idempotency_key`), EX-3. */
  idempotencyKey: string;
  /** This attempt's time limit. */
  timeoutMs: number;
  tenantId: string;
}

/**
 * A transport adapter (EX-1): runs one attempt of one call and returns the tool's raw output, or throws a
 * `ToolCallError` carrying its EX-5 class.
 */
export interface TransportAdapter {
  call(invocation: ToolInvocation): Promise<unknown>;
  /** Releases connections and child processes. */
  close?(): Promise<void>;
}

/** The adapters the executor routes to, by binding kind; a missing one makes its tools `unknown_tool`. */
export interface Transports {
  http?: TransportAdapter;
  mcp?: TransportAdapter;
  /** Built-in handlers by name (`compute`). */
  builtin?: Readonly<Record<string, TransportAdapter>>;
}
