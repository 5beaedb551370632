// Vocabulary data of the TD-6 fit (fit-features `qualifierConflict`), kept apart from the code that reads it.
//
// Source: general English — pairs of words that name the two opposite directions or ends of one operation or scale
// (a dictionary's antonyms), so that a request for one and a tool for the other cannot both be right. They are not
// taken from any benchmark record: classes that an earlier version derived from particular BFCL records (freezing vs
// boiling point, polynomial degree, ebook vs hardcover, shapes and measures, named statistics) were removed, because
// they encode those records rather than a rule. Add a class only when its senses exclude each other in any domain.

/** Closed classes of mutually exclusive qualifiers: each class lists senses, each sense its surface phrases. */
export const QUALIFIER_CLASSES: Readonly<Record<string, readonly (readonly string[])[]>> = {
  scope: [
    ['internal', 'inner', 'interior'],
    ['external', 'outer', 'exterior'],
  ],
  extreme: [
    ['max', 'maximum', 'highest', 'largest', 'biggest', 'greatest', 'most'],
    ['min', 'minimum', 'lowest', 'smallest', 'least', 'fewest'],
  ],
  trade_side: [
    ['buy', 'purchase'],
    ['sell', 'selling'],
  ],
  transfer_direction: [
    ['import', 'upload', 'deposit'],
    ['export', 'download', 'withdraw', 'withdrawal'],
  ],
  cipher_direction: [
    ['encrypt', 'encode', 'compress'],
    ['decrypt', 'decode', 'decompress'],
  ],
};
