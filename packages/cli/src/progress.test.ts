import { describe, expect, it } from 'vitest';
import { bufferIo } from './io.js';
import { startProgress } from './progress.js';

describe('startProgress (IF-2)', () => {
  it('off a terminal: one line per tenth of the way and the final count, on stderr only', () => {
    const io = bufferIo('/');
    const progress = startProgress(io, 'eval bfcl multiple', 200);
    for (let i = 0; i < 200; i++) progress.tick();
    progress.done();
    expect(io.out).toEqual([]);
    expect(io.err).toHaveLength(10);
    expect(io.err[0]).toBe('eval bfcl multiple: 20/200\n');
    expect(io.err.at(-1)).toBe('eval bfcl multiple: 200/200\n');
  });

  it('done() prints where it stopped when that was not printed yet', () => {
    const io = bufferIo('/');
    const progress = startProgress(io, 'redecide tasks', 7);
    progress.tick(3);
    progress.done();
    expect(io.err).toEqual(['redecide tasks: 3/7\n']);
  });

  it('on a terminal: a bar redrawn in place with the count', () => {
    const written: string[] = [];
    const terminal = {
      isTTY: true,
      columns: 100,
      write: (chunk: string) => written.push(chunk),
      cursorTo: () => true,
      clearLine: () => true,
      moveCursor: () => true,
      clearScreenDown: () => true,
    } as unknown as NodeJS.WriteStream;
    const io = { ...bufferIo('/'), stderrTerminal: terminal };
    const progress = startProgress(io, 'eval bfcl parallel', 4);
    for (let i = 0; i < 4; i++) progress.tick();
    progress.done();
    expect(io.err).toEqual([]);
    expect(written.join('')).toContain('eval bfcl parallel [');
    expect(written.join('')).toContain('4/4 · 100%');
  });
});
