import type { ParameterHints } from '@signalbox/registry';
import { describe, expect, it } from 'vitest';
import { languageCodeFor, namedLanguages } from './languages.js';

function param(path: string, description: string, values?: string[]): ParameterHints {
  return {
    path,
    schema: { type: 'string', description, ...(values ? { enum: values } : {}) },
    required: true,
    enum: values,
    synonyms: {},
    normalizers: [],
  };
}

describe('languages named in a request, written as codes', () => {
  it('finds the names of the runtime’s language data, in English and Chinese', () => {
    expect(namedLanguages('from English to French, or 西班牙语').map((n) => n.code)).toEqual([
      'en',
      'fr',
      'es',
    ]);
    // Lower-case words are not taken for languages ("ewe" is a sheep).
    expect(namedLanguages('an ewe in the field')).toEqual([]);
  });
  it('an enum of language tags takes the tag of the language named', () => {
    const language = param('language', 'The language of the input text.', [
      'en-US',
      'es-ES',
      'de-DE',
      'zh-CN',
    ]);
    expect(languageCodeFor(language, 'spoken audio in Spanish with a female voice')).toBe('es-ES');
    expect(languageCodeFor(language, 'in a male voice and in Chinese')).toBe('zh-CN');
    expect(languageCodeFor(language, 'spoken audio, please')).toBeUndefined();
    // Two tags of one language: its name does not say which.
    const english = param('language', 'The accent.', ['en-US', 'en-GB']);
    expect(languageCodeFor(english, 'in English')).toBeUndefined();
  });
  it('"from" marks the source, "to" the target; the other language is the other end', () => {
    const source = param('source_language', "The language code, such as 'en' for English.", [
      'en',
      'hi',
      'fr',
    ]);
    const target = param('target_language', "The language code, such as 'hi' for Hindi.", ['hi', 'es', 'fr']);
    const text = "Can you convert this sentence from English to French: 'What is your name?'";
    expect(languageCodeFor(source, text)).toBe('en');
    expect(languageCodeFor(target, text)).toBe('fr');
    const src = param(
      'src_lang',
      "The source language code, following the BCP 47 standard, such as 'en' for English.",
    );
    const tgt = param(
      'tgtLang',
      "The target language code, following the BCP 47 standard, such as 'zh' for Chinese.",
    );
    const other = 'Translate this English text to Danish';
    expect(languageCodeFor(src, other)).toBe('en');
    expect(languageCodeFor(tgt, other)).toBe('da');
    // Only a target named: the source is not it.
    expect(languageCodeFor(src, 'Translate this to Danish')).toBeUndefined();
  });
  it('a parameter that takes no codes is left to the other rules', () => {
    expect(
      languageCodeFor(param('language', 'The language in which the text is written.'), 'in English'),
    ).toBe(undefined);
  });
});
