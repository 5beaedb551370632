import { describe, expect, it } from 'vitest';
import type { InputFrom, PlanStep } from '@signalbox/contracts';
import { testTask } from '@signalbox/contracts/testing';
import { RegistryContent, createRegistry, type ToolDefinition } from '@signalbox/registry';
import { buildArguments } from './build.js';
import { repairArguments } from './repair.js';

const description = { purpose: 'Does a thing.', returns: 'A result.', not_for: 'Other things.' };

/** A read tool with these parameters, as the registry makes it. */
function tool(properties: Record<string, unknown>, required: string[]): ToolDefinition {
  return createTool(description.purpose, properties, required);
}

/** The same, with its own purpose. */
function createTool(
  purpose: string,
  properties: Record<string, unknown>,
  required: string[],
): ToolDefinition {
  const registry = createRegistry(
    RegistryContent.parse({
      tools: [
        {
          name: 'the_tool',
          description: { ...description, purpose },
          action: 'read',
          permission: 'read_only',
          parameters: { type: 'object', properties, required, additionalProperties: false },
        },
      ],
      agents: [{ id: 'agent', description: 'test agent', max_permission: 'sensitive' }],
      scenes: [],
      tenants: [{ id: 'default', allow: ['*'], deny: [], max_permission: 'sensitive' }],
      profiles: [],
      policies: [],
      settings: {},
    }),
  );
  const t = registry.tool('the_tool');
  if (!t) throw new Error('no tool');
  return t;
}

function step(inputFrom: InputFrom[] = []): PlanStep {
  return {
    index: 0,
    tool: 'the_tool',
    tool_definition_hash: 'h',
    purpose: 'p',
    input_from: inputFrom,
    expected_evidence: 'lead',
    fallback_tool: null,
  };
}

/** The arguments built and repaired for `request`, or the fields a clarification would name. */
function call(
  t: ToolDefinition,
  request: string,
  inputFrom: InputFrom[] = [],
): Record<string, unknown> | { missing: string[] } {
  const task = testTask({ request, reference_time: '2024-11-04T09:00:00.000Z' });
  const built = buildArguments({
    tool: t,
    step: step(inputFrom),
    task,
    history: [],
    proposals: null,
    sensitive: new Set(),
  });
  const dates = { referenceTime: task.reference_time, timeZone: task.time_zone };
  const repaired = repairArguments(t.parameters, built.arguments, { sensitive: new Set(), dates });
  return repaired.ok ? repaired.arguments : { missing: repaired.errors.map((e) => e.field) };
}

describe('the day a request says today is', () => {
  const weather = tool(
    {
      city: { type: 'string', description: 'The name of the city.' },
      date: {
        type: 'string',
        description: "The date, in the format of 'YYYY-MM-DD'. If not provided, the current date is used.",
        default: '2019-03-01',
      },
    },
    ['city'],
  );
  it('is the reference of the other dates, not a date asked about', () => {
    expect(
      call(
        weather,
        "What's the weather forecast for Berkeley on the upcoming Saturday? Today is Tuesday April 25th 2023",
      ),
    ).toEqual({ city: 'Berkeley', date: '2023-04-29' });
    expect(
      call(weather, "What's the weather going to be like in Boston tomorrow? today is 2023.10.1"),
    ).toEqual({
      city: 'Boston',
      date: '2023-10-02',
    });
  });
  it('is the date when it is the only one the request writes', () => {
    expect(call(weather, 'Weather in Berkeley, please; today is April 25th 2023')).toEqual({
      city: 'Berkeley',
      date: '2023-04-25',
    });
  });
  it('holds for the part of the request a plan names, too', () => {
    const request = 'Is it going to rain in Boston tomorrow? today is 2023.10.1';
    const part: InputFrom = {
      parameter: 'date',
      source: 'user_text',
      step_index: null,
      path: null,
      text: 'Is it going to rain in Boston tomorrow?',
    };
    expect(call(weather, request, [part])).toMatchObject({ date: '2023-10-02' });
  });
});

describe('a schema default the parameter rejects', () => {
  const music = tool(
    {
      genre: { type: 'string', enum: ['Pop', 'Rock', 'dontcare'], default: 'dontcare' },
      year: {
        type: 'integer',
        description: "The release year of the song. Use 'dontcare' to include songs from any year.",
        default: 'dontcare',
      },
    },
    [],
  );
  it('is left out rather than turned into a question', () => {
    expect(call(music, 'Can you search for some rock music')).toEqual({ genre: 'Rock' });
  });
  it('does not stand in the way of a value the request gives', () => {
    expect(call(music, 'Find me some songs from 2022')).toEqual({ genre: 'dontcare', year: 2022 });
  });
});

describe('years', () => {
  const turtles = tool(
    {
      location: { type: 'string', description: 'The name of the location.' },
      year: { type: 'integer', description: 'The year of the data requested. Default is 2001.' },
    },
    ['location'],
  );
  const density = tool(
    {
      country: { type: 'string', description: 'The country.' },
      year: { type: 'string', description: 'The year in which the density is to be calculated.' },
      population: { type: 'integer', description: 'The population of the country.' },
    },
    ['country', 'year', 'population'],
  );
  it('an optional year parameter takes the one number written as a year', () => {
    expect(call(turtles, 'Find the turtle population in Mississippi river in 2020.')).toEqual({
      location: 'Mississippi river',
      year: 2020,
    });
  });
  it('two years (a range) or none settle nothing', () => {
    expect(call(turtles, 'Find the turtle population in Ohio between 2015 and 2020.')).toEqual({
      location: 'Ohio',
    });
    expect(call(turtles, 'Find the turtle population in Ohio; there were 20 of them.')).toEqual({
      location: 'Ohio',
    });
  });
  it('a year parameter of type string takes the year as written', () => {
    expect(
      call(density, 'The population density of Brazil in 2022 if the population is 213 million'),
    ).toEqual({
      country: 'Brazil',
      year: '2022',
      population: 213000000,
    });
  });
});

describe('names and places a request writes beside others', () => {
  const movies = tool(
    {
      directed_by: {
        type: 'string',
        description: "Name of the director to filter the movies. Use 'dontcare' to include all directors.",
        default: 'dontcare',
      },
      cast: {
        type: 'string',
        description: "Name of the main actor to filter the movies. Use 'dontcare' to include all casts.",
        default: 'dontcare',
      },
    },
    [],
  );
  it('the name left when a cue placed the other goes to the one name parameter still open', () => {
    expect(
      call(
        movies,
        'I want to see a movie that stars Ana Ruiz. I would prefer something with Tom Vance as the director.',
      ),
    ).toEqual({ directed_by: 'Tom Vance', cast: 'Ana Ruiz' });
  });
  it('one name and two open name parameters settle nothing', () => {
    expect(call(movies, 'I want to see a movie with Ana Ruiz in it.')).toEqual({
      directed_by: 'dontcare',
      cast: 'dontcare',
    });
  });
  const hotel = tool(
    {
      hotel_name: { type: 'string', description: 'The name of the hotel.' },
      location: { type: 'string', description: 'The city in which the hotel is located.' },
    },
    ['hotel_name', 'location'],
  );
  it('"the Hilton Hotel in Chicago": the place of the thing another parameter names is where it is', () => {
    expect(call(hotel, 'Book a room at the Hilton Hotel in Chicago')).toEqual({
      hotel_name: 'Hilton Hotel',
      location: 'Chicago',
    });
  });
  it('without a parameter for the thing, two places settle nothing', () => {
    const near = tool({ location: { type: 'string', description: 'The reference location.' } }, ['location']);
    expect(call(near, 'Find a cafe near the Grand Hotel in Chicago')).toEqual({ missing: ['location'] });
  });
});

describe('a flag written as an enum of strings', () => {
  const homes = tool(
    {
      area: { type: 'string', description: 'The city.' },
      in_unit_laundry: {
        type: 'string',
        description: "Whether the property must have in-unit laundry. The default is 'dontcare'.",
        enum: ['True', 'False', 'dontcare'],
        default: 'dontcare',
      },
      free_entry: {
        type: 'string',
        description: "Use 'True' for free attractions, 'False' for paid, and 'dontcare' for either.",
        enum: ['True', 'False', 'dontcare'],
        default: 'dontcare',
      },
    },
    ['area'],
  );
  it('is read as a boolean flag and written as the enum spells it', () => {
    expect(call(homes, 'Find a museum in Boston; I prefer it to be free for entry.')).toMatchObject({
      free_entry: 'True',
      in_unit_laundry: 'dontcare',
    });
    expect(call(homes, 'Find a flat in Boston without unit laundry')).toMatchObject({
      in_unit_laundry: 'False',
    });
    expect(call(homes, 'Find a flat in Boston')).toMatchObject({
      in_unit_laundry: 'dontcare',
      free_entry: 'dontcare',
    });
  });
});

describe('a city documented as a name alone', () => {
  it('takes the city of "City, Region"; a city documented in two parts keeps both', () => {
    const alone = tool({ city: { type: 'string', description: 'The name of the city.' } }, ['city']);
    expect(call(alone, 'What will the weather be like in Rutherford, NJ, on April 22nd 2023?')).toEqual({
      city: 'Rutherford',
    });
    expect(call(alone, 'the forecast for London, England tomorrow')).toEqual({ city: 'London' });
    const twoParts = tool(
      {
        city: {
          type: 'string',
          description: "The city, in the format of 'City, State', such as 'Berkeley, CA'.",
        },
      },
      ['city'],
    );
    expect(call(twoParts, 'What will the weather be like in Rutherford, NJ tomorrow?')).toEqual({
      city: 'Rutherford, NJ',
    });
  });
});

describe('a place parameter of another name', () => {
  it('documented in the two-part form, gets a city of the gazetteer written that way', () => {
    const trains = tool(
      {
        _from: {
          type: 'string',
          description: "The departure city, in the format of 'City, State' (e.g., 'New York, NY').",
        },
        to: {
          type: 'string',
          description: "The arrival city, in the format of 'City, State' (e.g., 'Los Angeles, CA').",
        },
      },
      ['_from', 'to'],
    );
    expect(call(trains, 'Book train tickets from New York, NY to Sacramento on March 13th')).toEqual({
      _from: 'New York, NY',
      to: 'Sacramento, CA',
    });
    const houses = tool(
      {
        where_to: {
          type: 'string',
          description:
            "The destination, in the format of 'City, State', such as 'Austin, TX' or 'San Francisco, CA'.",
        },
      },
      ['where_to'],
    );
    expect(call(houses, 'find me a house accommodation in Austin for 4 people')).toEqual({
      where_to: 'Austin, TX',
    });
  });
});

describe('names and seasons of a sports request', () => {
  const ranking = tool(
    {
      team: { type: 'string', description: 'The name of the team.' },
      league: { type: 'string', description: 'The name of the league.' },
      season: { type: 'string', description: 'The season, usually written as two years.' },
    },
    ['team', 'league'],
  );
  it("a name's own words say which parameter it is; the one name left is the other's", () => {
    expect(call(ranking, 'What is the ranking of Manchester United in Premier League?')).toEqual({
      team: 'Manchester United',
      league: 'Premier League',
    });
  });
  it('a year or span of years written before the parameter’s word is its value', () => {
    expect(call(ranking, 'Where do Leeds United stand in the Premier League, 2019-2020 season?')).toEqual({
      team: 'Leeds United',
      league: 'Premier League',
      season: '2019-2020',
    });
  });
  it('a year in another phrase ("cases from 2020 about theft crimes") is not the noun’s', () => {
    const cases = tool(
      {
        year: { type: 'integer', description: 'The year.' },
        crime_type: { type: 'string', description: 'Type of the crime.' },
      },
      ['year', 'crime_type'],
    );
    expect(call(cases, 'Retrieve cases from 2020 about theft crimes')).toEqual({
      year: 2020,
      crime_type: 'theft',
    });
  });
  it('two names and no cue settle nothing', () => {
    expect(call(ranking, 'Find the ranking of LA Lakers in the NBA')).toEqual({
      missing: ['team', 'league'],
    });
  });
});

describe('a value where the tool’s purpose names the parameter', () => {
  it('fills a required entity parameter no other rule filled', () => {
    const points = createTool(
      'Retrieve the boiling point and melting point of a substance based on its name and the sea level.',
      {
        substance: { type: 'string', description: 'The name of the substance.' },
        sea_level: { type: 'integer', description: 'The sea level in meters.' },
      },
      ['substance', 'sea_level'],
    );
    expect(
      call(points, 'Find the boiling point and melting point of water under the sea level of 5000m.'),
    ).toEqual({
      substance: 'water',
      sea_level: 5000,
    });
  });
});

describe('a name that is only the parameter’s own word', () => {
  it('is its label, not its value ("their CIK number is …"): the value is asked for', () => {
    const filings = tool(
      {
        company_name: { type: 'string', description: 'The name of the company.' },
        cik: { type: 'string', description: 'The Central Index Key number of the company.' },
      },
      ['company_name', 'cik'],
    );
    const got = call(filings, 'Review the filings of Berkshire Hathaway; their CIK number is 0001067983.');
    expect(got).not.toMatchObject({ cik: 'CIK' });
    expect(got).toMatchObject({ missing: expect.arrayContaining(['cik']) as unknown });
  });
});

describe('a name the parameter’s word is part of', () => {
  it('is the value whole ("the Museum of Modern Art", "Hotel Paradise"), and no part of the place', () => {
    const museum = tool({ museum_name: { type: 'string', description: 'The name of the museum.' } }, [
      'museum_name',
    ]);
    expect(
      call(museum, 'Find art exhibitions for next month in the Museum of Modern Art, New York.'),
    ).toEqual({
      museum_name: 'Museum of Modern Art',
    });
    const hotel = tool(
      {
        hotel_name: { type: 'string', description: 'The name of the hotel.' },
        location: { type: 'string', description: 'The location of the hotel.' },
      },
      ['hotel_name', 'location'],
    );
    expect(call(hotel, 'Book a luxury room in Hotel Paradise, Las Vegas, with a city view')).toEqual({
      hotel_name: 'Hotel Paradise',
      location: 'Las Vegas',
    });
  });
});

describe('where a name or a place ends', () => {
  it('"from Barcelona team": the parameter’s own word after the name says what it is', () => {
    const scorers = tool(
      {
        competition: { type: 'string', description: 'The name of the competition.' },
        team: { type: 'string', description: 'The name of the team.' },
      },
      ['competition', 'team'],
    );
    expect(
      call(scorers, 'Give me the top goal scorers in the UEFA Champions League from Barcelona team.', [
        { parameter: 'team', source: 'user_text', step_index: null, path: null },
      ]),
    ).toMatchObject({ team: 'Barcelona' });
  });
});

describe('a value named elsewhere in the request than the part the plan names', () => {
  it('"The event identifier is \'med123\'" beats the one name of the part', () => {
    const reschedule = tool(
      {
        event_identifier: {
          type: 'string',
          description: 'The unique identifier of the event to be rescheduled.',
        },
        new_datetime: {
          type: 'string',
          description:
            "The new date and time for the event in ISO-8601 format, such as '2023-04-15T13:45:00Z'.",
        },
      },
      ['event_identifier', 'new_datetime'],
    );
    const part = "I need to change the date for Oscar's medicine appointment to this coming Friday.";
    const refs: InputFrom[] = [
      { parameter: 'event_identifier', source: 'user_text', step_index: null, path: null, text: part },
      { parameter: 'new_datetime', source: 'user_text', step_index: null, path: null, text: part },
    ];
    expect(call(reschedule, `${part} The event identifier is 'med123'.`, refs)).toEqual({
      event_identifier: 'med123',
      new_datetime: '2024-11-08T00:00:00Z',
    });
  });
});

describe('the user’s words after an instruction and its colon', () => {
  const speech = tool({ text: { type: 'string', description: 'The text to be converted to speech.' } }, [
    'text',
  ]);
  const ref: InputFrom[] = [{ parameter: 'text', source: 'user_text', step_index: null, path: null }];
  it('are the words a text parameter takes', () => {
    expect(call(speech, 'Convert it to audio format: I am a pretty girl', ref)).toEqual({
      text: 'I am a pretty girl',
    });
  });
  it('not for a time or two colons', () => {
    expect(call(speech, 'Read this aloud at 10:30 please', ref)).toEqual({
      text: 'Read this aloud at 10:30 please',
    });
    expect(call(speech, 'Say: hello there: general Kenobi', ref)).toEqual({
      text: 'Say: hello there: general Kenobi',
    });
  });
});

describe('issue 19: paths, clock times, months, possessives, verb objects, counted days, closed lists', () => {
  const userText = (...names: string[]): InputFrom[] =>
    names.map((parameter) => ({ parameter, source: 'user_text', step_index: null, path: null }));
  it('a parameter documented as a path takes the home-relative or drive path written', () => {
    const t = tool({ input_source: { type: 'string', description: 'The path where the scan is stored.' } }, [
      'input_source',
    ]);
    expect(call(t, 'Process the scan in ~/scans/brain01.nii please', userText('input_source'))).toEqual({
      input_source: '~/scans/brain01.nii',
    });
    const csv = tool({ dataset_path: { type: 'string', description: 'Path to the CSV file.' } }, [
      'dataset_path',
    ]);
    expect(call(csv, 'Load the table at D:/exports/sales.csv', userText('dataset_path'))).toEqual({
      dataset_path: 'D:/exports/sales.csv',
    });
  });
  it('a parameter named as a time of day takes the time written as HH:MM; a duration does not', () => {
    const t = tool(
      {
        city: { type: 'string', description: 'The city.' },
        time: { type: 'string', description: 'The time to check the pollen count.' },
      },
      ['city', 'time'],
    );
    expect(call(t, 'Check the pollen count in Denver at 3pm', userText('city', 'time'))).toEqual({
      city: 'Denver',
      time: '15:00',
    });
    const d = tool({ time: { type: 'string', description: 'How long the timer runs, in minutes.' } }, []);
    expect(call(d, 'Start a timer at 3pm', userText('time'))).toEqual({});
  });
  it('a month parameter takes the month named, and a possessive ends the name before the thing it owns', () => {
    const t = tool(
      {
        artist: { type: 'string', description: 'Name of the artist performing.' },
        month: { type: 'string', description: 'Month in which the show takes place.' },
      },
      ['artist', 'month'],
    );
    expect(
      call(t, 'When is the show for Blue Orchid’s tour starting in March?', userText('artist', 'month')),
    ).toEqual({ artist: 'Blue Orchid', month: 'March' });
  });
  it('the object of the verb the tool’s words name is the one open entity', () => {
    const t = createTool(
      'Get the person who made a particular invention.',
      { invention: { type: 'string', description: 'The invention of interest.' } },
      ['invention'],
    );
    expect(call(t, 'Who invented the printing press?', userText('invention'))).toEqual({
      invention: 'printing press',
    });
    expect(call(t, 'Who invented the law of conservation of mass and when?', userText('invention'))).toEqual({
      invention: 'law of conservation of mass',
    });
    // A verb the tool's words do not name says nothing.
    expect(call(t, 'Who painted the ceiling?', userText('invention'))).toEqual({ missing: ['invention'] });
  });
  it('a parameter counting days takes the number of days written', () => {
    const t = tool(
      {
        location: { type: 'string', description: 'The city.' },
        days: { type: 'integer', description: 'Number of days to forecast.' },
      },
      ['location'],
    );
    expect(call(t, 'Pollen forecast in Austin for the next four days', userText('location'))).toEqual({
      location: 'Austin',
      days: 4,
    });
  });
  it('an array of a closed set takes no list of names that are not its values', () => {
    const t = tool(
      {
        location: { type: 'string', description: 'The city and state, e.g. Austin, TX' },
        amenities: {
          type: 'array',
          items: { type: 'string', enum: ['Parking', 'Pool', 'Gym'] },
          description: 'Amenities of the hotel.',
        },
      },
      ['location', 'amenities'],
    );
    expect(
      call(t, 'A hotel in Tulsa, Oklahoma with a pool and a gym', userText('location', 'amenities')),
    ).toEqual({
      location: 'Tulsa, OK',
      amenities: ['Pool', 'Gym'],
    });
  });
  it('an array whose description quotes its values takes the ones named', () => {
    const t = tool(
      {
        markets: {
          type: 'array',
          items: { type: 'string' },
          description: "Markets to compare. Supported markets are 'Nikkei 225', 'Hang Seng', 'DAX'.",
        },
      },
      ['markets'],
    );
    expect(call(t, 'Compare the Hang Seng with the DAX this week', userText('markets'))).toEqual({
      markets: ['Hang Seng', 'DAX'],
    });
  });
});

describe('issue 19: name ends, numbers beside the next phrase, topics, conversions, stays, places', () => {
  const userText = (...names: string[]): InputFrom[] =>
    names.map((parameter) => ({ parameter, source: 'user_text', step_index: null, path: null }));
  it('a name the request gives ends before a preposition', () => {
    const t = tool(
      {
        club: { type: 'string', description: 'Name of the club.' },
        include_scorers: { type: 'boolean', description: 'Include the scorers.' },
      },
      ['club'],
    );
    expect(
      call(t, 'Show the last result for Ajax Amsterdam including its scorers', userText('club')),
    ).toEqual({
      club: 'Ajax Amsterdam',
      include_scorers: true,
    });
  });
  it('a number takes no name written after a preposition that follows it', () => {
    const t = tool(
      {
        total: { type: 'integer', description: 'The total class size.' },
        girls: { type: 'integer', description: 'The number of girls.' },
        boys: { type: 'integer', description: 'The number of boys.' },
      },
      ['total', 'girls', 'boys'],
    );
    expect(call(t, 'A class size of 30 with girls being 12 and boys being 18')).toEqual({
      total: 30,
      girls: 12,
      boys: 18,
    });
  });
  it('a topic parameter takes the phrase after "about" or "related to"', () => {
    const t = tool(
      { subject: { type: 'string', description: "The subject matter of the article, e.g., 'tax'" } },
      ['subject'],
    );
    expect(call(t, 'Find an old newspaper article about piracy from 1990', userText('subject'))).toEqual({
      subject: 'piracy',
    });
    expect(call(t, 'Find articles related to river pollution in Ohio', userText('subject'))).toEqual({
      subject: 'river pollution',
    });
  });
  it('"how many X in N Y" gives the conversion’s ends, spelled as the description does', () => {
    const t = tool(
      {
        value: { type: 'integer', description: 'The value to convert.' },
        from_unit: { type: 'string', description: "The unit to convert from. Supports 'pint', 'cup'." },
        to_unit: { type: 'string', description: "The unit to convert to. Supports 'pint', 'cup'." },
      },
      ['value', 'from_unit', 'to_unit'],
    );
    expect(call(t, 'How many cups are in 3 pints?', userText('from_unit', 'to_unit'))).toEqual({
      value: 3,
      from_unit: 'pint',
      to_unit: 'cup',
    });
  });
  it('a stay of n nights ends n days after the one date written', () => {
    const t = tool(
      {
        start_date: { type: 'string', description: "Start of the stay. Use format 'YYYY-MM-DD'." },
        end_date: { type: 'string', description: "End of the stay. Use format 'YYYY-MM-DD'." },
      },
      ['start_date', 'end_date'],
    );
    expect(call(t, 'Book a cabin for two nights starting from 30th March 2025')).toEqual({
      start_date: '2025-03-30',
      end_date: '2025-04-01',
    });
  });
  it('a place stops at a sentence’s full stop, and a value another parameter lists does not hide the place', () => {
    const t = tool(
      {
        location: { type: 'string', description: 'The city.' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'], description: 'Temperature unit.' },
      },
      ['location'],
    );
    expect(
      call(t, 'How warm will it be in Lima, Peru. I prefer the celsius unit.', userText('location')),
    ).toEqual({
      location: 'Lima, Peru',
      unit: 'celsius',
    });
    expect(
      call(t, 'I am flying to Oslo, Norway in May; give me the temperature in Celsius', userText('location')),
    ).toEqual({ location: 'Oslo, Norway', unit: 'celsius' });
  });
  it('initials opening a name are the name’s; an abbreviation closing one ends it before the next sentence', () => {
    const t = tool({ actor: { type: 'string', description: 'Name of the actor.' } }, ['actor']);
    expect(call(t, 'Which films have P.J. Harlow in the cast?', userText('actor'))).toEqual({
      actor: 'P.J. Harlow',
    });
    const c = tool(
      {
        team_name: { type: 'string', description: 'Name of the team.' },
        include_stats: { type: 'boolean', description: 'Include the statistics.' },
      },
      ['team_name'],
    );
    expect(call(c, 'The last match of Ajax F.C. Include its statistics.', userText('team_name'))).toEqual({
      team_name: 'Ajax F.C.',
      include_stats: true,
    });
  });
  it('a kind the closed set does not offer is asked about, not replaced by the default', () => {
    const t = tool(
      {
        location: { type: 'string', description: 'The city and state, e.g., Austin, TX' },
        shop_type: {
          type: 'array',
          items: { type: 'string', enum: ['Bakery', 'Butcher'] },
          description: 'Type of the food shop.',
          default: ['Bakery'],
        },
      },
      ['location'],
    );
    expect(call(t, 'Find a shoe shop near Austin, TX', userText('location'))).toEqual({
      missing: ['shop_type.0'],
    });
    expect(call(t, 'Find a food shop near Austin, TX', userText('location'))).toEqual({
      location: 'Austin, TX',
      shop_type: ['Bakery'],
    });
  });
});

describe('words the plan names that name no one', () => {
  it('point back at the name the request gives before them', () => {
    const lookup = tool(
      { query: { type: 'string', minLength: 1, description: "A person's or group's name, or part of it." } },
      ['query'],
    );
    const part = '然后在群里提醒一下';
    const refs: InputFrom[] = [
      { parameter: 'query', source: 'user_text', step_index: null, path: null, text: part },
    ];
    expect(call(lookup, `把周报用邮件发给市场部，${part}`, refs)).toEqual({ query: '市场部' });
    // (a name written only after them is not one they point back at)
    expect(call(lookup, `${part}，周报用邮件发给市场部`, refs)).toEqual({ missing: ['query'] });
  });
});

describe('several steps feeding one list parameter', () => {
  it('give the list of all they found, each value once', () => {
    const send = tool(
      {
        chat_ids: { type: 'array', minItems: 1, items: { type: 'string' }, description: 'Chat ids.' },
        text: { type: 'string', description: 'The message.' },
      },
      ['chat_ids', 'text'],
    );
    const found = (index: number, ids: string[]) => ({
      call: { step_index: index, tool: 'lookup', arguments: {}, provenance: {}, validation_log: [] },
      result: {
        step_index: index,
        tool: 'lookup',
        ok: true,
        output: { contacts: ids.map((chat_id) => ({ chat_id })) } as never,
        output_ref: null,
        output_kind: 'source' as const,
        error_class: null,
        error_message: null,
        duration_ms: 5,
        attempts: 1,
        cache_hit: false,
        fetched_at: null,
        idempotency_key: null,
      },
      status: 'success' as const,
      issues: [],
    });
    const feed = (i: number): InputFrom => ({
      parameter: 'chat_ids',
      source: 'step_output',
      step_index: i,
      path: 'contacts[].chat_id',
    });
    const built = buildArguments({
      tool: send,
      step: { ...step([feed(0), feed(1)]), index: 2 },
      task: testTask({
        request: 'Tell Ann and Bo that the build is green',
        reference_time: '2024-11-04T09:00:00.000Z',
      }),
      history: [found(0, ['u_ann']), found(1, ['u_bo', 'u_ann'])],
      proposals: null,
      sensitive: new Set(),
    });
    expect(built.arguments.chat_ids).toEqual(['u_ann', 'u_bo']);
  });
});

describe('one call of several for listed values', () => {
  const rooms = tool(
    {
      hotel: { type: 'string', description: 'The name of the hotel.' },
      nights: { type: 'integer', description: 'How many nights.' },
      guests: { type: 'integer', description: 'How many guests.' },
    },
    ['hotel', 'nights'],
  );
  const own = (text: string): InputFrom[] =>
    ['hotel', 'nights'].map((parameter) => ({
      parameter,
      source: 'user_text',
      step_index: null,
      path: null,
      text,
    }));

  it("reads the request as the plan reduced it to its call's value, for every parameter", () => {
    const request = 'Price a room at the Harbour Inn for 2 guests for 3, 5 and 7 nights';
    // (the decider's words for the second call: the list reduced to its value)
    expect(call(rooms, request, own('Price a room at the Harbour Inn for 2 guests for 5 nights'))).toEqual({
      hotel: 'Harbour Inn',
      nights: 5,
      guests: 2,
    });
  });

  it('takes a value every call shares from the whole request when its words leave it out', () => {
    const request = 'For 4 nights: price a room at the Harbour Inn and at the Quay Hotel';
    expect(call(rooms, request, own('price a room at the Quay Hotel'))).toEqual({
      hotel: 'Quay Hotel',
      nights: 4,
    });
  });
});

describe('a pronoun in the words a plan names', () => {
  const lookup = tool(
    {
      query: { type: 'string', minLength: 1, description: "A person's or group's name, or part of it." },
    },
    ['query'],
  );
  const part = (text: string): InputFrom => ({
    parameter: 'query',
    source: 'user_text',
    step_index: null,
    path: null,
    text,
  });
  it('他 / 她 is the one person the request names before those words', () => {
    const request = '王芳刚才在群里问报销的事，她电话是多少？';
    expect(call(lookup, request, [part('她电话是多少')])).toEqual({ query: '王芳' });
  });
});

describe('a link the request writes', () => {
  const registry = createRegistry(
    RegistryContent.parse({
      tools: [
        {
          name: 'find_pages',
          description,
          action: 'read',
          permission: 'read_only',
          parameters: {
            type: 'object',
            properties: { query: { type: 'string', description: 'The query.' } },
            required: ['query'],
            additionalProperties: false,
          },
        },
        {
          name: 'read_page',
          description,
          action: 'read',
          permission: 'read_only',
          parameters: {
            type: 'object',
            properties: {
              url: { type: 'string', format: 'uri', description: 'The page.' },
              goal: { type: 'string', description: 'What to look for.' },
            },
            required: ['url', 'goal'],
            additionalProperties: false,
          },
          depends_on: [{ tool: 'find_pages', output: 'results[].url', parameter: 'url', required: false }],
        },
      ],
      agents: [{ id: 'agent', description: 'test agent', max_permission: 'sensitive' }],
      scenes: [],
      tenants: [{ id: 'default', allow: ['*'], deny: [], max_permission: 'sensitive' }],
      profiles: [],
      policies: [],
      settings: {},
    }),
  );
  const searched = {
    call: { step_index: 0, tool: 'find_pages', arguments: {}, provenance: {}, validation_log: [] },
    result: {
      step_index: 0,
      tool: 'find_pages',
      ok: true,
      output: { results: [{ url: 'https://other.example.net/found' }] } as never,
      output_ref: null,
      output_kind: 'lead' as const,
      error_class: null,
      error_message: null,
      duration_ms: 5,
      attempts: 1,
      cache_hit: false,
      fetched_at: null,
      idempotency_key: null,
    },
    status: 'success' as const,
    issues: [],
  };
  const urlFor = (request: string, inputFrom: InputFrom[] = []) =>
    buildArguments({
      tool: registry.tool('read_page') as ToolDefinition,
      step: { ...step(inputFrom), index: 1, tool: 'read_page' },
      task: testTask({ request, reference_time: '2024-11-04T09:00:00.000Z' }),
      history: [searched],
      proposals: null,
      sensitive: new Set(),
    }).arguments.url;
  it('is the page to open, over one an optional dependency offers', () => {
    expect(urlFor('https://blog.example.com/kafka-tuning 这篇里推荐的分区数是多少，用的什么硬件')).toBe(
      'https://blog.example.com/kafka-tuning',
    );
    expect(urlFor('What does https://wiki.example.com/raft.html say about leader leases?')).toBe(
      'https://wiki.example.com/raft.html',
    );
    // (so when the plan wires the search's results to it)
    const wired: InputFrom = {
      parameter: 'url',
      source: 'step_output',
      step_index: 0,
      path: 'results[].url',
    };
    expect(urlFor('https://wiki.example.com/raft.html 里讲租约的部分，还有选举超时是多少', [wired])).toBe(
      'https://wiki.example.com/raft.html',
    );
  });
  it('leaves the chain its page when the request writes none', () => {
    // (the list the search found; the call is made with one of it)
    expect(urlFor('find the kafka tuning guide and tell me the partition count')).toEqual([
      'https://other.example.net/found',
    ]);
  });
});

describe('a range of dates', () => {
  const records = tool(
    {
      date_from: { type: 'string', format: 'date', description: 'First day.', date_direction: 'past' },
      date_to: { type: 'string', format: 'date', description: 'Last day.', date_direction: 'past' },
    },
    ['date_from'],
  );
  it('ends on no day before its start: a later deadline is no end of it', () => {
    expect(call(records, '把上周五的会议记录整理一下，提醒她12月20号之前交总结')).toEqual({
      date_from: '2024-11-01',
      date_to: '2024-11-01',
    });
    expect(call(records, '上周二到周四的会议记录')).toEqual({
      date_from: '2024-10-29',
      date_to: '2024-10-31',
    });
  });
});

describe('one of several values named', () => {
  const slides = tool(
    {
      template: {
        type: 'string',
        description: 'The slide template.',
        enum: ['plain', 'pitch', 'quarterly'],
        synonyms: { 季报: 'quarterly', 路演: 'pitch' },
      },
    },
    [],
  );
  it('is the one written as the kind chosen (…模板, "… template")', () => {
    expect(call(slides, '季报的数据我自己贴，你用路演模板做几页就行')).toEqual({ template: 'pitch' });
    expect(call(slides, 'not the quarterly deck, just use the pitch template')).toEqual({
      template: 'pitch',
    });
  });

  it('is the one written right before the name of what the tool handles ("a billing case" to case_open)', () => {
    const cases = {
      ...tool(
        {
          kind: {
            type: 'string',
            description: 'The kind of case.',
            enum: ['billing', 'technical', 'other'],
            synonyms: { invoice: 'billing', crash: 'technical' },
          },
        },
        [],
      ),
      name: 'case_open',
    };
    expect(call(cases, 'The app shows a crash on my invoice page; open it as a billing case please')).toEqual(
      {
        kind: 'billing',
      },
    );
  });
});
