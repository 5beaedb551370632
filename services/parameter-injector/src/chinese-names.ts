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
  const out: ChineseName[] = [];
  const segments = [...SEGMENTER.segment(text)];
  for (let i = 0; i < segments.length; i++) {
    const at = segments[i];
    if (!at) continue;
    if (addressed && at.index !== 0) break;
    if (SURNAMES.has(at.segment)) {
      const name = nameAfter(at.segment, segments.slice(i + 1), addressed);
      if (name) out.push({ name, index: at.index });
    }
    if (addressed) break;
  }
  return out;
}

/** The name a surname starts with the segments after it, or undefined when they give no given name. */
function nameAfter(
  surname: string,
  after: readonly Intl.SegmentData[],
  addressed: boolean,
): string | undefined {
  const [first, second] = after;
  if (!first || !HAN.test(first.segment) || FUNCTION_WORDS.has(first.segment)) return undefined;
  if (first.segment.length === 1) {
    const two =
      second &&
      second.segment.length === 1 &&
      HAN.test(second.segment) &&
      !FUNCTION_WORDS.has(second.segment);
    return surname + first.segment + (two ? second.segment : '');
  }
  return addressed && first.segment.length === 2 ? surname + first.segment : undefined;
}
