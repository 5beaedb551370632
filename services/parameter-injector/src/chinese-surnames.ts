// Language data for `chinese-names.ts`.

/**
 * The common Chinese surnames: the hundred most frequent in the household registers (公安部户政管理研究中心,
 * 《二〇二〇年全国姓名报告》, 2021, top 100, which covers about 85 % of the population), less the characters whose
 * everyday use as a preposition, pronoun, numeral, adverb or verb far outweighs their use as a surname (于, 何, 向, 任,
 * 余, 万, 常, 付, 查 "to check"), plus the compound surnames of the 《百家姓》 still in use (欧阳, 司马, 上官, 诸葛, 东方, 皇甫, 慕容,
 * 令狐, 司徒, 夏侯). Simplified forms.
 */
export const CHINESE_SURNAMES: readonly string[] = [
  ...Array.from(
    '王李张刘陈杨黄赵吴周徐孙马朱胡郭林何高罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蔡蒋余于杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝',
  ).filter((c) => !'于何向任余万常付查'.includes(c)),
  '欧阳',
  '司马',
  '上官',
  '诸葛',
  '东方',
  '皇甫',
  '慕容',
  '令狐',
  '司徒',
  '夏侯',
];

/**
 * One-character words of grammar that stand after a name and start the next word: structural and modal particles
 * (的 了 吗 呢 吧 啊), prepositions and coverbs (在 给 跟 和 把 被 对 从 到 与 让 向), pronouns (我 你 他 她 它 这 那),
 * adverbs (也 都 就 还 又 再 不 没 很), the softening complement 下 (查下, 看下), the copula and auxiliaries (是 要 会 能), and the verbs of saying and contact
 * (说 讲 问 发 打 找 叫 请 帮 看 来 去 有). Source: the 虚词 (function words) of 吕叔湘《现代汉语八百词》(1999) and the
 * one-character verbs among the most frequent words of the 《现代汉语频率词典》(1986).
 */
export const ONE_CHARACTER_FUNCTION_WORDS: readonly string[] = Array.from(
  '的了吗呢吧啊呀哈在给跟和把被对从到与让向我你他她它这那也都就还又再不没很是要会能说讲问发打找叫请帮看来去有们一下',
);
