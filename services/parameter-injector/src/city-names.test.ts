import { describe, expect, it } from 'vitest';
import {
  CHINESE_CITY_NAMES,
  chineseCities,
  chineseCitiesFor,
  englishCities,
  englishCityName,
} from './city-names.js';
import { applyNormalizers } from './normalizers.js';

describe('cities named in Chinese', () => {
  it('finds the cities a text names, taking the longest name at each place', () => {
    expect(chineseCities('明天北京天气怎么样').map((c) => c.english)).toEqual(['Beijing']);
    // 北京都 is Beijing + 都 ("all"), not Kyoto (京都); 新德里 is New Delhi, not Delhi; 都柏林 is Dublin, not Berlin.
    expect(chineseCities('北京都下雨了').map((c) => c.english)).toEqual(['Beijing']);
    expect(chineseCities('新德里和都柏林').map((c) => c.english)).toEqual(['New Delhi', 'Dublin']);
    expect(chineseCities('明天會下雨嗎').map((c) => c.english)).toEqual([]);
  });
  it('the start and the end of a route: after 从 and after 到', () => {
    expect(chineseCitiesFor('从上海到东京的航班', 'start').map((c) => c.english)).toEqual(['Shanghai']);
    expect(chineseCitiesFor('从上海到东京的航班', 'end').map((c) => c.english)).toEqual(['Tokyo']);
    expect(chineseCitiesFor('从上海到东京的航班', null)).toHaveLength(2);
  });
  it('the city_name normalizer writes the English name the backends know, simplified or traditional, with 市 or not', () => {
    expect(applyNormalizers('北京', ['trim', 'city_name'])).toBe('Beijing');
    expect(applyNormalizers(' 紐約 ', ['trim', 'city_name'])).toBe('New York');
    expect(applyNormalizers('上海市', ['city_name'])).toBe('Shanghai');
    expect(applyNormalizers('beijing', ['city_name'])).toBe('Beijing');
    expect(englishCityName('绍兴')).toBeUndefined();
  });
  it('covers the world beyond the demo backend: capitals and large cities of every continent', () => {
    const samples: [string, string][] = [
      ['伦敦', 'London'],
      ['巴黎', 'Paris'],
      ['开罗', 'Cairo'],
      ['悉尼', 'Sydney'],
      ['圣保罗', 'São Paulo'],
      ['首尔', 'Seoul'],
      ['乌鲁木齐', 'Urumqi'],
    ];
    for (const [zh, en] of samples) expect(CHINESE_CITY_NAMES[zh]).toBe(en);
    expect(Object.keys(CHINESE_CITY_NAMES).length).toBeGreaterThan(150);
  });
});

describe('cities named in English, and by their Chinese nicknames', () => {
  it('finds a city of the table written in English whatever its case, and the capital abbreviations', () => {
    expect(englishCities('is it raining in london right now?').map((c) => c.english)).toEqual(['London']);
    expect(englishCities('Beijing weather the day after tomorrow').map((c) => c.english)).toEqual([
      'Beijing',
    ]);
    expect(englishCities('will I need a jacket in NYC tomorrow?').map((c) => c.english)).toEqual([
      'New York',
    ]);
    expect(englishCities('new york and hong kong').map((c) => c.english)).toEqual(['New York', 'Hong Kong']);
    // "nyc" in lower case and a city inside another word are not read.
    expect(englishCities('the nyc-style pizza in shanghaiese')).toEqual([]);
  });
  it('reads the earlier English names of cities as the names the table gives', () => {
    expect(englishCities('flying into bombay on friday, then Nanking').map((c) => c.english)).toEqual([
      'Mumbai',
      'Nanjing',
    ]);
    expect(englishCityName('Kiev')).toBe('Kyiv');
    expect(englishCityName('peking')).toBe('Beijing');
    // "canton" in lower case is the word (a Swiss canton), not the city.
    expect(englishCities('the canton of Vaud')).toEqual([]);
    expect(englishCityName('canton')).toBeUndefined();
  });
  it('reads the everyday nicknames of the large mainland cities', () => {
    expect(chineseCities('帝都今天风大不大').map((c) => c.english)).toEqual(['Beijing']);
    expect(applyNormalizers('魔都', ['city_name'])).toBe('Shanghai');
    expect(applyNormalizers('NYC', ['city_name'])).toBe('New York');
  });
});

describe('an English city name inside Chinese text', () => {
  it('ends at the Chinese characters around it', () => {
    expect(englishCities('Chengdu下周会下雨吗').map((c) => c.english)).toEqual(['Chengdu']);
    expect(englishCities('去Tokyo玩几天').map((c) => c.english)).toEqual(['Tokyo']);
  });
});
