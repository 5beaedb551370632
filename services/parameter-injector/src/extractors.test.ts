import type { ParameterHints } from '@signalbox/registry';
import { describe, expect, it } from 'vitest';
import {
  extractEmails,
  extractEnumValues,
  extractIds,
  extractPhones,
  extractQuantities,
  unitOfParameter,
} from './extractors.js';
import { extractParameter } from './extract-parameter.js';

describe('deterministic extractors', () => {
  it('e-mail: finds addresses, lower-cased, without trailing punctuation', () => {
    expect(extractEmails('Write to Ann.Lee@Example.com. Or bob@x.org').map((e) => e.value)).toEqual([
      'ann.lee@example.com',
      'bob@x.org',
    ]);
    expect(extractEmails('no address here @ all')).toEqual([]);
  });
  it('phone: international and local numbers, not dates or bare ids', () => {
    expect(extractPhones('call +86 138-0013-8000 please').map((p) => p.value)).toEqual(['+8613800138000']);
    expect(extractPhones('or (555) 123-4567').map((p) => p.value)).toEqual(['5551234567']);
    // Grouped in pairs at the end (Swedish style): the whole number, not its first eight digits.
    expect(extractPhones('ring +46 70 123 45 67 tomorrow').map((p) => p.value)).toEqual(['+46701234567']);
    expect(extractPhones('order 20240917001 on 2024-11-08')).toEqual([]);
  });
  it('numbers and units: units after, currency before, thousands separators; digits of ids and dates are not numbers', () => {
    expect(extractQuantities('ship 5 kg over 3.5km for $1,234.50 (20%)').map((q) => q.value)).toEqual([
      { value: 5, unit: 'kg' },
      { value: 3.5, unit: 'km' },
      { value: 1234.5, unit: 'usd' },
      { value: 20, unit: '%' },
    ]);
    expect(extractQuantities('version 1.2.3 at 10:30').map((q) => q.value.value)).toEqual([]);
    expect(unitOfParameter('weight_kg', undefined)).toBe('kg');
    expect(unitOfParameter('distance', 'Distance in miles')).toBe('mi');
    expect(unitOfParameter('count', 'How many')).toBeNull();
  });
  it('ids by pattern: whole tokens matching the schema pattern, also inside Chinese text', () => {
    expect(extractIds('订单20240917001的物流', '^[0-9]{8,20}$').map((i) => i.value)).toEqual(['20240917001']);
    expect(extractIds('ticket ORD-1234 and 12', '^ORD-\\d+$').map((i) => i.value)).toEqual(['ORD-1234']);
    expect(extractIds('ticket ORD-1234 and 12').map((i) => i.value)).toEqual(['ORD-1234']);
  });
  it('ids: the parts of an e-mail address are none', () => {
    expect(extractIds('回执寄到 li.lei2024@mail.example.cn，单号A-77').map((i) => i.value)).toEqual(['A-77']);
    expect(extractIds('contact ops42@example.org about case 5512').map((i) => i.value)).toEqual(['5512']);
  });
  it('enums: a period counted more than once names the shortest period offered that covers the span', () => {
    const periods = ['any', 'day', 'week', 'month', 'year'];
    const read = (t: string) => extractEnumValues(t, periods, {}).map((e) => e.value);
    expect(read('job posts from the last 12 months')).toEqual(['year']);
    expect(read('flight deals in the past three weeks')).toEqual(['month']);
    expect(read('forum threads of the previous 2 years')).toEqual([]);
    // One period, or a period with no count, is that period.
    expect(read('outages in the last month')).toEqual(['month']);
    expect(read('price changes this week')).toEqual(['week']);
  });
  it('enums: values and declared synonyms, case-insensitive, whole words; CJK synonyms as substrings', () => {
    const synonyms = { urgent: 'high', asap: 'high', 紧急: 'high' };
    expect(
      extractEnumValues('This is URGENT!', ['low', 'medium', 'high'], synonyms).map((e) => e.value),
    ).toEqual(['high']);
    expect(extractEnumValues('请紧急处理', ['low', 'medium', 'high'], synonyms).map((e) => e.value)).toEqual([
      'high',
    ]);
    expect(extractEnumValues('slowly', ['low', 'high'], {})).toEqual([]);
    // A Chinese value under a negation right before it is not that value, nor one inside it.
    const levels = { 急: 'high', 加急: 'high', 普通: 'medium' };
    const said = (t: string) => extractEnumValues(t, ['low', 'medium', 'high'], levels).map((e) => e.value);
    expect(said('这个事情挺急的')).toEqual(['high']);
    for (const t of ['不是很急，排个队就行', '别急，下周处理也行', '这单不用加急', '不太急'])
      expect(said(t), t).toEqual([]);
    expect(said('很急，不是普通的问题')).toEqual(['high']);
    // The adjective in -al names the value: "musical events" are `Music` events.
    expect(
      extractEnumValues('discovering musical events in Livermore', ['Music', 'Theater'], {}),
    ).toMatchObject([{ value: 'Music' }]);
    expect(extractEnumValues('in transit', ['in_transit', 'delivered'], {}).map((e) => e.value)).toEqual([
      'in_transit',
    ]);
    expect(extractEnumValues('low or high?', ['low', 'high'], {}).map((e) => e.value)).toEqual([
      'low',
      'high',
    ]);
  });
  it('enums: a one-letter slip in a long spelling still names it; short words and other spellings do not', () => {
    const units = ['celsius', 'fahrenheit'];
    expect(extractEnumValues('how hot is Osaka in farenheit', units, {}).map((e) => e.value)).toEqual([
      'fahrenheit',
    ]);
    expect(
      extractEnumValues('file it as a warrenty case', ['complaint', 'warranty'], {}).map((e) => e.value),
    ).toEqual(['warranty']);
    expect(
      extractEnumValues('general consultaion needed', ['consultation', 'other'], {}).map((e) => e.value),
    ).toEqual(['consultation']);
    // Under eight letters, one edit is too often another word.
    expect(extractEnumValues('a frozen lake', ['frozen', 'broken'], {}).map((e) => e.value)).toEqual([
      'frozen',
    ]);
    expect(extractEnumValues('it is brokes', ['broken'], {})).toEqual([]);
    // A word that is itself a spelling names only itself.
    expect(
      extractEnumValues('the personnel file', ['personal', 'company'], { personnel: 'company' }).map(
        (e) => e.value,
      ),
    ).toEqual(['company']);
  });
});

describe('namedPhrase (a name parameter takes the name the request gives)', () => {
  it('takes the capitalised name after a recipient preposition, up to a joining word or punctuation', async () => {
    const { namedPhrase } = await import('./build.js');
    expect(namedPhrase('Turn the minutes into the report and send it to the Atlas project group.')).toBe(
      'Atlas project group',
    );
    expect(namedPhrase('Issue an invoice for ACME Ltd and e-mail it')).toBe('ACME Ltd');
    expect(namedPhrase('send it to the project group')).toBeUndefined();
    // "the Ops channel", "the Finance chat": the group whose chat it is, as 群里 in Chinese.
    expect(namedPhrase('post the summary to the Ops channel')).toBe('Ops');
    expect(namedPhrase('forward the agenda to the Finance chat, thanks')).toBe('Finance');
  });

  it('takes the recipient after 给 / 发给 / 跟 in Chinese, up to the next verb or punctuation; a pronoun is no name', async () => {
    const { namedPhrase } = await import('./build.js');
    expect(namedPhrase('把周报整理好，发邮件给Atlas项目组')).toBe('Atlas项目组');
    expect(namedPhrase('给Zhang Min发封邮件，主题写“导出超时”')).toBe('Zhang Min');
    expect(namedPhrase('跟陈杰说一声，值班表明天之前要排好')).toBe('陈杰');
    expect(namedPhrase('给我发个提醒')).toBeUndefined();
    // 在 X 群里: the group is X; 通知一下 names nobody.
    expect(namedPhrase('在Atlas群里发一句：明天的站会取消')).toBe('Atlas');
    expect(namedPhrase('在项目组群里通知一下')).toBe('项目组');
    // Right after a verb of messaging: a group in any case, or one capitalised name — never one of two.
    expect(namedPhrase('ping the beacon group: files are up')).toBe('beacon group');
    expect(namedPhrase('message Li Wei that the meeting moved')).toBe('Li Wei');
    expect(namedPhrase('Send Chen Jie and Zhang Min a reminder')).toBeUndefined();
    expect(namedPhrase('send the weekly report')).toBeUndefined();
  });

  it('takes the Chinese personal name a recipient marker introduces, not the words after it', async () => {
    const { namedPhrase } = await import('./build.js');
    expect(namedPhrase('私聊刘洋一下：周报我晚点交')).toBe('刘洋');
    expect(namedPhrase('通知黄磊明天早点到')).toBe('黄磊');
    expect(namedPhrase('写完发给林小雨')).toBe('林小雨');
    expect(namedPhrase('提醒黄磊周五之前把报销单和发票都交上来')).toBe('黄磊');
  });
});

describe('e-mail recipients', () => {
  const hint = (path: string, description: string): ParameterHints => ({
    path,
    schema: { type: 'string', description },
    required: false,
    enum: undefined,
    synonyms: {},
    normalizers: [],
  });
  const ctx = { referenceTime: '2024-11-04T09:00:00Z', timeZone: 'UTC' };
  it('a copy recipient takes an address only when the request asks for a copy', () => {
    const cc = hint('cc_address', 'The email address to be included in the CC field.');
    expect(
      extractParameter(cc, 'Write to Omar at omar@example.net about the invoice', ctx, false).found,
    ).toBe(false);
    expect(extractParameter(cc, 'Write to Omar and cc lena@example.net', ctx, false)).toMatchObject({
      found: true,
      value: 'lena@example.net',
    });
  });
  it('a text about an e-mail message takes no address', () => {
    const body = hint('body', 'The body content of the email.');
    expect(extractParameter(body, 'Write to omar@example.net', ctx, false).found).toBe(false);
  });
});

describe('dates named to be ruled out', () => {
  const ctx = { referenceTime: '2026-11-30T09:00:00Z', timeZone: 'Asia/Shanghai' };
  const date: ParameterHints = {
    path: 'preferred_date',
    schema: { type: 'string', format: 'date', description: 'The day the customer would like the visit.' },
    required: false,
    enum: undefined,
    synonyms: {},
    normalizers: [],
  };
  it('a day in a negated clause is the day that will not do; another one named is the value', () => {
    expect(extractParameter(date, '这周我不在家，下周一再安排师傅来取件吧', ctx, false)).toMatchObject({
      found: true,
      value: '2026-12-07',
    });
    expect(extractParameter(date, "Not on Tuesday, I'm out. Wednesday works.", ctx, false)).toMatchObject({
      found: true,
      value: '2026-12-02',
    });
    // Alone, a negated day is still the day the request names (the tool's answer decides).
    expect(extractParameter(date, 'not before Friday', ctx, false)).toMatchObject({ value: '2026-12-04' });
  });
});

describe('a date parameter declared past (date_direction)', () => {
  const ctx = { referenceTime: '2026-11-30T09:00:00Z', timeZone: 'Asia/Shanghai' };
  const held: ParameterHints = {
    path: 'held_on',
    schema: { type: 'string', format: 'date', description: 'The day the workshop was held.' },
    required: true,
    enum: undefined,
    synonyms: {},
    normalizers: [],
    dateDirection: 'past',
  };
  it('takes the most recent day the request leaves open, not the next one', () => {
    expect(extractParameter(held, '28号那场培训的签到表发我一下', ctx, false)).toMatchObject({
      found: true,
      value: '2026-11-28',
    });
    expect(extractParameter(held, 'the sign-in sheet from Thursday, please', ctx, false)).toMatchObject({
      value: '2026-11-26',
    });
    const { dateDirection: _none, ...undeclared } = held;
    expect(extractParameter(undeclared, '28号那场培训的签到表发我一下', ctx, false)).toMatchObject({
      value: '2026-12-28',
    });
  });
});

describe('numbers with an SI symbol written against them', () => {
  it('"310K", "12J/K", "50Hz", "9.8m/s^2" are numbers; "221B", "the 1980s" and "A4" are not', () => {
    const values = (text: string) => extractQuantities(text).map((q) => q.value.value);
    expect(values('cool it from 310K with 12J/K at 50Hz')).toEqual([310, 12, 50]);
    expect(values('falls at 9.8m/s^2')).toEqual([9.8]);
    expect(values('live at 221B Baker Street in the 1980s on A4 paper')).toEqual([]);
  });
  it('a unit per time is one compound unit: a speed and an acceleration are told apart', () => {
    const units = (text: string) =>
      extractQuantities(text).map((q) => `${String(q.value.value)} ${q.value.unit}`);
    expect(units('accelerating at 2 meters/second^2 from a speed of 10 meters/second')).toEqual([
      '2 m/s^2',
      '10 m/s',
    ]);
    expect(units('at 4 m/s^2 over 300 meters, 60 miles per hour')).toEqual(['4 m/s^2', '300 m', '60 mi/h']);
    expect(unitOfParameter('acceleration', 'The acceleration of the object in meters/second^2.')).toBe(
      'm/s^2',
    );
    expect(unitOfParameter('acceleration', 'Acceleration of the object, m/s^2.')).toBe('m/s^2');
    expect(unitOfParameter('speed', 'The initial velocity of the object in meters/second.')).toBe('m/s');
  });
  it('a unit joined to its number by a hyphen ("a 0.5-second window") is the number\'s unit', () => {
    const units = (text: string) =>
      extractQuantities(text).map((q) => `${String(q.value.value)} ${q.value.unit}`);
    expect(units('within a 0.5-second window, for a 5-day forecast')).toEqual(['0.5 s', '5 day']);
  });
});

describe('times of day', () => {
  const ctx = { referenceTime: '2024-11-04T09:00:00Z', timeZone: 'UTC' };
  const hint = (path: string, description: string): ParameterHints => ({
    path,
    schema: { type: 'string', description },
    required: true,
    enum: undefined,
    synonyms: {},
    normalizers: [],
  });
  it('a parameter in "HH:MM" takes the time written, on the 24-hour clock', () => {
    const at = hint('pickup_time', "Pick-up time in 24-hour format 'HH:MM'.");
    expect(extractParameter(at, 'Collect the van in Leeds at 4:15 pm on June 2nd', ctx, false)).toMatchObject(
      {
        found: true,
        value: '16:15',
      },
    );
    expect(extractParameter(at, 'Collect the van in Leeds at 7% off', ctx, false).found).toBe(false);
  });
  it('a date parameter takes no day from a time of day alone, and a written day wins over a time', () => {
    const day = hint('start_date', 'The first day, in the format YYYY-MM-DD.');
    expect(extractParameter(day, 'a van I can collect at 8 in the morning', ctx, false).found).toBe(false);
    expect(extractParameter(day, 'collect at 8am on January 9th, 2025', ctx, false)).toMatchObject({
      found: true,
      value: '2025-01-09',
    });
  });
});

describe('values written in Chinese (issue 20)', () => {
  const quantities = (text: string) => extractQuantities(text).map((q) => q.value);
  it('numbers in Chinese numerals, mixed forms and Arabic digits inside Chinese text', () => {
    expect(quantities('一共两千三百四十件')).toEqual([{ value: 2340, unit: null }]);
    expect(quantities('一百零五个')).toEqual([{ value: 105, unit: null }]);
    expect(quantities('预算3万')).toEqual([{ value: 30000, unit: null }]);
    expect(quantities('大约1.5万')).toEqual([{ value: 15000, unit: null }]);
    expect(quantities('买三件')).toEqual([{ value: 3, unit: null }]);
    // A one-character numeral inside a word is no number: 统一 ("uniform"), 一起 ("together"), 十分 ("very").
    expect(quantities('统一一起处理，十分感谢')).toEqual([]);
  });
  it('percentages and amounts with their currency', () => {
    expect(quantities('涨了百分之十七')).toEqual([{ value: 17, unit: '%' }]);
    expect(quantities('涨了17%')).toEqual([{ value: 17, unit: '%' }]);
    expect(quantities('一共299元')).toEqual([{ value: 299, unit: 'cny' }]);
    expect(quantities('一共¥299')).toEqual([{ value: 299, unit: 'cny' }]);
    expect(quantities('退我两百块')).toEqual([{ value: 200, unit: 'cny' }]);
    expect(quantities('退我两百块钱吧')).toEqual([{ value: 200, unit: 'cny' }]);
    expect(quantities('3万元的订单')).toEqual([{ value: 30000, unit: 'cny' }]);
    expect(quantities('50美元')).toEqual([{ value: 50, unit: 'usd' }]);
    // 块 before a noun counts pieces: two pieces of cake, not ¥2.
    expect(quantities('两块蛋糕')).toEqual([{ value: 2, unit: null }]);
    // A word of grammar after 块 is no noun it counts: money.
    expect(quantities('给我补30块也行')).toEqual([{ value: 30, unit: 'cny' }]);
    expect(quantities('赔45块就算了')).toEqual([{ value: 45, unit: 'cny' }]);
  });
  it('units written the Chinese way: temperature, mass, length, time', () => {
    expect(quantities('25摄氏度')).toEqual([{ value: 25, unit: 'celsius' }]);
    expect(quantities('七十七华氏度')).toEqual([{ value: 77, unit: 'fahrenheit' }]);
    expect(quantities('重5公斤')).toEqual([{ value: 5, unit: 'kg' }]);
    // 千米 is the kilometre, not a thousand metres.
    expect(quantities('跑了5千米')).toEqual([{ value: 5, unit: 'km' }]);
    expect(quantities('跑了三千米')).toEqual([{ value: 3, unit: 'km' }]);
    expect(quantities('等了两个小时')).toEqual([{ value: 2, unit: 'h' }]);
    expect(unitOfParameter('weight', '包裹重量（公斤）')).toBe('kg');
    expect(unitOfParameter('price', '价格，单位：元')).toBe('cny');
  });
  it('English scale words scale the number ("213 million")', () => {
    expect(quantities('3 million dollars')).toEqual([{ value: 3_000_000, unit: 'usd' }]);
  });
  it('full-width digits and signs read as ASCII ones', () => {
    expect(quantities('一共２９９元，打１７％的折')).toEqual([
      { value: 299, unit: 'cny' },
      { value: 17, unit: '%' },
    ]);
    expect(extractIds('订单２０２６１１０１００１', '^[0-9]{8,20}$').map((i) => i.value)).toEqual([
      '20261101001',
    ]);
  });
  it('ids inside Chinese text with no spaces', () => {
    expect(extractIds('订单20261101001的退款', '^[0-9]{4,20}$').map((i) => i.value)).toEqual(['20261101001']);
    expect(extractIds('单号是5678', '^[0-9]{4,20}$').map((i) => i.value)).toEqual(['5678']);
  });
  it('a run of digits the text calls a phone number is one (电话, "call me at")', () => {
    expect(extractPhones('电话13800138000').map((p) => p.value)).toEqual(['13800138000']);
    expect(extractPhones('call me at 13800138000').map((p) => p.value)).toEqual(['13800138000']);
    expect(extractPhones('订单13800138000')).toEqual([]);
  });
  it('enum values by Chinese synonyms, and Latin synonyms inside Chinese text', () => {
    const reasons = ['late_delivery', 'damaged', 'wrong_item'];
    const synonyms = { 坏了: 'damaged', 晚到: 'late_delivery', 发错: 'wrong_item', f: 'fahrenheit' };
    expect(extractEnumValues('收到的杯子坏了', reasons, synonyms).map((e) => e.value)).toEqual(['damaged']);
    expect(extractEnumValues('快递晚到了三天', reasons, synonyms).map((e) => e.value)).toEqual([
      'late_delivery',
    ]);
    expect(
      extractEnumValues('明天北京天气，用F', ['celsius', 'fahrenheit'], synonyms).map((e) => e.value),
    ).toEqual(['fahrenheit']);
    // Within a Latin word a synonym is still no word of its own.
    expect(extractEnumValues('fine weather', ['celsius', 'fahrenheit'], synonyms)).toEqual([]);
  });
});

describe('closed choices: longer mentions, single letters, lists of choices', () => {
  const ctx = { referenceTime: '2024-11-04T09:00:00Z', timeZone: 'UTC' };
  it('a mention inside a longer mention is not a value of its own', () => {
    const grades = ['New', 'Like New', 'Used'];
    expect(extractEnumValues('I want a lamp in like new shape', grades, {}).map((e) => e.value)).toEqual([
      'Like New',
    ]);
    // Both still count where each is written on its own.
    expect(extractEnumValues('either new or used is fine', grades, {}).map((e) => e.value)).toEqual([
      'New',
      'Used',
    ]);
  });
  it('a single-letter value counts only as written, and not as the first word of a sentence', () => {
    const sizes = ['S', 'M', 'L'];
    expect(extractEnumValues('Order a shirt in M, please', sizes, {}).map((e) => e.value)).toEqual(['M']);
    expect(extractEnumValues('Order a shirt in m, please', sizes, {})).toEqual([]);
    const bases = ['A', 'C', 'G', 'T'];
    expect(extractEnumValues('A primer rich in C. T is rare.', bases, {}).map((e) => e.value)).toEqual(['C']);
  });
  it('an array of closed choices takes every choice the request names, in its order', () => {
    const toppings: ParameterHints = {
      path: 'toppings',
      schema: {
        type: 'array',
        items: { type: 'string', enum: ['Olives', 'Extra Cheese', 'Mushrooms', 'Ham'] },
        description: 'Toppings to add.',
      },
      required: false,
      enum: undefined,
      synonyms: {},
      normalizers: [],
    };
    expect(
      extractParameter(toppings, 'A large pizza with mushrooms and extra cheese, no meat', ctx, false),
    ).toMatchObject({ found: true, value: ['Mushrooms', 'Extra Cheese'] });
    expect(extractParameter(toppings, 'A plain large pizza', ctx, false).found).toBe(false);
  });
});

describe('a value written after the parameter’s own identifier', () => {
  const ctx = { referenceTime: '2024-11-04T09:00:00Z', timeZone: 'UTC' };
  const hint = (path: string): ParameterHints => ({
    path,
    schema: { type: 'string', description: 'The unique identifier.' },
    required: true,
    enum: undefined,
    synonyms: {},
    normalizers: [],
  });
  it('is the value for a name written as code', () => {
    expect(
      extractParameter(
        hint('song_id'),
        'Play Roar by Katy Perry. The song_id is wjeiruhuq_roar.',
        ctx,
        false,
      ),
    ).toMatchObject({ found: true, value: 'wjeiruhuq_roar' });
    expect(extractParameter(hint('apiKey'), "use apiKey: 'k-77 x'", ctx, false)).toMatchObject({
      value: 'k-77 x',
    });
  });
  it('needs "is", "=" or ":" after the name: a question quoted back names the field and gives no value', () => {
    expect(
      extractParameter(
        hint('order_id'),
        'Refund my order.\nWhat order_id should I use for refund_create?\nOrder 20240917001, it arrived broken.',
        ctx,
        false,
      ),
    ).not.toMatchObject({ value: 'should' });
  });
  it('is not read for a plain word ("the name is …")', () => {
    expect(extractParameter(hint('name'), 'the name is misleading', ctx, false).found).toBe(false);
  });
});

describe('time zones named by their city (issue 19)', () => {
  it('an IANA zone of an enum is named by its city', () => {
    const zones = ['UTC', 'Europe/Paris', 'America/Los_Angeles'];
    expect(extractEnumValues('Move the call to 9am Los Angeles time', zones, {}).map((e) => e.value)).toEqual(
      ['America/Los_Angeles'],
    );
    expect(extractEnumValues('Move it to Paris', zones, {}).map((e) => e.value)).toEqual(['Europe/Paris']);
  });
});

describe('one date and a return (issue 19)', () => {
  const dates = { referenceTime: '2024-11-04T09:00:00.000Z', timeZone: 'UTC' };
  const hints = (path: string, required: boolean): ParameterHints => ({
    path,
    schema: { type: 'string', format: 'date' },
    required,
    enum: undefined,
    synonyms: {},
    normalizers: [],
  });
  const found = (path: string, text: string, required = false) =>
    extractParameter(hints(path, required), text, dates, false).found;
  it('an optional return takes no date when the one date written is the departure', () => {
    expect(found('return_date', 'Fly out on March 3, 2025')).toBe(false);
    expect(found('return_date', 'Coming back on March 3, 2025')).toBe(true);
    expect(found('return_date', 'Fly out on March 3, 2025', true)).toBe(true);
    // The end of a range to look in takes the one day ("yesterday's minutes").
    expect(found('end_date', 'the minutes of March 3, 2025')).toBe(true);
  });
});

describe('cities for a city_name parameter', () => {
  const city: ParameterHints = {
    path: 'city',
    schema: { type: 'string', description: 'City name.' },
    required: true,
    enum: undefined,
    synonyms: {},
    normalizers: ['city_name'],
  };
  const ctx = { referenceTime: '2024-11-04T09:00:00Z', timeZone: 'Asia/Shanghai' };
  it('reads a city written in Latin letters inside Chinese text', () => {
    expect(extractParameter(city, '下周去Chengdu出差，那边冷不冷', ctx, false)).toMatchObject({
      found: true,
      value: 'Chengdu',
    });
  });
  it('reads no city from a language named after "in"', () => {
    expect(extractParameter(city, 'How would I write "thank you" in Korean?', ctx, false).found).toBe(false);
  });
});
