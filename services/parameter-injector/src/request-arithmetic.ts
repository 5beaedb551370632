// PI-2: the calculation a request writes out over figures it gives itself — "17% of 2,340", "3.5 times 12",
// "2,340 divided by 9", 两千三百四十的百分之十七, 12乘以3 — as the program a sandbox runs. The figures are the
// user's own, so nothing is looked up first; the operation is the one the words name, never guessed.
import { NUMERAL_CHARS, parseChineseNumeral } from './chinese-numerals.js';
import { TIME_UNITS, commensurable, conversion, parseUnit, type Unit } from './units.js';

/** A program written from the request's own arithmetic, and what it computes (for the reason). */
export interface RequestArithmetic {
  expression: string;
  note: string;
}

const CJK_NUMBER = `[${NUMERAL_CHARS}]+`;
// A figure: Arabic with thousands separators and a decimal part, or a Chinese numeral.
const FIGURE = String.raw`(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|${CJK_NUMBER})`;

function valueOf(text: string): number | undefined {
  if (/^[\d,.]+$/u.test(text)) {
    const value = Number(text.replace(/,/g, ''));
    return Number.isFinite(value) ? value : undefined;
  }
  return parseChineseNumeral(text);
}

const OPERATORS: readonly { pattern: string; op: string; name: string }[] = [
  { pattern: String.raw`\s*(?:\+|plus|加上?)\s*`, op: '+', name: 'sum' },
  { pattern: String.raw`\s*(?:-|−|minus|减去?)\s*`, op: '-', name: 'difference' },
  { pattern: String.raw`\s*(?:\*|×|x|times|multiplied\s+by|乘以?)\s*`, op: '*', name: 'product' },
  { pattern: String.raw`\s*(?:/|÷|divided\s+by|over|除以)\s*`, op: '/', name: 'quotient' },
];

/**
 * The program for the arithmetic a request writes out, or undefined when it writes none. A percentage of a figure
 * ("17% of 2,340", "2340的17%", 两千三百四十的百分之十七) and one operation between two figures are read; anything
 * else is left to the figures an earlier step finds.
 */
export function requestArithmetic(text: string): RequestArithmetic | undefined {
  const first = firstArithmetic(text);
  if (!first) return undefined;
  // "…, then split evenly across 12 months", 再平摊到12个月: the result shared out over a count the request gives.
  const then = THEN_SPLIT.exec(text);
  const n = then ? valueOf(then[1] ?? '') : undefined;
  // (a total already spread over a time is not split again: 600TBW，平摊到3年)
  if (n === undefined || n === 0 || SPREAD_OVER.test(text)) return first;
  return {
    expression: `(${first.expression}) / ${String(n)}`,
    note: `${first.note}, split over ${String(n)}`,
  };
}

const THEN_SPLIT = new RegExp(
  String.raw`(?:\bthen\s+|[,，]\s*|再|然后)(?:split|divided|shared|spread|平摊|分摊|均摊|平分)\s*(?:(?:evenly|equally)\s+)?(?:across|over|among|between|into|by|到|给|成|在)?\s*${FIGURE}`,
  'iu',
);

function firstArithmetic(text: string): RequestArithmetic | undefined {
  const percentOf = new RegExp(
    String.raw`${FIGURE}\s*(?:%|％|percent|per\s*cent)\s+of\s+[$€£¥]?\s*${FIGURE}`,
    'iu',
  ).exec(text);
  const ofPercent =
    new RegExp(String.raw`${FIGURE}\s*的\s*(?:百分之\s*${FIGURE}|${FIGURE}\s*[%％])`, 'u').exec(text) ??
    undefined;
  if (percentOf) {
    const [p, base] = [valueOf(percentOf[1] ?? ''), valueOf(percentOf[2] ?? '')];
    if (p !== undefined && base !== undefined)
      return { expression: `${String(p)} / 100 * ${String(base)}`, note: `${String(p)}% of ${String(base)}` };
  }
  if (ofPercent) {
    const base = valueOf(ofPercent[1] ?? '');
    const p = valueOf(ofPercent[2] ?? ofPercent[3] ?? '');
    if (p !== undefined && base !== undefined)
      return { expression: `${String(p)} / 100 * ${String(base)}`, note: `${String(p)}% of ${String(base)}` };
  }
  const change = percentChange(text);
  if (change) return change;
  const moved = movedByPercent(text);
  if (moved) return moved;
  const spread = spreadGiven(text);
  if (spread) return spread;
  const converted = unitConversion(text);
  if (converted) return converted;
  const mean = meanOfList(text);
  if (mean) return mean;
  const reach = timeToReach(text);
  if (reach) return reach;
  for (const { pattern, op, name } of OPERATORS) {
    const m = new RegExp(`${FIGURE}${pattern}${FIGURE}`, 'iu').exec(text);
    if (!m) continue;
    const [a, b] = [valueOf(m[1] ?? ''), valueOf(m[2] ?? '')];
    if (a === undefined || b === undefined) continue;
    return {
      expression: `${String(a)} ${op} ${String(b)}`,
      note: `${name} of ${String(a)} and ${String(b)}`,
    };
  }
  return undefined;
}

// "from 44,100 to 52,300 … what percent", 从44100涨到52300，涨幅是百分之多少: the change between two figures as a
// per cent of the first — the request names both figures, the direction ("from … to") and that a per cent is wanted.
const FROM_TO = new RegExp(
  String.raw`(?:\bfrom\s+[$€£¥]?\s*${FIGURE}\s+to\s+[$€£¥]?\s*${FIGURE}|从\s*${FIGURE}\s*(?:上涨|下跌|下降|增长|增加|减少|降低|提高|涨|跌|降|升|增|减)?到\s*${FIGURE})`,
  'iu',
);
const PERCENT_WANTED =
  /\b(?:percent|per\s*cent|percentage)\b|%|％|百分之(?:多少|几)|百分比|涨幅|跌幅|降幅|增幅|增长率|变化率/iu;
// "to two decimal places", "rounded to 2 decimals", 保留两位小数.
const DECIMALS =
  /(?:\b(?:to\s+)?(\d|one|two|three|four)\s+decimal(?:\s+places?|s)?\b|保留\s*(\d|[一二两三四])\s*位小数)/iu;
const SMALL_NUMBERS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
};

/** The rounding a request asks for ("to two decimal places", 保留三位小数) around `expression`, with its note. */
function rounded(text: string, expression: string, note: string): RequestArithmetic {
  const d = DECIMALS.exec(text);
  const word = (d?.[1] ?? d?.[2] ?? '').toLowerCase();
  const places = /^\d$/u.test(word) ? Number(word) : SMALL_NUMBERS[word];
  if (places === undefined) return { expression, note };
  const scale = String(10 ** places);
  return {
    expression: `Math.round(${expression} * ${scale}) / ${scale}`,
    note: `${note}, rounded to ${String(places)} decimal place${places === 1 ? '' : 's'}`,
  };
}

// "the average of 3, 5 and 10", "mean of 1.2, 1.4, 1.9", 1.45、1.22、1.38 … 平均值: a mean asked of the one list of
// figures written (two or more, joined by commas, 、, "and" or 和).
const MEAN_WANTED = /\b(?:average|mean)\b|平均/iu;
const LIST = new RegExp(
  String.raw`${FIGURE}(?:\s*(?:,|，|、|\band\b|和|及)\s*${FIGURE})+`.replace(/\((?!\?)/gu, '(?:'),
  'giu',
);
const ONE_FIGURE = new RegExp(FIGURE, 'gu');

function meanOfList(text: string): RequestArithmetic | undefined {
  if (!MEAN_WANTED.test(text)) return undefined;
  const lists = [...text.matchAll(LIST)];
  const [list] = lists;
  if (lists.length !== 1 || !list) return undefined;
  const values = [...list[0].matchAll(ONE_FIGURE)].map((m) => valueOf(m[0]));
  if (values.length < 2 || values.some((v) => v === undefined)) return undefined;
  const figures = values.map(String);
  return rounded(
    text,
    `(${figures.join(' + ')}) / ${String(figures.length)}`,
    `the mean of ${figures.join(', ')}`,
  );
}

function percentChange(text: string): RequestArithmetic | undefined {
  const m = FROM_TO.exec(text);
  if (!m || !PERCENT_WANTED.test(text)) return undefined;
  const [a, b] = [valueOf(m[1] ?? m[3] ?? ''), valueOf(m[2] ?? m[4] ?? '')];
  if (a === undefined || b === undefined || a === 0) return undefined;
  const change = `(${String(b)} - ${String(a)}) / ${String(a)} * 100`;
  const d = DECIMALS.exec(text);
  const word = (d?.[1] ?? d?.[2] ?? '').toLowerCase();
  const places = /^\d$/u.test(word) ? Number(word) : SMALL_NUMBERS[word];
  const note = `the change from ${String(a)} to ${String(b)} in per cent of ${String(a)}`;
  if (places === undefined) return { expression: change, note };
  const scale = String(10 ** places);
  return {
    expression: `Math.round(${change} * ${scale}) / ${scale}`,
    note: `${note}, rounded to ${String(places)} decimal place${places === 1 ? '' : 's'}`,
  };
}

// A figure raised or lowered by a percentage it names: "2,300 increased by 17 percent", "80 cut by 5%",
// 两千三百块涨了百分之十七, 500元降低了10%. The figure (its unit, if any, between) comes first, then the verb of change,
// then the percentage: the result is the figure times (1 ± p/100).
const EN_MOVED = new RegExp(
  String.raw`[$€£¥]?${FIGURE}\s*(?:[\p{L}/]+\s+){0,2}?(?:(increased|raised|grown|marked\s+up|went\s+up|goes\s+up|rises|rose|grew|up)|(decreased|reduced|cut|lowered|discounted|went\s+down|goes\s+down|falls|fell|dropped|drops|down))\s+by\s+${FIGURE}\s*(?:%|％|percent|per\s*cent)`,
  'iu',
);
const ZH_MOVED = new RegExp(
  String.raw`${FIGURE}\s*[^\d，,。？！?!；;\s]{0,3}?(?:(涨了|上涨了?|增加了?|增长了?|提高了?|上调了?|涨)|(降了|下降了?|减少了?|降低了?|下调了?|降|跌了?))\s*(?:百分之\s*${FIGURE}|${FIGURE}\s*[%％])`,
  'u',
);

function movedByPercent(text: string): RequestArithmetic | undefined {
  const en = EN_MOVED.exec(text);
  const zh = en ? null : ZH_MOVED.exec(text);
  const m = en ?? zh;
  if (!m) return undefined;
  // (1.5万, 3亿: a Chinese myriad after an Arabic figure multiplies it)
  const after = m[0].slice((m[1] ?? '').length).trimStart();
  const myriad =
    zh && /^\d/u.test(m[1] ?? '') ? ({ 万: 1e4, 亿: 1e8 } as const)[after[0] as '万' | '亿'] : undefined;
  const figure = valueOf(m[1] ?? '');
  const base = figure === undefined ? undefined : figure * (myriad ?? 1);
  const p = valueOf((en ? m[4] : (m[4] ?? m[5])) ?? '');
  if (base === undefined || p === undefined) return undefined;
  const up = m[2] !== undefined;
  return {
    expression: `${String(base)} * (1 ${up ? '+' : '-'} ${String(p)} / 100)`,
    note: `${String(base)} ${up ? 'raised' : 'lowered'} by ${String(p)}%`,
  };
}

// "2.9 GB/s expressed in MB/s", "how many MB is that in a minute?", 2.9 GB/s 换算成 MB/s 是多少, 一分钟能写多少MB: one
// figure with its unit, and the units the request asks it in — each the same kind of unit (units.ts), or, for a rate
// asked as an amount over a time the request names ("in a minute", 一分钟), the amount in that time.
const MEASURED = new RegExp(String.raw`${FIGURE}\s*([A-Za-z]+(?:\s*/\s*[A-Za-z]+)?)`, 'u');
// A unit the request asks for: after "in", "into", "to", "how many", 换算成, 多少, 等于.
const ASKED_UNIT =
  /(?:\b(?:in|into|to|how\s+many|how\s+much)\s+|换算成|换算为|转换成|等于|合|多少)\s*([A-Za-z]+(?:\s*\/\s*[A-Za-z]+)?)/giu;
// A time an amount is asked over: "in a minute", "in an hour", "per day" is a rate, 一分钟 / 每分钟 (a rate) / 1小时.
const OVER_TIME =
  /\bin\s+(?:a|an|one)\s+(second|minute|hour|day|week)\b|(?:一|1)\s*(秒钟?|分钟|小时|天)(?:内|里|能|可以)?/iu;

/** `text` times `k`, written as a division when `k` is the inverse of a whole number (90 minutes → 90 / 60 hours). */
function scaled(text: string, k: number): string {
  const inverse = 1 / k;
  return k < 1 && Math.abs(inverse - Math.round(inverse)) < 1e-9
    ? `${text} / ${String(Math.round(inverse))}`
    : `${text} * ${String(Number(k.toPrecision(12)))}`;
}

function unitConversion(text: string): RequestArithmetic | undefined {
  const m = MEASURED.exec(text);
  if (!m) return undefined;
  const value = valueOf(m[1] ?? '');
  const written = (m[2] ?? '').replace(/\s+/gu, '');
  const from = parseUnit(written);
  if (value === undefined || !from || from.kind.startsWith('count:')) return undefined;
  const over = OVER_TIME.exec(text);
  const overWord = over?.slice(1).find((g) => Boolean(g));
  const overSeconds = overWord !== undefined ? TIME_UNITS[overWord.toLowerCase()] : undefined;
  const parts: [string, string][] = [];
  for (const a of text.slice(m.index + m[0].length).matchAll(ASKED_UNIT)) {
    const name = (a[1] ?? '').replace(/\s+/gu, '');
    const to: Unit | undefined = parseUnit(name);
    if (!to || to.kind !== from.kind || name.toLowerCase() === written.toLowerCase()) continue;
    if (commensurable(from, to)) {
      parts.push([name, scaled(String(value), conversion(from, to))]);
    } else if (from.perSeconds !== undefined && to.perSeconds === undefined && overSeconds !== undefined) {
      // A rate over a time is an amount: 2.9 GB/s for a minute is 2.9 × 1000 × 60 MB.
      const perSecond = conversion(from, { ...to, perSeconds: 1 });
      parts.push([
        `${name} in ${overWord ?? ''}`,
        `${String(value)} * ${String(Number(perSecond.toPrecision(12)))} * ${String(overSeconds)}`,
      ]);
    }
  }
  if (parts.length === 0) return undefined;
  const expression =
    parts.length === 1
      ? (parts[0]?.[1] ?? '')
      : `({ ${parts.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(', ')} })`;
  return {
    expression,
    note: `${String(value)} ${written} in ${parts.map(([k]) => k).join(' and ')}`,
  };
}

// "If it writes 650 GB a day, how many days until it reaches 1,200 TBW?", 每天写200GB，多少天能写满600TBW: an amount
// per a time (a rate the request gives), a total of the same kind of unit, and a length of time asked (how many days,
// how long, 多少天, 多久) — the total over the rate, in the time asked (else the rate's own time).
const RATE_GIVEN = new RegExp(
  String.raw`${FIGURE}\s*([A-Za-z]+)\s*(?:/\s*|\b(?:a|an|per|each|every)\s+)(second|minute|hour|day|week|month|year)\b|每\s*(秒钟?|分钟|小时|天|日|周|星期|个?月|年)[^，,。？！?!；;\d]{0,4}?${FIGURE}\s*([A-Za-z]+)`,
  'iu',
);
const AMOUNT_GIVEN = new RegExp(String.raw`${FIGURE}\s*([A-Za-z]+)(?![A-Za-z]*\s*/)`, 'giu');
const TIME_ASKED =
  /\bhow\s+many\s+(seconds|minutes|hours|days|weeks|months|years)\b|\bhow\s+long\b|(?:多少|几)\s*(秒钟?|分钟|个?小时|天|周|个?星期|个?月|年)|多久|多长时间/iu;

function timeToReach(text: string): RequestArithmetic | undefined {
  const asked = TIME_ASKED.exec(text);
  if (!asked) return undefined;
  // (of several rates, the one with a total of its kind: "40 litres a minute … 80 GB an hour … 2 TB")
  for (const rate of text.matchAll(new RegExp(RATE_GIVEN.source, 'giu'))) {
    const out = reached(text, asked, rate);
    if (out) return out;
  }
  return undefined;
}

function reached(
  text: string,
  asked: RegExpExecArray,
  rate: RegExpMatchArray,
): RequestArithmetic | undefined {
  const zh = rate[1] === undefined;
  const perValue = valueOf((zh ? rate[5] : rate[1]) ?? '');
  const perUnit = parseUnit((zh ? rate[6] : rate[2]) ?? '');
  const perWord = ((zh ? rate[4] : rate[3]) ?? '').toLowerCase();
  const perSeconds = TIME_UNITS[perWord] ?? TIME_UNITS[perWord.replace(/^个/u, '')];
  if (perValue === undefined || perValue === 0 || !perUnit || perUnit.perSeconds !== undefined)
    return undefined;
  if (perSeconds === undefined) return undefined;
  // The total: the one other figure of the rate's kind of unit, outside the rate's own words.
  const at = rate.index ?? 0;
  const outside = text.slice(0, at) + ' '.repeat(rate[0].length) + text.slice(at + rate[0].length);
  const totals = [...outside.matchAll(AMOUNT_GIVEN)].flatMap((m) => {
    const unit = parseUnit(m[2] ?? '');
    const value = valueOf(m[1] ?? '');
    return unit && value !== undefined && commensurable(unit, perUnit) ? [{ value, unit, text: m[0] }] : [];
  });
  const [total, another] = totals;
  if (!total || another) return undefined;
  const askedWord = (asked[1] ?? asked[2] ?? '').toLowerCase().replace(/^个/u, '');
  const askedSeconds = TIME_UNITS[askedWord] ?? TIME_UNITS[askedWord.replace(/s$/u, '')] ?? perSeconds;
  const amount = total.value * conversion(total.unit, perUnit);
  const periods = `${String(Number(amount.toPrecision(12)))} / ${String(perValue)}`;
  const k = perSeconds / askedSeconds;
  return {
    expression: `Math.round(${Math.abs(k - 1) < 1e-12 ? periods : `${periods} * ${String(Number(k.toPrecision(12)))}`} * 100) / 100`,
    note: `${total.text} at ${rate[0].trim()}, in ${askedWord || perWord}`,
  };
}

// A total the request gives spread over a length of time it gives, per a time it asks: "1,200 TBW spread over 5
// years, how many TB a day?", 600TBW平摊到3年，每天能写多少GB — the total over the number of periods, in the unit asked
// (a unit of the total's kind written after the spread, else the total's own).
const SPREAD_OVER = new RegExp(
  String.raw`${FIGURE}\s*([A-Za-z]+)[^，,。？！?!；;\d]{0,6}?(?:平摊|分摊|均摊|\bspread\s+(?:(?:evenly|equally)\s+)?over|\bsplit\s+(?:(?:evenly|equally)\s+)?(?:across|over))\s*(?:到|在|成)?\s*${FIGURE}\s*-?\s*(seconds?|minutes?|hours?|days?|weeks?|months?|years?|秒钟?|分钟|小时|天|周|星期|个月|年)`,
  'iu',
);
const PER_ASKED =
  /\b(?:per|a|an|each|every)\s+(second|minute|hour|day|week|month|year)\b|每\s*(秒钟?|分钟|小时|天|日|周|星期|个月|月|年)/iu;

function spreadGiven(text: string): RequestArithmetic | undefined {
  const m = SPREAD_OVER.exec(text);
  if (!m) return undefined;
  const after = text.slice(m.index + m[0].length);
  const per = PER_ASKED.exec(after);
  const total = valueOf(m[1] ?? '');
  const unit = parseUnit(m[2] ?? '');
  const length = valueOf(m[3] ?? '');
  const spanWord = (m[4] ?? '').toLowerCase();
  const span = TIME_UNITS[spanWord] ?? TIME_UNITS[spanWord.replace(/s$/u, '')];
  const perWord = (per?.[1] ?? per?.[2] ?? '').toLowerCase();
  const perSeconds = TIME_UNITS[perWord];
  if (total === undefined || !unit || length === undefined || length === 0) return undefined;
  if (span === undefined || perSeconds === undefined) return undefined;
  const asked = [...after.matchAll(/[A-Za-z]+/gu)]
    .map((w) => parseUnit(w[0]))
    .find((u): u is Unit => u !== undefined && commensurable(u, unit));
  const k = conversion(unit, asked ?? unit);
  const periods = (length * span) / perSeconds;
  const amount = Math.abs(k - 1) < 1e-12 ? String(total) : String(Number((total * k).toPrecision(12)));
  return {
    expression: `Math.round(${amount} / ${String(Number(periods.toPrecision(12)))} * 100) / 100`,
    note: `${m[1] ?? ''} ${m[2] ?? ''} spread over ${m[3] ?? ''} ${spanWord}, per ${perWord}`,
  };
}
