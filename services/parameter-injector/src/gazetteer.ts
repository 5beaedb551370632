// A gazetteer of the world's cities (PI-2, places in two parts): the name, the ISO 3166-1 alpha-2 country, for a city of
// the United States its state's two-letter postal code, and the population — for writing a place the request names
// alone ("weather in Boston") in the two-part form a parameter documents ("in the format of 'City, State'" →
// "Boston, MA"), and for telling which of several namesakes a bare name means.
//
// Source: the populated places of Natural Earth (public domain) as the npm package city-timezones (MIT) ships them
// (data/cityMap.json, 7 329 places), read at first use rather than copied into the source tree.
import { createRequire } from 'node:module';
import type * as CityTimezones from 'city-timezones';

/** One city of the gazetteer. */
export interface WorldCity {
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** The US state's postal code; empty outside the United States. */
  state: string;
  population: number;
}

/**
 * A place as city-timezones' data has it. Its typings declare `iso2` a string and `state_ansi` always present; the data
 * writes -99 or '' for a country without an ISO code (Kosovo, Somaliland) and has `state_ansi` only where Natural Earth
 * gives one.
 */
interface PopulatedPlace {
  readonly city: string;
  readonly iso2: string | number;
  readonly pop: number;
  readonly state_ansi?: string;
}

/**
 * Places smaller than this are left out. Natural Earth is a small-scale map's data: it lists every large city but only
 * some small towns, so for a small town it cannot tell whether the name is shared, which completion relies on.
 */
const MIN_POPULATION = 10_000;

let cities: readonly WorldCity[] | undefined;

/**
 * Every city of the gazetteer: the places of 10 000 inhabitants or more with a country code, one row per name,
 * country and US state (the largest, when the data has two). Read and built once per process, at the first call: the
 * data is 1.9 MB of JSON that a process deciding no place never loads.
 */
export function worldCities(): readonly WorldCity[] {
  if (cities) return cities;
  // require, not import: a static import would parse the data when the module loads, and an import() would make every
  // caller asynchronous. The package is CommonJS, so require loads it as Node always does.
  const require = createRequire(import.meta.url);
  const { cityMapping } = require('city-timezones') as typeof CityTimezones;
  const byKey = new Map<string, WorldCity>();
  for (const place of cityMapping as readonly PopulatedPlace[]) {
    const country = typeof place.iso2 === 'string' && /^[A-Z]{2}$/.test(place.iso2) ? place.iso2 : undefined;
    if (!country || place.pop < MIN_POPULATION) continue;
    // Natural Earth gives a few places outside the United States a `state_ansi` too (Montana, Bulgaria: "MT"); only a
    // US state's is a state here.
    const state = country === 'US' ? (place.state_ansi ?? '') : '';
    const key = `${place.city}|${country}|${state}`;
    const population = Math.round(place.pop);
    const seen = byKey.get(key);
    if (!seen || seen.population < population)
      byKey.set(key, { name: place.city, country, state, population });
  }
  cities = [...byKey.values()];
  return cities;
}
