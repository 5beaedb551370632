import { describe, expect, it } from 'vitest';
import { asksWhetherAnyExists } from './existence-question.js';

describe('asksWhetherAnyExists', () => {
  it('reads yes/no questions of existence in English', () => {
    expect(asksWhetherAnyExists('Were there any standups on Thursday?')).toBe(true);
    expect(asksWhetherAnyExists('Did we have a retro last week? If so, list what came out of it.')).toBe(
      true,
    );
    expect(asksWhetherAnyExists('Quick check: is there a design review on the 3rd?')).toBe(true);
    expect(asksWhetherAnyExists('Any invoices from Globex last month?')).toBe(true);
  });
  it('reads them in Chinese', () => {
    expect(asksWhetherAnyExists('周四开过评审会没有？有没有纪要？')).toBe(true);
    expect(asksWhetherAnyExists('昨天下午有培训吗')).toBe(true);
    expect(asksWhetherAnyExists('是否有关于预算的会议记录')).toBe(true);
  });
  it('does not take requests, other questions or asks for help for one', () => {
    expect(asksWhetherAnyExists('What did we decide in the Thursday review?')).toBe(false);
    expect(asksWhetherAnyExists('Is there a way to resend the invoice?')).toBe(false);
    expect(asksWhetherAnyExists('有没有办法把这封邮件撤回？')).toBe(false);
    expect(asksWhetherAnyExists('把所有纪要发给我')).toBe(false);
    expect(asksWhetherAnyExists('周四评审会定了哪些事项？')).toBe(false);
    expect(asksWhetherAnyExists('你没有收到我的邮件吗')).toBe(false);
  });
});
