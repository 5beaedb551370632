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
