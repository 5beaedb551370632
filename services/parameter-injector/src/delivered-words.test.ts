import { describe, expect, it } from 'vitest';
import { carriesMessage, deliveredWords, describesMatter } from './delivered-words.js';

const labels = ['to', 'subject', 'body', '主题', '标题', '正文', '内容'];
const said = (request: string, recipient?: string) => deliveredWords(request, { labels, recipient })?.value;

describe('what a message is to say (no unasked write)', () => {
  it('is nothing when the request only asks for the send', () => {
    expect(said('Please drop Maria Lopez a line on chat.', 'Maria Lopez')).toBeUndefined();
    expect(said('给刘洋发条消息', '刘洋')).toBeUndefined();
    expect(said('mail the finance team', 'finance team')).toBeUndefined();
    // a colon after a parameter's label labels that value; it opens no message
    expect(said('写封邮件给刘洋，标题：季度预算')).toBeUndefined();
    // "that" right after a verb that addresses someone is a determiner
    expect(said('email that spreadsheet to Maria')).toBeUndefined();
    // "that" after a noun that is no message is a relative pronoun
    expect(said('Email Maria Lopez the spreadsheet that I updated yesterday', 'Maria Lopez')).toBeUndefined();
  });

  it('takes the words after the instruction and its colon, in English and Chinese', () => {
    expect(said('message the ops channel: the backup finished at noon')).toBe('the backup finished at noon');
    expect(said('在运维群里发一句：备份已完成，可以下班了')).toBe('备份已完成，可以下班了');
  });

  it('takes the one quoted passage no label introduces', () => {
    expect(said('post "lunch is on me today" to the team chat')).toBe('lunch is on me today');
    expect(said('写封邮件，主题“预算”')).toBeUndefined();
  });

  it('takes what a verb of saying introduces, up to a connective that opens another step', () => {
    expect(said('跟刘洋说一声，周五的培训改到线上')).toBe('周五的培训改到线上');
    expect(said('在群里通知大家下午茶改到四点，然后把周报发我')).toBe('下午茶改到四点');
    expect(said('提醒黄磊周五前交报销单')).toBe('周五前交报销单');
    expect(said('在运维群里说下今晚十点停机维护')).toBe('今晚十点停机维护');
    expect(said('在运维群里说下午三点停机')).toBe('下午三点停机');
    expect(said('给刘洋发个消息，问他合同签了没')).toBe('合同签了没');
    expect(said('Let the finance team know the audit moved to May')).toBe('the audit moved to May');
    expect(said("tell Maria I'll be ten minutes late")).toBe("I'll be ten minutes late");
    expect(said('remind Maria Lopez to renew the parking permit')).toBe('renew the parking permit');
    expect(said('send Maria a heads-up that the printer on floor 2 is fixed.')).toBe(
      'the printer on floor 2 is fixed',
    );
    expect(said('let the finance team know that invoices are due Friday')).toBe('invoices are due Friday');
    expect(said('Tell the finance team the audit starts Monday', 'finance team')).toBe(
      'the audit starts Monday',
    );
    // "say" joined to the ask, its "that" left out
    expect(said('Mail the ops team and say the backup window moves to Sunday.', 'ops team')).toBe(
      'the backup window moves to Sunday',
    );
    expect(said('message Maria, say the parking permit is ready', 'Maria')).toBe(
      'the parking permit is ready',
    );
  });
});

describe('which own-words parameters of a write carry a message', () => {
  it('a message, text, body or subject carries one; a description of the user’s problem does not', () => {
    expect(carriesMessage('text', 'The message.')).toBe(true);
    expect(carriesMessage('subject', 'The subject line.')).toBe(true);
    expect(carriesMessage('title', 'One-line summary of the problem.')).toBe(false);
    expect(carriesMessage('issue', "What is wrong with the product, in the customer's words.")).toBe(false);
    expect(carriesMessage('title', '')).toBe(false);
    expect(describesMatter('comment', "The customer's own words, kept for the reviewer.")).toBe(true);
  });
});
