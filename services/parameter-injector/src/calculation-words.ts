// How English and Chinese ask for a calculation over two figures or a group of them, as data. Source: the
// comparative and arithmetic constructions of each language's grammar — English comparatives ("how much / how many
// more … than", "how many times …", "by what factor / percentage", "the difference / ratio between") and Chinese
// comparison with 比 and its measures of degree (Li & Thompson, "Mandarin Chinese: A Functional Reference Grammar",
// ch. 19: 比 … 多 / 少 / 高 / 低 …; 几倍, 百分之几, 差多少), and the words for totals and means (total / sum / average /
// mean; 总共 / 一共 / 合计 / 总和 / 平均). None is taken from an evaluation case.

/** The operation a request asks for over figures. */
export type Operation = 'percent_change' | 'ratio' | 'difference' | 'total' | 'average';

/** Wording of each operation, tried in this order (a percentage of a difference is a percent change). */
export const OPERATION_WORDING: readonly { operation: Operation; pattern: RegExp }[] = [
  {
    operation: 'percent_change',
    pattern:
      /\b(?:in|as\s+a)\s+percent(?:age)?\b|\bpercentage\b|%|％|\bper\s*cent\b|百分之几|百分之多少|百分比|多少个百分点|几个百分点|(?:涨|增|降|跌|减)幅/iu,
  },
  {
    operation: 'ratio',
    pattern:
      /\bhow\s+many\s+times\b|\bratio\b|\bfactor\b|\btimes\s+(?:faster|slower|more|less|higher|lower|bigger|larger|smaller)\b|几倍|多少倍|倍数|比值|比率/iu,
  },
  {
    operation: 'difference',
    pattern:
      /\bdifference\b|\bgap\b|\bby\s+how\s+much\b|\bhow\s+(?:much|many)\s+(?:faster|slower|more|less|fewer|higher|lower|bigger|smaller|larger|quicker|cheaper|longer|shorter)\b|相差|差距|差多少|差了多少|(?:多|少|高|低|快|慢|大|小|长|短|贵|便宜)了?多少/iu,
  },
  { operation: 'average', pattern: /\b(?:average|mean)\b|平均(?:值|数)?/iu },
  { operation: 'total', pattern: /\b(?:total|sum)\b|总共|一共|合计|总和|加起来/iu },
];

/**
 * Words that say which kind of figure a comparison is about when the request names no unit: speed and throughput are
 * rates ("faster", 吞吐, 速度), latency and duration are times ("slower to answer", 延迟, 耗时).
 */
export const RATE_WORDS = /\b(?:faster|quicker|throughput|speed|bandwidth)\b|吞吐|速度|带宽|更快/iu;
/** See `RATE_WORDS`. */
export const TIME_WORDS = /\b(?:slower|latency|longer|delay|duration)\b|延迟|时延|耗时|响应时间|更慢/iu;

/**
 * A time a quantity is spread over, or a rate is asked per: "per hour", "a day", "each day", "every minute", 每天,
 * 每小时. The group is the unit's word (looked up in `TIME_UNITS`).
 */
export const PER_TIME =
  /\b(?:per|a|an|each|every)\s+(second|minute|hour|day|week|month|year)\b|\bin\s+a\s+(second|minute|hour|day|week|month|year)\b|每(秒钟?|分钟|小时|钟头|天|日|周|星期|个月|月|年)/iu;

/** A length of time the request gives: "over 5 years", "a 5-year warranty", 按5年, 三年. Groups: number, unit. */
export const DURATION =
  /(\d+(?:\.\d+)?)\s*-?\s*(seconds?|minutes?|hours?|days?|weeks?|months?|years?|秒钟?|分钟|小时|天|周|星期|个月|年)/iu;
