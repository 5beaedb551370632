import type { ParameterHints } from '@signalbox/registry';
import { describe, expect, it } from 'vitest';
import { slotValues } from './template-slots.js';

function param(path: string, description = ''): ParameterHints {
  return {
    path,
    schema: { type: 'string', description },
    required: true,
    enum: undefined,
    synonyms: {},
    normalizers: [],
  };
}

const none = () => false;
const slots = (
  params: ParameterHints[],
  purpose: string,
  text: string,
  taken: (v: string) => boolean = none,
) => Object.fromEntries(slotValues(params, purpose, text, taken));

describe('the words a request writes where the tool’s purpose names a parameter', () => {
  it('after the same preposition behind the same word', () => {
    expect(
      slots(
        [param('substance')],
        'Retrieve the boiling point and melting point of a substance based on its name and the sea level.',
        'Find the boiling point and melting point of water under the sea level of 5000m.',
      ),
    ).toEqual({ substance: 'water' });
    expect(
      slots(
        [param('cell_compartment')],
        'Get the list of proteins in a specific cell compartment.',
        'What are the names of proteins found in the plasma membrane?',
      ),
    ).toEqual({ cell_compartment: 'plasma membrane' });
    expect(
      slots(
        [param('molecule'), param('organelle')],
        'Look up the function of a given molecule in a specified organelle.',
        'What is the function of ATP synthase in mitochondria?',
      ),
    ).toEqual({ molecule: 'ATP synthase', organelle: 'mitochondria' });
  });
  it('after the request’s only such preposition, up to where the phrase ends', () => {
    expect(
      slots(
        [param('manufacturer')],
        'Retrieve the average price and ratings of an instrument from a particular manufacturer.',
        'Find me the average price and ratings of piano from Yamaha.',
      ),
    ).toEqual({ manufacturer: 'Yamaha' });
    expect(
      slots(
        [param('dish_name')],
        'Fetch the recipe for a specific dish along with preparation steps.',
        'Get the recipe for vegan chocolate cake including the steps for preparation.',
      ),
    ).toEqual({ dish_name: 'vegan chocolate cake' });
  });
  it('not a number, a value taken, the tool’s own words, or a phrase that runs on', () => {
    const purpose = 'Retrieve the boiling point of a substance.';
    expect(slots([param('substance')], purpose, 'the boiling point of 5 liters')).toEqual({});
    expect(slots([param('substance')], purpose, 'the boiling point of water', (v) => v === 'water')).toEqual(
      {},
    );
    expect(slots([param('substance')], purpose, 'the boiling point of a substance')).toEqual({});
    expect(
      slots([param('substance')], purpose, 'the boiling point of very salty warm sea water please'),
    ).toEqual({});
    // Two places for one preposition and no word to tell them apart.
    expect(slots([param('city')], 'Weather in a city.', 'Is it colder in Oslo or in Bergen?')).toEqual({});
  });
});

describe('slots that are not there', () => {
  it('a name is not cut at a word that also qualifies ("from New York")', () => {
    expect(
      slots(
        [param('start')],
        'Retrieve directions from a starting location to an ending location.',
        'Get me the directions from New York to Los Angeles.',
      ),
    ).toEqual({});
  });
  it('without the purpose’s word, a lower-case phrase after the only such preposition is none', () => {
    expect(
      slots(
        [param('product')],
        'Get top brands based on a specific product from Whole Foods.',
        'Find the top five organic bananas brands on the basis of rating from Whole Foods store.',
      ),
    ).toEqual({});
  });
  it('the purpose’s other word before the preposition anchors it too ("services available in" / "services are in")', () => {
    expect(
      slots(
        [param('namespace')],
        'Retrieves a list of all services available in the specified namespace of the system.',
        'what services are in the default namespace?',
      ),
    ).toEqual({ namespace: 'default' });
  });
  it('the parameter’s word itself, not a longer word it begins ("sport" is not "sportsperson")', () => {
    expect(
      slots(
        [param('sport')],
        'Retrieve the current world ranking of a sportsperson based on the sport.',
        'Find the current world rank of a Tennis player, Serena Williams.',
      ),
    ).toEqual({});
  });
});
