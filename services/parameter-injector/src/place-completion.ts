// A place written the way its parameter documents it (PI-2): a description that shows places in two parts ("in the
// format of 'City, State', such as 'Berkeley, CA'", "'City, Country' if the city does not locate in the United States,
// e.g. 'Paris, FR'") gets a city the request names alone in that form — "weather in Boston" → "Boston, MA", "hotels
// in Nairobi" → "Nairobi, KE" — and a two-part place written otherwise than documented in the documented form
// ("Naples, Florida" → "Naples, FL", "New Delhi, India" → "New Delhi, IN" for a tool whose examples write codes).
//
// The second part is knowledge about the place the user named, not a value chosen for them: it comes from the gazetteer
// (`gazetteer.ts`), and only when the name leaves no doubt. A name several cities share is completed only when one
// of them is far larger than every other (ten times the population of the next): "Paris" is the French capital, not
// Paris, Texas, the way a person reads it; "San Jose" (California, 1.3 M; Costa Rica, 0.6 M) is left as written —
// unless the description wants only US places ('City, State' and no country), where the US city is the one meant.
import { worldCities, type WorldCity } from './gazetteer.js';
import { US_STATE_CODES } from './us-state-codes.js';

/** How a parameter's description wants a place written in two parts. */
export interface TwoPartStyle {
  /** The second part outside the United States: the country's name, its two-letter code, or none (US places only). */
  abroad: 'name' | 'code' | null;
  /** The examples write the United Kingdom as "UK" (not its ISO code GB). */
  ukAsUk: boolean;
}

// "Berkeley, CA", "Paris, FR", "Seoul, South Korea", "London, UK": a capitalised place and its capitalised second part.
const EXAMPLE = /(\p{Lu}[\p{L}.'-]*(?: \p{Lu}[\p{L}.'-]*)*), (\p{Lu}[\p{L}]*(?: \p{Lu}[\p{L}]*)*)/gu;
const STATE_CODES = new Set(Object.values(US_STATE_CODES));
/** Words of a format's placeholders ("City, State"), not of an example. */
const PLACEHOLDER =
  /^(?:city|state|country|town|province|region|district|street|address|latitude|longitude)\b/i;

/**
 * The two-part style a description documents, or undefined when it shows none: a written format ("'City, State'",
 * "'City, Country'") or examples of cities with a second part. Coordinates ("'Latitude, Longitude'") are no place.
 */
export function twoPartPlaceStyle(description: string): TwoPartStyle | undefined {
  const formatState = /\bcity,\s*state\b/i.test(description);
  const formatCountry = /\bcity,\s*country\b/i.test(description);
  const examples = [...description.matchAll(EXAMPLE)]
    .map((m) => ({ city: m[1] ?? '', second: m[2] ?? '' }))
    .filter((e) => !PLACEHOLDER.test(e.city) && !PLACEHOLDER.test(e.second));
  const usExample = examples.some((e) => STATE_CODES.has(e.second));
  const abroadExamples = examples.filter((e) => !STATE_CODES.has(e.second));
  if (!formatState && !formatCountry && examples.length === 0) return undefined;
  if (!formatState && !formatCountry && !usExample && abroadExamples.length === 0) return undefined;
  const abroad =
    abroadExamples.length > 0
      ? abroadExamples.every((e) => /^\p{Lu}{2,3}$/u.test(e.second))
        ? 'code'
        : 'name'
      : formatCountry
        ? 'name'
        : null;
  return { abroad, ukAsUk: abroadExamples.some((e) => e.second === 'UK') };
}

/** Lower-cased, accents dropped: "Divinópolis" and "divinopolis" are one name. */
function nameKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

let byName: Map<string, WorldCity[]> | undefined;
function citiesNamed(name: string): WorldCity[] {
  if (!byName) {
    byName = new Map();
    for (const city of worldCities()) {
      const key = nameKey(city.name);
      const list = byName.get(key);
      if (list) list.push(city);
      else byName.set(key, [city]);
    }
  }
  return byName.get(nameKey(name)) ?? [];
}

/** True when `name` is the name of a city of the gazetteer (accents and case aside). */
export function isCityName(name: string): boolean {
  return citiesNamed(name).length > 0;
}

/** A larger namesake is the one meant only when it has ten times the population of the next one. */
const DOMINANCE = 10;

/** The one city a bare name means, by the rule above; undefined when the name is unknown or shared. */
function cityMeant(name: string, usOnly: boolean): WorldCity | undefined {
  const all = citiesNamed(name).filter((c) => !usOnly || c.country === 'US');
  const ranked = [...all].sort((a, b) => b.population - a.population);
  const [first, second] = ranked;
  if (!first) return undefined;
  return !second || first.population >= DOMINANCE * second.population ? first : undefined;
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
let countryCodes: Map<string, string> | undefined;
/** A country written by its English name ("Kenya", "South Korea") → its ISO code, for the countries of the gazetteer. */
function countryCodeOf(name: string): string | undefined {
  if (!countryCodes) {
    countryCodes = new Map();
    for (const c of worldCities()) {
      const english = regionNames.of(c.country);
      if (english) countryCodes.set(nameKey(english), c.country);
    }
    countryCodes.set(nameKey('UK'), 'GB');
    countryCodes.set(nameKey('USA'), 'US');
  }
  return countryCodes.get(nameKey(name));
}

const stateByName = new Map(Object.entries(US_STATE_CODES).map(([n, code]) => [nameKey(n), code]));

function countryPart(code: string, style: TwoPartStyle): string | undefined {
  if (style.abroad === 'code') return code === 'GB' && style.ukAsUk ? 'UK' : code;
  if (style.abroad === 'name') return regionNames.of(code);
  return undefined;
}

/**
 * `place` as the description documents it (see the file's comment), or `place` unchanged when the gazetteer cannot
 * say, the place is no city of it, or it is already written so.
 */
export function completePlace(place: string, style: TwoPartStyle): string {
  const parts = place.split(/\s*,\s*/);
  if (parts.length > 2) return place;
  const [city = '', second] = parts;
  if (second !== undefined) {
    // Written in two parts: the second in the documented form.
    const state = stateByName.get(nameKey(second));
    if (state) return `${city}, ${state}`;
    const code = STATE_CODES.has(second) ? undefined : countryCodeOf(second);
    if (code && code !== 'US' && style.abroad !== null) {
      const written = countryPart(code, style);
      if (written && nameKey(written) !== nameKey(second)) return `${city}, ${written}`;
    }
    return place;
  }
  const meant = cityMeant(city, style.abroad === null);
  if (!meant) return place;
  if (meant.country === 'US') return meant.state === '' ? place : `${city}, ${meant.state}`;
  const written = countryPart(meant.country, style);
  return written ? `${city}, ${written}` : place;
}
