// IF-2: progress on long work, on stderr so stdout (and `--json`) stays clean. On a terminal a cli-progress bar
// redrawn in place; anywhere else (CI logs, pipes, tests) one plain line per tenth of the way, so a log shows how
// far the work got without a wall of redraws.
import { Presets, SingleBar } from 'cli-progress';
import type { CliIo } from './io.js';

/** A running progress display. */
export interface Progress {
  /** Counts `n` more units done (default 1). */
  tick(n?: number): void;
  /** Ends the display (the bar stays on screen at its last value). */
  done(): void;
}

/** Starts a progress display of `total` units of `label` on the io's stderr. */
export function startProgress(io: CliIo, label: string, total: number): Progress {
  const terminal = io.stderrTerminal;
  if (terminal?.isTTY) {
    const bar = new SingleBar(
      {
        format: `${label} [{bar}] {value}/{total} · {percentage}% · eta {eta_formatted}`,
        stream: terminal,
        hideCursor: true,
        etaBuffer: 50,
      },
      Presets.shades_classic,
    );
    bar.start(total, 0);
    return {
      tick: (n = 1) => {
        bar.increment(n);
      },
      done: () => {
        bar.stop();
      },
    };
  }
  let value = 0;
  let shown = -1;
  const line = () => {
    io.stderr(`${label}: ${String(value)}/${String(total)}\n`);
    shown = value;
  };
  return {
    tick(n = 1) {
      const before = Math.floor((value * 10) / Math.max(1, total));
      value = Math.min(total, value + n);
      if (Math.floor((value * 10) / Math.max(1, total)) > before) line();
    },
    done() {
      if (shown !== value) line();
    },
  };
}
