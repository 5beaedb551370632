// Verbs that say with what, or from what, another act is done ("Use the review's own numbers", "Take the figures
// from the datasheet", "Go by the official notes"). Source: Levin, "English Verb Classes and Alternations" (1993),
// §105.1 "Use verbs" (use, employ, utilize, exploit), with the phrasal verbs of relying on a source that English
// usage guides list beside them (go by, rely on, stick to, draw on, base … on) and "take … from" of a source.

/** Base forms, lower-case. */
export const USING_VERBS: ReadonlySet<string> = new Set([
  'use',
  'employ',
  'utilize',
  'utilise',
  'exploit',
  'take',
  'go by',
  'rely on',
  'stick to',
  'draw on',
  'base',
]);
