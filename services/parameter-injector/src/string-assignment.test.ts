import type { ParameterHints } from '@signalbox/registry';
import { describe, expect, it } from 'vitest';
import {
  describedFlag,
  exampleValues,
  flagMention,
  introducedValue,
  labelledValues,
  placePhrases,
  properNames,
  stringRole,
  writtenExpressions,
} from './spans.js';
import { assignStrings } from './string-assignment.js';

function param(path: string, required = true, description?: string): ParameterHints {
  return {
    path,
    schema: { type: 'string', ...(description ? { description } : {}) },
    required,
    enum: undefined,
    synonyms: {},
    normalizers: [],
  };
}

function spans(text: string, params: ParameterHints[]): Record<string, string> {
  return Object.fromEntries([...assignStrings(params, text).spans].map(([k, v]) => [k, v.value]));
}

describe('the role of a string parameter', () => {
  it('own words for queries and messages; entities otherwise', () => {
    expect(stringRole('search_query', '', undefined)).toBe('own_words');
    expect(stringRole('message', '', undefined)).toBe('own_words');
    expect(stringRole('city', '', undefined)).toBe('place');
    expect(stringRole('dest_location', '', undefined)).toBe('place');
    expect(stringRole('password', '', undefined)).toBe('entity');
    expect(stringRole('username', '', undefined)).toBe('entity');
    expect(stringRole('webhook', '', 'uri')).toBe('url');
    expect(stringRole('log_path', '', undefined)).toBe('path');
  });
});

describe('spans of the request for entity parameters', () => {
  it('a place is the one a preposition introduces, never the request', () => {
    expect(spans('Will it snow in Lake Placid, NY tomorrow?', [param('location')])).toEqual({
      location: 'Lake Placid, NY',
    });
    expect(spans('Is it raining right now?', [param('city')])).toEqual({});
    expect(placePhrases('Trains from Lyon to Geneva please', 'start')).toEqual(['Lyon']);
    expect(placePhrases('Trains from Lyon to Geneva please', 'end')).toEqual(['Geneva']);
    expect(spans('hiking trails near the Rhine river', [param('area')])).toEqual({ area: 'Rhine river' });
  });
  it('the value written after its own name, quoted or id-like; a plain word after a name is not taken', () => {
    expect(spans("Look up the protein 'TP53' in the catalogue", [param('protein')])).toEqual({
      protein: 'TP53',
    });
    expect(spans('show the recipe card for ticket ab77x', [param('ticket')])).toEqual({ ticket: 'ab77x' });
    expect(spans('I forgot my password again', [param('password')])).toEqual({});
  });
  it('quoted values go to the parameter whose name words stand beside them', () => {
    expect(
      spans("Compare the draft 'v2 intro' with the baseline text 'v1 intro'", [
        param('draft'),
        param('baseline'),
      ]),
    ).toEqual({ draft: 'v2 intro', baseline: 'v1 intro' });
  });
  it('a value the description lists counts when the request names it', () => {
    expect(
      spans('Book the cheapest seat in economy', [
        param('cabin', false, "Cabin: 'economy', 'business' or 'first'."),
      ]),
    ).toEqual({ cabin: 'economy' });
  });
  it('a unit parameter takes the unit written with the numbers', () => {
    expect(spans('a plank 3 feet long', [param('unit', false)])).toEqual({ unit: 'feet' });
  });
});

describe('booleans named in the request', () => {
  it('true when what the flag is about is written, false after a negation, unknown otherwise', () => {
    expect(flagMention('include_photos', 'list the hotels, with photos')).toBe(true);
    expect(flagMention('include_photos', 'list the hotels without photos')).toBe(false);
    expect(flagMention('verbose', 'list the hotels')).toBeUndefined();
  });
});

describe('proper names', () => {
  it('are the capitalised runs not first in their sentence, with the small words that join a name', () => {
    expect(
      properNames('Show the works of Vincent van Gogh and the Dutch Golden Age.').map((n) => n.value),
    ).toEqual(['Vincent van Gogh', 'Dutch Golden Age']);
    expect(properNames("Who chairs Acme Corp.? Ask Maria's team.").map((n) => n.value)).toEqual([
      'Acme Corp',
      'Maria',
    ]);
  });

  it('start after a weekday or month in the possessive, which says when', () => {
    expect(properNames("summarise Tuesday's Orion standup for me").map((n) => n.value)).toEqual(['Orion']);
    expect(properNames("the figures in March's Hudson Bay report").map((n) => n.value)).toEqual([
      'Hudson Bay',
    ]);
  });

  it('a lone name fills a lone required entity parameter, numbered parameters take names in order', () => {
    expect(spans('Summarise the career of Serena Williams', [param('athlete')])).toEqual({
      athlete: 'Serena Williams',
    });
    expect(
      spans('Compare the menus of Nobu and Zuma tonight', [param('restaurant1'), param('restaurant2')]),
    ).toEqual({ restaurant1: 'Nobu', restaurant2: 'Zuma' });
  });

  it('is not a name written in a message’s own text, after a colon that introduces it', () => {
    expect(spans('在Orion群里说一下：Kubernetes升级推迟到周四', [param('recipient')])).toEqual({
      recipient: 'Orion',
    });
    expect(spans('Email Dana Price, subject: Helsinki offsite', [param('recipient')])).toEqual({
      recipient: 'Dana Price',
    });
    // (in English also without a colon, after "saying" or "tell him")
    expect(spans('Ping Dana Price on chat saying the Oslo VPN is down', [param('recipient')])).toEqual({
      recipient: 'Dana Price',
    });
  });

  it('is not chosen among several, never fills an optional, time or credential parameter', () => {
    expect(spans('Compare Nobu with Zuma', [param('restaurant')])).toEqual({});
    expect(spans('Summarise the career of Serena Williams', [param('athlete', false)])).toEqual({});
    expect(spans('Open the Quarterly Report', [param('year')])).toEqual({});
    expect(spans('Log in to Jira for me', [param('api_token')])).toEqual({});
  });

  it('the one name no other rule took goes to the one optional parameter documented as a name', () => {
    const director = param('directed_by', false, 'Director of the film.');
    const lead = param('lead_actor', false, 'Name of the lead actor.');
    expect(spans('Any thriller directed by Ana Ruiz with Tom Vance in it?', [director, lead])).toEqual({
      directed_by: 'Ana Ruiz',
      lead_actor: 'Tom Vance',
    });
    // Two names left, or two optional names wanting one: nothing is chosen.
    expect(spans('Any thriller with Tom Vance or Mia Holt in it?', [lead])).toEqual({});
    const narrator = param('narrator', false, 'Name of the narrator.');
    expect(spans('Any thriller with Tom Vance in it?', [lead, narrator])).toEqual({});
    // An optional parameter not documented as a name takes none.
    expect(spans('Any thriller with Tom Vance in it?', [param('studio', false, 'The studio.')])).toEqual({});
  });

  it('a company name keeps its legal form; a capital abbreviation before a word of the tool is a kind', () => {
    expect(properNames('Bill it to Kestrel Foods Co., Ltd. by Friday').map((n) => n.value)).toEqual([
      'Kestrel Foods Co., Ltd.',
    ]);
    expect(properNames('the account of Orbis, Inc. and Lumen GmbH').map((n) => n.value)).toEqual([
      'Orbis, Inc.',
      'Lumen GmbH',
    ]);
    const title = param('title', true, 'The name on the invoice.');
    const tool = 'invoice_issue Issue an invoice for an order';
    expect(
      Object.fromEntries(
        [...assignStrings([title], 'a GST invoice made out to Kestrel Foods Co., Ltd.', tool).spans].map(
          ([k, v]) => [k, v.value],
        ),
      ),
    ).toEqual({ title: 'Kestrel Foods Co., Ltd.' });
    expect(assignStrings([title], 'I need a PDF invoice please', tool).spans.size).toBe(0);
    // (only a word of what the tool handles makes the abbreviation a kind: a ticker before "on" is the ticker)
    const ticker = param('ticker', true, 'The stock ticker symbol.');
    const exchange = {
      ...param('exchange'),
      enum: ['NYSE', 'LSE'],
      schema: { type: 'string', enum: ['NYSE', 'LSE'] },
    };
    const quote = 'quote_get Latest trade price of a ticker on an exchange';
    expect(
      assignStrings([ticker, exchange], 'the last trade of MSFT on the LSE exchange', quote).spans.get(
        'ticker',
      )?.value,
    ).toBe('MSFT');
  });

  it("a name made of the tool's own words is its subject, not a value", () => {
    expect(
      assignStrings(
        [param('region')],
        'Compute the Gross Margin now',
        'compute_gross_margin Gross margin of a region',
      ).spans.size,
    ).toBe(0);
  });

  it('a value after its name ends where the capitalised words do', () => {
    expect(introducedValue('Show the band Arctic Monkeys playing live', ['band'])).toEqual([
      'Arctic Monkeys',
    ]);
  });
});

describe('a city with its country or state', () => {
  it('among several places, the one written in the two parts the description shows', () => {
    const venue = param(
      'location',
      true,
      "The city of the venue, in the format of 'City, State', e.g. 'Austin, TX'.",
    );
    expect(spans('Any jazz tonight at the Blue Lantern Club in Tulsa, OK?', [venue])).toEqual({
      location: 'Tulsa, OK',
    });
    // Without that format in the description, several places are not chosen between.
    expect(
      spans('Any jazz tonight at the Blue Lantern Club in Tulsa, OK?', [
        param('location', true, 'The city.'),
      ]),
    ).toEqual({});
  });
  it('splits "City, Country" when the tool asks for both', () => {
    expect(spans('What time is it in Lima, Peru?', [param('city'), param('country')])).toEqual({
      city: 'Lima',
      country: 'Peru',
    });
    expect(spans('What time is it in Lima?', [param('city'), param('country')])).toEqual({ city: 'Lima' });
  });

  it('a value another parameter lists is not a place', () => {
    expect(
      spans('Forecast in Denver in Kelvin', [
        param('location'),
        param('scale', false, "Either 'Kelvin' or 'Celsius'."),
      ]),
    ).toEqual({ location: 'Denver', scale: 'Kelvin' });
  });
});

describe('values that are no names or places', () => {
  it('a month or weekday is never a place or a proper name', () => {
    expect(placePhrases('What is on in January?', null)).toEqual([]);
    expect(spans('Any concerts next to me on Saturday?', [param('artist')])).toEqual({});
  });
  it('a name after a comma behind a place another rule took is part of it ("Denver, CO")', () => {
    expect(spans('Find a bus going to Denver, CO tomorrow', [param('origin'), param('to')])).toEqual({
      to: 'Denver',
    });
  });
  it('an e-mail address parameter takes the address, and a copy recipient only when a copy is asked for', () => {
    const to = param('to', true, 'The email address to send to.');
    const cc = param('cc', false, 'The email address to carbon copy.');
    expect(spans('Mail Priya Nair at priya@example.org about lunch', [to, cc])).toEqual({});
  });
});

describe('currencies', () => {
  it('a currency parameter takes the ISO 4217 code of the currency named', () => {
    expect(spans('What is the rate of the Swiss franc today?', [param('currency')])).toEqual({
      currency: 'CHF',
    });
  });
  it("the amount's currency is the one converted from, the other the one converted to", () => {
    const p = [param('from_currency'), param('to_currency')];
    expect(spans('How many Indian rupees do I get for 40 euros?', p)).toEqual({
      from_currency: 'EUR',
      to_currency: 'INR',
    });
    expect(
      spans('Change Australian dollars into Mexican pesos', [
        param('base_currency'),
        param('target_currency'),
      ]),
    ).toEqual({
      target_currency: 'MXN',
      base_currency: 'AUD',
    });
  });
  it('two currencies with no cue for either side settle nothing', () => {
    expect(spans('Compare the euro and the yen', [param('from_currency'), param('to_currency')])).toEqual({});
  });
});

describe('the kind of a thing', () => {
  it('a "kind of X" parameter takes the lower-case word written right before X', () => {
    expect(spans('Show rentals for a studio apartment downtown', [param('apartment_type')])).toEqual({
      apartment_type: 'studio',
    });
    expect(spans('List the fraud cases from 2019', [param('type_of_case')])).toEqual({
      type_of_case: 'fraud',
    });
  });
  it('a function word, a tool word or two different words give no kind', () => {
    expect(spans('Show me some apartments', [param('apartment_type')])).toEqual({});
    expect(
      assignStrings(
        [param('room_type')],
        'Reserve a hotel room for tonight',
        'hotel_reservation Reserve hotels',
      ).spans.size,
    ).toBe(0);
    expect(spans('a studio apartment or a loft apartment', [param('apartment_type')])).toEqual({});
  });
});

describe('labelledValues (a value written against its label)', () => {
  it('reads English labels with a colon and Chinese labels with 是 / 写 / a colon', () => {
    expect(
      labelledValues('Company invoice please. Company name: Northwind Trading Co., Ltd., tax ID 9131', [
        'name',
      ]),
    ).toEqual(['Northwind Trading Co., Ltd.']);
    expect(labelledValues('开张发票，抬头写王磊就行', ['抬头'])).toEqual(['王磊']);
    expect(labelledValues('抬头：上海某某科技有限公司，税号123', ['抬头'])).toEqual(['上海某某科技有限公司']);
    expect(labelledValues('主题写“周会改期”，内容：下周一改到下午三点。别忘了', ['主题'])).toEqual([
      '周会改期',
    ]);
  });

  it('lets the user’s own words run over sentences, and reads no label that is not written', () => {
    expect(labelledValues('内容：下周一改到下午三点。别忘了', ['内容'], true)).toEqual([
      '下周一改到下午三点。别忘了',
    ]);
    expect(labelledValues('the subject is the weather', ['subject'])).toEqual([]);
  });

  it('reads a Chinese label joined by a verb and a colon', () => {
    expect(labelledValues('写封邮件给刘洋，正文写：下周一交材料', ['正文'], true)).toEqual(['下周一交材料']);
  });

  it('ends a value where another parameter’s label starts one, on one line', () => {
    const request = 'Mail Maria. Subject: Budget review. Body: can we move it to Friday? Cheers';
    expect(labelledValues(request, ['subject'], true, ['body'])).toEqual(['Budget review']);
    expect(labelledValues(request, ['body'], true, ['subject'])).toEqual([
      'can we move it to Friday? Cheers',
    ]);
    expect(labelledValues('标题“预算评审”，正文：能改到周五吗，谢谢', ['标题'], true, ['正文'])).toEqual([
      '预算评审',
    ]);
    expect(labelledValues('标题“预算评审”，正文：能改到周五吗，谢谢', ['正文'], true, ['标题'])).toEqual([
      '能改到周五吗，谢谢',
    ]);
  });
});

describe('booleans by what the description says each value means', () => {
  it('the value whose meaning the request names', () => {
    const visibility = 'Whether the post is private (true) or public (false).';
    expect(describedFlag(visibility, 'Share my holiday photos, keep it private')).toBe(true);
    expect(describedFlag(visibility, 'Share my holiday photos publicly with everyone')).toBe(false);
    const seats = "Use 'true' for window seats, 'false' for aisle seats.";
    expect(describedFlag(seats, 'Two aisle seats to Oslo please')).toBe(false);
  });
  it('nothing when the request names neither, both, or negates the one it names', () => {
    const visibility = 'Whether the post is private (true) or public (false).';
    expect(describedFlag(visibility, 'Share my holiday photos')).toBeUndefined();
    expect(describedFlag(visibility, 'private or public, I do not mind')).toBeUndefined();
    expect(describedFlag(visibility, 'it should not be private')).toBeUndefined();
    expect(describedFlag('Whether to notify the team.', 'notify the team')).toBeUndefined();
  });
});

describe('names by the words beside them', () => {
  const director = param('directed_by', false, "Director of the movie. Use 'dontcare' if not a criterion.");
  const cast = param(
    'cast',
    false,
    "Names of leading actors or actresses in the movie. Use 'dontcare' if not a criterion.",
  );

  it('a name goes to the parameter whose words stand beside it, up to the clause\'s "and"', () => {
    expect(
      spans('Find a movie acted by Ronald Young and directed by Herbert Ross.', [director, cast]),
    ).toEqual({ directed_by: 'Herbert Ross', cast: 'Ronald Young' });
    expect(
      spans(
        'Can you find me a movie that has Riley Stearns as the director and includes C.J. Rush in the cast?',
        [director, cast],
      ),
    ).toEqual({ directed_by: 'Riley Stearns', cast: 'C.J. Rush' });
  });

  it('two names the same words point to are not chosen between', () => {
    expect(
      spans('something with Peter Strickland as the director that stars Gavin Brocker.', [director, cast]),
    ).toEqual({});
  });

  it('"I", "I\'d" and a sentence\'s full stop end a name', () => {
    expect(properNames('a movie directed by Quentin Tarantino I can watch').map((n) => n.value)).toEqual([
      'Quentin Tarantino',
    ]);
    expect(properNames("it stars Gavin Brocker. I'd like that").map((n) => n.value)).toEqual([
      'Gavin Brocker',
    ]);
  });

  it('one capitalised word after a comma and before "a", "me", "the" starts a clause, not a name', () => {
    expect(
      properNames('some Funk music from the Isolation album, Find a selection of tracks for me?').map(
        (n) => n.value,
      ),
    ).toEqual(['Funk', 'Isolation']);
    expect(properNames('Call the office, Show me the Leeds branch').map((n) => n.value)).toEqual(['Leeds']);
    // A name of two words, or one not before an article, is still a name.
    expect(properNames('For the album, Tove Lo sings').map((n) => n.value)).toEqual(['Tove Lo']);
  });
});

describe('a place without a direction', () => {
  it('is the one place the request goes to when none is "in" or "at"', () => {
    const location = param(
      'location',
      true,
      "The location, in the format of 'City, State', such as 'Berkeley, CA'.",
    );
    expect(spans("I'm planning a trip to New York, NY in December. What's the weather?", [location])).toEqual(
      {
        location: 'New York, NY',
      },
    );
    // Written alone, the city gets the state the description's format asks for.
    expect(spans('weather today in Boston please', [location])).toEqual({ location: 'Boston, MA' });
  });
});

describe('examples a description gives without quotes', () => {
  it('are the items after "such as", "e.g.", "like", "i.e.", "for instance", to the end of the sentence', () => {
    expect(exampleValues('The medium of the painting, such as oil, acrylic, etc.')).toEqual([
      'oil',
      'acrylic',
    ]);
    expect(exampleValues('Type of food like Sushi.')).toEqual(['Sushi']);
    expect(exampleValues('Preferred type of room, e.g. king size, queen size, deluxe, suite etc.')).toEqual([
      'king size',
      'queen size',
      'deluxe',
      'suite',
    ]);
    expect(exampleValues('The platform (e.g., Nintendo Switch, PS5, etc.)')).toEqual([
      'Nintendo Switch',
      'PS5',
    ]);
    expect(exampleValues('The name of the painting.')).toEqual([]);
  });
  it('one the request names is the value of an entity parameter', () => {
    const medium = param('medium', true, 'The medium of the painting, such as oil, acrylic, etc.');
    const size = param('size', true, 'The size of the painting in inches, width by height.');
    expect(spans('Change my painting to oil on a 12x18 canvas', [medium, size])).toMatchObject({
      medium: 'oil',
    });
    const cuisine = param('cuisine', true, 'Type of food like Sushi.');
    expect(spans('the closest sushi restaurant with a patio', [cuisine])).toEqual({ cuisine: 'Sushi' });
    // Two examples named settle nothing.
    expect(spans('oil or acrylic, I cannot decide', [medium])).toEqual({});
  });
});

describe('a place written before the next clause', () => {
  it('"in New York City, I would like …": the pronoun I is no region of the place', () => {
    expect(placePhrases('the Eminem concert in New York City, I would like backstage access', null)).toEqual([
      'New York City',
    ]);
    expect(placePhrases('a hotel in Austin, TX for two nights', null)).toEqual(['Austin, TX']);
  });
});

describe('attributes, pairs, commands and expressions (issue 19)', () => {
  it('an attribute of a thing is the word written before the thing', () => {
    expect(spans('Book me a rustic cabin near Aspen', [param('style', true, 'Style of the cabin.')])).toEqual(
      {
        style: 'rustic',
      },
    );
    expect(
      spans('List shows that feature swing music tonight', [
        param('genre', true, 'Genre of music to be played.'),
      ]),
    ).toEqual({ genre: 'swing' });
    // Two required attributes of the same thing: the word does not say whose it is.
    expect(
      spans('Draw a tall oak tree', [
        param('shape', true, 'Shape of the tree.'),
        param('species', true, 'Species of the tree.'),
      ]),
    ).toEqual({});
    // A superlative ranks the thing; an optional attribute takes no bare word.
    expect(spans('Find the nearest cabin', [param('style', true, 'Style of the cabin.')])).toEqual({});
    expect(spans('Book me a rustic cabin', [param('style', false, 'Style of the cabin.')])).toEqual({});
  });

  it('a numbered pair takes the two words joined by "and", in order', () => {
    expect(spans('Blend red and white paints for me', [param('paint1'), param('paint2')])).toEqual({
      paint1: 'red',
      paint2: 'white',
    });
    expect(spans('How alike are a wolf and a fox?', [param('animal1'), param('animal2')])).toEqual({
      animal1: 'wolf',
      animal2: 'fox',
    });
  });

  it('a numbered parameter is one of a series, never the whole request', () => {
    expect(stringRole('text1', '', undefined)).toBe('entity');
    expect(stringRole('text', '', undefined)).toBe('own_words');
  });

  it('a command parameter takes the command line written after its word', () => {
    expect(spans('Check the disk using the command df -h /var', [param('command')])).toEqual({
      command: 'df -h /var',
    });
    expect(spans('run the command called git status --short.', [param('cmd')])).toEqual({
      cmd: 'git status --short',
    });
    // "of command prompt" writes no command.
    expect(spans('open a window of command prompt for me', [param('command')])).toEqual({});
  });

  it('an expression parameter takes the one expression written', () => {
    expect(writtenExpressions('Integrate f=2*x+1 from x=0 to x=4.')).toEqual(['f=2*x+1']);
    expect(spans('Plot the curve y=x^3 from x=0 to x=2.', [param('equation')])).toEqual({
      equation: 'y=x^3',
    });
  });

  it('an apostrophe inside a quoted passage does not close it', () => {
    expect(spans("Post it with the caption 'It's a great day'.", [param('caption')])).toEqual({
      caption: "It's a great day",
    });
  });
});

describe('names before their kind, labels after "with", state codes (issue 19)', () => {
  it('a name written right before the parameter’s own word is its value', () => {
    expect(spans('Show parcels in Marin county please', [param('county')])).toEqual({ county: 'Marin' });
    // A quoted name is the quote rules' ("the 'Acme' brand" → Acme, without its quote).
    expect(spans("Show the 'Acme' brand", [param('brand')])).toEqual({ brand: 'Acme' });
  });

  it('the words after "with <its name>" are its value', () => {
    expect(spans('create a note with content buy milk tomorrow', [param('content')])).toEqual({
      content: 'buy milk tomorrow',
    });
    expect(spans('create a note with content about milk', [param('content')])).toEqual({});
  });

  it('a state documented by its abbreviation takes the postal code of the state named', () => {
    expect(
      spans('What is the sales tax on $80 in Oregon?', [
        param('state', true, "The U.S. state abbreviation, such as 'CA' for California."),
      ]),
    ).toEqual({ state: 'OR' });
  });

  it('a value another parameter’s enum claims is not one the description only quotes', () => {
    const type = { ...param('action'), enum: ['add', 'remove'] };
    expect(
      spans('add a reminder with content water the plants', [
        type,
        param('content', true, "For 'add', the new text of the item."),
      ]),
    ).toEqual({ content: 'water the plants' });
  });
});

describe('quotes by all their name words, identifiers, own words after their noun (issue 19)', () => {
  it('two quoted passages after a shared word go by all the name words', () => {
    expect(
      spans("Diff the file 'a.txt' against the baseline file 'b.txt'", [
        param('file'),
        param('baseline_file'),
      ]),
    ).toEqual({ file: 'a.txt', baseline_file: 'b.txt' });
  });

  it('a code identifier after the parameter’s word is its value', () => {
    expect(spans('Fit the model on dataset sales_q3_clean', [param('dataset')])).toEqual({
      dataset: 'sales_q3_clean',
    });
  });

  it('"with <label>" needs the parameter’s whole name', () => {
    // "fuel" alone labels nothing: the words after it are no fuel type.
    expect(spans('a car with fuel efficiency of 30 MPG', [param('fuel_type')]).fuel_type).not.toBe(
      'efficiency of 30 MPG',
    );
    expect(spans('a board with project title winter plans', [param('project_title')])).toEqual({
      project_title: 'winter plans',
    });
  });

  it('a location beside a country parameter is the city of "City, Country"', () => {
    expect(spans('What time is it in Lima, Peru?', [param('location'), param('country')])).toEqual({
      location: 'Lima',
      country: 'Peru',
    });
  });

  it('a passage quoted after a noun for the user’s words goes to the one parameter carrying them', () => {
    expect(
      spans("Mail Ann with the subject 'Lunch' and add a note 'bring the slides'", [
        param('subject'),
        param('body', false),
      ]),
    ).toEqual({ subject: 'Lunch', body: 'bring the slides' });
  });
});

describe('a quoted passage written against a label of a message part', () => {
  const query = param('query', true, "A person's or group's name, or part of it.");
  it('is the text of that part, no name for a parameter the label does not name', () => {
    expect(spans('发封邮件，主题“Atlas 1.4 发布时间确认”，正文：发布定在12月10日', [query])).toEqual({});
    expect(spans("Email with the subject: 'Release date confirmed'", [query])).toEqual({});
    // (a lone quote with no such label is still the lone parameter's, and a label of its own keeps it)
    expect(spans('给“Atlas项目组”发封邮件', [query])).toEqual({ query: 'Atlas项目组' });
    expect(
      spans('主题“周会纪要”', [param('subject', true, 'The subject line; in Chinese 主题 or 标题.')]),
    ).toEqual({
      subject: '周会纪要',
    });
  });
});

describe('a name beside the Chinese term its parameter documents', () => {
  const project = param('project', false, 'Only records of this project; in Chinese 项目.');
  it('is that parameter’s, wherever in the request it is written', () => {
    expect(spans('把Orion项目上个月的记录导出来', [project])).toEqual({ project: 'Orion' });
    expect(spans('上个月Orion的两次评审整理一下，发给Orion项目组', [project])).toEqual({ project: 'Orion' });
    // (a name no documented term touches is not)
    expect(spans('上个月Orion的两次评审整理一下', [project])).toEqual({});
  });
});
