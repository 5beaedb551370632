import { getQuickJS, shouldInterruptAfterDeadline, type QuickJSWASMModule } from 'quickjs-emscripten';
import { ToolCallError } from './errors.js';
import type { ToolInvocation, TransportAdapter } from './transport.js';

/** Options of {@link createComputeSandbox}. */
export interface ComputeSandboxOptions {
  /** Heap limit of one evaluation's runtime. @default 32 MiB */
  memoryLimitBytes?: number;
  /** Stack limit (deep recursion fails instead of crashing the host). @default 256 KiB */
  maxStackBytes?: number;
  /** Longest accepted program text. @default 20000 */
  maxSourceLength?: number;
}

/** The sandboxed `compute` built-in (EX-1, RS-6): ECMAScript only, with time and memory limits and no I/O. */
export interface ComputeSandbox extends TransportAdapter {
  /** Evaluates `expression` (a program whose last value is the result) with `inputs` bound as a frozen global. */
  evaluate(expression: string, inputs: unknown, timeoutMs: number, tool?: string): Promise<unknown>;
}

// What `context.dump` gives for a thrown value: an object with name/message for Errors, anything for `throw 1`.
function errorParts(dumped: unknown): { name: string; message: string } {
  if (typeof dumped === 'object' && dumped !== null) {
    const d = dumped as { name?: unknown; message?: unknown };
    return {
      name: typeof d.name === 'string' ? d.name : 'Error',
      message: typeof d.message === 'string' ? d.message : '',
    };
  }
  return { name: 'Error', message: typeof dumped === 'string' ? dumped : JSON.stringify(dumped) };
}

let modulePromise: Promise<QuickJSWASMModule> | undefined;

function sandboxError(tool: string, code: string, message: string): ToolCallError {
  // The tool's declared codes (sandbox_timeout, sandbox_error) class these as `parameter`: the program is wrong,
  // running it again does not help.
  return new ToolCallError('parameter', `${tool}: ${code}: ${message}`, tool, { code, retriable: false });
}

/**
 * A QuickJS (WASM) sandbox: each evaluation gets a fresh runtime with a heap limit, a stack limit and an interrupt
 * deadline, and a context holding nothing but the ECMAScript built-ins — no `require`, `fetch`, `process`,
 * module loader, timers or file system; the only input is the JSON copy of `inputs`; the only output is the JSON
 * value of the last expression. Evaluation is synchronous on the caller's thread, bounded by the deadline.
 */
export function createComputeSandbox(options: ComputeSandboxOptions = {}): ComputeSandbox {
  const memoryLimit = options.memoryLimitBytes ?? 32 * 1024 * 1024;
  const maxStack = options.maxStackBytes ?? 256 * 1024;
  const maxSource = options.maxSourceLength ?? 20_000;

  async function evaluate(
    expression: string,
    inputs: unknown,
    timeoutMs: number,
    tool = 'compute',
  ): Promise<unknown> {
    if (expression.length > maxSource)
      throw sandboxError(tool, 'sandbox_error', `the program is longer than ${String(maxSource)} characters`);
    modulePromise ??= getQuickJS();
    const quickjs = await modulePromise;
    const runtime = quickjs.newRuntime();
    runtime.setMemoryLimit(memoryLimit);
    runtime.setMaxStackSize(maxStack);
    const deadline = Date.now() + timeoutMs;
    runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
    const context = runtime.newContext();
    try {
      const bind = context.evalCode(
        `globalThis.inputs = Object.freeze(JSON.parse(${JSON.stringify(JSON.stringify(inputs ?? {}))}));`,
      );
      if (bind.error) {
        bind.error.dispose();
        throw sandboxError(tool, 'sandbox_error', 'the inputs could not be bound');
      }
      bind.value.dispose();
      const result = context.evalCode(expression, 'compute.js');
      if (result.error) {
        const dumped: unknown = context.dump(result.error);
        result.error.dispose();
        const { name, message } = errorParts(dumped);
        if (/out of memory/i.test(message) || (name === 'InternalError' && /memory/i.test(message)))
          throw sandboxError(tool, 'sandbox_memory', `the computation exceeded ${String(memoryLimit)} bytes`);
        if (/interrupted/i.test(message) || Date.now() >= deadline)
          throw sandboxError(tool, 'sandbox_timeout', `the computation exceeded ${String(timeoutMs)} ms`);
        throw sandboxError(tool, 'sandbox_error', `${name}: ${message.split('\n')[0] ?? ''}`);
      }
      // JSON inside the sandbox: the value crosses as text, so no handle or host object can leak out.
      const jsonFn = context.evalCode(
        '(v) => { const s = JSON.stringify(v); return s === undefined ? "null" : s; }',
      );
      if (jsonFn.error) {
        jsonFn.error.dispose();
        result.value.dispose();
        throw sandboxError(tool, 'sandbox_error', 'could not serialise the result');
      }
      const text = context.callFunction(jsonFn.value, context.undefined, result.value);
      jsonFn.value.dispose();
      result.value.dispose();
      if (text.error) {
        const dumped: unknown = context.dump(text.error);
        text.error.dispose();
        throw sandboxError(tool, 'sandbox_error', `the result is not JSON: ${errorParts(dumped).message}`);
      }
      const json = context.getString(text.value);
      text.value.dispose();
      return JSON.parse(json) as unknown;
    } finally {
      context.dispose();
      runtime.dispose();
    }
  }

  return {
    evaluate,
    async call(invocation: ToolInvocation) {
      const { expression, inputs } = invocation.arguments;
      if (typeof expression !== 'string' || expression.length === 0)
        throw sandboxError(invocation.tool.name, 'sandbox_error', '`expression` must be a non-empty string');
      // The tool's answer: the value with the program that produced it, so derived evidence shows its working.
      const value = await evaluate(expression, inputs ?? {}, invocation.timeoutMs, invocation.tool.name);
      return { value, expression };
    },
  };
}
