import { describe, expect, it } from 'vitest';
import { worldCities } from './gazetteer.js';

describe('worldCities', () => {
  it('lists the cities of 10 000 inhabitants or more by ISO country, with a state only in the United States', () => {
    const cities = worldCities();
    expect(cities.length).toBeGreaterThan(5000);
    for (const city of cities) {
      expect(city.population).toBeGreaterThanOrEqual(10_000);
      expect(city.country).toMatch(/^[A-Z]{2}$/);
      if (city.country !== 'US') expect(city.state).toBe('');
    }
    expect(cities).toContainEqual(expect.objectContaining({ name: 'Boston', country: 'US', state: 'MA' }));
    expect(cities.filter((c) => c.name === 'Springfield' && c.country === 'US').length).toBeGreaterThan(1);
  });

  it('keeps one row per name, country and state, and builds them once', () => {
    const cities = worldCities();
    const keys = cities.map((c) => `${c.name}|${c.country}|${c.state}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(worldCities()).toBe(cities);
  });
});
