// Units of measure a figure is written in, as data, so a calculation can compare figures written in different units
// (3.2 GB/s against 2800 MB/s) and give its answer in the unit the request asks for (per hour, in GB).
// Sources: the SI Brochure (BIPM, 9th edition, 2019) — decimal prefixes (table 7) and the non-SI units accepted for
// use with the SI: minute, hour, day (table 8); IEC 80000-13:2008 — the byte and its decimal multiples (kB = 10³ B,
// MB = 10⁶ B …), the convention of storage datasheets; JEDEC JESD218 — TBW, "terabytes written", an endurance rating
// in TB. A year is 365 days and a month a twelfth of it: the convention of endurance ratings (JESD218's drive writes
// per day divide by 365 days a year) and of everyday per-day arithmetic.

/** What a unit measures: data (bytes), time (seconds), or a count of a named thing ("transactions"). */
export type UnitKind = 'data' | 'time' | `count:${string}`;

/** A unit read from its written form: its kind and size in the kind's base unit, maybe per a unit of time. */
export interface Unit {
  kind: UnitKind;
  /** Size in the base unit (bytes, seconds, one thing). */
  factor: number;
  /** For a rate ("GB/s", "transactions per second"): the time it is per, in seconds. */
  perSeconds?: number;
}

const DATA_UNITS: Readonly<Record<string, number>> = {
  b: 1,
  byte: 1,
  bytes: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  pb: 1e15,
  // JESD218: "terabytes written" (TBW) and its siblings measure data written, in bytes.
  tbw: 1e12,
  pbw: 1e15,
};

const SECOND = 1;
const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;
const YEAR = 365 * DAY;

/** Units of time in English and Chinese, with their length in seconds. */
export const TIME_UNITS: Readonly<Record<string, number>> = {
  ms: 1e-3,
  millisecond: 1e-3,
  milliseconds: 1e-3,
  毫秒: 1e-3,
  s: SECOND,
  sec: SECOND,
  secs: SECOND,
  second: SECOND,
  seconds: SECOND,
  秒: SECOND,
  秒钟: SECOND,
  min: MINUTE,
  mins: MINUTE,
  minute: MINUTE,
  minutes: MINUTE,
  分钟: MINUTE,
  h: HOUR,
  hr: HOUR,
  hrs: HOUR,
  hour: HOUR,
  hours: HOUR,
  小时: HOUR,
  钟头: HOUR,
  day: DAY,
  days: DAY,
  天: DAY,
  日: DAY,
  week: 7 * DAY,
  weeks: 7 * DAY,
  周: 7 * DAY,
  星期: 7 * DAY,
  month: YEAR / 12,
  months: YEAR / 12,
  月: YEAR / 12,
  个月: YEAR / 12,
  year: YEAR,
  years: YEAR,
  年: YEAR,
};

/** The unit of one written unit ("GB/s", "ms", "transactions per second", "TBW"); undefined for none. */
export function parseUnit(text: string): Unit | undefined {
  const t = text.trim().toLowerCase();
  if (t === '') return undefined;
  const [head = '', per] = t.split(/\s*\/\s*|\s+per\s+/u, 2);
  let perSeconds: number | undefined;
  if (per !== undefined) {
    perSeconds = TIME_UNITS[per];
    // "minutes per run": per a thing that is not time is a kind of its own.
    if (perSeconds === undefined) return { kind: `count:${t}`, factor: 1 };
  }
  const data = DATA_UNITS[head];
  if (data !== undefined) return { kind: 'data', factor: data, ...(perSeconds ? { perSeconds } : {}) };
  const time = TIME_UNITS[head];
  if (time !== undefined && perSeconds === undefined) return { kind: 'time', factor: time };
  return { kind: `count:${head}`, factor: 1, ...(perSeconds ? { perSeconds } : {}) };
}

/** Whether figures in these units can be compared after conversion (same kind, both rates or neither). */
export function commensurable(a: Unit, b: Unit): boolean {
  return a.kind === b.kind && (a.perSeconds === undefined) === (b.perSeconds === undefined);
}

/** How many of `to` one `from` is (both of one kind): 1 GB/s is 1000 MB/s, 1 TB/day is 1000/86400 GB/s. */
export function conversion(from: Unit, to: Unit): number {
  return (from.factor / to.factor) * ((to.perSeconds ?? 1) / (from.perSeconds ?? 1));
}
