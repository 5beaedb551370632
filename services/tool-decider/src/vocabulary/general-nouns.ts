// Vocabulary data of the TD-6 fit (fit-features `namedAsk`, `askedUnnamed`), kept apart from the code that reads it:
// nouns that do not themselves name the thing a request asks for. Not taken from any benchmark record.

/**
 * General and shell nouns: they stand for whatever the rest of the sentence describes ("the result of the factorial
 * of 5", "the best way to …"). Source: the "general nouns" of Halliday & Hasan, Cohesion in English (1976), §6.4
 * (thing, stuff, matter, business, way, …) and the commonest shell nouns of Schmid, English Abstract Nouns as
 * Conceptual Shells (2000) (result, answer, outcome, fact, …).
 */
export const GENERAL_NOUNS: readonly string[] = [
  'thing',
  'stuff',
  'matter',
  'business',
  'way',
  'kind',
  'sort',
  'type',
  'result',
  'answer',
  'outcome',
  'output',
  'value',
  'fact',
  'name',
  'list',
];

/**
 * Quantifying and partitive nouns: "the amount of X", "the percentage of X", "the total number of X" ask how much of
 * X there is, so X is the thing asked. Source: the quantity and partitive nouns of Quirk et al., A Comprehensive
 * Grammar of the English Language (1985), §5.6–5.9.
 */
export const QUANTIFYING_NOUNS: readonly string[] = [
  'amount',
  'number',
  'quantity',
  'total',
  'percentage',
  'proportion',
  'fraction',
  'part',
  'portion',
];

/**
 * Nouns of a record of attributes: a tool named for the information, details, data or statistics of something returns
 * many attributes of it ("the rating of Catan" is among a board game's information), so it names whatever attribute is
 * asked. Source: general English (the words API and database documentation use for a record).
 */
export const RECORD_NOUNS: readonly string[] = [
  'information',
  'info',
  'detail',
  'details',
  'data',
  'stats',
  'statistics',
  'facts',
  'summary',
  'overview',
  'profile',
  'record',
  'specification',
  'specs',
];

/**
 * The Chinese words of the three lists above — general (东西 thing, 事情 matter, 办法/方法/方式 way, 种类/类型 kind,
 * 结果 result, 答案 answer, 情况 situation, 名字/名称 name, 列表/清单 list), quantifying (数量/数目/总数/比例/百分比)
 * and record nouns (信息/详情/资料/数据/情况/参数表): their standard translations (现代汉语词典, 7th ed.), so a Chinese
 * question reads its thing as an English one does.
 */
export const CHINESE_GENERAL_NOUNS: readonly string[] = [
  '东西',
  '事情',
  '事',
  '办法',
  '方法',
  '方式',
  '种类',
  '类型',
  '结果',
  '答案',
  '情况',
  '名字',
  '名称',
  '列表',
  '清单',
  '数量',
  '数目',
  '总数',
  '比例',
  '百分比',
  '信息',
  '详情',
  '资料',
  '数据',
];
