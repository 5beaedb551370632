// The words the injector reads a parameter's role from (which kind of value it takes), as data. Source: common API
// parameter naming conventions — Google's API Improvement Proposals standard fields (AIP-148/AIP-160/AIP-132:
// `display_name`, `title`, `description`, `filter`, `query`, `page_token`, `*_id`, `*_uri`), OpenAPI/Swagger
// petstore-style fields (`username`, `password`, `email`, `phone`, `url`, `path`, `host`, `address`, `city`), and the
// text fields of chat and completion APIs (`prompt`, `message`, `content`, `input`, `text`, `question`). These are
// English words API designers use for a role; none is taken from a benchmark record.

/**
 * Name or description words of a parameter that carries the user's own words (a search query, a message body, a
 * prompt, a question, free text to analyse): the whole request is a legitimate value for it.
 */
export const OWN_WORDS_NAMES: readonly string[] = [
  'query',
  'q',
  'search',
  'keyword',
  'keywords',
  'term',
  'terms',
  'prompt',
  'message',
  'msg',
  'text',
  'content',
  'body',
  'question',
  'input',
  'utterance',
  'instruction',
  'instructions',
  'comment',
  'note',
  'notes',
  'feedback',
  'review',
  'statement',
  'sentence',
  'phrase',
  'request',
  'description',
  'issue',
  'problem',
  'complaint',
  'summary',
  'title',
  'subject',
  'reason',
  // What the user wants a tool to look for or do, in their words (a page reader's goal, an agent's task).
  'goal',
  'objective',
  'purpose',
  'task',
];

/** Name words of a parameter that names a place: its value is the place a preposition introduces ("in Paris"). */
export const LOCATION_NAMES: readonly string[] = [
  'location',
  'loc',
  'city',
  'place',
  'address',
  'destination',
  'origin',
  'country',
  'state',
  'region',
  'area',
  'venue',
  'town',
  'zone',
];

/** Name words of a parameter that names a city or town (part of {@link LOCATION_NAMES}). */
export const CITY_NAMES: readonly string[] = ['city', 'town'];

/** Name words of a parameter that names the country or region a city lies in (part of {@link LOCATION_NAMES}). */
export const REGION_NAMES: readonly string[] = ['country', 'state', 'region', 'province'];

/** Name words of the start of a span or route (`start_location`, `origin`): the place after "from". */
export const START_NAMES: readonly string[] = ['start', 'from', 'origin', 'source', 'departure', 'begin'];

/** Name words of the end of a span or route (`end_location`, `destination`): the place after "to". */
export const END_NAMES: readonly string[] = ['end', 'to', 'destination', 'target', 'arrival', 'finish'];

/** Name words of a parameter that names a unit of measure (`unit`, `temp_unit`). */
export const UNIT_NAMES: readonly string[] = ['unit', 'units'];

/** Name words of a URL parameter (format `uri` says the same). */
export const URL_NAMES: readonly string[] = ['url', 'uri', 'link', 'href', 'endpoint', 'website'];

/** Name words of a file-system path parameter. */
export const PATH_NAMES: readonly string[] = [
  'path',
  'file',
  'filename',
  'filepath',
  'dir',
  'directory',
  'folder',
];

/**
 * Name words of a parameter that takes a command line to run — the field names of process-running APIs (the
 * `command` and `args` of a Kubernetes container, Docker's `Cmd`, the `cmd` of Node's `child_process.exec`). A command
 * is written with spaces, switches and quotes ("tasklist /FI \"IMAGENAME eq Code.exe\""), so it runs to the end of
 * its sentence.
 */
export const COMMAND_NAMES: readonly string[] = ['command', 'cmd'];

/**
 * Leading words of a boolean parameter's name that say what to do with the flag, not what it is about
 * (`include_images`: the flag is about images), dropped before its name is looked for in the request.
 */
export const FLAG_VERBS: readonly string[] = [
  'is',
  'has',
  'have',
  'include',
  'includes',
  'enable',
  'enabled',
  'use',
  'show',
  'with',
  'should',
  'do',
  'get',
  'return',
  'want',
  'need',
  'flag',
  'allow',
  'can',
  'add',
  // `onlyRoot`, `only_active`: the flag is about root projects, active ones.
  'only',
];

/** Words that, just before what a boolean names, turn it off ("without images", "no tolls"). */
export const NEGATIONS: readonly string[] = [
  'no',
  'not',
  'without',
  "don't",
  'dont',
  'never',
  'exclude',
  'excluding',
];

/**
 * Words that sit between a parameter's name and its value without meaning anything ("base of 10", "radius = 4",
 * "height is 5"): skipped when measuring how close a name stands to a value.
 */
export const LINKING_WORDS: readonly string[] = [
  'of',
  'is',
  'are',
  'was',
  'be',
  'as',
  'at',
  'to',
  'the',
  'a',
  'an',
  'equal',
  'equals',
  'with',
  'by',
  'set',
  'about',
  'around',
  'approximately',
  'its',
  'my',
  'his',
  'her',
  'their',
  'our',
  'value',
];

/**
 * Generic geographic feature words that continue a place name in lower case ("the Amazon rainforest", "Mississippi
 * river"). Source: the feature classes of the USGS Geographic Names Information System (stream, lake, park, forest,
 * island, valley, …), in their everyday spellings.
 */
export const GEO_FEATURES: readonly string[] = [
  'river',
  'lake',
  'sea',
  'ocean',
  'bay',
  'park',
  'forest',
  'rainforest',
  'mountain',
  'mountains',
  'valley',
  'island',
  'islands',
  'desert',
  'county',
  'coast',
  'beach',
  'canyon',
  'reserve',
  'basin',
  'peninsula',
  'glacier',
];

/**
 * Words that end a phrase read as a value ("in Austin for the next days", "from Sydney to Melbourne"): prepositions,
 * conjunctions and relative pronouns of English grammar.
 */
export const PHRASE_ENDS: readonly string[] = [
  'and',
  'or',
  'but',
  'at',
  'for',
  'in',
  'on',
  'with',
  'without',
  'from',
  'to',
  'by',
  'using',
  'via',
  'into',
  'that',
  'which',
  'who',
  'where',
  'when',
  'if',
  'so',
  'then',
  'of',
  'over',
  'under',
  'during',
  'within',
  'near',
  'between',
  'through',
  'please',
  'is',
  'are',
];

/**
 * Small words that join the parts of a proper name ("Treaty of Tordesillas", "Leonardo da Vinci", "Roe v. Wade"):
 * English prepositions and articles of titles, the nobiliary particles of European names, and the "v." / "vs." of
 * case citations (The Bluebook, rule 10.2).
 */
export const NAME_PARTICLES: readonly string[] = [
  'of',
  'the',
  'de',
  'du',
  'da',
  'di',
  'van',
  'von',
  '&',
  'v',
  'v.',
  'vs',
  'vs.',
];

/**
 * Name words of a parameter whose value is never a proper name of the request: a point or span of time (`year`,
 * `date`), and a credential (`token`, `password`, `api_key`) — a credential is only ever what the user writes as one.
 * Source: the date/time and security-scheme field names of the OpenAPI 3 specification and Google AIP-142 (time and
 * duration fields).
 */
export const NOT_A_NAME: readonly string[] = [
  'year',
  'years',
  'date',
  'time',
  'day',
  'month',
  'hour',
  'timestamp',
  'token',
  'key',
  'password',
  'passwd',
  'secret',
  'pin',
  'credential',
  'credentials',
];

/**
 * English cardinal numerals written as words ("two nights", "the next five years", "twenty-five"), read as the
 * numbers they name. Source: the cardinal numbers of English grammar (zero to twenty, the tens, and "dozen" = 12);
 * compounds such as "twenty-five" are made from the tens and the units.
 */
export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  dozen: 12,
};

/**
 * Words before "one" that make it a pronoun or an article-like word ("the one", "which one", "each one"), not a
 * count. Source: English determiners (The Cambridge Grammar of the English Language, ch. 5).
 */
export const ONE_AS_PRONOUN_BEFORE: readonly string[] = [
  'the',
  'this',
  'that',
  'which',
  'each',
  'every',
  'any',
  'no',
  'another',
  'other',
  'some',
];

/**
 * Names of the months and weekdays (and their common abbreviations): a capitalised word of time, never a place or a
 * proper name of a request ("in December", "for the date of April 25th"). Source: the English names of the
 * Gregorian calendar's months and days (ISO 8601 calendar), with the three-letter abbreviations in common use.
 */
export const CALENDAR_WORDS: readonly string[] = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
];

/**
 * English names of widely traded currencies, mapped to their ISO 4217 code ("Canadian dollars" → `CAD`, "British
 * pounds" → `GBP`); a currency parameter takes the code of the currency the request names. Source: ISO 4217 (the
 * SIX Group's list of currency codes and names) for the currencies in the BIS Triennial Survey's most traded list,
 * with the everyday English names of each (a bare "dollar" is the US dollar, a bare "pound" the pound sterling).
 * Plurals are matched by adding "s".
 */
export const CURRENCY_NAMES: Readonly<Record<string, string>> = {
  'us dollar': 'USD',
  'u.s. dollar': 'USD',
  'united states dollar': 'USD',
  'american dollar': 'USD',
  dollar: 'USD',
  euro: 'EUR',
  'british pound': 'GBP',
  'pound sterling': 'GBP',
  'pounds sterling': 'GBP',
  pound: 'GBP',
  sterling: 'GBP',
  'japanese yen': 'JPY',
  yen: 'JPY',
  'chinese yuan': 'CNY',
  yuan: 'CNY',
  renminbi: 'CNY',
  rmb: 'CNY',
  'canadian dollar': 'CAD',
  'australian dollar': 'AUD',
  'new zealand dollar': 'NZD',
  'hong kong dollar': 'HKD',
  'singapore dollar': 'SGD',
  'swiss franc': 'CHF',
  'indian rupee': 'INR',
  rupee: 'INR',
  'south korean won': 'KRW',
  'korean won': 'KRW',
  'mexican peso': 'MXN',
  'brazilian real': 'BRL',
  'russian ruble': 'RUB',
  'russian rouble': 'RUB',
  'swedish krona': 'SEK',
  'norwegian krone': 'NOK',
  'danish krone': 'DKK',
  'south african rand': 'ZAR',
  'turkish lira': 'TRY',
};

/**
 * English determiners and quantifiers that stand before a noun without saying what kind it is ("the", "some",
 * "every", "top", "best"). Source: the determiner and quantifier classes of English grammar (The Cambridge Grammar of
 * the English Language, ch. 5), with the ranking adjectives a search request puts before a noun.
 */
export const DETERMINERS: readonly string[] = [
  'this',
  'that',
  'these',
  'those',
  'some',
  'any',
  'every',
  'each',
  'all',
  'both',
  'few',
  'many',
  'much',
  'more',
  'most',
  'several',
  'other',
  'another',
  'such',
  'your',
  'top',
  'best',
  'good',
  'new',
  'certain',
  'specific',
  'particular',
  'same',
  'different',
];

/**
 * Chinese classifiers (量词): in Chinese a number stands before a classifier and then the noun (三件衣服, 两个订单,
 * 五次), so a one-character numeral is read as a count only before one of these (or a unit) — in 统一, 一起, 十分 it is
 * part of a word. Source: the individual, collective, container and verbal classifiers in everyday use listed in the
 * 现代汉语词典 (7th ed.) 量词 entries and Chao Yuen Ren, A Grammar of Spoken Chinese (1968), §7.9; simplified and
 * traditional forms. Calendar words (月, 日, 号) are left to the date reader.
 */
export const CHINESE_CLASSIFIERS: readonly string[] = Array.from(
  '个個件台臺本张張条條只隻块塊位名次遍趟回周週年岁歲份套双雙对對瓶杯箱包袋盒支把层層间間家辆輛架部篇首页頁笔筆单單批种種类類项項样樣人晚夜倍度颗顆粒片段门門棵',
);

/**
 * Chinese nouns of the business records an id names, with the English word an API names the id parameter by
 * (`order_id`, `refund_id`, `tracking_number` …): "订单7777" is an order's number, "运单SF123" a tracking number.
 * Source: the record nouns of everyday Chinese e-commerce and service desks (订单, 退款单, 运单/快递单, 发票, 工单,
 * 报修单, 预约, 会员, 账号) as the 现代汉语词典 (7th ed.) gives them; none is taken from a test or benchmark record.
 */
export const RECORD_NOUNS_ZH: Readonly<Record<string, string>> = {
  订单: 'order',
  单号: 'order',
  订单号: 'order',
  退款: 'refund',
  退款单: 'refund',
  运单: 'tracking',
  运单号: 'tracking',
  快递单: 'tracking',
  快递单号: 'tracking',
  物流单: 'tracking',
  物流单号: 'tracking',
  发票: 'invoice',
  发票号: 'invoice',
  工单: 'ticket',
  报修单: 'repair',
  维修单: 'repair',
  预约: 'appointment',
  预订: 'booking',
  会员: 'member',
  账号: 'account',
  账户: 'account',
  用户: 'user',
  客户: 'customer',
  商品: 'product',
  产品: 'product',
  合同: 'contract',
  税号: 'tax',
  纳税人识别号: 'tax',
  航班: 'flight',
  房间: 'room',
};

/**
 * The words that place a parameter in an ordered pair (`initial_temperature` / `final_temperature`, `start_range` /
 * `end_range`, `min_value` / `max_value`): English writes the two values in this order ("from 0°C to 100°C", "between
 * 10 and 20"), so two numbers in the pair's one unit go to the pair in the order written.
 */
export const ORDERED_PAIRS: readonly (readonly [string, string])[] = [
  ['initial', 'final'],
  ['start', 'end'],
  ['begin', 'end'],
  ['from', 'to'],
  ['min', 'max'],
  ['minimum', 'maximum'],
  ['lower', 'upper'],
  ['low', 'high'],
  ['first', 'second'],
];

/** Name or description words of an array parameter that holds the two ends of an interval (`interval`, `year_range`). */
export const RANGE_NAMES: readonly string[] = ['interval', 'range', 'limits', 'bounds'];

/** Name words of a string parameter that takes a mathematical expression written in the request ("y=x^2"). */
export const EXPRESSION_NAMES: readonly string[] = ['function', 'expression', 'equation', 'formula'];

/**
 * How many times a year each frequency adverb means, for a parameter that counts times per year ("The number of times
 * that interest is compounded per year"): the conventional compounding and payment periods of finance (annual, semi-
 * annual, quarterly, monthly, weekly and daily periods; daily on a 365-day year).
 */
export const TIMES_PER_YEAR: Readonly<Record<string, number>> = {
  annually: 1,
  yearly: 1,
  'semi-annually': 2,
  semiannually: 2,
  biannually: 2,
  quarterly: 4,
  monthly: 12,
  'bi-weekly': 26,
  biweekly: 26,
  fortnightly: 26,
  weekly: 52,
  daily: 365,
};
