// TD-5 asked acts: what a request asks to be done — look something up, create, update, cancel, delete, send,
// compute, produce — each with the words it is done to. A write step needs an act that asks for it (no unasked
// writes), and the evaluator finishes a task `success` only when every act has a step that succeeded.
//
// The reader knows the grammar of requests, not any tool: in English an act is a verb where a request puts its
// verbs (the start of a sentence, after "please" / "can you" / "I want to" / "and" / "then"), or a thing wanted
// ("I want a refund"); in Chinese a verb anywhere in a clause, or a thing wanted after 我要 / 帮我 / 请 …. A verb under
// a negation ("don't send", 不要发) asks for nothing, and a verb inside a how-to question ("how do I cancel", 怎么取消)
// asks about the act, which is a look-up. The verb lists are each language's common verbs of the eight kinds.
import type { AskedActKind } from '@signalbox/contracts';
import type { ToolDefinition } from '@signalbox/registry';
import { stem, words } from './text.js';
import { ZH_PHATIC_CLAUSES } from './vocabulary/greetings.js';
import { USING_VERBS } from './vocabulary/using-verbs.js';

/**
 * Most characters of a request whose acts the `act` feature reads: reading acts grows faster than the text (a 50 KB
 * request takes seconds), and a request says what it asks to be done in its first sentences.
 */
export const ACT_READ_CHARS = 2000;

export type { AskedActKind } from '@signalbox/contracts';

/** Act kinds that change something: each needs a tool of its kind (or, for `act`, a tool its words fit). */
export const WRITE_ACT_KINDS: ReadonlySet<AskedActKind> = new Set([
  'create',
  'update',
  'cancel',
  'delete',
  'send',
  'act',
]);

/** One act the request asks for. */
export interface AskedActRead {
  kind: AskedActKind;
  /** What the act is done to, in the request's words ("all tickets", "the minutes … to the Atlas group"). */
  object: string;
  /** The words that ask for it (verb and object): what a tool serving it is scored against. */
  phrase: string;
  /** The verb or cue that named the act. */
  cue: string;
  /**
   * For a calculation: over figures the request gives ("17% of 2,340", "the area of a circle of radius 5") — any tool
   * its words fit can do it — or over figures still to be found ("how much faster …"), which takes a tool that
   * computes, after the look-up.
   */
  figures?: 'given' | 'found';
  /**
   * For a change of unnamed kind asked with a verb of its own ("Merge my tickets", "Can someone fix it?"): that verb,
   * stemmed. A tool of a named kind does it only when its documents use the verb. Absent for wants ("I want a refund").
   */
  verb?: string;
}

// English verbs of each kind, base forms (imperatives are base forms; "-s/-ed/-ing" forms are not asks).
const EN_VERBS: Readonly<Record<AskedActKind, readonly string[]>> = {
  delete: ['delete', 'remove', 'erase', 'wipe', 'purge', 'discard', 'trash', 'get rid of', 'clear out'],
  cancel: [
    'cancel',
    'revoke',
    'withdraw',
    'call off',
    'retract',
    'undo',
    'void',
    'stop',
    'recall',
    'take back',
    'reverse',
  ],
  update: [
    'update',
    'change',
    'modify',
    'edit',
    'amend',
    'rename',
    'reschedule',
    'correct',
    'move',
    'switch',
    'replace',
  ],
  send: [
    'send',
    'email',
    'e-mail',
    'mail',
    'forward',
    'notify',
    'message',
    'text',
    'post',
    'share',
    'reply',
    'cc',
    'let',
    'inform',
    'tell',
    'ping',
    'remind',
    // a note or a line sent: "drop a note in the Atlas chat", "leave a message for the team"
    'drop a note',
    'drop a line',
    // (and with the recipient between: "drop Chen Jie a line" — a send only with such a thing sent, see readEnglish)
    'drop',
    'drop a message',
    'leave a note',
    'leave a message',
  ],
  create: [
    'create',
    'open',
    'file',
    'raise',
    'log',
    'submit',
    'book',
    'schedule',
    'register',
    'issue',
    'request',
    'apply for',
    'make',
    'add',
    'start',
    'arrange',
    'set up',
    'place',
    'reserve',
    'lodge',
    'put in',
    'initiate',
    'save',
    'store',
    'upload',
  ],
  compute: [
    'calculate',
    'compute',
    'work out',
    'figure out',
    'convert',
    'add up',
    'sum up',
    'multiply',
    'divide',
  ],
  produce: [
    'turn',
    'summarize',
    'summarise',
    'draft',
    'write',
    'write up',
    'generate',
    'compile',
    'prepare',
    'produce',
    'format',
    'translate',
  ],
  // "get" and "give" name no kind of their own: "get me a refund" changes something, "get the weather" looks up.
  act: ['get', 'give', 'get me', 'give me'],
  look_up: [
    'check',
    'google',
    'look up',
    'look into',
    'find',
    'find out',
    'show',
    'list',
    'search',
    'track',
    'see',
    'look at',
    'read',
    'visit',
    'fetch',
    'retrieve',
    'pull up',
    'confirm',
    'verify',
    'know',
    'tell me',
    'tell us',
    'let me know',
    'let us know',
  ],
};

// Chinese verbs of each kind. Longer words first where one contains another (发送 before 发).
const ZH_VERBS: Readonly<Record<Exclude<AskedActKind, 'act'>, readonly string[]>> = {
  delete: ['删除', '删掉', '删了', '删去', '删', '清空', '清除', '移除', '去掉'],
  cancel: ['取消', '撤销', '撤回', '作废', '退订', '叫停', '关闭', '关掉', '关了', '关上'],
  update: ['修改', '更改', '改成', '改为', '改到', '改一下', '更新', '变更', '换成', '调整'],
  send: [
    '发送',
    '发给',
    '发到',
    '发去',
    '发至',
    '转发',
    '转给',
    '通知',
    '抄送',
    '群发',
    '发邮件',
    '发消息',
    '发一下',
    '发个',
    '发封',
    '发一句',
    '发条',
    '发一条',
    '告诉',
    '说一声',
    '说声',
    '讲一声',
    '提醒',
    '私聊',
    // (私信, "direct message", as a verb: 私信张敏 — the chat apps' word for what 私聊 does)
    '私信',
  ],
  create: [
    '创建',
    '新建',
    '建一个',
    '建个',
    '开一张',
    '开张',
    '开个',
    '提交',
    '申请',
    '办理',
    '预约',
    '预订',
    '预定',
    '订购',
    '订票',
    '订一张',
    '订一间',
    '订一个',
    '订个',
    '订张',
    '订间',
    '登记',
    '报修',
    '寄修',
    '报障',
    '补开',
    '开具',
    '开票',
    '反馈',
    '下单',
    '提个',
    '提一个',
    '开通',
    '安排',
    '开一个',
    '保存',
    '存到',
    '存进',
    '存入',
    '存下',
    '上传',
  ],
  compute: ['计算', '算一下', '算算', '算出', '算', '换算'],
  produce: [
    '整理成',
    '整理为',
    '整理',
    '生成',
    '写成',
    '做成',
    '汇总',
    '总结',
    '起草',
    '写一份',
    '做一份',
    '出一份',
    '翻译',
  ],
  look_up: [
    // (a find with a result complement, 找出来 / 调出来 / 翻出来 "dig it out", is a look-up whatever comes before it)
    '找出来',
    '找出',
    '调出来',
    '翻出来',
    '翻一下',
    // (列 "to list", 列举: setting out what is there — 把待办列一下, 列出所有订单 — shows records, changes none)
    '列出来',
    '列出',
    '列一下',
    '列下',
    '列个',
    '搜索',
    '搜一下',
    '搜搜',
    '搜',
    '找一下',
    '找找',
    '查询',
    '查看',
    '查一下',
    '查下',
    '查',
    '看看',
    '看一下',
    '看下',
    '了解',
    '知道',
    '问一下',
    '问下',
    '问问',
    '确认',
  ],
};

const EN_ASK_POSITION = String.raw`(?:^|[.?!;:,\n]\s*|(?<=^|\s)\(?\d{1,2}\)\s*|\b(?:please|pls|plz|kindly|and|then|also|now|just|can\s+you|could\s+you|would\s+you|will\s+you|(?:if|whether)\s+you\s+(?:could|can|would|might)|help\s+me|i\s+want\s+you\s+to|i'?d\s+like\s+you\s+to|go\s+ahead\s+and|(?:i|we)\s+(?:want|need|would\s+like|'d\s+like|wanna|wish|have)\s+to|(?:i|we)'d\s+like\s+to|(?:i|we)\s+would\s+like\s+to)\s+)`;
// Where only a request can stand: after these, any verb is asked for ("could you pick it up on Thursday"; said
// indirectly, "I was wondering if you could …", "I'd be grateful if you would …", the same ask). One adverb
// may stand between the marker and its verb, as English puts focus and manner adverbs there ("please just refund it",
// "could you also check", "please quickly forward it").
const EN_REQUEST =
  /\b(?:please|pls|plz|kindly|can\s+you|could\s+you|would\s+you|will\s+you|(?:if|whether)\s+you\s+(?:could|can|would|might)|help\s+me|i\s+want\s+you\s+to|i'?d\s+like\s+you\s+to|go\s+ahead\s+and|(?:(?:i|we)\s+(?:want|need|would\s+like|wanna)|(?:i|we)\s*['’]?d\s+like)\s+(?:you\s+)?to)\s+(?:(?<adverb>just|also|now|then|still|simply|only|[a-z]+ly)\s+)?(?<verb>[\p{L}][\p{L}'-]*)/giu;
// A verb after these asks about the act (a how-to, may-I or should-I question: whether to do it is the speaker's
// choice, asked advice on), or negates it.
const EN_ABOUT =
  /\b(?:how\s+(?:do|can|could|should|would|to)|how\s+(?:do|can|could|should)\s+(?:i|we|you)|is\s+it\s+possible\s+to|(?:can|could|may)\s+(?:i|we)|am\s+i\s+able\s+to|where\s+(?:do|can)\s+(?:i|we)|what\s+happens\s+if\s+(?:i|we)|(?:do|does)\s+(?:i|we)\s+(?:really\s+|still\s+|even\s+)?(?:need|have)\s+to|(?:should|must|shall)\s+(?:i|we)|is\s+it\s+(?:necessary|worth|required|needed|a\s+good\s+idea)\s+to)\b[^.?!]*$/i;
const EN_NEGATION =
  /\b(?:don'?t|do\s+not|never|no\s+need\s+to|not|without|stop\s+(?:me\s+)?from)\s+(?:\w+\s+){0,2}$/i;
// "I want a refund", "we need a new invoice", "I'd like my money back", "can I get an invoice", a preference for
// receiving it ("I'd rather just have my money back", "we would prefer a replacement") — or, opening the
// request, a sentence or a clause after a comma, "want a refund on …" / "…, just want a refund" with its subject left
// out (later, "need the exact figure" says how to answer): a
// thing wanted is an act of unnamed kind ("can I get / have …" asks to be given it, unlike "can I cancel …", which asks about the act).
const EN_WANT =
  /(?:\b(?:i|we)\s+(?:want|need|would\s+like|'d\s+like|wanna|demand|expect|am\s+asking\s+for|request)|\b(?:i|we)['’]d\s+like|\b(?:i|we)(?:['’]d|\s+would)\s+(?:rather|sooner)\s+(?:(?:just|simply|only)\s+)?(?:have|get|take|receive)|\b(?:i|we)(?:['’]d|\s+would)?\s+prefer|(?:^|(?<=[.!;,]\s*))(?:(?:just|only|really|simply)\s+)?(?:want|need)|\b(?:can|could|may)\s+(?:i|we)\s+(?:get|have|receive))\s+(?!to\b)((?:a|an|my|our|the|some|this|that)\s+[^.?!,;]{1,80})/giu;
// A thing named and "please" after it, ending the sentence or its first part (a noun phrase, no question): "a new
// invoice please", "warranty claim please, you can reach me at …".
const EN_THING_PLEASE =
  /^(?!(?:what|where|when|which|who|how|why)\b)([\p{L}\p{N}][^?,;]{2,120}?)[,\s]+(?:please|pls|plz)(?:[.!]*$|\s*[,;])/iu;
// A modal question whose subject is someone other than the asker and whose verb takes an object ("could a courier
// collect it", "can someone check my order"): the subject a person-like noun phrase, the verb followed by what it
// acts on, as in an imperative. "Will the parcel arrive today?" (no object) stays a question.
// (A phrasal verb's particle may come before the object: "can someone get back to me", "could a courier pick up my …".)
const EN_SOMEONE_DO =
  /^(?:can|could|would|will)\s+(someone|somebody|anyone|anybody|(?:a|an|the|your|one\s+of\s+your)\s+[\p{L}-]+)(?:\s+from\s+[\p{L}-]+)?\s+([\p{L}]+)((?:\s+(?:back|up|in|out|over|down)(?:\s+to)?)?\s+(?:my|our|the|a|an|this|that|these|those|it|them|all|every|me|us)\b)/iu;
// A question sentence: a wh-word or an auxiliary first, or a question mark at the end.
const EN_QUESTION =
  /^(?:what|whats|where|wheres|when|which|who|whos|whose|why|how|hows|is|are|was|were|has|have|had|did|does|do|can|could|will|would|should|may|any)\b|\?\s*$/i;

// The speaker as the doer of an act: a first-person subject with a future of their own ("I'll", "I'm going to", "we
// plan to") just before the verb, or "myself" / "ourselves" after it — in Chinese 我 or 我们 with 自己 / 亲自 or a
// later time (待会儿, 回头, 等下, 稍后, 晚点) before the verb. What the speaker will do is context for the asks around it.
const EN_SPEAKER_WILL =
  /\b(?:i|we)\s*(?:['’]ll|will|shall|(?:am|['’]m|are|['’]re)\s+(?:going\s+to|gonna|about\s+to|planning\s+to)|plan\s+to)\s+(?:(?:just|then|later|probably|[a-z]+ly)\s+)?$/iu;
// What "drop" sends: a line, a note, a message, an e-mail, after the recipient or not ("drop Li Wei a quick note").
const EN_DROPPED_MESSAGE =
  /^(?:[\p{L}'’-]+\s+){0,4}?(?:a|an)\s+(?:(?:quick|short|brief)\s+)?(?:line|note|message|email|e-mail|mail|text|dm)\b/iu;
const EN_BY_MYSELF = /^[^.?!;]*\b(?:myself|ourselves)\b/iu;
// The speaker's want to do something, ending just before its verb ("I'd like to", "we want to", "I need to").
const EN_SPEAKER_WANTS = /\b(?:i|we)\s*(?:['’]d\s+like|would\s+like|want|need|wish|hope|plan)\s+to\s+$/iu;
// A question about who someone is, ending the text before: "Who are the authors?", "whom should I thank?".
const EN_WHO_QUESTION = /\bwho(?:m|se)?\b[^.?!]*\?\s*$/iu;
const ZH_SPEAKER_DOES =
  /(?:^|[，,])\s*(?:我|我们)(?:自己|亲自|待会儿?|待一会儿?|等会儿?|等一下|等下|一会儿?|回头|稍后|晚点儿?|之后)+(?:再|要|会|就|去|来)*[^，,]{0,12}$/u;
const ZH_NEGATION = /(?:不要|不用|别|无需|不需要|没|不)(?:帮我|给我|再)?$/u;
const ZH_ABOUT = /(?:怎么|怎样|如何|怎么样才能|能否|是否)(?:才能|可以|能)?$/u;
// A question whether an act should or need be done (我是不是应该把周报发给项目组？ 要不要提个工单？ 我需要重新申请退款吗？) asks
// for advice about the act — whether to do it, which the speaker decides — not for the act itself: a modal of
// obligation or need (应该, 该, 需要, 必须, 有必要; or their A-not-A forms 该不该, 要不要, 需不需要, 用不用) before the verb, a
// coverb phrase between them allowed (把周报, 给客户, 跟财务), in a clause that is a question.
// A want (我要, 我想), a request to the listener (帮我, 请, 麻烦) or a "can you" modal (能, 可以 and their A-not-A forms)
// before a verb.
// (请 is the verb, not "please", in 申请 / 邀请, in 请假 "take leave", and with an aspect particle after it: 请了, 请过)
const ZH_ASKS_LISTENER =
  /我要|我想|帮我|帮忙|替我|(?<![申邀聘宴提])请(?![问教了过假])|麻烦|能(?!否)|可以|可不可以/u;
const ZH_ADVICE =
  /(?:应该|应当|该不该|该|要不要|需不需要|需要|用不用|必须|有没有必要|有必要)(?:先|再|也|还|马上|现在|重新)?(?:(?:把|给|跟|向|对|为)[^，,。？！?!]{1,24})?$/u;
// Markers of a request: what follows them is asked for (我要退款, 帮我开张发票, 请尽快处理). A bare 要 opening a clause
// wants too (要论文原文里的数字, 要个人发票), and so does one right after the order it is about (订单123要退款, 这单要换货) —
// but not 要不/要是/要么 (whether, if, either) or 要紧/要好 (adjectives).
const ZH_WANT =
  /(?:^要(?![不是么紧好])|(?<=\d|单)要(?![不是么紧好求])|我要|我想要|我想|想要|要求|帮我|给我|替我|帮忙|麻烦你?|(?<![申邀聘宴提])请(?![问教了过假])你?|需要|能不能帮我|可以帮我|可不可以帮我)/gu;
const CJK = /[\u3400-\u9fff]/u;
// "Can (you) …?": 能 / 可以 standing as words of their own (not inside 可能, 功能, 性能), then what is asked, then 吗;
// or the A-not-A forms 能不能 / 可不可以, which are the question by themselves. 能否 and 是否 ask about the act.
const ZH_MODALS: ReadonlySet<string> = new Set(['能', '可以', '能不能', '可不可以']);
const ZH_WORDS = new Intl.Segmenter('zh', { granularity: 'word' });

/** What a polite "can you …?" clause asks for, or undefined when the clause is not one. */
function politeAsk(clause: string): string | undefined {
  const pieces = [...ZH_WORDS.segment(clause)];
  for (const [i, piece] of pieces.entries()) {
    const twoWords = `${piece.segment}${pieces[i + 1]?.segment ?? ''}`;
    const modal = ZH_MODALS.has(twoWords)
      ? twoWords
      : ZH_MODALS.has(piece.segment)
        ? piece.segment
        : undefined;
    if (modal === undefined) continue;
    const rest = clause.slice(piece.index + modal.length).replace(/^(?:帮我|给我|替我)/u, '');
    const alternative = modal.length > 2 || modal === '能不能';
    const asked = alternative
      ? rest.replace(/[吗么呢]$/u, '')
      : /[吗么]$/u.test(rest)
        ? rest.slice(0, -1)
        : '';
    return /^\p{Script=Han}/u.test(asked) && charCount(asked) >= 2 ? asked : undefined;
  }
  return undefined;
}
const ZH_WH_WORD = /什么|怎么|为什么|哪|多少|几[个点号天时]|谁|何时|何处/u;

// Arithmetic asked for over figures the request gives: "17% of 2,340", "3 times 4", "the square root of 2",
// 两千的百分之十七, 12乘以3. Its figures are all there, so it is a calculation and nothing to look up.
const GIVEN_ARITHMETIC: readonly RegExp[] = [
  /\d[\d,.]*\s*(?:%|percent|per\s*cent)\s+of\s+[$€£¥]?\s*\d/iu,
  /\d\s*(?:[-+*/×÷^]|x(?=\s*\d)|plus|minus|times|divided\s+by|multiplied\s+by|over|to\s+the\s+power\s+of)\s*[$€£¥]?\d/iu,
  /\b(?:square\s+root|cube\s+root|factorial|log(?:arithm)?|sine|cosine|tangent)\s+of\s+\d/iu,
  /\b(?:sum|total|product|average|mean|median)\s+of\s+\d[\d,.]*\s*(?:,|and)\s*\d/iu,
  // (a percentage given carries its figure: 百分之十七是多少; 百分之多少 and 百分之几 ask for the percentage itself)
  /(?:百分之[\d一二三四五六七八九十百千万两零点]+|[%％])[^，。？！?!]{0,12}(?:是|等于|为)?多少|\d\s*[%％]\s*(?:是|等于)?多少|的百分之[\d一二三四五六七八九十百千万两零点]+/u,
  // A total spread over a count (1200平摊到5年, 10000元分摊给4个人): division of the figures given, the Chinese "divided
  // over / split among".
  /[\d一二三四五六七八九十百千万两零][^，,。？！?!]{0,12}(?:平摊|分摊|均摊|摊到|平均分|平分)(?:到|给|成|在)?[^，,。？！?!\d]{0,4}[\d一二三四五六七八九十百千万两]/u,
  // "If it uses 650 GB a day, how many days until it reaches 1,200 TBW?": a rate and a total given, the time to reach
  // the total asked.
  /\d[^.?!]*\b(?:a|an|per|each|every)\s+(?:second|minute|hour|day|week|month|year)\b[^.?!]*\bhow\s+(?:many|much|long)\b[^.?!]*\b(?:until|till|before|to\s+(?:reach|hit))\b[^.?!]*\d/iu,
  /[\d一二三四五六七八九十百千万两零]\s*(?:[+\-*/×÷^]|加上?|减去?|乘以?|除以?)\s*[\d一二三四五六七八九十百千万两零]/u,
  /(?:平方根|开方|平均值|平均数|总和|之和|之差|之积)/u,
  // A figure raised or lowered by a percentage given ("2,300 increased by 17 percent", 两千三百涨了百分之十七): the
  // figure times (1 ± p/100).
  /\d[\d,.]*\s*(?:[\p{L}/]+\s+){0,3}?(?:increased|decreased|raised|reduced|cut|lowered|discounted|marked\s+up|rose|grew|fell|dropped|went\s+(?:up|down))\s+by\s+\d[\d,.]*\s*(?:%|percent|per\s*cent)/iu,
  /[\d一二三四五六七八九十百千万两零][^，,。？！?!；;\d]{0,3}?(?:涨了|上涨了?|增加了?|增长了?|提高了?|上调了?|降了|下降了?|减少了?|降低了?|下调了?)\s*(?:百分之|[\d.]+\s*[%％])/u,
  // "quick math: 2.9 GB/s in MB/s", "2.9 GB/s expressed in MB/s": the request says it is arithmetic on its figures.
  /\b(?:quick\s+|some\s+|simple\s+)?math\s*[:：]\s*[^.?!]*\d/iu,
  /\d[\d,.]*\s*[\p{L}]+(?:\/[\p{L}]+)?\s+(?:expressed|written|given)\s+in\s+\p{L}/iu,
  // A figure with its unit converted to another unit: "convert 3.2 GB/s to MB/s", 3.2GB/s换算成MB/s, 5英里折合多少公里.
  /\bconvert\s+\d[\d,.]*\s*[\p{L}]+(?:\/[\p{L}]+)?\s+(?:to|into)\s+\p{L}/iu,
  /\d[\d,.]*\s*[\p{L}]+(?:\/[\p{L}]+)?\s*(?:换算成|换算为|转换成|转换为|折合成?|折算成?)/u,
];
// A calculation over figures still to be found ("how much faster …, in percent", 快了多少): compute after a look-up.
const FOUND_ARITHMETIC: readonly RegExp[] = [
  // "how much faster", "how many more", "how many times larger": a comparative asks for the gap between two figures.
  /\bhow\s+(?:much|many)(?:\s+times)?\s+(?:faster|slower|more|less|fewer|higher|lower|bigger|smaller|larger|quicker|cheaper|longer|shorter)\b/iu,
  // "by what factor", "by what percentage", "by how much … drop": the size of a change between two figures.
  /\bby\s+(?:what\s+(?:factor|percent(?:age)?|per\s*cent|ratio|multiple)|how\s+much|how\s+many\s+(?:times|percent))\b/iu,
  /\bhow\s+many\s+times\b|\b(?:in|as\s+a)\s+percent(?:age)?\b|\bpercentage\s+(?:change|difference|increase|decrease|gain)\b/iu,
  /\b(?:the\s+)?difference\s+between\b|\b(?:the\s+)?ratio\s+(?:of|between)\b/iu,
  // A comparative's degree (快了多少, 高出百分之几) is a gap between two figures. The same characters closing a verb of
  // change (降低, 提高, 减少, 升高, 加快: verb + result) say how much one thing changed — a figure its source states, looked
  // up like "how much did it improve" — unless 比 names the second thing it is compared with, or a percentage or
  // factor is asked (百分之几, 几倍), which is worked out from the two figures — as is any comparison with 比 that asks
  // for a percentage (A比B长百分之多少: whatever the adjective, the answer is the gap over the second figure).
  /(?<![降提升减增加放变压拉缩扩调])(?:快|慢|多|少|高|低|贵|便宜)(?:了|出了?)?多少|(?:快|慢|多|少|高|低|贵|便宜)(?:了|出了?)?(?:百分之(?:几|多少)|几倍)|比[^，,。？！?!；;]{1,24}?百分之(?:几|多少)|比[^，,。？！?!；;]{1,24}?(?:降低|提高|提升|下降|上升|增加|减少|缩短|延长)了?多少|(?:提升|提高|降低|下降|上升|增加|减少|缩短)了?(?:百分之(?:几|多少)|几倍)|增长了?(?:多少|百分之(?:几|多少))|相差多少|差多少|几倍/u,
  // A time asked to move an amount the request gives at a rate it names but does not give ("how many hours to read
  // 4 TB at its sequential read speed", 按它的顺序读速度读完4TB要多久): the amount over the rate, once the rate is found.
  /\bhow\s+(?:long|many\s+(?:seconds|minutes|hours|days|weeks|months|years))\b[^.?!]*\d[^.?!]*\bat\s+(?:its|their|the|this|that|a|an)\b[^.?!\d]*\b(?:speed|rate|throughput|bandwidth|pace)\b/iu,
  /(?:按|以|照)[^，,。？！?!；;\d]{0,16}(?:速度|速率|带宽|吞吐)[^。？！?!；;]*?\d[^。？！?!；;]*?(?:多久|多长时间|多少(?:秒钟?|分钟|个?小时|天))/u,
  // 算 asking for an amount in its clause (按5年质保算平均每天能写多少GB, 算算一共要多少钱): "reckon how much". Not 算 of
  // another word (打算 plan, 预算 budget, 算法 algorithm, 就算 even if, 总算 at last, 还算 fairly).
  /(?<![打预就总还运演推清])算(?!法|机|术|是|了[吧。！!]*$)[^，。？！?!；;]{0,24}(?:多少|几)/u,
];

// ", and what …", ", and who …": a question sentence that joins a second question asks two things ("…, and how
// about tomorrow?" only asks the first again of another thing).
const EN_NEXT_QUESTION =
  /\s*,\s*(?:and\s+)?(?=(?:what|where|when|which|who|whose|why|how)\b(?!\s+about\b))|\s*[,;]\s*and\s+(?=(?:is|are|was|were|did|does|do|can|could|has|have)\b)/giu;
// A lead-in before a colon that asks nothing itself ("two quick ones:", "quick question:") introduces the questions.
const EN_LEAD_IN = /^[^:?]{1,40}:\s*(?=\S)/u;

/** The questions of a question sentence, each with where it starts: one, or each of those it joins. */
function questionsOf(sentence: string): { text: string; at: number }[] {
  const lead = EN_LEAD_IN.exec(sentence);
  const from =
    lead && !EN_QUESTION.test(lead[0]) && !/\b(?:what|who|which|how|why|when|where)\b/iu.test(lead[0])
      ? lead[0].length
      : 0;
  const out: { text: string; at: number }[] = [];
  let at = from;
  for (const m of sentence.slice(from).matchAll(EN_NEXT_QUESTION)) {
    out.push({ text: sentence.slice(at, from + m.index).trim(), at });
    at = from + m.index + m[0].length;
  }
  out.push({ text: sentence.slice(at).trim(), at });
  // A question joined to another is one of its own when it names a thing of its own ("who wrote ReAct, and what does
  // the X9 datasheet list?"); one that names nothing new asks about the same thing ("How many TBW is the X9 rated
  // for, and how long is the warranty?"), as does a part of fewer than three words.
  const names = (text: string) =>
    new Set(
      text
        .split(/\s+/u)
        .slice(1)
        .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').replace(/['’]s$/u, ''))
        .filter((w) => /^\p{Lu}|\p{L}\p{N}|\p{N}\p{L}/u.test(w) && w !== 'I'),
    );
  const own = out.every((q, i) => {
    if (q.text.split(/\s+/u).length < 3) return false;
    const earlier = new Set(out.slice(0, i).flatMap((p) => [...names(p.text)]));
    return i === 0 || [...names(q.text)].some((n) => !earlier.has(n));
  });
  return own ? out : [{ text: sentence, at: 0 }];
}

/** For a calculation named by its verb ("calculate …", 计算 …): given when its words carry a figure. */
function figuresOf(kind: AskedActKind, phrase: string): Pick<AskedActRead, 'figures'> {
  if (kind !== 'compute') return {};
  return {
    figures:
      arithmetic(phrase) === 'found' ||
      !/[\d一二三四五六七八九十百千万两]/u.test(phrase.replace(ONE_VALUE, ' '))
        ? 'found'
        : 'given',
  };
}

// Figures joined by a slash, hyphen, dot or colon that write one value, not an operation: dates (2022/08/16,
// 2023-09-29, 16.08.2022), seasons and ranges of years (2020-2021), clock times (14:30), codes and phone numbers
// (1-523-1713-5704, 010-12345678) — and a month and day without a year after a preposition of time ("on 12/4",
// "by 3/15", "until 1/2"): English says "on" or "by" before a day, never before a quotient.
// (a span of clock times, "16:00 - 18:00", is one value too: a time range, not a subtraction)
const ONE_VALUE =
  /\b\d{1,2}:\d{2}\s*[-–~]\s*\d{1,2}:\d{2}\b|\b(?:on|by|until|till|before|after|from|since)\s+\d{1,2}\/\d{1,2}\b(?![/.]?\d)|\b\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\b|\b\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}\b|\b\d{4}\s*[-/–]\s*\d{2,4}\b|\b\d{1,2}:\d{2}\b|\b\d+(?:-\d+){2,}\b|\b0\d{2,3}-\d{7,8}\b/gu;

// Operands named only as numbers ("these two numbers", 两个数, 这几个数字): a source states figures of things (a
// drive's read speed), never bare numbers — they are the user's to give, nothing to look up.
const BARE_NUMBERS =
  /\b(?:two|three|four|these|those|both|my)\s+(?:numbers|values)\b|(?:[两二三几这那俩]个?|这些|那些)数(?:字|值)?(?![据量码])/iu;

/** The kind of calculation a sentence asks for: over figures it gives, over figures to be found, or none. */
function arithmetic(text: string): 'given' | 'found' | null {
  const sentence = text.replace(ONE_VALUE, (v) => v.replace(/[-/.:–]/gu, '_'));
  if (GIVEN_ARITHMETIC.some((p) => p.test(sentence))) return 'given';
  if (FOUND_ARITHMETIC.some((p) => p.test(sentence))) return BARE_NUMBERS.test(sentence) ? 'given' : 'found';
  return null;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, String.raw`\s+`);
}

const EN_KIND_OF = new Map<string, AskedActKind>();
for (const [kind, verbs] of Object.entries(EN_VERBS) as [AskedActKind, string[]][])
  for (const verb of verbs) EN_KIND_OF.set(verb, kind);
// A manner adverb may stand between the ask's position and its verb ("and separately check …", "then quickly send").
const EN_VERB_PATTERN = new RegExp(
  `${EN_ASK_POSITION}(?:[a-z]+ly\\s+)?(${[...EN_KIND_OF.keys()]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|')})\\b`,
  'giu',
);

// Second characters that make a verb a verb with a complement or particle (发给, 删掉, 查下, 开个), not a verb-object word.
const ZH_VERB_TAIL = /[给到去至成为掉了下个张条封句声一起出入进]$/u;
const ZH_KIND_OF = new Map<string, Exclude<AskedActKind, 'act'>>();
for (const [kind, verbs] of Object.entries(ZH_VERBS) as [Exclude<AskedActKind, 'act'>, string[]][])
  for (const verb of verbs) {
    ZH_KIND_OF.set(verb, kind);
    // Spoken Chinese drops the 一 of V一下 (改下, 查下): the same verb.
    if (verb.endsWith('一下') && verb.length > 2) ZH_KIND_OF.set(`${verb.slice(0, -2)}下`, kind);
    // A verb-object word takes a measure word between its halves (报修 → 报个修, 下单 → 下个单): the same verb.
    if (/^\p{Script=Han}{2}$/u.test(verb) && !ZH_VERB_TAIL.test(verb))
      ZH_KIND_OF.set(`${verb[0] as string}个${verb[1] as string}`, kind);
  }
const ZH_VERB_SOURCE = [...ZH_KIND_OF.keys()]
  .sort((a, b) => b.length - a.length)
  .map(escape)
  .join('|');
const ZH_VERB_PATTERN = new RegExp(ZH_VERB_SOURCE, 'gu');
const ZH_VERB = new RegExp(ZH_VERB_SOURCE, 'u');
// The speaker's own want or plan (我要, 我想 …), as against a marker that addresses the listener (帮我, 请, 麻烦你).
const SPEAKER_WANT = /^(?:我要|我想要|我想)$/u;
// A verb of one or two characters with a place after it (贴到OA里, 存在网盘上, 放进文件夹): where something is put.
const ZH_PUT_SOMEWHERE = /^\p{Script=Han}{1,2}?(?:到|在|进)(?!\s*$)/u;
// An order in the disposal construction with a place after the verb: 把 O V到 / V进 / V在 P (the speaker left out).
const ZH_BA_PLACE = /^(?:请|麻烦你?|帮忙|帮我|给我)?把(.+?)(\p{Script=Han})(?:到|进|在)(?=\S)/u;
// Coverbs (介词) that open a phrase of place, source, means, object or beneficiary before the verb it modifies.
const ZH_COVERB = /^(?:在|从|到|用|对|向|往|跟|和|按|按照|通过|去|把|将|给|替|为)/u;

// An adverb of immediacy (直接, 马上, 立刻 …) before a verb: an order. It may follow the clause's topic (订单1234直接
// 退我50块), but not the speaker as its subject (我直接去店里修: the speaker's own act).
const ZH_AT_ONCE =
  /(?<!我|我们)(?:直接|马上|立刻|立即|赶紧|赶快|尽快|抓紧)(?:帮我|给我|替我)?\p{Script=Han}/u;

// Update verbs that name the new value (改成 X "change it to X").
// Verbs of transfer, which take their recipient with a following 给 (V给我: 退给我, 寄给我, 还给我) — the 给予 class of
// 现代汉语八百词 (Lü Shuxiang); 发给 is a send of its own (ZH_VERBS).
const ZH_TRANSFER_VERB = /[退寄还送交递借卖付赔补转传]$/u;
const ZH_CHANGE_TO = /^(?:改成|改为|改到|换成)$/u;
// Request markers that may stand between a want and its verb (请帮我取消 …).
const ZH_MARKERS = /^(?:帮我|给我|替我|帮忙|你|您|一下|尽快|马上|赶紧)+/u;

// Where an English object ends: a clause end, or the next ask ("… and tell me …") — not "and" before a name, which
// joins one more of the same ("Send Chen Jie and Zhang Min a reminder").
const EN_OBJECT_END =
  /[.?!](?=\s|$)|[;,\n]|\s+\(?\d{1,2}\)\s+(?=\p{L})|\s+(?:[Aa]nd(?!\s+(?!I\b)\p{Lu})|[Tt]hen|[Bb]ut|[Ss]o)\s+|$/u;

// Quoted words are content (a message, a title): what they hold does not end the object around them.
const QUOTED = /"[^"\n]*"|“[^”\n]*”|「[^」\n]*」/gu;

function objectAfter(text: string, from: number): string {
  const rest = text.slice(from);
  // Masked with letters of the same length, so positions hold and the quote's own punctuation ends nothing.
  const masked = rest.replace(QUOTED, (q) => `"${'x'.repeat(q.length - 2)}"`);
  const end = masked.search(EN_OBJECT_END);
  return (end === -1 ? rest : rest.slice(0, end)).trim();
}

/** The sentence around a position (a figure given after a comma still belongs to the calculation). */
function sentenceAt(text: string, at: number): string {
  const rest = text.slice(at);
  const end = rest.search(/[.?!](?=\s|$)|\n/u);
  return `${sentenceBefore(text, at)}${end === -1 ? rest : rest.slice(0, end)}`;
}

function sentenceBefore(text: string, at: number): string {
  const before = text.slice(0, at);
  const start = Math.max(
    before.lastIndexOf('.'),
    before.lastIndexOf('?'),
    before.lastIndexOf('!'),
    before.lastIndexOf('\n'),
  );
  return before.slice(start + 1);
}

// English closed-class words that open a statement or a greeting, never an imperative: pronouns, determiners,
// possessives, auxiliaries, conjunctions, prepositions, interjections.
// "… and subscribe me", "…, then bookmark it": a conjunction that may join a second order to the first.
const EN_JOINED_ORDER = /\b(?:and|then|and\s+then)\s+(?:(?:also|then|just)\s+)?(?<verb>[a-z][a-z'-]*)/giu;
const EN_NOT_IMPERATIVE = new Set(
  (
    "i i'm i've i'd i'll me my mine we we're our us you your he she it it's its they their them this that these those " +
    'there here the a an some any all no every each my our hi hello hey dear thanks thank ok okay yes yeah sorry ' +
    'and but or so because if when while since although though as at in on for from to of with by about after ' +
    'before during since until is are was were be been am has have had do does did will would shall should can ' +
    "could may might must not also just still yesterday today tomorrow don't dont never no not please " +
    // a want with its subject left out ("want a refund …"), and wh-words written without the apostrophe ("whats …")
    'want need wanna whats wheres whens whos hows whys'
  ).split(' '),
);

/** Where a sentence's last clause after a comma or semicolon (and "so" / "and" / "but") starts; 0 when it has one. */
function lastClauseAt(sentence: string): number {
  let at = 0;
  for (const m of sentence.matchAll(/[,;]\s*(?:(?:so|and|but)\s+)?/giu)) at = m.index + m[0].length;
  return at;
}

/** A sentence without the conjunction or discourse word it may open with ("And refund it", "So, cancel it"). */
function orderOf(sentence: string): string {
  return sentence.replace(/^(?:and|also|then|so|now|just|ok(?:ay)?|well|oh)\b[\s,]*/iu, '');
}

// A finite verb of the sentence's own, a few words after its first and before any comma, subordinate clause or new
// subject: the first word is then its subject ("Refund for 1234 was approved", "Delivery to my office has failed twice"), not a verb.
const EN_SUBJECT_THEN_VERB =
  /^\S+(?:\s+(?!(?:that|which|who|whom|whose|what|where|when|why|how|whether|because|since|as|if|while|after|before|until|so|it|he|she|they|i|we|you|there)\b)[^\s,;:]+){0,4}?\s+(?:is|are|was|were|has|have|had|got|gets|will|won['’]t|isn['’]t|wasn['’]t|hasn['’]t|haven['’]t|hadn['’]t|didn['’]t|doesn['’]t|keeps)\b/iu;

/** A sentence that opens with a word that can only be its verb: an imperative ("Refund my order."). */
function imperative(sentence: string): boolean {
  if (EN_SUBJECT_THEN_VERB.test(sentence.trim())) return false;
  const words = sentence.toLowerCase().match(/[\p{L}']+/gu) ?? [];
  const first = words[0];
  if (first === undefined || words.length < 2 || EN_NOT_IMPERATIVE.has(first)) return false;
  // A participle or an adverb opens a phrase, not an order ("Using the key …, retrieve …", "Honestly, …").
  if (/(?:ing|ed|ly)$/u.test(first)) return false;
  // A verb is followed by what it acts on: a determiner, a possessive, a pronoun, a number ("refund order 1234") or an
  // amount ("Transfer $5000 to …").
  return /^\S+\s+(?:(?:my|our|the|a|an|this|that|these|those|it|them|all|every|me|us)\b|\p{L}+\s+#?\d|[$€£¥]\s?\d)/iu.test(
    sentence.trim(),
  );
}

// What is opened to be read: a web address, or a link, page, file, document, attachment or site named as one.
// (A pronoun alone — "search for the review, open it" — is a thing the request already named, so it exists: opened to
// be read. Making something is said with the thing made: "open a ticket", "open one for me".)
const EN_OPENED_TO_READ =
  /^(?:\S*https?:\/\/|(?:(?:the|this|that|my|your|our)\s+)?(?:\S+\s+)?(?:link|url|page|web\s*page|website|site|file|document|doc|attachment|pdf)s?\b|(?:it|them|that|this)\b(?!\s+(?:as|for)\s+(?:a|an)\b))/iu;

// "add X to Y": the one listed verb of placing one thing in or on another. The others (attach, append, insert, pin)
// are of no listed kind, so the verb rule for changes of unnamed kind already keeps a tool that does not use them.
const EN_PLACE = /^(.+?)\s+(?:to|into|onto|in|on)\s+\S/iu;

function readEnglish(request: string): AskedActRead[] {
  const acts: { at: number; act: AskedActRead }[] = [];
  for (const m of request.matchAll(EN_VERB_PATTERN)) {
    const verb = (m[1] ?? '').toLowerCase().replace(/\s+/g, ' ');
    const verbAt = m.index + m[0].length - (m[1] ?? '').length;
    let kind: AskedActKind = EN_KIND_OF.get(verb) ?? 'look_up';
    const object = objectAfter(request, verbAt + (m[1] ?? '').length);
    const before = sentenceBefore(request, verbAt);
    // "tell/let" is a send only when it reaches someone other than the asker ("tell the team"; "tell me" looks up).
    if ((verb === 'tell' || verb === 'let') && /^(?:me|us)\b/i.test(object)) kind = 'look_up';
    // "remind me of / about …" asks to be told what is already known; "remind me to …" or "remind the team" sends.
    if (verb === 'remind' && /^(?:me|us)\s+(?:of|about|what|when|where|which|who|how)\b/i.test(object))
      kind = 'look_up';
    if (verb === 'let' && !/\bknow\b/i.test(object)) continue;
    // "turn" produces only as "turn … into …".
    if (verb === 'turn' && !/\binto\b/i.test(object)) continue;
    // "drop" sends only what is written to someone ("drop Li Wei a line / a quick note"); "drop the table" does not.
    if (verb === 'drop' && !EN_DROPPED_MESSAGE.test(object)) continue;
    // "Open https://… and tell me …", "open the link / page / file": opening what already exists to read it. "Open a
    // ticket / an account" still makes one.
    if (verb === 'open' && EN_OPENED_TO_READ.test(object)) kind = 'look_up';
    if (EN_NEGATION.test(before)) continue;
    // "I'll email them later", "I want to send them the deck myself": a change the speaker will make is their plan.
    if (WRITE_ACT_KINDS.has(kind) && (EN_SPEAKER_WILL.test(before) || EN_BY_MYSELF.test(object))) continue;
    // "Who wrote the report? I'd like to email them": a want to act on the people a who-question just before asks
    // for is why the speaker asks — they need the answer to do it themselves; had they asked us to, they would not
    // need to know who.
    if (
      WRITE_ACT_KINDS.has(kind) &&
      EN_SPEAKER_WANTS.test(before) &&
      /^(?:them|him|her)\b/iu.test(object) &&
      EN_WHO_QUESTION.test(request.slice(0, verbAt - before.length))
    )
      continue;
    if (WRITE_ACT_KINDS.has(kind) && EN_ABOUT.test(before)) kind = 'look_up';
    const sentence = sentenceAt(request, verbAt);
    // "Add a comment to ticket TK-2001", "put the figures into the report": a verb of placing makes what comes before
    // "to / into / onto / in / on"; what follows is where it goes, a thing that already exists. The act is served by a
    // tool that makes the first — a tool that makes tickets does not add comments to one.
    const placed = verb === 'add' ? EN_PLACE.exec(object)?.[1] : undefined;
    const acted = placed ?? object;
    const phrase = `${m[1] ?? ''} ${acted}`.trim();
    // "turn the minutes into the weekly report": what is produced is what follows "into".
    const made = verb === 'turn' ? (/\binto\s+(.+)$/iu.exec(object)?.[1] ?? object) : acted;
    acts.push({
      at: verbAt,
      act: { kind, object: made, phrase, cue: m[1] ?? verb, ...figuresOf(kind, sentence) },
    });
  }
  // "Find the Gorilla paper and subscribe me to its alerts": in a sentence that opens with an order, "and" / "then"
  // joins another. A verb of no listed kind there that puts the speaker somewhere — the speaker as its object, then
  // where to ("subscribe me to alerts", "sign us up for", "enrol me in") — changes the speaker's standing: a change
  // of unnamed kind. (Verbs of reading take what is read as their object: "open it and quote the line", "walk me
  // through it" ask for no change; "tell me", "show me" are listed.)
  for (const m of request.matchAll(EN_JOINED_ORDER)) {
    const verb = (m.groups?.['verb'] ?? '').toLowerCase();
    const verbAt = m.index + m[0].length - verb.length;
    if (acts.some((a) => a.at === verbAt) || EN_KIND_OF.has(verb) || EN_NOT_IMPERATIVE.has(verb)) continue;
    if (!/^\S+\s+(?:me|us)\s+(?:up\b|to\b|for\b|on\b|onto\b|in\b|into\b)/iu.test(request.slice(verbAt)))
      continue;
    if (EN_NEGATION.test(sentenceBefore(request, verbAt))) continue;
    const before = sentenceBefore(request, verbAt);
    const sentenceStart = verbAt - before.length + (before.length - before.trimStart().length);
    const opens = acts.some((a) => a.at === sentenceStart && EN_KIND_OF.has(a.act.cue.toLowerCase()));
    if (!opens) continue;
    const object = objectAfter(request, verbAt + verb.length);
    acts.push({
      at: verbAt,
      act: {
        kind: 'act',
        object,
        phrase: `${request.slice(verbAt, verbAt + verb.length)} ${object}`.trim(),
        cue: verb,
        verb: stem(verb),
      },
    });
  }
  // After a request's own words, a verb of no listed kind is a change of unnamed kind, decided by the tools it fits.
  for (const m of request.matchAll(EN_REQUEST)) {
    // A verb ending in -ly ("please reply to them", "please apply it") was taken for an adverb when a function word
    // follows it: it is the verb.
    const adverb = m.groups?.['adverb'];
    const said = m.groups?.['verb'] ?? '';
    const asAdverb = adverb !== undefined && EN_NOT_IMPERATIVE.has(said.toLowerCase());
    const verb = (asAdverb ? adverb : said).toLowerCase();
    const verbAt = asAdverb ? m.index + m[0].lastIndexOf(adverb) : m.index + m[0].length - verb.length;
    if (acts.some((a) => a.at === verbAt) || EN_KIND_OF.has(verb) || EN_NOT_IMPERATIVE.has(verb)) continue;
    if (EN_NEGATION.test(sentenceBefore(request, verbAt))) continue;
    const object = objectAfter(request, verbAt + verb.length);
    // "I want to talk to a human": the speaker's own act is a want, decided by its words; "I want you to merge …"
    // and "please merge …" ask the agent to do the verb.
    const speakers =
      /\b(?:(?:i|we)\s+(?:want|need|would\s+like|wanna)|(?:i|we)\s*['’]?d\s+like)\s+to\s+(?:\S+\s+)?\S+$/iu.test(
        m[0],
      );
    acts.push({
      at: verbAt,
      act: {
        kind: 'act',
        object,
        phrase: `${request.slice(verbAt, verbAt + verb.length)} ${object}`.trim(),
        cue: verb,
        ...(speakers ? {} : { verb: stem(verb) }),
      },
    });
  }
  for (const m of request.matchAll(EN_WANT)) {
    const before = sentenceBefore(request, m.index);
    if (EN_NEGATION.test(before) || EN_ABOUT.test(before)) continue;
    // "Where / how can I get the PDF of invoice …?": a question word before the modal asks where or how, it does not
    // ask to be given the thing.
    if (/^(?:can|could|may)\b/iu.test(m[0]) && /\b(?:where|how|when|what|which|why|who)\s*$/iu.test(before))
      continue;
    const object = objectAfter(request, m.index + m[0].length - (m[1] ?? '').length);
    // "I need my order status": a thing wanted that is itself information is a look-up, decided by the tools it fits.
    acts.push({ at: m.index, act: { kind: 'act', object, phrase: m[0].trim(), cue: m[0].trim() } });
  }
  // A question sentence with no act verb of its own asks to look something up; one that asks for arithmetic asks for
  // a calculation — over figures it gives (nothing to look up), or over figures still to be found.
  let offset = 0;
  // The items of a numbered list ("two things: 1) what's … 2) please open …") are sentences of their own, as lines
  // would be; the numbers are no words of theirs.
  const numbered = EN_FIRST_ITEM.test(request) && EN_SECOND_ITEM.test(request);
  for (const sentence of request.split(numbered ? EN_ITEM_SPLIT : EN_SENTENCE_SPLIT)) {
    const start = request.indexOf(sentence, offset);
    offset = start + sentence.length;
    const number = numbered ? (EN_ITEM_NUMBER.exec(sentence.trimStart())?.[0] ?? '') : '';
    const trimmed = sentence.trim().slice(number.length);
    if (trimmed === '') continue;
    const inSentence = acts.filter((a) => a.at >= start && a.at < offset);
    const calculation = arithmetic(trimmed);
    if (calculation && !inSentence.some((a) => a.act.kind === 'compute'))
      acts.push({
        at: start,
        act: { kind: 'compute', object: trimmed, phrase: trimmed, cue: 'arithmetic', figures: calculation },
      });
    if (calculation === 'given') continue;
    const lead = sentence.length - sentence.trimStart().length + start + number.length;
    const thingPlease = EN_THING_PLEASE.exec(trimmed);
    // (or its last clause: "my blender died, can someone fix it")
    const askedFrom = inSentence.length === 0 ? lastClauseAt(trimmed) : 0;
    const asked = inSentence.length === 0 ? EN_SOMEONE_DO.exec(trimmed.slice(askedFrom)) : null;
    const verbWord = asked?.[2];
    const askedVerb = verbWord?.toLowerCase();
    if (
      asked &&
      verbWord !== undefined &&
      askedVerb !== undefined &&
      !EN_NOT_IMPERATIVE.has(askedVerb) &&
      !/(?:ing|ed|[^s]s)$/u.test(askedVerb)
    ) {
      // "Could a courier collect it on Friday?", "Can someone look at my order?": asking whether someone will do a
      // thing to something is asking for it — of its verb's kind, or of unnamed kind decided by the tools it fits.
      const verbAt = lead + askedFrom + asked[0].length - verbWord.length - (asked[3]?.length ?? 0);
      const object = objectAfter(request, verbAt + askedVerb.length);
      const kind = EN_KIND_OF.get(askedVerb) ?? 'act';
      acts.push({
        at: verbAt,
        act: {
          kind,
          object,
          phrase: `${verbWord} ${object}`,
          cue: verbWord,
          ...figuresOf(kind, trimmed),
          ...(kind === 'act' ? { verb: stem(askedVerb) } : {}),
        },
      });
    } else if (inSentence.length === 0 && EN_QUESTION.test(trimmed))
      for (const q of questionsOf(trimmed))
        acts.push({
          at: start + q.at,
          act: { kind: 'look_up', object: q.text, phrase: q.text, cue: 'question' },
        });
    else if (
      thingPlease?.[1] &&
      // (alone in its sentence, or its first part with the other asks after it: "… please, and email it to …")
      inSentence.every((a) => a.at >= lead + thingPlease[0].length) &&
      !imperative(orderOf(trimmed))
    ) {
      // "Company invoice for order 5678 please", "warranty claim please": a thing asked for by name and "please" is
      // wanted, like "I want a …": a change of unnamed kind, decided by the tools its words fit.
      const object = thingPlease[1].trim();
      acts.push({ at: lead, act: { kind: 'act', object, phrase: trimmed, cue: 'please' } });
    } else if (
      !inSentence.some((a) => a.at === lead + trimmed.length - orderOf(trimmed).length) &&
      imperative(orderOf(trimmed))
    ) {
      // An imperative of a verb of no listed kind ("Refund my order", "And fix my headphones"): a change of unnamed
      // kind, decided by the tools its words fit.
      const order = orderOf(trimmed);
      const at = lead + trimmed.length - order.length;
      const verb = order.split(/\s+/u)[0] ?? '';
      const object = objectAfter(request, at + verb.length);
      // "un-" + a verb undoes it ("unsend", "unpublish", "unsubscribe"): a cancel, never the act itself.
      const kind: AskedActKind = /^un\p{L}{3,}/iu.test(verb) ? 'cancel' : 'act';
      acts.push({
        at,
        act: { kind, object, phrase: `${verb} ${object}`, cue: verb, verb: stem(verb.toLowerCase()) },
      });
    }
  }
  // "ping the Beacon group: design files are up, pls review by Wednesday": after a send verb, a colon opens the
  // message, whose words to the end of that sentence are the content to send, not more asks.
  const send = acts.filter((a) => a.act.kind === 'send').sort((a, b) => a.at - b.at)[0];
  const colon = send ? EN_CONTENT_COLON.exec(request.slice(send.at)) : null;
  const contentAt = send && colon ? send.at + colon.index + colon[0].length : Infinity;
  // The message runs to the end of its sentence; a next sentence may ask again ("… Also cancel my ticket.").
  const sentenceEnd = request.slice(contentAt).search(/[.?!](?=\s|$)|\n/u);
  const contentEnd = sentenceEnd === -1 ? Infinity : contentAt + sentenceEnd;
  // "Send Li an email. Subject: … Body: could you share the screens by Wednesday? Thanks!": after a write, a sentence
  // opening with a field's label and a colon fills that field — its words to the end of the request are what the
  // write carries (a body runs over several sentences), not asks of the requester.
  const write = acts
    .filter((a) => a.act.kind === 'send' || a.act.kind === 'create')
    .sort((a, b) => a.at - b.at)[0];
  const field = write ? EN_FIELD_LABEL.exec(request.slice(write.at)) : null;
  const fieldAt = write && field ? write.at + field.index + field[0].length : Infinity;
  // "I'd like to complain, but I'm not sure it's worth it": a change wanted and doubted in one sentence is not decided
  // on yet — what the request asks beside it is what it asks.
  const undecided = (a: { at: number; act: AskedActRead }) =>
    (WRITE_ACT_KINDS.has(a.act.kind) || a.act.kind === 'act') &&
    EN_UNDECIDED.test(sentenceAt(request, a.at).slice(sentenceBefore(request, a.at).length));
  return acts
    .filter((a) => (a.at < contentAt || a.at > contentEnd) && a.at < fieldAt && !undecided(a))
    .sort((a, b) => a.at - b.at)
    .map((a) => a.act);
}

// A doubt about the want just said: "…, but I'm not sure", "though I haven't decided", "but I don't know if …".
const EN_UNDECIDED =
  /\b(?:but|though|although|yet)\s+(?:i|we)\s*(?:['’]m|\s+am|['’]re|\s+are)\s+(?:not\s+(?:sure|certain)|still\s+(?:deciding|thinking)|undecided|on\s+the\s+fence|in\s+two\s+minds)\b|\b(?:but|though|although|yet)\s+(?:i|we)\s+(?:(?:don['’]?t|do\s+not)\s+know\s+(?:if|whether)|(?:haven['’]?t|have\s+not)\s+(?:decided|made\s+up\s+(?:my|our)\s+mind))\b/iu;

const EN_SENTENCE_SPLIT = /(?<=[.?!\n])\s+/u;
// A numbered list: an item 1 at the start, after a colon or a line break, and an item 2 later ("1) …", "(2) …").
const EN_FIRST_ITEM = /(?:^|[:\n]\s*|\s)\(?1\)\s*\p{L}/u;
const EN_SECOND_ITEM = /\s\(?2\)\s*\p{L}/u;
const EN_ITEM_SPLIT = /(?<=[.?!\n])\s+|\s+(?=\(?\d{1,2}\)\s*\p{L})/u;
const EN_ITEM_NUMBER = /^\(?\d{1,2}\)\s*/u;

// A colon in the send's own sentence, before any sentence end.
const EN_CONTENT_COLON = /^[^.?!\n:]{0,80}:/u;
// A field's label opening a later sentence or line: one or two words and a colon ("Subject:", "Body:", "Due date:").
const EN_FIELD_LABEL = /(?:[.?!]\s+|\n\s*)\p{L}+(?:\s\p{L}+)?\s*:/u;

// Chinese clauses: punctuation and the connectives that start a next ask (kept, so a clause knows its question mark).
// The connectives that start a next ask (然后 "then", 顺便 "by the way", 另外 "also" …).
const ZH_CONNECTIVES = '然后|接着|之后|并且|同时|顺便|另外|还有|以及';
// Adverbs that open one more step of a sequence (再, 然后 …) at a clause's start.
const ZH_SEQUENCE_START = /^(?:再|然后|接着|之后|顺便|还要|也)/u;
// A clause that tells rather than asks: a pronoun as its own subject (然后他说…), what something shows or says
// (系统显示…, 页面提示…, 卖家说…), or an event already done — 已经 / 已, or 了 closing a clause with no 把 (然后退款了
// "and then it was refunded"; 再把钱退了 is the disposal form of an order). Closed classes of Chinese grammar: the
// personal pronouns, the verbs of showing and saying, and the perfective.
const ZH_OWN_SUBJECT = /^(?:我|你|他|她|它)/u;
const ZH_REPORTS = /显示|提示|说|写着|已经|已(?!读)|^[^把]*了[吧啊呀呢。！!]*$/u;
// 再 before 帮我 starts the next ask ("…，再帮我把钱退了"); 帮我 stays with it, as the marker of what it asks for.
const ZH_CLAUSE = new RegExp(`([。！？!?；;，,、\\n]+|${ZH_CONNECTIVES}|再(?=帮我))`, 'u');
// A clause that asks something: a question mark, a question particle at its end, or a question word.
// (An A-not-A verb — 扣没扣, 到没到, 是不是 — is the yes/no question of Chinese grammar, 正反问句; 能不能 / 可不可以
// ask the listener to do something, read by politeAsk; 要不要 asks for advice on what the question beside it answers.
// 没什么 / 没啥 "nothing (much)" is no question. 多 before a one-character adjective of measure — 多大, 多高, 多远,
// 多快 — asks "how big / tall / far / fast", the degree question of Chinese grammar; after 很 / 许 / 好 / 更 / 太 / 最,
// 多 is "many" or "more" and the adjective modifies a noun: 很多大公司.)
// (a question word with 都 / 也 after it is an indefinite — 啥都不知道 "know nothing", 谁也没说, 哪儿都没去 — not a question)
const ZH_QUESTION_FORMS = String.raw`(?<!没)(?:什么|啥)(?![都也])|怎么样|怎样|多少|多久|多长时间|(?<![很许好更太最众诸])多(?:大|高|远|重|快|长|宽|深|厚|贵)|几[个点号天时月位次]|(?:星期|周|礼拜)几|咋|哪(?!(?:儿|里)?[都也])|谁(?![都也])|何时|是否|有没有|了没|(?![不没能可要])(\p{Script=Han})[没不]\1`;
const ZH_QUESTION = new RegExp(String.raw`[？?]|[吗呢么嘛没]$|${ZH_QUESTION_FORMS}|进度|状态|情况`, 'u');
// A question put as the object of a look-up (看看会议改到哪天了, 查一下能不能取消): a question word or form, whether
// it can be done (能不能 / 可不可以), or a final 吗 / 没 — not a noun of state (查一下状态再取消 asks for both).
const ZH_EMBEDDED_QUESTION = new RegExp(
  String.raw`[？?]|[吗么没]$|能不能|可不可以|${ZH_QUESTION_FORMS}`,
  'u',
);

/**
 * The clauses of a Chinese request, each an ask of its own when it is long enough to be one ("深圳明天下雨吗？另外
 * 帮我提个工单" → two; "论文发在哪个会上？哪一年的" → one: a fragment of five characters or fewer continues the clause
 * before it, or opens the next when it comes first). Message content after a colon is not split. Empty for a request
 * with no Chinese.
 */
export function chineseClauses(request: string): string[] {
  if (!CJK.test(request)) return [];
  const out: string[] = [];
  for (const raw of beforeContent(request).split(ZH_CLAUSE_SPLIT)) {
    const clause = raw
      .replace(new RegExp(`^(?:${ZH_ORDINALS})`, 'u'), '')
      .replace(new RegExp(`^(?:${ZH_CONNECTIVES})`, 'u'), '')
      .trim();
    if (clause === '') continue;
    const previous = out.at(-1);
    // A short fragment continues the clause before it, and a short first one (投诉！！…) opens the next.
    if (previous !== undefined && (charCount(clause) <= 5 || charCount(previous) <= 5))
      out[out.length - 1] = `${previous}，${clause}`;
    else out.push(clause);
  }
  return out;
}

/** Characters of a text as a reader counts them (grapheme clusters). */
function charCount(text: string): number {
  return [...GRAPHEMES.segment(text)].length;
}
const GRAPHEMES = new Intl.Segmenter('zh', { granularity: 'grapheme' });

// The markers of an enumerated ask (一是…，二是…; 第一…，第二…; 首先…，其次…; 1、…，2、…): after a comma, the next
// listed thing starts; at a clause's start, the marker is no part of what is asked. (第二 needs a marker of the list
// after it — 点, 件, 条, 是 or a comma — so 第二天, the next day, lists nothing.)
const ZH_ORDINALS =
  '[一二三四五六七八九1-9]是|首先|其次|再者|第[一二三四五六七八九1-9](?:点|件|条|个|是|[，,、：:])|[一二三四五六七八九1-9][、．](?![\\d一二三四五六七八九])';
// Where one Chinese ask ends: a sentence's end, a semicolon, or a comma before a connective that starts the next.
const ZH_CLAUSE_SPLIT = new RegExp(
  `[。！？!?；;\\n]+|[，,、]\\s*(?=${ZH_CONNECTIVES}|${ZH_ORDINALS})|(?=然后|接着|顺便|另外|还有)`,
  'u',
);

// A send verb and a colon before what is to be sent (发一句：…, 说：…, 内容：…, 主题：…): what follows is the message, not
// more asks ("在群里发一句：明天的站会取消" asks to send, not to cancel).
const ZH_CONTENT_COLON = /(?:发|说|写|讲|通知|告诉|提醒|内容|正文|主题|标题)[^：:]{0,6}[：:]/u;

// The body of a message named and said without a colon (正文说…, 内容就写…): what follows is the message too.
const ZH_CONTENT_SAID = /[，,\s](?:邮件|消息)?(?:正文|内容)(?:就|大概|大致|简单)?(?:说|写)/u;

const ZH_SAY_TO =
  /(?:在[^，,。！？!?]{1,20}?(?:里|中|上)|(?:跟|和|给|对)[^，,。！？!?我]{1,12}?)(?:(?:大家|各位|他们|一下)\s*)?((说|讲)(?:一下|下))/u;

/** A Chinese request up to the colon or the 正文说 that introduces a message's content (the asks; the content is not one). */
function beforeContent(request: string): string {
  const colon = ZH_CONTENT_COLON.exec(request);
  const said = ZH_CONTENT_SAID.exec(request);
  const ends = [
    colon ? colon.index + colon[0].length - 1 : Infinity,
    said ? said.index + said[0].length : Infinity,
  ];
  const end = Math.min(...ends);
  return end === Infinity ? request : request.slice(0, end);
}

function readChinese(whole: string): AskedActRead[] {
  const acts: AskedActRead[] = [];
  // Whether the clause read last asks something itself (a question).
  let previousAsks = false;
  const request = beforeContent(whole);
  const pieces = request.split(new RegExp(ZH_CLAUSE.source, 'gu'));
  for (let p = 0; p < pieces.length; p += 2) {
    const text = (pieces[p] ?? '').trim();
    if (text === '') continue;
    // 在吗？/ 您好 / 亲: a clause that only greets or checks that someone is there asks nothing.
    if (ZH_PHATIC_CLAUSES.has(text.replace(/[啊呀呢哈~～]+$/u, ''))) continue;
    // (the clause's own end — 吗 before a comma ends a question too — or the mark after it)
    const question = ZH_QUESTION.test(text) || ZH_QUESTION.test(`${text}${pieces[p + 1] ?? ''}`);
    const hits = [...text.matchAll(ZH_VERB_PATTERN)];
    const found: AskedActRead[] = [];
    // What follows a send to someone in its clause is what they are told, reminded or asked to do, not an ask of
    // ours: 提醒我看一下有没有新版本, 在群里说一声让大家查收邮件 (the check is the recipients').
    let messageFrom = Infinity;
    hits.forEach((m, i) => {
      if (m.index > messageFrom) return;
      const verb = m[0];
      let kind: AskedActKind = ZH_KIND_OF.get(verb) ?? 'look_up';
      const before = text.slice(0, m.index);
      const next = hits[i + 1];
      const after = text.slice(m.index + verb.length, next ? next.index : undefined).trim();
      // A change asked about after a look-up in its clause (帮我看看会议改到哪天了, 查一下能不能退款) is what the look-up
      // finds out — an embedded question — not a change asked for.
      const asker = found.at(-1);
      if (
        WRITE_ACT_KINDS.has(kind) &&
        asker?.kind === 'look_up' &&
        asker.cue !== 'question' &&
        ZH_EMBEDDED_QUESTION.test(`${asker.object}${text.slice(m.index)}${pieces[p + 1] ?? ''}`)
      ) {
        found[found.length - 1] = {
          ...asker,
          object: `${asker.object}${text.slice(m.index)}`,
          phrase: `${asker.phrase}${text.slice(m.index)}`,
        };
        messageFrom = m.index;
        return;
      }
      // A verb with a resultative complement and 了 (查到了, 做完了, 写好了) says the act is done — "once found, …" —
      // which sets the time of what follows; it asks for nothing of its own.
      // So does a verb whose own complement says the result, 了 right after it (把我的名字写成了X, 地址改成了Y): it
      // tells what was done — the complaint before an ask, not the ask.
      if (
        /^(?:到|完|好|出来|过)了/u.test(after) ||
        (/[成到完好]$|出来$/u.test(verb) && after.startsWith('了'))
      )
        return;
      // Two verbs of one kind back to back (私聊发给, 通知告诉) are one act: the second carries the object.
      if (after === '' && next && ZH_KIND_OF.get(next[0]) === ZH_KIND_OF.get(verb) && ZH_KIND_OF.has(verb))
        return;
      // 把 puts the object before the verb (把我那个工单关了吧): with nothing but particles after it, the object is what
      // stands between 把 and the verb.
      // A verb of making with only 一下 after it (纪要按模板整理一下) makes the topic the clause put before it.
      const bare = /^[吧了吗呢啊哈呀]*$/u.test(after);
      // So does a find with a result complement and nothing after it (纪要找出来, 把原文翻出来): it found the topic.
      const topic =
        (kind === 'produce' && /^(?:一下|下)[吧了吗呢啊哈呀]*$/u.test(after)) ||
        (kind === 'look_up' && verb.endsWith('出来') && bare)
          ? before.replace(ZH_MARKERS, '').trim()
          : '';
      const object =
        bare || topic !== ''
          ? (/把(.+)$/u.exec(before)?.[1] ?? (topic === '' ? after : topic)).trim()
          : after;
      // 告诉我 looks up; 告诉 + someone else sends.
      if (verb === '告诉' && /^(?:我|我们)/u.test(object)) kind = 'look_up';
      // 把X告诉我: what is asked is X, put before the verb.
      const toldOnlyMe = verb === '告诉' && /^(?:我|我们)[吧了吗呢啊哈呀。！!]*$/u.test(object);
      const told = toldOnlyMe ? /把(.+)$/u.exec(text.slice(0, m.index))?.[1]?.trim() : undefined;
      // 告诉我 with nothing told (用华氏度告诉我, 查到了告诉我): it asks for the answer of what the request asks, in the way
      // the clause says — no ask of its own.
      if (toldOnlyMe && told === undefined) return;
      // 算 inside a word (打算, 总算, 算了) is no calculation: only as a verb with figures or 一下 around it.
      if (verb === '算' && !/\d|[一二三四五六七八九十百千万两]/u.test(object)) return;
      if (ZH_NEGATION.test(before)) return;
      // 我待会儿要发邮件, 我自己发: a change the speaker says they will make themselves is their plan, not an ask.
      if (WRITE_ACT_KINDS.has(kind) && ZH_SPEAKER_DOES.test(before)) return;
      // A verb followed by 的 modifies the noun after it (我下单的那款 "the model I ordered", 申请的退款 "the refund
      // applied for"): a relative clause tells which thing is meant, it asks for no act.
      // (So does a verb of making or computing inside a name: 检索增强生成的论文 "papers on retrieval-augmented
      // generation".)
      if (kind !== 'look_up' && after.startsWith('的')) return;
      // V过 tells of something that has happened (是不是申请过退款 "have I applied for a refund before"): asking about
      // it is a look-up, never a new change.
      if (WRITE_ACT_KINDS.has(kind) && object.startsWith('过')) {
        found.push({ kind: 'look_up', object: object.slice(1), phrase: `${verb}${object}`, cue: verb });
        return;
      }
      if (WRITE_ACT_KINDS.has(kind) && ZH_ABOUT.test(before.replace(/(?:帮我|给我|替我)$/u, ''))) {
        if (!/(?:帮我|给我|替我)$/u.test(before)) kind = 'look_up';
      }
      if (WRITE_ACT_KINDS.has(kind) && question && ZH_ADVICE.test(before)) kind = 'look_up';
      // A question about a change that does not ask the listener to make it (开票了吗, 寄修要多久, 为什么还没退款,
      // 开票需要什么资料) asks how it stands or what it takes — a look-up. A question asks for the change itself only
      // with a request to the listener before its verb: 帮我 / 请 / 麻烦, or a "can you" modal (能 / 可以 … 吗).
      // (After a send's verb come its recipient and what they are told, whose question is theirs — 提醒我看一下有没有新版本:
      // a send is asked about only by the words before it or a 了吗 / 没 right after it, 邮件发了吗.)
      const aboutIt =
        kind === 'send'
          ? ZH_QUESTION.test(before) || /^(?:了|过|完|好)?(?:吗|么|没有?|了没)/u.test(after)
          : question;
      if (WRITE_ACT_KINDS.has(kind) && aboutIt && !ZH_ASKS_LISTENER.test(before)) kind = 'look_up';
      // 我想问一下 / 想了解一下 with the question in the next clause: the verb only announces it.
      // (So does 确认一下 / 核实一下 / 查一下 with nothing but 一下 after it, once the request has said what to look up.)
      if (
        kind === 'look_up' &&
        (object === '' || (/^(?:一下|下)[吧了吗呢啊哈呀]*$/u.test(object) && acts.length + found.length > 0))
      )
        return;
      // 报个障：打印机卡纸了 — what follows a colon after a verb of making is what the thing made says, not the thing.
      if (kind === 'create' && /^[：:]/u.test(object)) {
        found.push({ kind, object: '', phrase: text, cue: verb });
        return;
      }
      if (kind === 'send') messageFrom = m.index;
      // A send's channel or recipient is said before its verb (邮件发给项目组, 在群里说一声, 微信发我): what tells one way
      // of sending from another is in the words between the act before it and its verb.
      const lead =
        kind === 'send'
          ? text.slice(i > 0 ? (hits[i - 1]?.index ?? 0) + (hits[i - 1]?.[0].length ?? 0) : 0, m.index)
          : '';
      found.push({
        kind,
        object: told ?? object,
        phrase: told ? `把${told}${verb}${object}` : `${lead}${verb}${object}`,
        cue: verb,
        // (a calculation over the figures its clause gives, whichever side of the verb: 3.2GB/s换算成MB/s)
        ...figuresOf(kind, arithmetic(text) === 'given' ? text : `${verb}${object}`),
      });
    });
    // 说一下 / 讲下 said in a place (在群里说一下, 在项目组里讲下) or to someone (跟小李说一下, 和大家说下) tells them: a send,
    // as 说一声 is. (说一下 alone asks the listener to explain: 说一下这是什么.)
    const sayTo = found.some((a) => a.kind === 'send') ? null : ZH_SAY_TO.exec(text);
    if (sayTo && !ZH_NEGATION.test(text.slice(0, sayTo.index)))
      found.push({
        kind: 'send',
        object: text.slice(sayTo.index + sayTo[0].length),
        phrase: text.slice(sayTo.index),
        cue: sayTo[1] ?? '说下',
      });
    // 把 X 给我 / 发我 / 告诉我 (give me X), or X put first and 发我 / 给我 after it (下载链接发我一下): X is information the
    // user wants — a look-up of it.
    const given =
      /把(.+?)(?:发给我|给我|发我|告诉我)|^(.+?)(?:发给我|发我|给我)(?:一下|下)?[吧。！!]*$/u.exec(text);
    // 把X给我 with a verb after it (把发票给我开了, 把地址给我改一下): 给我 says for whom that verb is done, and the verb is
    // the ask — X is what it is done to, not a thing to be handed over.
    const forMe =
      given?.[1] !== undefined &&
      given[0].endsWith('给我') &&
      !given[0].endsWith('发给我') &&
      /^(?:\p{Script=Han})/u.test(
        text.slice(given.index + given[0].length).replace(/^(?:一下|下)?[吧了呗啊呀哈嘛]*/u, ''),
      );
    const wanted = forMe ? undefined : (given?.[1] ?? given?.[2]);
    // A verb of transfer before 给我 takes it as its recipient (钱退给我, 把发票寄给我, 押金还给我): the clause asks for
    // that transfer — a change of unnamed kind, decided by the tools its words fit — not for a thing to be shown.
    if (given && wanted && found.length === 0) {
      const transfer = ZH_TRANSFER_VERB.exec(wanted.trim());
      found.push(
        transfer
          ? { kind: 'act', object: wanted.trim().slice(0, -1), phrase: given[0], cue: `${transfer[0]}给我` }
          : { kind: 'look_up', object: wanted.trim(), phrase: given[0], cue: '给我' },
      );
    }
    // A thing wanted after a request marker with no verb of its own: 我要退款, 帮我开张发票 is covered by 开张.
    for (const m of text.matchAll(ZH_WANT)) {
      if (m.index > messageFrom) continue;
      const after = text.slice(m.index + m[0].length).replace(ZH_MARKERS, '');
      // (a marker followed by sentence particles only — 退给我吧 — wants nothing of its own)
      if (/^[吧了吗呢啊哈呀。！!？?]*$/u.test(after.trim()) || ZH_VERB.exec(after)?.index === 0) continue;
      const before = text.slice(0, m.index);
      if (ZH_NEGATION.test(before) || ZH_ABOUT.test(before)) continue;
      const stop = after.search(ZH_VERB);
      // 帮我在网上搜一下, 帮我从订单里查: a coverb's phrase (在 / 从 / 到 / 用 / 对 …) says where or how the verb after
      // it is done, so the want is that verb's, read above — not a thing wanted of its own.
      if (stop !== -1 && ZH_COVERB.test(after)) continue;
      const object = (stop === -1 ? after : after.slice(0, stop)).trim();
      if (object === '') continue;
      // 做成报告，我要贴到OA里: the speaker (我要 "I'm going to", not 帮我 / 请 addressing the listener) saying where they
      // will put something — a verb with a place after it (到 / 在 / 进) and no object of its own — after a clause that
      // already asks for an act, tells what the thing asked for is for: the user's own later act, not another ask.
      if (SPEAKER_WANT.test(m[0]) && (acts.length > 0 || found.length > 0) && ZH_PUT_SOMEWHERE.test(object))
        continue;
      // A marker followed by a bare verb (帮我开一下, 给我办了吧) asks for that verb done to the clause's topic, put before
      // the marker as Chinese puts a known thing first (订单X的发票也帮我开一下: the invoice). The verb is what a tool
      // must do; the topic is what it is done to.
      // 帮我把订单X的发票开一下: 把 puts the object before the verb, as the topic does below — what is wanted is that
      // verb done to what 把 names, not the words between them as a thing wanted.
      const ba = /^把(.+?)(\p{Script=Han})(?:一下|下|了|掉|好)?[吧了。！!]*$/u.exec(object);
      if (ba?.[1] && ba[2] && !question) {
        const done = ba[1].replace(/(?:给我|帮我|替我)$/u, '').trim();
        found.push({ kind: 'act', object: done, phrase: text, cue: m[0], verb: ba[2] });
        continue;
      }
      const bare = /^(\p{Script=Han})(?:一下|下|了|掉|好)?[吧了。！!]*$/u.exec(object);
      if (bare?.[1] && !question) {
        const topic = before
          .replace(/(?:也|都|还|就|再|先|请|麻烦)+$/u, '')
          .replace(/^把/u, '')
          .trim();
        found.push({ kind: 'act', object: topic || object, phrase: text, cue: m[0], verb: bare[1] });
        continue;
      }
      // 我想问下订单现在是啥状态: a want that is a question wants an answer, not a change.
      if (question) {
        found.push({ kind: 'look_up', object, phrase: `${m[0]}${object}`, cue: 'question' });
        continue;
      }
      found.push({ kind: 'act', object, phrase: `${m[0]}${object}`, cue: m[0] });
    }
    // A yes/no question that asks whether the listener can do something (明天能上门取吗, 可以帮我寄回去吗) is a polite
    // request, as "could you …?" is in English: a change of unnamed kind, decided by the tools its words fit (a
    // read serves it when no write does: 明天能下雨吗 stays a look-up). A question word makes it a real question.
    const polite = found.length === 0 && !ZH_WH_WORD.test(text) ? politeAsk(text) : undefined;
    if (polite) found.push({ kind: 'act', object: polite.trim(), phrase: text, cue: 'polite question' });
    // A clause that ends as a directive (直接退款吧, 退我80块就行), or a verb softened by 一下 (紧急处理一下, the
    // everyday polite imperative), asks for what it says, whatever its verb.
    const directive =
      /(?:吧|就行|就好|就可以|即可)[。！!]*$/u.test(text) ||
      // An adverb of immediacy before a verb is said only of something to be done now (然后直接退款, 马上给我换货).
      ZH_AT_ONCE.test(text) ||
      // (a known verb with 一下 is read by its kind above: 问一下 only announces a question)
      (/\p{Script=Han}一下[。！!]*$/u.test(text) && !ZH_VERB.test(text));
    // A directive over words of no Chinese at all (markdown就行, PDF即可) picks a value — a format, a name — rather
    // than asking for an act: a Chinese act needs a Chinese verb.
    const picksValue = !CJK.test(text.replace(/(?:吧|就行|就好|就可以|即可|一下)[。！!]*$/u, ''));
    // 把 O V到 P (把那篇论文加到收藏夹里, 把这张图放进文档): the disposal construction with a verb of placing moves O to P —
    // said with no subject, an order to put something somewhere, a change whatever the verb (a read puts nothing).
    const placed = found.length === 0 && !question ? ZH_BA_PLACE.exec(text) : null;
    if (placed?.[1] && placed[2])
      found.push({ kind: 'act', object: placed[1].trim(), phrase: text, cue: '把', verb: placed[2] });
    if (found.length === 0 && !question && directive && !picksValue)
      found.push({
        kind: 'act',
        object: text.replace(/(?:吧|就行|就好|就可以|即可|一下)$/u, ''),
        phrase: text,
        cue: 'directive',
      });
    // A clause that sequences one more step after an ask (…，然后退款 / 再把钱退了 / 顺便换个新的) asks for that step:
    // a change of unnamed kind, decided by the tools its words fit. Not one that tells what happened (然后一直没发货)
    // or what someone or something else did or showed (然后他说…, 然后系统显示已经退款了): see ZH_REPORTS.
    const sequenced =
      /(?:然后|接着|之后|并且|同时|顺便)$/u.test((pieces[p - 1] ?? '').trim()) ||
      ZH_SEQUENCE_START.test(text);
    if (
      found.length === 0 &&
      !question &&
      sequenced &&
      acts.length > 0 &&
      !/[没不别未]/u.test(text) &&
      !ZH_OWN_SUBJECT.test(text.replace(ZH_SEQUENCE_START, '')) &&
      !ZH_REPORTS.test(text)
    ) {
      const object = text.replace(ZH_SEQUENCE_START, '').replace(ZH_MARKERS, '').replace(/^把/u, '');
      if (CJK.test(object)) found.push({ kind: 'act', object, phrase: text, cue: 'sequence' });
    }
    const calculation = arithmetic(text);
    if (calculation && !found.some((a) => a.kind === 'compute'))
      found.push({ kind: 'compute', object: text, phrase: text, cue: 'arithmetic', figures: calculation });
    if (
      (found.length === 0 && question) ||
      (calculation === 'found' && !found.some((a) => a.kind === 'look_up'))
    )
      found.push({ kind: 'look_up', object: text, phrase: text, cue: 'question' });
    const previous = acts.at(-1);
    // 谁负责的？哪天截止？: a question of five characters or fewer that names no verb of its own continues the
    // question before it, about the same thing (as chineseClauses joins such a fragment to its clause) — one look-up.
    // So does a question listed after another with the enumeration comma 、, which joins items of one sentence, not
    // clauses (它用了多少个客户端、每轮跑了多久: two details of one thing asked about).
    const lone = found.length === 1 ? found[0] : undefined;
    const listed = /^、+$/u.test(pieces[p - 1] ?? '');
    if (
      previous?.kind === 'look_up' &&
      lone?.kind === 'look_up' &&
      lone.cue === 'question' &&
      (charCount(text) <= 5 || (listed && previous.cue === 'question'))
    ) {
      acts[acts.length - 1] = {
        ...previous,
        object: `${previous.object}，${text}`,
        phrase: `${previous.phrase}，${text}`,
      };
      previousAsks = true;
      continue;
    }
    // 600TBW平摊到3年，每天能写多少GB: a calculation over figures given that asks nothing in its own clause is asked by
    // the question of an amount right after it — the question is the calculation's result, not a thing to look up.
    if (
      previous?.kind === 'compute' &&
      previous.figures === 'given' &&
      !previousAsks &&
      lone?.kind === 'look_up' &&
      lone.cue === 'question' &&
      /多少|几/u.test(text)
    ) {
      acts[acts.length - 1] = {
        ...previous,
        object: `${previous.object}，${text}`,
        phrase: `${previous.phrase}，${text}`,
      };
      previousAsks = true;
      continue;
    }
    previousAsks = question;
    // 能改下收货地址吗，改成…: a change-to verb that only gives the new value finishes the change the clause before
    // asked for — one act, not two.
    const first = found[0];
    if (previous?.kind === 'update' && first?.kind === 'update' && ZH_CHANGE_TO.test(first.cue)) {
      acts[acts.length - 1] = {
        ...previous,
        object: `${previous.object.replace(/[吗呢吧]$/u, '')} → ${first.object}`,
        phrase: `${previous.phrase}，${first.phrase}`,
      };
      found.shift();
    }
    acts.push(...found);
  }
  return acts;
}

const EN_YOU_DO =
  /\b(?:could|can|would|will)\s+(?:you|u)\s+(?:please\s+|just\s+|kindly\s+)?([a-z]+(?:\s+[a-z]+)?)/giu;
const EN_LOOK_UP_VERBS = new Set(EN_VERBS.look_up);

/**
 * Whether a request asks the listener to do a thing other than look something up ("could you turn it down to 70?",
 * "can you book it?"): a question in form, a request for an act. "Could you tell me / check / find …" asks for a
 * look-up (the look-up verbs of `EN_VERBS`).
 */
export function asksListenerToAct(request: string): boolean {
  for (const m of request.matchAll(EN_YOU_DO)) {
    const [one = '', two = ''] = (m[1] ?? '').toLowerCase().split(/\s+/u);
    if (EN_LOOK_UP_VERBS.has(one) || EN_LOOK_UP_VERBS.has(`${one} ${two}`)) continue;
    // (an auxiliary of a statement or a question about the listener: "could you be …", "can you do that?")
    if (/^(?:be|have|not|do|also|still|ever)$/u.test(one)) continue;
    return true;
  }
  return false;
}

/** Whether an act of unnamed kind is asked with a verb of using (vocabulary/using-verbs.ts). */
function usingVerb(a: AskedActRead): boolean {
  return a.kind === 'act' && USING_VERBS.has(a.cue.toLowerCase().trim());
}

/**
 * The acts a request asks for, in the order it names them. A request that names no act at all ("weather in
 * Berlin?") asks to look something up: one `look_up` act over the whole request.
 */

export function readActs(request: string): AskedActRead[] {
  const text = request.trim();
  if (text === '') return [];
  const acts = CJK.test(text) ? readChinese(text) : readEnglish(text);
  // In a request whose other acts only look up or compute, a verb of using ("Use the review's own numbers", "Take the
  // figures from the datasheet") names what those acts work from: how they are done, not an act of its own. (Beside a
  // change — "cancel order 1 and use my coupon on order 2" — it may be one, and stays.)
  const reads = acts.filter((a) => a.kind === 'look_up' || a.kind === 'compute');
  const onlyReads = reads.length > 0 && acts.every((a) => !WRITE_ACT_KINDS.has(a.kind) || usingVerb(a));
  const kept = onlyReads ? acts.filter((a) => !usingVerb(a)) : acts;
  const distinct = kept.filter(
    (a, i) => kept.findIndex((b) => b.kind === a.kind && b.phrase === a.phrase) === i,
  );
  // A send that says what the send before it says is that send's message: its words join that send's phrase (the
  // words the plan names for the send hold what it says).
  const unique: AskedActRead[] = [];
  distinct.forEach((a, i) => {
    const before = unique.at(-1);
    if (!before || !saysWhatSendSays(text, distinct[i - 1], a)) {
      unique.push(a);
      return;
    }
    const from = text.indexOf(before.phrase);
    const to = text.indexOf(a.phrase, from + before.phrase.length) + a.phrase.length;
    if (from !== -1 && to > from) unique[unique.length - 1] = { ...before, phrase: text.slice(from, to) };
  });
  return unique.length > 0 ? unique : [{ kind: 'look_up', object: text, phrase: text, cue: 'request' }];
}

// A send whose one addressee is a pronoun (提醒他们…, "reminding them …"): the verb, then the pronoun.
const PRONOUN_ADDRESSED = [
  /^\p{Script=Han}{1,3}?(?:一下)?(?:他们|她们|他|她|大家)/u,
  /^[a-z]+\s+(?:them|him|her|everyone|everybody)\b/i,
];

/**
 * Whether `act` says what the send before it says: a send whose one addressee is a pronoun, said right after another
 * send with nothing but a comma (or "to") between them, names who that send reaches and what it tells them — it is
 * that send's message, not a second send (给陈杰和张敏各发一条消息，提醒他们周三前交报告; "Message Chen and Zhang, reminding them
 * …", "Email Li Wei and tell him …"). A send joined by a word of sequence (然后, "and then") or naming someone is an
 * act of its own.
 */
function saysWhatSendSays(text: string, before: AskedActRead | undefined, act: AskedActRead): boolean {
  if (before?.kind !== 'send' || act.kind !== 'send') return false;
  if (!PRONOUN_ADDRESSED.some((r) => r.test(act.phrase))) return false;
  const end = text.indexOf(before.phrase) + before.phrase.length;
  const start = text.indexOf(act.phrase, end);
  if (start < end) return false;
  const between = text.slice(end, start);
  // (a verb of saying joined by a bare "and" — "Email Li Wei and tell him the draft is ready" — says what the send
  // says too: it names no channel of its own, and the pronoun is the send's addressee)
  return (
    /^[\s,，、]*(?:to\s+)?$/iu.test(between) ||
    (/^\s*,?\s*and\s+$/iu.test(between) && /^(?:tell|inform|remind|let)$/iu.test(act.cue))
  );
}

// Verbs of change said under a negation: "don't send it", "no need to email anyone", 不用发, 别再提醒了.
const EN_FORBIDDEN = new RegExp(
  String.raw`\b(?:don['’]?t|do\s+not|no\s+need\s+to|never)\s+(?:(?:just|even|ever|actually|[a-z]+ly)\s+)?(${[
    ...EN_KIND_OF.entries(),
  ]
    .filter(([, kind]) => WRITE_ACT_KINDS.has(kind))
    .map(([verb]) => verb)
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|')})\b`,
  'giu',
);
// A bare 发 after a negation sends (不用发, 别发了); 发票 is the invoice.
const ZH_FORBIDDEN = new RegExp(
  `(?:不要|不用|别|无需|不需要|不必)(?:帮我|给我|再)?(${ZH_VERB_SOURCE}|发(?!票))`,
  'gu',
);

/** A change a request says not to make: its kind, and the words that say it ("email him", "发邮件"). */
export interface ForbiddenAct {
  kind: AskedActKind;
  phrase: string;
}

/**
 * The changes a request says not to make ("…, I'll read it myself, no need to send it", 我自己看，不用发, 别发邮件，
 * 我要私聊). A write those words name (email_send for "发邮件") is never the request's; a kind said bare (不用发) is
 * forbidden to the wants and directives of the same request — "markdown就行，不用发" asks for no e-mail, whatever its
 * other words fit — and only an act of that kind asked outright asks for it again.
 */
export function forbiddenActs(request: string): ForbiddenAct[] {
  const out: ForbiddenAct[] = [];
  for (const m of request.matchAll(EN_FORBIDDEN)) {
    const verb = m[1] ?? '';
    const kind = EN_KIND_OF.get(verb.toLowerCase().replace(/\s+/g, ' '));
    const at = m.index + m[0].length;
    if (kind) out.push({ kind, phrase: `${verb} ${objectAfter(request, at)}`.trim() });
  }
  for (const m of request.matchAll(ZH_FORBIDDEN)) {
    const verb = m[1] ?? '';
    const kind = verb === '发' ? 'send' : ZH_KIND_OF.get(verb);
    // The object runs to the end of the clause (别发邮件，… → 邮件).
    const object = /^[^，,。；;！!？?\n]*/u.exec(request.slice(m.index + m[0].length))?.[0] ?? '';
    if (kind && WRITE_ACT_KINDS.has(kind)) out.push({ kind, phrase: `${verb}${object}` });
  }
  return out;
}

// The kind of act a tool's name says it does (RG2-naming: a verb first or last, `refund_create`, `get_weather`).
const TOOL_VERB_KIND: Readonly<Record<string, AskedActKind>> = {
  create: 'create',
  add: 'create',
  book: 'create',
  open: 'create',
  file: 'create',
  submit: 'create',
  request: 'create',
  reserve: 'create',
  schedule: 'create',
  register: 'create',
  issue: 'create',
  apply: 'create',
  make: 'create',
  start: 'create',
  raise: 'create',
  place: 'create',
  update: 'update',
  set: 'update',
  change: 'update',
  modify: 'update',
  edit: 'update',
  approve: 'update',
  rename: 'update',
  archive: 'update',
  cancel: 'cancel',
  revoke: 'cancel',
  withdraw: 'cancel',
  close: 'cancel',
  delete: 'delete',
  remove: 'delete',
  purge: 'delete',
  send: 'send',
  notify: 'send',
  post: 'send',
  publish: 'send',
  reply: 'send',
  share: 'send',
  forward: 'send',
  email: 'send',
  message: 'send',
  calculate: 'compute',
  compute: 'compute',
  convert: 'compute',
  estimate: 'compute',
  generate: 'produce',
  summarize: 'produce',
  translate: 'produce',
  export: 'produce',
  draft: 'produce',
  // Verbs that only look something up. ("get" is not one: `Trains_1_GetTrainTickets` buys the tickets it gets.)
  search: 'look_up',
  find: 'look_up',
  list: 'look_up',
  query: 'look_up',
  lookup: 'look_up',
  fetch: 'look_up',
  retrieve: 'look_up',
  show: 'look_up',
  view: 'look_up',
  read: 'look_up',
};

/**
 * The kind of act a tool's name says it does (RG2-naming): the verb first or last in the name — `add_server`,
 * `refund_create` — or first in its last segment, as imported names put it (`Hotels_4_ReserveHotel`,
 * `Payment_1_MakePayment`, `api.rename_site`). `accept` narrows the kinds looked for. Undefined when the name names
 * none.
 */
export function nameActKind(
  name: string,
  accept: (kind: AskedActKind) => boolean = () => true,
): AskedActKind | undefined {
  const wordsOf = (text: string) => words(text).filter((w) => /\p{L}/u.test(w));
  const all = wordsOf(name);
  // The last dotted segment (`api.WebsiteApi.rename_website`), and the last part of all when it is a compound of
  // several words (`Hotels_4_ReserveHotel`): a single last word is already the name's last word.
  const dotted = wordsOf(name.split(/[./]/).at(-1) ?? '');
  const compound = wordsOf(name.split(/[._/]/).at(-1) ?? '');
  for (const verb of [all[0], all.at(-1), dotted[0], compound.length > 1 ? compound[0] : undefined]) {
    const kind = verb === undefined ? undefined : TOOL_VERB_KIND[verb];
    if (kind !== undefined && accept(kind)) return kind;
  }
  return undefined;
}

/**
 * The act a tool does: the kind its name's verb says, else `look_up` for a read and `act` (a change of unnamed kind)
 * for a write. A tool declared a read never does a write kind: its name's verb then only says what it looks up (a
 * `book_hotel` declared read). One whose read was only assumed at import (`origin.effects: assumed`: a BFCL or OpenAI
 * function list says nothing of side effects) does what its name says (`todo_add` adds) — and when its name names no
 * act (`ThinQ_Connect`, `Trains_1_GetTrainTickets`), what it does is known only by its words: a change of unnamed
 * kind, which serves the acts its words fit, reads and changes alike.
 */
export function toolActKind(tool: Pick<ToolDefinition, 'name' | 'action' | 'origin'>): AskedActKind {
  const assumed = tool.origin?.effects === 'assumed';
  // Asked of every visible tool, for each act, several times a decision: read once per name, action and origin.
  const key = `${tool.name}\u0000${tool.action}\u0000${String(assumed)}`;
  const known = actKindCache.get(key);
  if (known !== undefined) return known;
  const kind = actKindOf(tool, assumed);
  actKindCache.set(key, kind);
  if (actKindCache.size > ACT_KIND_CACHE_SIZE)
    actKindCache.delete(actKindCache.keys().next().value as string);
  return kind;
}

// Bounded, oldest first out: a registry of a few thousand tools keeps all of its own.
const ACT_KIND_CACHE_SIZE = 8192;
const actKindCache = new Map<string, AskedActKind>();

function actKindOf(tool: Pick<ToolDefinition, 'name' | 'action'>, assumed: boolean): AskedActKind {
  if (tool.action === 'read') {
    const named = nameActKind(tool.name, (k) => assumed || !WRITE_ACT_KINDS.has(k));
    return named ?? (assumed ? 'act' : 'look_up');
  }
  const named = nameActKind(tool.name, (k) => WRITE_ACT_KINDS.has(k));
  if (tool.action === 'delete') return named === 'cancel' ? 'cancel' : 'delete';
  return named ?? 'act';
}

/** A short label of an act for reasons and questions: `delete "all tickets"`. */
export function actLabel(act: Pick<AskedActRead, 'kind' | 'object' | 'phrase'>): string {
  const words = act.object.trim() || act.phrase.trim();
  const text = words.length > 80 ? `${words.slice(0, 77)}…` : words;
  return `${act.kind.replace('_', ' ')} "${text}"`;
}
