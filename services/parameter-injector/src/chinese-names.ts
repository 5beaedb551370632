// Chinese personal names in a request (张敏, 陈杰, 欧阳明月), for a parameter documented as a person's name (a contact
// look-up's query): the proper-name rules read capitalised Latin words, and Chinese has neither capitals nor spaces.
//
// A name is a surname followed by a given name of one or two characters. The runtime's ICU word segmentation
// (`Intl.Segmenter`, dictionary based) leaves a personal name out of its dictionary, so it comes out as single
// characters (张|敏, 陈|杰) while the words around it come out whole (邮箱, 明天): a surname standing as a segment of
// its own starts a name, and the given name is the one or two single characters after it — the second only when it
// is no one-character word of grammar (王|芳|在 → 王芳). After a recipient marker (给, 跟, 私聊 …) the given name may be a
// dictionary word too (林|小雨), since what follows the marker is the one addressed.
import { CHINESE_SURNAMES, ONE_CHARACTER_FUNCTION_WORDS } from './chinese-surnames.js';

const SEGMENTER = new Intl.Segmenter('zh', { granularity: 'word' });
const FUNCTION_WORDS = new Set(ONE_CHARACTER_FUNCTION_WORDS);
// A character that is also a one-character word of grammar (和 "and") is read as that word, not as a surname.
const SURNAMES = new Set(CHINESE_SURNAMES.filter((s) => !FUNCTION_WORDS.has(s)));
const HAN = /^\p{Script=Han}+$/u;

/** A Chinese personal name found in a text, and where it starts. */
export interface ChineseName {
  name: string;
  index: number;
}

/**
 * The Chinese personal names a text writes, in order. With `addressed` (the text is what follows a recipient marker,
 * so it starts with the one addressed) only a name at its start, and the given name may be a dictionary word.
 */
export function chinesePersonNames(text: string, addressed = false): ChineseName[] {
  const segments = [...SEGMENTER.segment(text)];
  const out: ChineseName[] = [];
  for (let i = 0; i < segments.length; i++) {
    const surname = segments[i];
    if (!surname || !SURNAMES.has(surname.segment)) continue;
    if (addressed && surname.index !== 0) break;
    const first = segments[i + 1];
    if (!first || !HAN.test(first.segment) || FUNCTION_WORDS.has(first.segment)) continue;
    let given = '';
    if (first.segment.length === 1) {
      given = first.segment;
      const second = segments[i + 2];
      if (
        second &&
        second.segment.length === 1 &&
        HAN.test(second.segment) &&
        !FUNCTION_WORDS.has(second.segment)
      )
        given += second.segment;
    } else if (addressed && first.segment.length === 2) given = first.segment;
    if (given === '') continue;
    out.push({ name: surname.segment + given, index: surname.index });
    if (addressed) break;
  }
  return out;
}
