/** Where a command writes; tests pass buffers, `main.ts` passes the process streams. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Working directory relative paths are resolved against. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The stream behind `stderr`, when it is a real one: progress bars draw on it when it is a terminal. */
  stderrTerminal?: NodeJS.WriteStream;
}

/** The outcome of one command: its exit code, the one JSON object `--json` prints, and the human-readable lines. */
export interface CommandResult {
  exitCode: number;
  json: Record<string, unknown>;
  text: string[];
}

/** The real process streams. */
export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    stderrTerminal: process.stderr,
  };
}

/** Buffers output, for tests. */
export function bufferIo(cwd: string, env: NodeJS.ProcessEnv = {}): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (t) => out.push(t), stderr: (t) => err.push(t), cwd, env };
}
