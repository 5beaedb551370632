// Chinese numerals (PI-2): 两千三百四十, 一百零五, 3万, 1.5万, 三点五, 百分之十七, 三分之一 read as the numbers they
// write. The grammar is the one of Modern Standard Chinese (simplified and traditional characters, and the financial
// forms 壹贰叁…): digits 零〇一二两三四五六七八九, the units 十百千 inside a group of four digits, the group units 万
// (10⁴) and 亿 (10⁸), 点 for a decimal point, X分之Y for a fraction; a zero marks a skipped unit (一百零五 = 105), and
// a last digit written right after a unit without a zero takes the next lower unit (一万二 = 12 000, 三千五 = 3 500 —
// the everyday shortening). Arabic digits may stand for a digit or a group ("3万", "1.5万", "3万5千").
//
// Written here rather than taken from a package: the two maintained ones on the registry each misread everyday
// forms without saying so (nzh decodes 两千三百四十 as 340 and 一万二 as 10002; chinese-numbers-converter reads
// 一亿零五百万 as 1000005000000 and 一点五 as 15), and neither ships types. The grammar is small and closed.

const DIGITS: Readonly<Record<string, number>> = {
  零: 0,
  〇: 0,
  一: 1,
  壹: 1,
  二: 2,
  贰: 2,
  貳: 2,
  两: 2,
  兩: 2,
  三: 3,
  叁: 3,
  參: 3,
  四: 4,
  肆: 4,
  五: 5,
  伍: 5,
  六: 6,
  陆: 6,
  陸: 6,
  七: 7,
  柒: 7,
  八: 8,
  捌: 8,
  九: 9,
  玖: 9,
};

/** The units inside a group of four digits. 廿 and 卅 are the written contractions of 二十 and 三十. */
const UNITS: Readonly<Record<string, number>> = { 十: 10, 拾: 10, 百: 100, 佰: 100, 千: 1000, 仟: 1000 };
const CONTRACTIONS: Readonly<Record<string, number>> = { 廿: 20, 卅: 30 };
/** The group units, largest first. */
const GROUPS: readonly [string, number][] = [
  ['亿', 1e8],
  ['億', 1e8],
  ['万', 1e4],
  ['萬', 1e4],
];
const POINTS = new Set(['点', '點']);

/** The characters of Chinese numerals (a numeral may also hold Arabic digits and a `.`: "1.5万"). */
export const NUMERAL_CHARS = `${Object.keys(DIGITS).join('')}${Object.keys(UNITS).join('')}${Object.keys(CONTRACTIONS).join('')}${GROUPS.map(([g]) => g).join('')}点點`;

type Token =
  { kind: 'digit'; value: number; arabic: boolean } | { kind: 'zero' } | { kind: 'unit'; value: number };

/** Rounds away the binary noise of decimal arithmetic (1.15 × 10⁴ = 11499.999…). */
function clean(n: number): number {
  return Number(n.toPrecision(12));
}

/** The numeral as digits, zeros, units and group units (Arabic numbers are one digit token: "15万"). */
function tokens(text: string): Token[] | undefined {
  const out: Token[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    const arabic = /^\d+(?:\.\d+)?/.exec(text.slice(i));
    const group = GROUPS.find(([name]) => name === c);
    if (arabic) {
      out.push({ kind: 'digit', value: Number(arabic[0]), arabic: true });
      i += arabic[0].length - 1;
    } else if (group) out.push({ kind: 'unit', value: group[1] });
    else if (c === '零' || c === '〇') out.push({ kind: 'zero' });
    else if (DIGITS[c] !== undefined) out.push({ kind: 'digit', value: DIGITS[c], arabic: false });
    else if (UNITS[c] !== undefined) out.push({ kind: 'unit', value: UNITS[c] });
    else if (CONTRACTIONS[c] !== undefined)
      out.push({ kind: 'digit', value: CONTRACTIONS[c] / 10, arabic: false }, { kind: 'unit', value: 10 });
    else return undefined;
  }
  return out;
}

/** A group below 10 000 ("三千零五十", "十七", "3千5", "一百一" = 110). */
function group(ts: readonly Token[]): number | undefined {
  let total = 0;
  let pending: number | null = null;
  let lastUnit = Infinity;
  let zeroSinceUnit = false;
  for (const [i, t] of ts.entries()) {
    if (t.kind === 'digit') {
      // Two digits in a row (三四个 "three or four") are an estimate, not a number.
      if (pending !== null) return undefined;
      pending = t.value;
    } else if (t.kind === 'zero') {
      if (pending !== null) return undefined;
      zeroSinceUnit = true;
    } else {
      // Units fall from left to right (千 before 百 before 十); only a leading 十 may stand without its digit.
      if (t.value >= lastUnit || (pending === null && !(t.value === 10 && i === 0))) return undefined;
      total += (pending ?? 1) * t.value;
      pending = null;
      lastUnit = t.value;
      zeroSinceUnit = false;
    }
  }
  if (pending === null) return total;
  // 三千五 = 3500: a last digit right after 百 or 千 with no zero between takes the unit below.
  return (
    total + (lastUnit > 10 && lastUnit !== Infinity && !zeroSinceUnit ? pending * (lastUnit / 10) : pending)
  );
}

const GROUP_SIZES: readonly number[] = [1e8, 1e4];

/** Splits at the largest group unit present (亿, then 万): left × unit + right, the right part below the unit. */
function split(ts: readonly Token[], level: number): number | undefined {
  if (ts.length === 0) return undefined;
  const size = GROUP_SIZES[level];
  if (size === undefined) return group(ts);
  const at = ts.findIndex((t) => t.kind === 'unit' && t.value === size);
  if (at === -1) return split(ts, level + 1);
  const left = split(ts.slice(0, at), level + 1);
  if (left === undefined) return undefined;
  let rest = ts.slice(at + 1);
  if (rest.length === 0) return clean(left * size);
  const zero = rest[0]?.kind === 'zero';
  if (zero) rest = rest.slice(1);
  const only = rest.length === 1 ? rest[0] : undefined;
  // 一万二 = 12 000, 3万5 = 35 000: a lone digit right after a group unit takes the unit below it.
  if (only?.kind === 'digit' && !zero && Number.isInteger(only.value) && only.value < 10)
    return clean(left * size + only.value * (size / 10));
  const right = split(rest, level + 1);
  if (right === undefined || right >= size) return undefined;
  return clean(left * size + right);
}

const ANY_DIGIT = /[\d零〇一壹二贰貳两兩三叁參四肆五伍六陆陸七柒八捌九玖廿卅]/;

/**
 * The number a Chinese numeral writes ("两千三百四十" → 2340, "一万零一" → 10001, "1.5万" → 15000, "三点五" → 3.5,
 * "二〇二六" → 2026 read digit by digit), or undefined when the text is not one well-formed numeral ("三四" is an
 * estimate, "千万" has no digit, "万一" starts with a unit).
 */
export function parseChineseNumeral(text: string): number | undefined {
  const s = text.trim();
  // A numeral writes at least one digit, or starts with 十 (十五).
  if (s === '' || (!ANY_DIGIT.test(s) && !/^[十拾]/.test(s))) return undefined;
  const chars = Array.from(s);
  const point = chars.findIndex((c) => POINTS.has(c));
  if (point !== -1) {
    let fraction = chars.slice(point + 1);
    let scale = 1;
    const groupAfter = GROUPS.find(([g]) => fraction[fraction.length - 1] === g);
    if (groupAfter) {
      scale = groupAfter[1];
      fraction = fraction.slice(0, -1);
    }
    // After 点 the digits are read one by one (三点一四 = 3.14); a unit there is a clock time (三点五十), no decimal.
    if (fraction.length === 0 || !fraction.every((c) => DIGITS[c] !== undefined)) return undefined;
    const left = parseChineseNumeral(chars.slice(0, point).join(''));
    if (left === undefined || !Number.isInteger(left)) return undefined;
    const decimals = Number(`0.${fraction.map((c) => String(DIGITS[c] ?? 0)).join('')}`);
    return clean((left + decimals) * scale);
  }
  const parsed = tokens(s);
  if (!parsed) return undefined;
  // A run of bare digits is read digit by digit (二〇二六, 三〇五) — only from three digits on: two ("三四", "五一")
  // are an estimate or a name.
  if (parsed.every((t) => t.kind === 'zero' || (t.kind === 'digit' && !t.arabic))) {
    if (parsed.length === 1) return parsed[0]?.kind === 'digit' ? parsed[0].value : 0;
    if (parsed.length === 2) return undefined;
    return Number(parsed.map((t) => (t.kind === 'digit' ? String(t.value) : '0')).join(''));
  }
  return split(parsed, 0);
}

/** A Chinese numeral found in text: its number, where it is written, and whether it is a percentage. */
export interface ChineseNumeralMention {
  value: number;
  text: string;
  index: number;
  /** 百分之十七 (17 %), 千分之五 (0.5 %). */
  percent: boolean;
  /** True for a numeral of one character (三, 两, 十): a number only before a classifier or a unit (三件, 两天). */
  single: boolean;
}

const SPAN = new RegExp(String.raw`[\d.${NUMERAL_CHARS}]+`, 'gu');
const CJK_NUMERAL = new RegExp(`[${NUMERAL_CHARS}]`, 'u');
const FRACTION = new RegExp(String.raw`([\d.${NUMERAL_CHARS}]+)分之([\d.${NUMERAL_CHARS}]+)`, 'gu');
// An estimate: 两百多 ("over two hundred"), 二十几, 三千余; 几十 / 几百 ("some tens").
const ESTIMATE_AFTER = /^[多余几幾]/u;
const ESTIMATE_BEFORE = /[几幾]$/u;
// A minus: 负五 ("minus five"), 零下五度 ("five below zero").
const NEGATIVE_BEFORE = /(?:负|負|零下)$/u;

/** A fraction's denominator: a numeral, or a bare unit (百分之 = per hundred, 千分之 = per thousand, 万分之). */
function denominator(text: string): number | undefined {
  if (text.length === 1 && UNITS[text] !== undefined) return UNITS[text];
  const g = GROUPS.find(([name]) => name === text);
  return g ? g[1] : parseChineseNumeral(text);
}

/**
 * The Chinese numerals of a text, in text order (a span of Arabic digits alone is not one: see extractQuantities).
 * `stopBefore` lists words that start with a numeral character but are units (千米 "kilometre", 千克): a numeral
 * ends before them. Estimates (两百多, 三四个) and malformed runs are not numbers; a minus (负, 零下) is kept.
 */
export function chineseNumerals(text: string, stopBefore: readonly string[] = []): ChineseNumeralMention[] {
  const out: ChineseNumeralMention[] = [];
  const taken: [number, number][] = [];
  const signed = (value: number, index: number) =>
    NEGATIVE_BEFORE.test(text.slice(0, index)) ? -value : value;
  for (const m of text.matchAll(FRACTION)) {
    const below = denominator(m[1] ?? '');
    const above = parseChineseNumeral(m[2] ?? '');
    if (below === undefined || above === undefined || below === 0) continue;
    // 百分之十七 is 17 per cent; 千分之五 is 0.5 per cent; 三分之一 is the number 1/3.
    const percent = below === 100 || below === 1000 || below === 1e4;
    const value = percent ? clean((above * 100) / below) : clean(above / below);
    out.push({ value: signed(value, m.index), text: m[0], index: m.index, percent, single: false });
    taken.push([m.index, m.index + m[0].length]);
  }
  for (const m of text.matchAll(SPAN)) {
    let written = m[0];
    const index = m.index;
    if (taken.some(([a, b]) => index < b && index + written.length > a)) continue;
    // A unit that begins with a numeral character (5千米) ends the numeral before it.
    for (let i = 1; i < written.length; i++)
      if (stopBefore.some((u) => text.startsWith(u, index + i))) {
        written = written.slice(0, i);
        break;
      }
    written = written.replace(/[.点點]+$/u, '');
    if (!CJK_NUMERAL.test(written)) continue;
    const end = index + written.length;
    if (ESTIMATE_AFTER.test(text.slice(end)) || ESTIMATE_BEFORE.test(text.slice(0, index))) continue;
    const value = parseChineseNumeral(written);
    if (value === undefined) continue;
    out.push({
      value: signed(value, index),
      text: written,
      index,
      percent: false,
      single: Array.from(written).length === 1,
    });
  }
  return out.sort((a, b) => a.index - b.index);
}
