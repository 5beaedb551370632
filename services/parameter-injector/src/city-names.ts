// The Chinese names of cities (PI-2): a city a request names in Chinese (北京, 纽约, 伦敦) is found in the text — which
// has no spaces to find a name by — and written as the name in English that tools and weather services take
// (Beijing, New York, London), by the `city_name` normalizer.
//
// Source of the table: the standard Chinese names (标准译名) of the cities as the Xinhua News Agency's 外国地名译名
// 手册 and the Chinese Wikipedia article titles give them, simplified and (where they differ) traditional forms
// (Taiwan's usual ones: 雪梨, 杜拜, 休士頓); English names as the English Wikipedia titles them — Hanyu Pinyin for
// mainland cities (ISO 7098), the established exonyms elsewhere. Selection: the municipalities, provincial capitals
// and largest cities of mainland China, Hong Kong, Macau and Taiwan's largest cities, the capitals of the G20 and of
// the most populous countries, and the world's other large metropolitan areas and best-known destinations. A name
// some Chinese usage gives to two cities (圣地亚哥: Santiago or San Diego) is left out.

/** Chinese city name → its English name. */
export const CHINESE_CITY_NAMES: Readonly<Record<string, string>> = {
  北京: 'Beijing',
  上海: 'Shanghai',
  天津: 'Tianjin',
  重庆: 'Chongqing',
  重慶: 'Chongqing',
  广州: 'Guangzhou',
  廣州: 'Guangzhou',
  深圳: 'Shenzhen',
  杭州: 'Hangzhou',
  南京: 'Nanjing',
  苏州: 'Suzhou',
  蘇州: 'Suzhou',
  武汉: 'Wuhan',
  武漢: 'Wuhan',
  成都: 'Chengdu',
  西安: "Xi'an",
  长沙: 'Changsha',
  長沙: 'Changsha',
  郑州: 'Zhengzhou',
  鄭州: 'Zhengzhou',
  济南: 'Jinan',
  濟南: 'Jinan',
  青岛: 'Qingdao',
  青島: 'Qingdao',
  大连: 'Dalian',
  大連: 'Dalian',
  沈阳: 'Shenyang',
  瀋陽: 'Shenyang',
  哈尔滨: 'Harbin',
  哈爾濱: 'Harbin',
  长春: 'Changchun',
  長春: 'Changchun',
  石家庄: 'Shijiazhuang',
  石家莊: 'Shijiazhuang',
  太原: 'Taiyuan',
  呼和浩特: 'Hohhot',
  合肥: 'Hefei',
  福州: 'Fuzhou',
  厦门: 'Xiamen',
  廈門: 'Xiamen',
  南昌: 'Nanchang',
  南宁: 'Nanning',
  南寧: 'Nanning',
  海口: 'Haikou',
  三亚: 'Sanya',
  三亞: 'Sanya',
  贵阳: 'Guiyang',
  貴陽: 'Guiyang',
  昆明: 'Kunming',
  拉萨: 'Lhasa',
  拉薩: 'Lhasa',
  兰州: 'Lanzhou',
  蘭州: 'Lanzhou',
  西宁: 'Xining',
  西寧: 'Xining',
  银川: 'Yinchuan',
  銀川: 'Yinchuan',
  乌鲁木齐: 'Urumqi',
  烏魯木齊: 'Urumqi',
  宁波: 'Ningbo',
  寧波: 'Ningbo',
  无锡: 'Wuxi',
  無錫: 'Wuxi',
  佛山: 'Foshan',
  东莞: 'Dongguan',
  東莞: 'Dongguan',
  珠海: 'Zhuhai',
  温州: 'Wenzhou',
  溫州: 'Wenzhou',
  香港: 'Hong Kong',
  澳门: 'Macau',
  澳門: 'Macau',
  台北: 'Taipei',
  臺北: 'Taipei',
  高雄: 'Kaohsiung',
  台中: 'Taichung',
  臺中: 'Taichung',
  东京: 'Tokyo',
  東京: 'Tokyo',
  大阪: 'Osaka',
  京都: 'Kyoto',
  首尔: 'Seoul',
  首爾: 'Seoul',
  釜山: 'Busan',
  平壤: 'Pyongyang',
  新加坡: 'Singapore',
  曼谷: 'Bangkok',
  吉隆坡: 'Kuala Lumpur',
  雅加达: 'Jakarta',
  雅加達: 'Jakarta',
  马尼拉: 'Manila',
  馬尼拉: 'Manila',
  河内: 'Hanoi',
  河內: 'Hanoi',
  胡志明市: 'Ho Chi Minh City',
  金边: 'Phnom Penh',
  金邊: 'Phnom Penh',
  仰光: 'Yangon',
  新德里: 'New Delhi',
  德里: 'Delhi',
  孟买: 'Mumbai',
  孟買: 'Mumbai',
  班加罗尔: 'Bengaluru',
  班加羅爾: 'Bengaluru',
  加尔各答: 'Kolkata',
  加爾各答: 'Kolkata',
  卡拉奇: 'Karachi',
  伊斯兰堡: 'Islamabad',
  伊斯蘭堡: 'Islamabad',
  达卡: 'Dhaka',
  達卡: 'Dhaka',
  加德满都: 'Kathmandu',
  加德滿都: 'Kathmandu',
  迪拜: 'Dubai',
  杜拜: 'Dubai',
  阿布扎比: 'Abu Dhabi',
  多哈: 'Doha',
  利雅得: 'Riyadh',
  德黑兰: 'Tehran',
  德黑蘭: 'Tehran',
  巴格达: 'Baghdad',
  巴格達: 'Baghdad',
  伊斯坦布尔: 'Istanbul',
  伊斯坦堡: 'Istanbul',
  安卡拉: 'Ankara',
  耶路撒冷: 'Jerusalem',
  特拉维夫: 'Tel Aviv',
  特拉維夫: 'Tel Aviv',
  乌兰巴托: 'Ulaanbaatar',
  烏蘭巴托: 'Ulaanbaatar',
  塔什干: 'Tashkent',
  伦敦: 'London',
  倫敦: 'London',
  巴黎: 'Paris',
  柏林: 'Berlin',
  慕尼黑: 'Munich',
  法兰克福: 'Frankfurt',
  法蘭克福: 'Frankfurt',
  汉堡: 'Hamburg',
  漢堡: 'Hamburg',
  马德里: 'Madrid',
  馬德里: 'Madrid',
  巴塞罗那: 'Barcelona',
  巴塞隆納: 'Barcelona',
  罗马: 'Rome',
  羅馬: 'Rome',
  米兰: 'Milan',
  米蘭: 'Milan',
  阿姆斯特丹: 'Amsterdam',
  布鲁塞尔: 'Brussels',
  布魯塞爾: 'Brussels',
  维也纳: 'Vienna',
  維也納: 'Vienna',
  苏黎世: 'Zurich',
  蘇黎世: 'Zurich',
  日内瓦: 'Geneva',
  日內瓦: 'Geneva',
  斯德哥尔摩: 'Stockholm',
  斯德哥爾摩: 'Stockholm',
  奥斯陆: 'Oslo',
  奧斯陸: 'Oslo',
  哥本哈根: 'Copenhagen',
  赫尔辛基: 'Helsinki',
  赫爾辛基: 'Helsinki',
  莫斯科: 'Moscow',
  圣彼得堡: 'Saint Petersburg',
  聖彼得堡: 'Saint Petersburg',
  华沙: 'Warsaw',
  華沙: 'Warsaw',
  布拉格: 'Prague',
  布达佩斯: 'Budapest',
  布達佩斯: 'Budapest',
  雅典: 'Athens',
  里斯本: 'Lisbon',
  都柏林: 'Dublin',
  爱丁堡: 'Edinburgh',
  愛丁堡: 'Edinburgh',
  曼彻斯特: 'Manchester',
  曼徹斯特: 'Manchester',
  基辅: 'Kyiv',
  基輔: 'Kyiv',
  纽约: 'New York',
  紐約: 'New York',
  洛杉矶: 'Los Angeles',
  洛杉磯: 'Los Angeles',
  旧金山: 'San Francisco',
  舊金山: 'San Francisco',
  芝加哥: 'Chicago',
  华盛顿: 'Washington',
  華盛頓: 'Washington',
  波士顿: 'Boston',
  波士頓: 'Boston',
  西雅图: 'Seattle',
  西雅圖: 'Seattle',
  休斯敦: 'Houston',
  休士頓: 'Houston',
  迈阿密: 'Miami',
  邁阿密: 'Miami',
  拉斯维加斯: 'Las Vegas',
  拉斯維加斯: 'Las Vegas',
  费城: 'Philadelphia',
  費城: 'Philadelphia',
  亚特兰大: 'Atlanta',
  亞特蘭大: 'Atlanta',
  达拉斯: 'Dallas',
  達拉斯: 'Dallas',
  多伦多: 'Toronto',
  多倫多: 'Toronto',
  温哥华: 'Vancouver',
  溫哥華: 'Vancouver',
  蒙特利尔: 'Montreal',
  蒙特婁: 'Montreal',
  渥太华: 'Ottawa',
  渥太華: 'Ottawa',
  墨西哥城: 'Mexico City',
  圣保罗: 'São Paulo',
  聖保羅: 'São Paulo',
  里约热内卢: 'Rio de Janeiro',
  里約熱內盧: 'Rio de Janeiro',
  布宜诺斯艾利斯: 'Buenos Aires',
  布宜諾斯艾利斯: 'Buenos Aires',
  利马: 'Lima',
  利馬: 'Lima',
  波哥大: 'Bogotá',
  哈瓦那: 'Havana',
  开罗: 'Cairo',
  開羅: 'Cairo',
  拉各斯: 'Lagos',
  内罗毕: 'Nairobi',
  奈洛比: 'Nairobi',
  约翰内斯堡: 'Johannesburg',
  約翰尼斯堡: 'Johannesburg',
  开普敦: 'Cape Town',
  開普敦: 'Cape Town',
  卡萨布兰卡: 'Casablanca',
  卡薩布蘭卡: 'Casablanca',
  亚的斯亚贝巴: 'Addis Ababa',
  亞的斯亞貝巴: 'Addis Ababa',
  悉尼: 'Sydney',
  雪梨: 'Sydney',
  墨尔本: 'Melbourne',
  墨爾本: 'Melbourne',
  布里斯班: 'Brisbane',
  珀斯: 'Perth',
  伯斯: 'Perth',
  奥克兰: 'Auckland',
  奧克蘭: 'Auckland',
  惠灵顿: 'Wellington',
  威靈頓: 'Wellington',
  // The everyday nicknames (别称) of the largest mainland cities, as the 现代汉语词典 (7th ed.) and the cities' own
  // Chinese Wikipedia articles give them; one a usage gives to two cities (江城, 雾都) is left out.
  帝都: 'Beijing',
  京城: 'Beijing',
  魔都: 'Shanghai',
  申城: 'Shanghai',
  羊城: 'Guangzhou',
  花城: 'Guangzhou',
  鹏城: 'Shenzhen',
  鵬城: 'Shenzhen',
  蓉城: 'Chengdu',
  泉城: 'Jinan',
  冰城: 'Harbin',
  春城: 'Kunming',
  星城: 'Changsha',
};

/** Abbreviations English writes for a city, in capitals only ("NYC"; "la" is a word, "LA" could be Louisiana). */
const ENGLISH_CITY_ABBREVIATIONS: Readonly<Record<string, string>> = {
  NYC: 'New York',
  HK: 'Hong Kong',
};

/**
 * Earlier English names of cities of the table, still written by many ("Peking", "Bombay"), → the name the table
 * gives. Source: the postal and Wade–Giles romanisations that English used for Chinese cities before Hanyu Pinyin
 * (ISO 7098, 1982) replaced them, and the cities renamed in English by their countries (Mumbai 1995, Kolkata 2001,
 * Bengaluru 2014, Yangon 1989, Kyiv 2019), as the English Wikipedia articles of those cities list them. Names that
 * are also everyday English words ("Canton") count only as written with their capital.
 */
const ENGLISH_FORMER_NAMES: Readonly<Record<string, string>> = {
  Peking: 'Beijing',
  Peiping: 'Beijing',
  Canton: 'Guangzhou',
  Nanking: 'Nanjing',
  Tientsin: 'Tianjin',
  Chungking: 'Chongqing',
  Hangchow: 'Hangzhou',
  Tsingtao: 'Qingdao',
  Amoy: 'Xiamen',
  Bombay: 'Mumbai',
  Calcutta: 'Kolkata',
  Bangalore: 'Bengaluru',
  Rangoon: 'Yangon',
  Kiev: 'Kyiv',
};
// Former names that are also lower-case English words.
const FORMER_NAMES_AS_WORDS: ReadonlySet<string> = new Set(['Canton']);

const ENGLISH_NAMES_LONGEST_FIRST = [...new Set(Object.values(CHINESE_CITY_NAMES))].sort(
  (a, b) => b.length - a.length,
);

/**
 * The cities of the table a text names in English, whatever their case ("weather in shanghai", "Beijing weather …",
 * "in NYC"), in text order, each as the table writes it. Whole words only: "Nice" in "nice weather" is read only when
 * capitalised, like every name that is also an English word.
 */
export function englishCities(text: string): ChineseCityMention[] {
  const out: ChineseCityMention[] = [];
  for (const name of ENGLISH_NAMES_LONGEST_FIRST) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
    // A Latin name ends at a letter of another script: Chinese writes no spaces, so "Shenzhen明天" names Shenzhen.
    const re = new RegExp(
      String.raw`(?<![\p{Script=Latin}\p{N}])${escaped}(?![\p{Script=Latin}\p{N}])`,
      'giu',
    );
    for (const m of text.matchAll(re)) {
      if (out.some((o) => m.index < o.index + o.written.length && o.index < m.index + m[0].length)) continue;
      // A name that is also a lower-case English word counts only as written with its capital.
      if (m[0] === m[0].toLowerCase() && COMMON_WORDS.has(m[0])) continue;
      out.push({ written: m[0], english: name, index: m.index });
    }
  }
  for (const [former, name] of Object.entries(ENGLISH_FORMER_NAMES)) {
    const flags = FORMER_NAMES_AS_WORDS.has(former) ? 'gu' : 'giu';
    for (const m of text.matchAll(
      new RegExp(String.raw`(?<![\p{Script=Latin}\p{N}])${former}(?![\p{Script=Latin}\p{N}])`, flags),
    ))
      if (!out.some((o) => o.index === m.index)) out.push({ written: m[0], english: name, index: m.index });
  }
  for (const [abbreviation, name] of Object.entries(ENGLISH_CITY_ABBREVIATIONS))
    for (const m of text.matchAll(new RegExp(String.raw`\b${abbreviation}\b`, 'g')))
      out.push({ written: m[0], english: name, index: m.index });
  return out.sort((a, b) => a.index - b.index);
}

// City names of the table that are also everyday English words.
const COMMON_WORDS: ReadonlySet<string> = new Set(['nice', 'reading', 'bath', 'mobile', 'split', 'sale']);

/** A city named in Chinese in a text: the name as written, its English name, and where it stands. */
export interface ChineseCityMention {
  written: string;
  english: string;
  index: number;
}

const NAMES_LONGEST_FIRST = Object.keys(CHINESE_CITY_NAMES).sort((a, b) => b.length - a.length);

/**
 * The cities of the table a text names, in text order, read left to right taking the longest name at each place
 * (maximum matching, the classic way to segment Chinese by a lexicon): "北京都下雨了" is Beijing (北京) and no Kyoto
 * (京都), "新德里" is New Delhi and not Delhi.
 */
export function chineseCities(text: string): ChineseCityMention[] {
  const out: ChineseCityMention[] = [];
  let i = 0;
  while (i < text.length) {
    const name = NAMES_LONGEST_FIRST.find((n) => text.startsWith(n, i));
    if (name) {
      out.push({ written: name, english: CHINESE_CITY_NAMES[name] ?? name, index: i });
      i += name.length;
    } else i++;
  }
  return out;
}

/**
 * The English name of a city written in Chinese (with or without 市, "city") or by its English abbreviation ("NYC"),
 * or undefined when it is not in the tables.
 */
export function englishCityName(written: string): string | undefined {
  const t = written.trim();
  return (
    CHINESE_CITY_NAMES[t] ??
    CHINESE_CITY_NAMES[t.replace(/市$/u, '')] ??
    ENGLISH_CITY_ABBREVIATIONS[t] ??
    formerName(t)
  );
}

/** The table's name of a city written by an earlier English name ("Peking", "bombay"), or undefined. */
function formerName(written: string): string | undefined {
  const key = Object.keys(ENGLISH_FORMER_NAMES).find(
    (k) => k === written || (!FORMER_NAMES_AS_WORDS.has(k) && k.toLowerCase() === written.toLowerCase()),
  );
  return key === undefined ? undefined : ENGLISH_FORMER_NAMES[key];
}

// The Chinese prepositions of a route: 从 / 由 / 自 ("from") before its start, 到 / 去 / 往 / 至 / 飞 ("to") before its end.
const FROM_BEFORE = /[从從由自]\s*$/u;
const TO_BEFORE = /[到去往至飞飛]\s*$/u;

/**
 * The cities a text names in Chinese for one end of a route: `start` → those written after 从 ("from"), `end` →
 * those after 到 / 去 / 往 ("to"); when none is marked so (or no end is asked for), every city named.
 */
export function chineseCitiesFor(text: string, direction: 'start' | 'end' | null): ChineseCityMention[] {
  const cities = chineseCities(text);
  if (direction === null) return cities;
  const cue = direction === 'start' ? FROM_BEFORE : TO_BEFORE;
  const cued = cities.filter((c) => cue.test(text.slice(0, c.index)));
  return cued.length > 0 ? cued : cities;
}
