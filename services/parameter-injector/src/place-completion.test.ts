import { describe, expect, it } from 'vitest';
import { completePlace, twoPartPlaceStyle } from './place-completion.js';

const US_OR_COUNTRY =
  "The location, in the format of 'City, State (abbr)', such as 'San Francisco, CA' if State for the city exists. 'City, Country' if State for the city doesn't exist.";
const CODES =
  "The city, formatted as 'City, State' or 'City, Country', such as 'New York, NY' or 'London, UK'.";
const US_ONLY = "The location of the restaurant in the format of 'City, State', such as 'Berkeley, CA'.";

describe('twoPartPlaceStyle', () => {
  it('reads the documented second part: a country name, a code, or US states only', () => {
    expect(twoPartPlaceStyle(US_OR_COUNTRY)).toEqual({ abroad: 'name', ukAsUk: false });
    expect(twoPartPlaceStyle(CODES)).toEqual({ abroad: 'code', ukAsUk: true });
    expect(twoPartPlaceStyle(US_ONLY)).toEqual({ abroad: null, ukAsUk: false });
  });

  it('finds no place format in coordinates or in a description without one', () => {
    expect(
      twoPartPlaceStyle("in the format of 'Latitude, Longitude' (e.g., '37.7749, -122.4194')"),
    ).toBeUndefined();
    expect(twoPartPlaceStyle('The city of the hotel.')).toBeUndefined();
  });
});

describe('completePlace', () => {
  it('adds the state of a US city and the country of another, as documented', () => {
    const style = twoPartPlaceStyle(US_OR_COUNTRY)!;
    expect(completePlace('Boston', style)).toBe('Boston, MA');
    expect(completePlace('Moscow', style)).toBe('Moscow, Russia');
    expect(completePlace('Moscow', twoPartPlaceStyle(CODES)!)).toBe('Moscow, RU');
    expect(completePlace('London', twoPartPlaceStyle(CODES)!)).toBe('London, UK');
  });

  it('leaves a name alone when namesakes of similar size share it, or when the gazetteer does not know it', () => {
    const style = twoPartPlaceStyle(US_OR_COUNTRY)!;
    expect(completePlace('San Jose', style)).toBe('San Jose');
    expect(completePlace('Springfieldia', style)).toBe('Springfieldia');
  });

  it('takes the US namesake when the tool documents US places only', () => {
    expect(completePlace('San Jose', twoPartPlaceStyle(US_ONLY)!)).toBe('San Jose, CA');
    expect(completePlace('Moscow', twoPartPlaceStyle(US_ONLY)!)).toBe('Moscow');
  });

  it('writes a second part given otherwise in the documented form', () => {
    expect(completePlace('Naples, Florida', twoPartPlaceStyle(US_ONLY)!)).toBe('Naples, FL');
    expect(completePlace('New Delhi, India', twoPartPlaceStyle(CODES)!)).toBe('New Delhi, IN');
    expect(completePlace('Berkeley, CA', twoPartPlaceStyle(US_ONLY)!)).toBe('Berkeley, CA');
  });
});
