import { describe, expect, it } from 'vitest';
import { asksListenerToAct, chineseClauses, forbiddenActs, readActs, toolActKind } from './acts.js';

const kinds = (request: string) => readActs(request).map((a) => [a.kind, a.object]);

describe('readActs (TD-5 asked acts)', () => {
  it('reads an English imperative, its object, and the next ask after "and"', () => {
    expect(kinds('Delete all tickets.')).toEqual([['delete', 'all tickets']]);
    expect(kinds('Please cancel my refund for order 1234')).toEqual([['cancel', 'my refund for order 1234']]);
    expect(kinds('Email the minutes to the Atlas group and tell me when it is done')).toEqual([
      ['send', 'the minutes to the Atlas group'],
      ['look_up', 'when it is done'],
    ]);
  });

  it('把X给我 with a verb after it does that verb to X for the asker; with none, it asks to be given X', () => {
    expect(kinds('麻烦把押金收据给我开一下')).toEqual([['act', '押金收据']]);
    expect(kinds('另外把保修卡给我寄过来')).not.toContainEqual(['look_up', '保修卡']);
    expect(kinds('把物流单号给我吧')).toEqual([['look_up', '物流单号']]);
  });

  it('列 (to list) sets out what is on record: a look-up, however it is asked', () => {
    const k = (r: string) => readActs(r).map((a) => a.kind);
    expect(k('把本月还没付款的订单给我列一下')).toEqual(['look_up']);
    expect(k('帮我列出上个月签约的客户名单')).toEqual(['look_up']);
    expect(k('把这两周的请假记录列出来')).toEqual(['look_up']);
  });

  it('a change wanted and doubted in the same sentence is not asked yet', () => {
    const k = (r: string) => readActs(r).map((a) => a.kind);
    expect(k("I'd like to cancel my plan, but I'm not sure yet. How much notice do you need?")).toEqual([
      'look_up',
    ]);
    expect(k("We want a replacement though we haven't decided. Which colours are in stock?")).toEqual([
      'look_up',
    ]);
    expect(k("Please cancel my plan. I'm not sure why it renewed.")).toContain('cancel');
  });

  it('a preference for being given a thing is a want of it', () => {
    const k = (r: string) => readActs(r).map((a) => a.kind);
    expect(
      new Set(k("The lid was cracked when it came. I'd rather just get a replacement than argue.")),
    ).toEqual(new Set(['act']));
    expect(k('We would prefer a credit note over a refund, if that works for you.')).toEqual(['act']);
    expect(k('I would rather have my deposit returned.')).toEqual(['act']);
    // A preference about something else asks nothing.
    expect(k("I'd rather not say.")).not.toContain('act');
  });

  it('an indirect request ("I was wondering if you could …") asks for its verb, as "could you …" does', () => {
    const k = (r: string) => readActs(r).map((a) => [a.kind, a.cue]);
    expect(k('I was wondering if you could reschedule my dentist appointment to Thursday')).toEqual([
      ['update', 'reschedule'],
    ]);
    expect(k("I'd be really grateful if you would archive the old invoices")).toEqual([['act', 'archive']]);
    expect(k('Just checking whether you can delete the draft from last week')).toEqual([
      ['delete', 'delete'],
    ]);
    // Still only a look-up when the verb asks to be told something.
    expect(readActs('I was hoping you could tell me when the library closes').map((a) => a.kind)).toEqual([
      'look_up',
    ]);
  });

  it('说一下 said in a place or to someone tells them (a send); alone it asks to be told', () => {
    const k = (r: string) => readActs(r).map((a) => a.kind);
    expect(k('在财务群里说一下报销截止日期是下周五')).toEqual(['send']);
    expect(k('跟小周讲下晚上聚餐改地方了')).toEqual(['send']);
    expect(k('说一下这个报错是什么意思')).not.toContain('send');
    expect(k('别跟老板说一下这件事')).not.toContain('send');
  });

  it('a message body said without a colon (正文说…, 内容就写…) is the message, not more asks', () => {
    const k = (r: string) => readActs(r).map((a) => a.kind);
    expect(k('给财务的刘洋发封邮件，正文说报销单明天再查一下就行')).toEqual(['send']);
    expect(k('帮我给小周发条消息，内容就写晚上的聚餐取消了，帮忙通知其他人')).toEqual(['send']);
  });

  it('a change the speaker says they will make themselves is their plan, not an ask', () => {
    const k = (r: string) => readActs(r).map((a) => a.kind);
    expect(k("I'll forward it to the client later; for now, who signed off the budget?")).toEqual([
      'look_up',
    ]);
    expect(k("We're going to post the notice ourselves. What time does the review start?")).toEqual([
      'look_up',
    ]);
    expect(k('Give me the list of attendees, I want to share it myself')).not.toContain('send');
    expect(k('我回头自己发给客户，你先帮我查一下报价单在哪')).toEqual(['look_up']);
    expect(k('我等会儿要通知财务，先看看上周的会定了什么')).not.toContain('send');
    // A want to act on the people a who-question asks for: the speaker needs the answer to do it.
    expect(k('Who maintains the billing service? I want to message them about the outage.')).toEqual([
      'look_up',
    ]);
    expect(k('Who is on duty today? Please message them that the lift is stuck.')).toContain('send');
    // Asked of the agent, it stays an ask.
    expect(k('Please forward it to the client')).toEqual(['send']);
    expect(k('我要给财务发邮件说明情况')).toContain('send');
  });

  it('a pronoun after "open" is a thing already named, opened to be read; 一下 alone after an ask adds none', () => {
    expect(kinds('find the changelog, open it and quote the line about TLS')).toEqual([
      ['look_up', 'the changelog'],
      ['look_up', 'it'],
    ]);
    expect(readActs('find the changelog, open it').map((a) => a.kind)).not.toContain('create');
    expect(readActs('open a ticket for the broken badge reader').map((a) => a.kind)).toEqual(['create']);
    expect(kinds('这个版本是什么时候出的？帮我确认一下')).toEqual([['look_up', '这个版本是什么时候出的']]);
  });

  it('a verb of making inside a name before 的 asks to make nothing (自然语言生成的综述)', () => {
    expect(readActs('有没有关于自然语言生成的综述文章').map((a) => a.kind)).not.toContain('produce');
  });

  it('"can I get X" asks to be given X; "where / how can I get X" asks where or how', () => {
    expect(readActs('Can I get a copy of my invoice?').map((a) => a.kind)).toEqual(['act']);
    expect(readActs('Where can I get the PDF of my invoice?').map((a) => a.kind)).toEqual(['look_up']);
    expect(readActs('How could we get a replacement part?').map((a) => a.kind)).toEqual(['look_up']);
  });

  it('帮我把X V一下: 把 puts the object before the verb; the verb is what is asked', () => {
    expect(readActs('帮我把订单20240917001的发票开一下').map((a) => [a.kind, a.object, a.verb])).toEqual([
      ['act', '订单20240917001的发票', '开'],
    ]);
  });

  it('a thing wanted, or an imperative of a verb of no listed kind, is a change of unnamed kind', () => {
    expect(kinds('My order 1234 is late and I want a refund.')).toEqual([['act', 'a refund']]);
    expect(kinds('Refund order 1234, it arrived broken')).toEqual([['act', 'order 1234']]);
    expect(kinds('Can you get me a new invoice for 5678?')).toEqual([['act', 'a new invoice for 5678']]);
    // A thing named with "please" is wanted too; a question with "please" is still a question.
    expect(kinds('Company invoice for order 5678 please.')).toEqual([
      ['act', 'Company invoice for order 5678'],
    ]);
    expect(kinds('warranty claim please, you can reach me by e-mail')).toEqual([['act', 'warranty claim']]);
    expect(readActs('What is the status of order 5678, please?').map((a) => a.kind)).toEqual(['look_up']);
  });

  it('a verb of placing makes what comes before "to / into / on", and a verb of no listed kind is kept', () => {
    expect(kinds('Add a comment to ticket TK-3310.')).toEqual([['create', 'a comment']]);
    expect(kinds('Add a ticket for the broken printer.')).toEqual([
      ['create', 'a ticket for the broken printer'],
    ]);
    expect(readActs('Merge my two tickets into one.')).toEqual([
      expect.objectContaining({ kind: 'act', cue: 'Merge', verb: 'merg' }), // the verb stemmed, as tokens are
    ]);
    // A want has no verb of its own, nor has the speaker's own act: their objects decide.
    expect(readActs('I want a refund.')[0]?.verb).toBeUndefined();
    expect(readActs('I want to talk to a human.')[0]?.verb).toBeUndefined();
    expect(readActs('I want you to merge them.')[0]?.verb).toBe('merg');
  });

  it('arithmetic the request says is arithmetic on its own figures is a calculation over given figures', () => {
    expect(readActs('quick math: 2.9 GB/s expressed in MB/s, and how many MB is that in a minute?')).toEqual([
      expect.objectContaining({ kind: 'compute', figures: 'given' }),
    ]);
    expect(readActs('What is 40 km/h expressed in m/s?')).toEqual([
      expect.objectContaining({ kind: 'compute', figures: 'given' }),
    ]);
  });

  it('"I\'d like to <verb>" asks for the verb, as "I want to <verb>" does', () => {
    expect(readActs("I'd like to set a new alarm at 17:00 and label it 'Music practice'.")[0]).toEqual(
      expect.objectContaining({ kind: 'act', cue: 'set' }),
    );
  });

  it('a want with its subject left out is a want; "whats …" is a question', () => {
    expect(kinds('want a refund on my headphones, they never arrived')).toEqual([
      ['act', 'a refund on my headphones'],
    ]);
    expect(readActs('whats the rated sequential read of the Z7 ssd').map((a) => a.kind)).toEqual(['look_up']);
    // Later in the request, a bare "need …" says how to answer the question asked before it.
    expect(
      readActs(
        'what TPS did postgres 16 get in that benchmark? need the exact figure, not a rounded one',
      ).map((a) => a.kind),
    ).toEqual(['look_up']);
  });

  it('把X告诉我 asks for X', () => {
    expect(kinds('订单1234直接退款吧，退完把退款单号和现在的进度告诉我')).toContainEqual([
      'look_up',
      '退款单号和现在的进度',
    ]);
  });

  it('a verb of transfer before 给我 asks for the transfer, not for a thing to be shown', () => {
    expect(kinds('这个耳机我退了，押金还给我吧')).toEqual([['act', '押金']]);
    expect(kinds('把保修卡寄给我')).toEqual([['act', '保修卡']]);
    // (a thing put before 给我 with no verb of its own is still information wanted)
    expect(kinds('把快递单号给我')).toEqual([['look_up', '快递单号']]);
  });

  it('a request marker before a bare verb asks for that verb on the topic put before it', () => {
    expect(readActs('订单5678的发票也麻烦帮我开一下')).toEqual([
      expect.objectContaining({ kind: 'act', object: '订单5678的发票', verb: '开' }),
    ]);
  });

  it('the speaker saying where they will put what an earlier clause asks for states its purpose, not an ask', () => {
    expect(kinds('把纪要做成报告，纯文本格式，我要贴到OA里').map(([kind]) => kind)).toEqual(['produce']);
    expect(kinds('把周报整理一下，我想存在网盘上').map(([kind]) => kind)).toEqual(['produce']);
    // (a want of a thing, or the same words with no ask before them, or addressed to the listener, stay asks)
    expect(kinds('查一下订单，我要退款').map(([kind]) => kind)).toEqual(['look_up', 'act']);
    expect(kinds('我要贴到OA里').map(([kind]) => kind)).toEqual(['act']);
    expect(kinds('把纪要做成报告，帮我贴到OA里').map(([kind]) => kind)).toEqual(['produce', 'act']);
  });

  it('a verb followed by 的 tells which thing is meant (a relative clause): no act is asked', () => {
    expect(kinds('我上周下单的台灯怎么还没发货？').map(([kind]) => kind)).toEqual(['look_up']);
    expect(kinds('之前申请的退款到哪一步了').map(([kind]) => kind)).toEqual(['look_up']);
  });

  it('"remind me of …" looks up; "remind the team …" sends', () => {
    expect(readActs('I forgot all the API tokens, can you remind me of them?').map((a) => a.kind)).toEqual([
      'look_up',
    ]);
    expect(readActs('Remind the Atlas group about the freeze on Friday').map((a) => a.kind)).toEqual([
      'send',
    ]);
  });

  it('a question, a how-to and a negated verb ask for no change', () => {
    expect(kinds('Has my refund for order 20261101001 gone through yet?')).toEqual([
      ['look_up', 'Has my refund for order 20261101001 gone through yet?'],
    ]);
    expect(readActs('How do I apply for a refund?').map((a) => a.kind)).toEqual(['look_up']);
    expect(readActs("Don't send anything yet, just draft the summary").map((a) => a.kind)).toEqual([
      'produce',
    ]);
    expect(readActs('My printer is broken').map((a) => a.kind)).toEqual(['look_up']);
  });

  it('reads Chinese verbs anywhere in a clause, wants after 我要 / 帮我, and keeps how-to questions as look-ups', () => {
    expect(kinds('把昨天的会议纪要整理成周报发给项目组')).toEqual([
      ['produce', '周报'],
      ['send', '项目组'],
    ]);
    expect(kinds('订单1234晚了，我要退款')).toEqual([['act', '退款']]);
    // A bare 要 opening a clause wants what follows; 要是 (if) and 要不要 (whether) want nothing.
    expect(kinds('这篇的分数是多少？要原文里的数字')).toEqual([
      ['look_up', '这篇的分数是多少'],
      ['act', '原文里的数字'],
    ]);
    for (const text of ['要是明天下雨就算了', '要不要带伞', '要么周五要么周六'])
      expect(
        readActs(text).filter((a) => a.cue === '要'),
        text,
      ).toEqual([]);
    expect(kinds('请帮我取消订单5678')).toEqual([['cancel', '订单5678']]);
    expect(kinds('帮我查一下退款进度')).toEqual([['look_up', '退款进度']]);
    expect(readActs('怎么申请退款？').map((a) => a.kind)).toEqual(['look_up']);
    expect(readActs('不要发给客户，先生成周报').map((a) => a.kind)).toEqual(['produce']);
    // A greeting or a statement asks nothing; the question in the next clause does.
    expect(kinds('你好，我想问一下，订单1234到哪了')).toEqual([['look_up', '订单1234到哪了']]);
    // A verb softened by 一下 asks for it; a message after a colon is what to send, not more asks.
    expect(kinds('客服电话打不通，紧急处理一下')).toEqual([['act', '紧急处理']]);
    expect(readActs('在群里发一句：明天的站会取消').map((a) => a.kind)).toEqual(['send']);
    // Booking is a create (订单, an order, is not).
    expect(readActs('帮我订一张明天去上海的高铁票').map((a) => a.kind)).toEqual(['create']);
    expect(readActs('订单1234到哪了').map((a) => a.kind)).toEqual(['look_up']);
    // A want that is a question wants an answer.
    expect(readActs('你好 我想问下订单20261101001现在是啥状态了').map((a) => a.kind)).toEqual(['look_up']);
    expect(readActs('我想知道退款什么时候到账').map((a) => a.kind)).toEqual(['look_up']);
    // 把 X 给我 wants X: a look-up of it.
    expect(kinds('顺便把王磊的电话给我')).toEqual([['look_up', '王磊的电话']]);
  });

  it('a Chinese verb of making with only 一下 after it makes the topic put before it', () => {
    expect(kinds('帮我把上周三的评审纪要按复盘模板汇总一下')).toEqual([
      ['produce', '上周三的评审纪要按复盘模板'],
    ]);
    expect(kinds('周三评审的记录翻译一下')).toEqual([['produce', '周三评审的记录']]);
  });

  it('a short Chinese question after a question continues it: one look-up, not a second one of no subject', () => {
    expect(kinds('周三评审会上定的那个接口改动谁来做？几号交？')).toEqual([
      ['look_up', '周三评审会上定的那个接口改动谁来做，几号交'],
    ]);
    // A longer question asks a thing of its own.
    expect(kinds('新版本什么时候发布？上线后谁来值班？')).toHaveLength(2);
  });

  it('splits a Chinese request into its asks: sentences and connectives; a short fragment continues', () => {
    expect(chineseClauses('深圳明天下雨吗？另外帮我提个工单')).toEqual(['深圳明天下雨吗', '帮我提个工单']);
    expect(chineseClauses('那篇论文发在哪个会上？哪一年的')).toEqual(['那篇论文发在哪个会上，哪一年的']);
    expect(chineseClauses('在群里发一句：明天的站会取消。有事群里说')).toEqual(['在群里发一句']);
    expect(chineseClauses('What is the weather?')).toEqual([]);
  });

  it('an enumerated Chinese request (一是…，二是…; 第一…，第二…; 1、…，2、…) has one ask per listed item', () => {
    expect(chineseClauses('一是帮我看看广州周五下不下雨，二是空调安装一直没人上门，帮我登记个投诉')).toEqual([
      '帮我看看广州周五下不下雨',
      '空调安装一直没人上门，帮我登记个投诉',
    ]);
    expect(chineseClauses('第一，查下订单8888的状态，第二，帮我开个个人发票抬头王强')).toEqual([
      '查下订单8888的状态',
      '帮我开个个人发票抬头王强',
    ]);
    expect(chineseClauses('1、明早东京冷不冷，2、帮我转个人工客服')).toEqual([
      '明早东京冷不冷',
      '帮我转个人工客服',
    ]);
    // 第二天 is the next day, not a listed item.
    expect(chineseClauses('快递第二天就显示签收了，可我根本没收到')).toHaveLength(1);
  });

  it('arithmetic over given figures is a calculation and nothing to look up; over figures to find, both', () => {
    expect(readActs('What is 17% of 2,340?').map((a) => [a.kind, a.figures])).toEqual([['compute', 'given']]);
    expect(readActs('两千三百四十的百分之十七是多少').map((a) => [a.kind, a.figures])).toEqual([
      ['compute', 'given'],
    ]);
    expect(readActs('PostgreSQL 17 比 16 快了多少？').map((a) => [a.kind, a.figures])).toEqual([
      ['compute', 'found'],
      ['look_up', undefined],
    ]);
  });

  it('百分之多少 / 百分之几 ask for a percentage (over figures to find); a percentage given carries its figure', () => {
    for (const [request, figures] of [
      ['A3的续航比B5长百分之多少', 'found'],
      ['新版比旧版的吞吐提升了百分之多少？', 'found'],
      ['今年比去年贵了百分之几', 'found'],
      ['三千二的百分之十五是多少', 'given'],
      ['百分之二十五是多少', 'given'],
      ['800的12%是多少', 'given'],
    ] as const)
      expect(readActs(request).find((a) => a.kind === 'compute')?.figures, request).toBe(figures);
  });

  it('after an order, "and" / "then" + a verb putting the speaker somewhere is a change of unnamed kind', () => {
    for (const [request, verb] of [
      ['Look up the conference schedule and enrol me in the opening workshop', 'enrol'],
      ['Find the newsletter, then sign us up for the weekly digest', 'sign'],
    ] as const)
      expect(readActs(request).at(-1), request).toEqual(expect.objectContaining({ kind: 'act', verb }));
    for (const request of [
      'Find the review and walk me through it',
      'find the changelog, open it and quote the line about TLS',
      'The venue sent it and signed me up',
    ])
      expect(
        readActs(request).map((a) => a.kind),
        request,
      ).not.toContain('act');
  });

  it('把 O V到 P said as an order puts O somewhere: a change of unnamed kind with its verb', () => {
    for (const [request, verb] of [
      ['把这份合同加到我的收藏夹里', '加'],
      ['把会议纪要放进共享文件夹', '放'],
      ['把这张发票贴到报销单上', '贴'],
    ] as const)
      expect(readActs(request), request).toEqual([expect.objectContaining({ kind: 'act', cue: '把', verb })]);
    // (a question about it, or a known verb, is read as before)
    expect(readActs('把这份合同加到收藏夹里了吗？').map((a) => a.kind)).toEqual(['look_up']);
    expect(readActs('把报告发到群里').map((a) => a.kind)).toEqual(['send']);
  });

  it('questions listed with the enumeration comma 、 ask details of one thing: one look-up', () => {
    for (const request of [
      '这台笔记本有多重、电池能用多久？',
      '那次迁移用了多少台机器、总共停机了多长时间？',
    ])
      expect(
        readActs(request).map((a) => a.kind),
        request,
      ).toEqual(['look_up']);
    // (a comma between two questions of six or more characters keeps them two)
    expect(readActs('这台笔记本有多重，另外北京明天会下雨吗？').map((a) => a.kind)).toEqual([
      'look_up',
      'look_up',
    ]);
  });

  it('a calculation over given figures that asks nothing is asked by the question of an amount after it', () => {
    for (const request of ['900GB平摊到3个月，每天大概多少GB？', '两万块分摊给8个人，每人出多少'])
      expect(
        readActs(request).map((a) => [a.kind, a.figures]),
        request,
      ).toEqual([['compute', 'given']]);
    // (a calculation that asks its own question leaves the next question its own)
    expect(readActs('两千的百分之十七是多少，另外北京明天多少度？').map((a) => a.kind)).toEqual([
      'compute',
      'look_up',
    ]);
  });

  it('a time asked to move an amount at a rate named but not given is a calculation over a figure to find', () => {
    for (const request of [
      'How many minutes would it take to copy 500 GB at the drive’s sequential write speed?',
      'how long does it take to stream 20 GB at their advertised download rate?',
      '按这块盘的顺序写速度写满2TB要多少分钟？',
    ])
      expect(readActs(request).find((a) => a.kind === 'compute')?.figures, request).toBe('found');
    expect(readActs('How long does shipping take at the standard rate?').map((a) => a.kind)).toEqual([
      'look_up',
    ]);
  });

  it('a calculation over operands named only as numbers is over figures the user gives, not ones to look up', () => {
    for (const request of [
      '你帮我算算这两个数相差几倍，数字我一会儿贴给你',
      'By how much does the larger of these two numbers exceed the smaller? I will send them shortly',
    ])
      expect(
        readActs(request).map((a) => [a.kind, a.figures]),
        request,
      ).toEqual([['compute', 'given']]);
    // (数据 is data of a thing, which a source states)
    expect(readActs('这两个数据集的规模差了几倍？').map((a) => a.kind)).toEqual(['compute', 'look_up']);
  });

  it('多 before an adjective of measure (多大, 多高, 多远) asks a question; 很多大… is "many big …"', () => {
    for (const [request, kinds] of [
      ['那篇文章发表在哪年；另外那台服务器的内存有多大，帮我在规格页里确认下', ['look_up', 'look_up']],
      ['第一，A3电池的容量是多少；另外那座桥有多高，在官网上核对下', ['look_up', 'look_up']],
      ['另外这两个城市相距多远，去地图上确认下', ['look_up']],
    ] as const)
      expect(
        readActs(request).map((a) => a.kind),
        request,
      ).toEqual(kinds);
    expect(readActs('那座桥有多高').map((a) => a.cue)).toEqual(['question']);
    expect(readActs('很多大公司都在用它').map((a) => a.cue)).toEqual(['request']);
  });

  it('a figure with its unit converted to another unit is a calculation over the figure given', () => {
    for (const request of [
      '帮我算算：120km/h换算成m/s是多少',
      'convert 65 mph to km/h',
      '5英里折合多少公里？',
    ])
      expect(
        readActs(request)
          .filter((a) => a.kind === 'compute')
          .map((a) => a.figures),
        request,
      ).toEqual(expect.arrayContaining(['given']));
    expect(readActs('帮我算算：120km/h换算成m/s是多少').every((a) => a.figures !== 'found')).toBe(true);
  });

  it('a date, a season, a clock time or a code written with - / . : is one value, not arithmetic', () => {
    for (const request of [
      'What was the rainfall in Oslo on 2021/10/03?',
      'Show the standings of the 2019-2020 season.',
      'Is the 09:45 train to Leeds on time?',
      'Call me back on 1-800-555-0199 about my order.',
      'Find a plumber who is free on 05/14/2025 09:30 - 11:00.',
    ])
      expect(
        readActs(request).some((a) => a.kind === 'compute'),
        request,
      ).toBe(false);
    expect(readActs('What is 1200/8?').map((a) => [a.kind, a.figures])).toEqual([['compute', 'given']]);
    // A figure raised or lowered by a percentage given: arithmetic over the request's own figures.
    expect(
      readActs('a 4,800 euro laptop cut by 12 percent costs how much now?').map((a) => [a.kind, a.figures]),
    ).toEqual([['compute', 'given']]);
    expect(readActs('房租四千五降了百分之八，现在多少').map((a) => a.kind)).toContain('compute');
  });

  it('an empty request asks nothing; a request of no act at all is one look-up', () => {
    expect(readActs('   ')).toEqual([]);
    expect(kinds('weather berlin')).toEqual([['look_up', 'weather berlin']]);
    expect(kinds('🙂🙂')).toEqual([['look_up', '🙂🙂']]);
  });
});

describe('readActs: requests phrased politely, negated or undone', () => {
  it('any verb after "can you" / "please" is asked for; a negated one and an "un-" verb are not the act', () => {
    expect(kinds('can you pick it up on thursday?')).toEqual([['act', 'it up on thursday']]);
    expect(readActs("Did he get an action item? Don't message him.").map((a) => a.kind)).toEqual(['look_up']);
    expect(kinds('unsend the email I sent this morning')).toEqual([
      ['cancel', 'the email I sent this morning'],
    ]);
    expect(readActs('Order 1234 has not arrived').map((a) => a.kind)).toEqual(['look_up']);
    // One adverb may stand between the request's marker and its verb; a verb ending in -ly is still the verb.
    expect(kinds('The mug is chipped, so please just replace it.')).toEqual([['update', 'it']]);
    expect(kinds('could you kindly merge my two accounts')).toEqual([['act', 'my two accounts']]);
    expect(kinds('Please reply to them by Friday')).toEqual([['send', 'to them by Friday']]);
  });

  it('a Chinese clause ending as a directive asks for what it says; 请问 asks a question', () => {
    expect(kinds('包裹延误一周了，直接退款吧')).toEqual([['act', '直接退款']]);
    expect(readActs('请问怎么提交工单？').map((a) => a.kind)).toEqual(['look_up']);
    // Closing a ticket is a cancel, never the create the directive's words might fit.
    expect(kinds('把我那个工单关了吧，问题已经自己解决了')).toEqual([['cancel', '我那个工单']]);
    // V过 tells of what has happened: asking about it looks up, it asks for no new change.
    expect(kinds('我上个月是不是提交过工单？')).toEqual([['look_up', '工单']]);
    // A directive over no Chinese word picks a value (a format), it asks for no act.
    expect(kinds('整理成周报，PDF就行')).toEqual([['produce', '周报']]);
  });

  it('reads the changes a request says not to make, with the words that name them', () => {
    expect(forbiddenActs('Summarise it for me, no need to send it to anyone.')).toEqual([
      { kind: 'send', phrase: 'send it to anyone' },
    ]);
    expect(forbiddenActs("Put the notes together but don't email Li Wei.")).toEqual([
      { kind: 'send', phrase: 'email Li Wei' },
    ]);
    expect(forbiddenActs('Summarise it; don’t send it.')).toEqual([{ kind: 'send', phrase: 'send it' }]);
    expect(forbiddenActs('我自己看，不用发')).toEqual([{ kind: 'send', phrase: '发' }]);
    expect(forbiddenActs('别发邮件，我要私聊')).toEqual([{ kind: 'send', phrase: '发邮件' }]);
    // Not a change, or not negated: nothing is forbidden.
    expect(forbiddenActs("Don't worry about the invoice, just check the order.")).toEqual([]);
    expect(forbiddenActs('不用发票，帮我查下物流')).toEqual([]);
  });

  it('asking whether someone will do a thing to something asks for it; asking whether a thing will happen does not', () => {
    expect(kinds('Could a courier collect it the day after tomorrow?')).toEqual([
      ['act', 'it the day after tomorrow'],
    ]);
    expect(kinds('Can someone remove my old address?')).toEqual([['delete', 'my old address']]);
    expect(readActs('Will the parcel arrive today?').map((a) => a.kind)).toEqual(['look_up']);
    expect(readActs('Would the refund cover shipping?').map((a) => a.kind)).toEqual(['look_up']);
    // "Can I get / have …" asks to be given it; "can I cancel …" asks about the act.
    expect(kinds('Can I get an invoice for order 1234?')).toEqual([['act', 'an invoice for order 1234']]);
    expect(readActs('Can I cancel my order?').map((a) => a.kind)).toEqual(['look_up']);
  });

  it('asking whether an act should or need be done asks advice about it, not for it', () => {
    const writes = (r: string) => readActs(r).filter((a) => a.kind !== 'look_up' && a.kind !== 'compute');
    for (const r of [
      '我是不是应该把报价单发给财务？',
      '要不要给客户提个售后工单？',
      '发票需不需要重新开',
      '我需要再申请一次退款吗',
      'Should we forward the contract to legal?',
      'Do I need to file a ticket for a broken badge reader?',
      'Do we really have to reissue the invoice?',
      'Is it worth opening a support case for this?',
    ])
      expect(writes(r), r).toEqual([]);
    // Said as an instruction, with no question, the act is asked for.
    expect(readActs('报价单应该发给财务，你帮我发一下').map((a) => a.kind)).toContain('send');
    expect(readActs('We need to forward the contract to legal, please do it').map((a) => a.kind)).toContain(
      'send',
    );
  });

  it('a Chinese question about a change asks how it stands unless it asks the listener to make it', () => {
    const k = (r: string) => readActs(r).map((a) => a.kind);
    for (const r of [
      '报销单提交了吗',
      '换货要多久',
      '为什么还没退款',
      '开通会员需要什么材料',
      '工单啥时候创建的',
    ])
      expect(k(r), r).not.toContain('create');
    expect(k('能帮我开通会员吗')).not.toEqual(['look_up']);
    expect(k('可以申请换货吗')).toContain('create');
    expect(k('我想提交报销单，需要多久')).toContain('create');
    // A send's question after its verb is what its recipient is told; 发了吗 asks whether it was sent.
    expect(k('每周一提醒我检查一下有没有新的安全补丁')).toEqual(['send']);
    expect(k('周报邮件发了吗')).toEqual(['look_up']);
  });

  it('verbs of making in customer service: 补开, 开具, 寄修, 报障 — what follows a colon is what is reported', () => {
    expect(kinds('补开一张收据')).toEqual([['create', '一张收据']]);
    expect(kinds('报障：三楼打印机不出纸')).toEqual([['create', '']]);
    expect(kinds('耳机寄修')).toEqual([['create', '']]);
  });

  it('a first word followed by a finite verb of the sentence is its subject, not an imperative', () => {
    expect(readActs('Payment for the repair was taken twice').map((a) => a.kind)).toEqual(['look_up']);
    expect(readActs('Transfer to savings has failed twice. Why?').map((a) => a.kind)).toEqual(['look_up']);
    // A new subject or a subordinate clause after the object leaves the order an order.
    expect(kinds('Refund my order it was broken')[0]?.[0]).toBe('act');
    expect(kinds('Refund the order that was sent to my old address')[0]?.[0]).toBe('act');
  });

  it('asking whether someone will do a thing, after a comma, asks for it; "google" looks up', () => {
    expect(kinds('the heater stopped working, could someone repair it')).toEqual([['act', 'it']]);
    expect(kinds('google the cheapest flights to Lisbon')).toEqual([
      ['look_up', 'the cheapest flights to Lisbon'],
    ]);
  });

  it('an acknowledgement or closer asks nothing; 没什么 / 没啥 is no question', () => {
    expect(readActs('好的，帮我查一下明天上海的天气').map((a) => a.kind)).toEqual(['look_up']);
    expect(readActs('收到，没啥问题了，把报价单发给财务').map((a) => a.kind)).toEqual(['send']);
  });

  it('a find with a result complement (找出来, 调出来, 翻出来) looks up the topic put before it, or what follows', () => {
    expect(kinds('上个月的合同扫描件找出来')).toEqual([['look_up', '上个月的合同扫描件']]);
    expect(kinds('帮我把去年的报销单调出来，然后转给财务')[0]).toEqual(['look_up', '去年的报销单']);
    expect(kinds('找出上周的会议纪要')).toEqual([['look_up', '上周的会议纪要']]);
  });

  it('a question word with 都 / 也 after it is an indefinite, not a question; 请 with 了 or 假 is a verb', () => {
    // (the clauses tell what happened; only the ask after them is read)
    expect(kinds('我什么都没收到，麻烦查一下订单5521的物流')).toEqual([['look_up', '订单5521的物流']]);
    expect(kinds('谁也没通知我，帮我看看周会改到几点了').map((a) => a[0])).toEqual(['look_up']);
    expect(kinds('我请了两天假，帮我看看这两天的纪要')).toEqual([['look_up', '这两天的纪要']]);
    expect(readActs('小王昨天请假了').map((a) => a.kind)).toEqual(['look_up']);
  });

  it('"Email X and tell him …" is one send: what it tells him is its message, and its phrase holds it', () => {
    const acts = readActs('Mail Chen Jie the budget and tell him the numbers are final.');
    expect(acts.map((a) => a.kind)).toEqual(['send']);
    expect(acts[0]?.phrase).toContain('tell him the numbers are final');
    // (a verb of sequence, or someone else named, makes a send of its own)
    expect(readActs('Email Chen Jie, and then tell him on chat as well').map((a) => a.kind)).toEqual([
      'send',
      'send',
    ]);
    expect(
      readActs('Email the budget to Chen Jie and tell Wang Fang it went out').map((a) => a.kind),
    ).toEqual(['send', 'send']);
  });

  it('"drop someone a line" sends; a thing asked for with "please" keeps its ask beside a later one', () => {
    expect(readActs('Drop Wang Fang a quick note that the venue changed.').map((a) => a.kind)).toEqual([
      'send',
    ]);
    expect(readActs('drop the draft folder').map((a) => a.kind)).not.toContain('send');
    expect(
      readActs('A company invoice for order 4410 please, and mail it to ap@example.com').map((a) => a.kind),
    ).toEqual(['act', 'send']);
  });

  it('a clause that sequences one more step after an ask asks for it; one that tells what happened does not', () => {
    expect(readActs('帮我看下订单7788，然后换货').map((a) => [a.kind, a.object])).toEqual([
      ['look_up', '订单7788'],
      ['act', '换货'],
    ]);
    expect(readActs('先查查物流，再把运费退了').map((a) => a.kind)).toEqual(['look_up', 'act']);
    expect(readActs('我上周下的单，然后一直没发货').map((a) => a.kind)).not.toContain('act');
    expect(readActs('帮我看看物流，然后卖家说明天发').map((a) => a.kind)).toEqual(['look_up']);
    // (what something shows, or an event already done, is told — never a change asked for)
    expect(readActs('帮我查一下订单4410，然后系统显示已经退款了').map((a) => a.kind)).toEqual(['look_up']);
    expect(readActs('看下物流，然后页面提示支付失败').map((a) => a.kind)).toEqual(['look_up']);
    expect(readActs('查一下订单4410，然后换货了').map((a) => a.kind)).toEqual(['look_up']);
  });

  it('a change asked about after a look-up in its clause is what the look-up finds out, not a change', () => {
    expect(kinds('帮我看看培训改到星期几了')).toEqual([['look_up', '培训改到星期几了']]);
    expect(kinds('查一下这单能不能取消')).toEqual([['look_up', '这单能不能取消']]);
    expect(kinds('帮我查一下物流，然后取消订单5521').map((a) => a[0])).toEqual(['look_up', 'cancel']);
  });

  it('a verb with a result complement and 了 right after it tells what was done, not what is asked', () => {
    expect(kinds('周报里把日期写成了11月31日，帮我改成12月1日')).toEqual([['update', '12月1日']]);
    expect(kinds('他把收件人填成了张三').map((a) => a[0])).not.toContain('produce');
    expect(kinds('把会议纪要整理成周报')).toEqual([['produce', '周报']]);
  });

  it('a want said right after the order it is about asks for the thing wanted', () => {
    expect(readActs('订单1234要退款').map((a) => a.kind)).toEqual(['act']);
    expect(readActs('这单要换货，尺码不对').map((a) => a.kind)).toContain('act');
    expect(readActs('订单1234要求什么时候签收？').map((a) => a.kind)).toEqual(['look_up']);
  });

  it('a Chinese "can (you) …?" is a request; a question word, 能否 or 能 inside a word keep it a question', () => {
    expect(kinds('明天能上门取吗')).toEqual([['act', '上门取']]);
    expect(kinds('可不可以帮我寄回去')).toEqual([['act', '寄回去']]);
    expect(readActs('功能正常吗').map((a) => a.kind)).toEqual(['look_up']);
    expect(readActs('这个可能坏了吗').map((a) => a.kind)).toEqual(['look_up']);
    expect(readActs('什么时候能到吗').map((a) => a.kind)).toEqual(['look_up']);
    expect(readActs('能否退款').map((a) => a.kind)).toEqual(['look_up']);
  });

  it('a message after a colon or in quotes is content to send, not more asks', () => {
    expect(kinds('ping the beacon group: design files are up, pls review by wednesday')).toEqual([
      ['send', 'the beacon group: design files are up'],
    ]);
    expect(kinds('post "deploy finished, staging is green" in the chat')).toEqual([
      ['send', '"deploy finished, staging is green" in the chat'],
    ]);
    expect(readActs('Email Li Wei: the meeting moved. Also cancel my ticket.').map((a) => a.kind)).toEqual([
      'send',
      'cancel',
    ]);
    // After a write, a sentence opening with a field's label fills that field: what follows is content, to the end.
    expect(
      kinds('Message Chen Jie. Subject: Q3 plan. Text: please update the sheet and send it to finance.'),
    ).toEqual([['send', 'Chen Jie']]);
    expect(kinds('给李伟发封邮件，标题：周会改期，正文：请取消周四的会议室预订')).toEqual([['send', '邮件']]);
  });

  it('spoken V下 is V一下, and a change-to clause finishes the change asked just before it', () => {
    expect(kinds('订单5678能改下收货地址吗，改成上海市徐汇区漕溪北路88号')).toEqual([
      ['update', '收货地址 → 上海市徐汇区漕溪北路88号'],
    ]);
  });
});

describe('readActs: reading, saving, reminding and doing at once', () => {
  it('opening an address, a link, a page or a file reads it; opening a ticket makes one', () => {
    expect(kinds('Open https://example.org/notes and tell me what it says')).toEqual([
      ['look_up', 'https://example.org/notes'],
      ['look_up', 'what it says'],
    ]);
    expect(kinds('Please open the attached file')).toEqual([['look_up', 'the attached file']]);
    expect(kinds('Open a ticket for my broken app')).toEqual([['create', 'a ticket for my broken app']]);
  });

  it('an order after a conjunction is still an order', () => {
    expect(kinds('It is a week late. And refund it, please.')).toEqual([['act', 'it']]);
    expect(kinds('So, cancel my order 55.')).toEqual([['cancel', 'my order 55']]);
  });

  it('saving or uploading something makes it, in English and Chinese', () => {
    expect(kinds('Save the report to my drive')).toEqual([['create', 'the report to my drive']]);
    expect(kinds('把这份报告存到共享盘里')).toEqual([['create', '共享盘里']]);
  });

  it('what follows a Chinese send to someone is what they are told to do, not an ask of ours', () => {
    expect(kinds('每周一提醒我查一下库存')).toEqual([['send', '我']]);
    expect(kinds('在群里说一声让大家查收邮件').map(([kind]) => kind)).toEqual(['send']);
    // Another clause asks again.
    expect(kinds('提醒我开会，然后查一下明天的天气').map(([kind]) => kind)).toEqual(['send', 'look_up']);
  });

  it('a question particle before a comma ends a question; X 发我 asks for X', () => {
    expect(kinds('发票开好了吗，下载链接发我一下')).toEqual([
      ['look_up', '发票开好了吗'],
      ['look_up', '下载链接'],
    ]);
  });

  it('a coverb phrase after 帮我 belongs to the verb that follows; an adverb of immediacy makes an order', () => {
    expect(kinds('帮我在网上搜一下周末的展览')).toEqual([['look_up', '周末的展览']]);
    expect(kinds('帮我把工单TK-1关了')).toEqual([['cancel', '工单TK-1']]);
    expect(kinds('先查一下包裹在哪，然后马上换货')).toEqual([
      ['look_up', '包裹在哪'],
      ['act', '马上换货'],
    ]);
    expect(kinds('直接换货吗？').map(([kind]) => kind)).toEqual(['look_up']);
    expect(kinds('订单1234直接换个新的').map(([kind]) => kind)).toEqual(['act']);
    // The speaker doing it is no order to us.
    expect(kinds('我直接去店里修').map(([kind]) => kind)).toEqual(['look_up']);
  });
});

describe('readActs: asks as users write them', () => {
  it('the items of a numbered list are asks of their own, each read as its sentence would be', () => {
    expect(kinds('quick ones: 1) is order 77 delivered 2) cancel my booking for friday')).toEqual([
      ['look_up', 'is order 77 delivered'],
      ['cancel', 'my booking for friday'],
    ]);
    // a figure in brackets inside arithmetic is no item
    expect(readActs('what is (3) times 4?').map((a) => a.kind)).toEqual(['look_up']);
  });

  it('告诉我 with nothing told asks for the answer of the other asks, not an act of its own', () => {
    expect(kinds('杭州后天下雪吗？查好了用短信告诉我')).toEqual([['look_up', '杭州后天下雪吗']]);
    expect(kinds('把结果告诉我')).toEqual([['look_up', '结果']]);
  });

  it('a clause that only greets or checks that someone is there asks nothing', () => {
    expect(kinds('您好，请问发票开出来了吗')).toEqual([['look_up', '请问发票开出来了吗']]);
    expect(kinds('有人在吗？帮我取消订单3321')).toEqual([['cancel', '订单3321']]);
  });

  it('an A-not-A verb (到没到, 是不是) asks a yes/no question; 不不不 does not', () => {
    expect(readActs('我的包裹到底到没到').map((a) => a.cue)).toEqual(['question']);
    expect(readActs('不不不，先别发').map((a) => a.cue)).toEqual(['request']);
  });

  it('a want with its subject left out after a comma or a sentence end is a want', () => {
    expect(kinds('The lamp flickers, really need a replacement part.')).toEqual([
      ['act', 'a replacement part'],
    ]);
    expect(kinds('Order 5521 is wrong. Just want my money back')).toEqual([['act', 'my money back']]);
  });

  it('asking whether someone will do a phrasal verb to the asker asks for it', () => {
    expect(
      readActs('Can somebody from billing call me back? My card was charged twice.').map((a) => a.kind),
    ).toEqual(['act']);
    expect(readActs('Could someone get back to me about the outage?')[0]?.cue).toBe('get');
  });

  it('a month and day after a preposition of time is a date, not a division', () => {
    expect(readActs('any rain in Oslo by 3/15?').map((a) => a.kind)).toEqual(['look_up']);
    expect(readActs('what is 15/3?').map((a) => a.kind)).toEqual(['compute']);
  });
});

describe('readActs: a send that says what the send before it says', () => {
  const sends = (request: string) => readActs(request).filter((a) => a.kind === 'send');
  it('a pronoun-addressed send right after a send is its message, not a second send (ZH and EN)', () => {
    expect(sends('给王芳发个消息，告诉她会议改到三点')).toHaveLength(1);
    expect(sends('给李雷和韩梅梅各发一条消息，通知他们明早九点开会')).toHaveLength(1);
    expect(sends('Message Li Lei and Han Meimei, reminding them that the audit starts Monday.')).toHaveLength(
      1,
    );
  });
  it('one joined by a word of sequence, or naming its own addressee, is a send of its own', () => {
    expect(sends('邮件发给Atlas项目组，然后在群里提醒他们一下')).toHaveLength(2);
    expect(sends('Email the report to Chen, then remind him on chat.')).toHaveLength(2);
    expect(sends('给王芳发个消息，再发邮件给李雷')).toHaveLength(2);
  });
});

describe('toolActKind', () => {
  it('a read only assumed at import does what its name says', () => {
    const origin = { format: 'bfcl' as const, effects: 'assumed' as const };
    expect(toolActKind({ name: 'todo_add', action: 'read', origin })).toBe('create');
    expect(toolActKind({ name: 'todo_add', action: 'read' })).toBe('look_up');
    expect(toolActKind({ name: 'Hotels_2_BookHouse', action: 'read', origin })).toBe('create');
    expect(toolActKind({ name: 'Payment_1_MakePayment', action: 'read', origin })).toBe('create');
    expect(toolActKind({ name: 'search_hotels', action: 'read', origin })).toBe('look_up');
    expect(toolActKind({ name: 'Flights_4_SearchOnewayFlight', action: 'read', origin })).toBe('look_up');
  });

  it('an assumed read whose name names no act does what its words fit: a change of unnamed kind', () => {
    const origin = { format: 'bfcl' as const, effects: 'assumed' as const };
    // "Switch the air conditioner to dry mode" is ThinQ_Connect's to do; its name alone cannot say so.
    expect(toolActKind({ name: 'ThinQ_Connect', action: 'read', origin })).toBe('act');
    expect(toolActKind({ name: 'Trains_1_GetTrainTickets', action: 'read', origin })).toBe('act');
    // Declared reads stay look-ups.
    expect(toolActKind({ name: 'ThinQ_Connect', action: 'read' })).toBe('look_up');
  });

  it("is the kind of the name's verb; a read never does a write kind; a write of no named verb is `act`", () => {
    expect(toolActKind({ name: 'create_ticket', action: 'write' })).toBe('create');
    expect(toolActKind({ name: 'refund_create', action: 'write' })).toBe('create');
    expect(toolActKind({ name: 'email_send', action: 'write' })).toBe('send');
    expect(toolActKind({ name: 'ticket_delete', action: 'delete' })).toBe('delete');
    expect(toolActKind({ name: 'order_status_query', action: 'read' })).toBe('look_up');
    expect(toolActKind({ name: 'sandbox_compute', action: 'read' })).toBe('compute');
    expect(toolActKind({ name: 'report_generate', action: 'read' })).toBe('produce');
    expect(toolActKind({ name: 'book_hotel', action: 'read' })).toBe('look_up');
    expect(toolActKind({ name: 'payment_refund', action: 'write' })).toBe('act');
  });
});

describe('calculations over figures still to be found (issue 20)', () => {
  const computes = (request: string) =>
    readActs(request)
      .filter((a) => a.kind === 'compute')
      .map((a) => a.figures);

  it('reads a comparative gap or a factor as a calculation over figures to be found', () => {
    expect(computes('How many more rows per hour does the new index scan than the old one?')).toEqual([
      'found',
    ]);
    expect(computes('By what factor does the cluster slow down under load, compared to idle?')).toEqual([
      'found',
    ]);
    expect(computes('By how much did the bill grow between March and April?')).toEqual(['found']);
    expect(computes('How many rows does the table have?')).toEqual([]);
  });

  it('a verb of change says how much one thing changed (looked up); 比 or a percentage makes it a gap to compute', () => {
    // 降低 and 提升 alike: the size of a change a source states.
    expect(computes('新版的启动时间缩短了多少？')).toEqual([]);
    expect(computes('这次改版后转化率降低了多少？以官方公告为准')).toEqual([]);
    expect(computes('这次改版后转化率提升了多少？以官方公告为准')).toEqual([]);
    // Compared with a second thing, or asked as a percentage or a factor: worked out from two figures.
    expect(computes('新集群比旧集群的写入延迟降低了多少？')).toEqual(['found']);
    expect(computes('改版后转化率提高了百分之几？')).toEqual(['found']);
    expect(computes('A款比B款高出百分之几？')).toEqual(['found']);
    // A comparative's degree alone is still a gap.
    expect(computes('新机型贵了多少？')).toEqual(['found']);
  });

  it('a total spread over a count, or a rate against a total, is arithmetic over the figures given', () => {
    expect(computes('36000元的年费平摊到12个月，每月多少钱？')).toEqual(['given']);
    expect(
      computes('If the tank loses 3 litres a day, how many days until it is down to 40 litres?'),
    ).toEqual(['given']);
  });

  it('reads 算 asking for an amount in its clause as a calculation, not 预算 or 打算', () => {
    expect(computes('按三年折旧算每个月摊多少钱？')).toEqual(['found']);
    expect(computes('今年的预算还剩多少？')).toEqual([]);
    expect(computes('你打算什么时候去？')).toEqual([]);
  });

  it('a verb with a resultative complement and 了 sets a time; it asks for nothing', () => {
    expect(kinds('查一下航班状态，查到了告诉我').map(([, o]) => o)).not.toContain('到了');
    expect(kinds('查一下航班状态，查到了告诉我')[0]).toEqual(['look_up', '航班状态']);
  });

  it('in a request that only reads or computes, a verb of using names what they work from', () => {
    const acts = readActs('What is the median of the survey scores? Use the cleaned numbers.');
    expect(acts.map((a) => a.kind)).toEqual(['look_up']);
  });
});

describe('questions joined in one sentence (issue 20)', () => {
  it('reads each question a sentence joins as a look-up of its own, after a lead-in that asks nothing', () => {
    expect(kinds('quick pair: who wrote Toolformer, and what speed does the Q5 datasheet give?')).toEqual([
      ['look_up', 'who wrote Toolformer'],
      ['look_up', 'what speed does the Q5 datasheet give?'],
    ]);
    // (one that names nothing new asks about the same thing; "…, and how about tomorrow?" asks the first again)
    expect(kinds('How many hours is the Q5 battery rated for, and how long is the warranty?')).toHaveLength(
      1,
    );
    expect(kinds('What is the weather, and how about tomorrow?')).toHaveLength(1);
  });
});

describe('asksListenerToAct', () => {
  it('a question asking the listener to do a thing other than a look-up is a request for an act', () => {
    expect(asksListenerToAct('the music is too loud, could you turn it down to 70?')).toBe(true);
    expect(asksListenerToAct('Can you book it for Friday?')).toBe(true);
    expect(asksListenerToAct('could you tell me who wrote Toolformer?')).toBe(false);
    expect(asksListenerToAct('Can you check where my parcel is?')).toBe(false);
    expect(asksListenerToAct('How many more rows does 9 scan than 8?')).toBe(false);
  });
});
