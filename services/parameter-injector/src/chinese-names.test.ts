import { describe, expect, it } from 'vitest';
import { chinesePersonNames } from './chinese-names.js';

const names = (text: string, addressed = false) => chinesePersonNames(text, addressed).map((n) => n.name);

describe('Chinese personal names', () => {
  it('reads a surname and a one- or two-character given name the dictionary does not know', () => {
    expect(names('黄磊的手机号多少')).toEqual(['黄磊']);
    expect(names('帮我找一下刘洋在哪个群')).toEqual(['刘洋']);
    expect(names('抄送给张小敏')).toEqual(['张小敏']);
    expect(names('帮我查下黄磊的手机号')).toEqual(['黄磊']);
  });

  it('reads no name in dictionary words that start with a surname character', () => {
    expect(names('马上把白天的会议纪要发我')).toEqual([]);
    expect(names('周五的金额是多少')).toEqual([]);
    expect(names('明天高温吗')).toEqual([]);
    expect(names('工程师的邮箱是多少')).toEqual([]);
  });

  it('after a recipient marker, takes the name at the start, a dictionary word as a given name too', () => {
    expect(names('林小雨', true)).toEqual(['林小雨']);
    expect(names('黄磊明天早点到', true)).toEqual(['黄磊']);
    expect(names('运维组', true)).toEqual([]);
  });
});
