// The paths `input_from` (TD-4) and `depends_on` (RG-1) point into an earlier step's output with: `order_id`,
// `$.order.id`, `results[0].url`, `results.0.url`, and `results[].url` (every element → a list).

/** A parsed path segment: a property, an index, or "every element". */
type Segment = { kind: 'key'; key: string } | { kind: 'index'; index: number } | { kind: 'each' };

/** Parses a path; throws `SyntaxError` naming the path when it is malformed. */
export function parsePath(path: string): Segment[] {
  const text = path.trim().replace(/^\$\.?/, '');
  if (text === '') return [];
  const segments: Segment[] = [];
  const re = /([^.[\]]+)|\[(\d*|\*)\]|(\.)/g;
  let consumed = 0;
  for (const m of text.matchAll(re)) {
    if (m.index !== consumed) throw new SyntaxError(`malformed output path "${path}"`);
    consumed = m.index + m[0].length;
    if (m[3] !== undefined) continue;
    if (m[1] !== undefined) {
      segments.push(/^\d+$/.test(m[1]) ? { kind: 'index', index: Number(m[1]) } : { kind: 'key', key: m[1] });
    } else if (m[2] === '' || m[2] === '*') segments.push({ kind: 'each' });
    else segments.push({ kind: 'index', index: Number(m[2]) });
  }
  if (consumed !== text.length) throw new SyntaxError(`malformed output path "${path}"`);
  return segments;
}

/** Reads `path` in `value`: `{ found: false }` when any step is missing; `[]` segments collect a list. */
export function readPath(value: unknown, path: string): { found: true; value: unknown } | { found: false } {
  const walk = (
    node: unknown,
    segments: readonly Segment[],
  ): { found: true; value: unknown } | { found: false } => {
    const [head, ...rest] = segments;
    if (!head) return node === undefined ? { found: false } : { found: true, value: node };
    if (head.kind === 'each') {
      if (!Array.isArray(node)) return { found: false };
      const values = node.map((item) => walk(item, rest)).flatMap((r) => (r.found ? [r.value] : []));
      return values.length > 0 ? { found: true, value: values } : { found: false };
    }
    if (head.kind === 'index') {
      if (!Array.isArray(node) || head.index >= node.length) return { found: false };
      return walk(node[head.index], rest);
    }
    if (typeof node !== 'object' || node === null || Array.isArray(node) || !Object.hasOwn(node, head.key)) {
      return { found: false };
    }
    return walk((node as Record<string, unknown>)[head.key], rest);
  };
  return walk(value, parsePath(path));
}
