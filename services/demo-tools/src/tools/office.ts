import { z } from 'zod';
import type { MinutesRow } from '../demo-store.js';
import { COMPANY_MAIL_DOMAIN } from '../seed-data.js';
import { defineTool, type ToolSpec } from './tool-spec.js';

// SP-2 backends: minutes → report → recipients → send. The minutes table has nothing on the weekend of
// 2026-11-28/29, so "yesterday's minutes" asked on Monday 2026-11-30 is an empty list, not an error.

const Day = z.iso.date();

const minutesList = defineTool({
  name: 'minutes_list',
  pack: 'office',
  path: '/office/minutes/list',
  description: 'List meeting minutes recorded in a date range.',
  action: 'read',
  parameters: z.strictObject({ date_from: Day, date_to: Day.optional(), project: z.string().optional() }),
  errors: { invalid_range: { class: 'parameter', status: 422 } },
  async handle(args, { store }, fail) {
    const dateTo = args.date_to ?? args.date_from;
    if (dateTo < args.date_from)
      return fail('invalid_range', `date_to ${dateTo} is before date_from ${args.date_from}`);
    const found = await store.minutes({
      date_from: args.date_from,
      date_to: dateTo,
      ...(args.project ? { project: args.project.trim() } : {}),
    });
    return {
      minutes: found.map((m) => ({
        minutes_id: m.minutes_id,
        title: m.title,
        project: m.project,
        date: m.date,
        summary: m.summary,
      })),
    };
  },
});

const minutesParse = defineTool({
  name: 'minutes_parse',
  pack: 'office',
  path: '/office/minutes/parse',
  description: "Extract one meeting's decisions, action items and open questions.",
  action: 'read',
  parameters: z.strictObject({ minutes_id: z.string() }),
  errors: { minutes_not_found: { class: 'parameter', status: 404 } },
  async handle(args, { store }, fail) {
    const [m] = await store.minutesById([args.minutes_id]);
    if (!m) return fail('minutes_not_found', `no minutes have the id ${args.minutes_id}`);
    return {
      minutes_id: m.minutes_id,
      title: m.title,
      project: m.project,
      date: m.date,
      decisions: m.decisions,
      action_items: m.action_items,
      open_questions: m.open_questions,
    };
  },
});

type Template = 'default' | 'weekly_status' | 'project_review';
type Format = 'markdown' | 'plain_text' | 'html';

interface Section {
  heading: string;
  items: string[];
}

function sections(template: Template, minutes: readonly MinutesRow[]): Section[] {
  const decisions = minutes.flatMap((m) => m.decisions.map((d) => `${d} (${m.title}, ${m.date})`));
  const actions = minutes.flatMap((m) => m.action_items.map((a) => `${a.owner}: ${a.task} — due ${a.due}`));
  const questions = minutes.flatMap((m) => m.open_questions);
  switch (template) {
    case 'default':
      return [
        { heading: 'Decisions', items: decisions },
        { heading: 'Action items', items: actions },
        { heading: 'Open questions', items: questions },
      ];
    case 'weekly_status':
      return [
        { heading: 'Done this week', items: decisions },
        { heading: 'Next', items: actions },
        { heading: 'Risks and questions', items: questions },
      ];
    case 'project_review': {
      const projects = [...new Set(minutes.map((m) => m.project))].sort();
      return projects.map((project) => {
        const own = minutes.filter((m) => m.project === project);
        return {
          heading: project,
          items: [
            ...own.flatMap((m) => m.decisions.map((d) => `Decision: ${d}`)),
            ...own.flatMap((m) => m.action_items.map((a) => `Action: ${a.owner} — ${a.task} (due ${a.due})`)),
            ...own.flatMap((m) => m.open_questions.map((q) => `Question: ${q}`)),
          ],
        };
      });
    }
  }
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function render(title: string, parts: readonly Section[], format: Format, emptyNote: string): string {
  const filled = parts.filter((p) => p.items.length > 0);
  switch (format) {
    case 'markdown':
      return [
        `# ${title}`,
        ...(filled.length === 0
          ? [emptyNote]
          : filled.map((p) => `## ${p.heading}\n${p.items.map((i) => `- ${i}`).join('\n')}`)),
      ].join('\n\n');
    case 'plain_text':
      return [
        title,
        ...(filled.length === 0
          ? [emptyNote]
          : filled.map((p) => `${p.heading}:\n${p.items.map((i) => `  * ${i}`).join('\n')}`)),
      ].join('\n\n');
    case 'html':
      return [
        `<h1>${escapeHtml(title)}</h1>`,
        ...(filled.length === 0
          ? [`<p>${escapeHtml(emptyNote)}</p>`]
          : filled.map(
              (p) =>
                `<h2>${escapeHtml(p.heading)}</h2><ul>${p.items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`,
            )),
      ].join('\n');
  }
}

const reportGenerate = defineTool({
  name: 'report_generate',
  pack: 'office',
  path: '/office/reports/generate',
  description: 'Write a weekly report from parsed minutes (default format when no template).',
  action: 'read',
  parameters: z.strictObject({
    minutes_ids: z.array(z.string()).min(1),
    template: z.enum(['default', 'weekly_status', 'project_review']).optional(),
    title: z.string().optional(),
    format: z.enum(['markdown', 'plain_text', 'html']).optional(),
  }),
  errors: { template_not_found: { class: 'parameter', status: 404 } },
  // An unknown template is the declared error (the default format can be used), not a generic schema refusal.
  issueCodes: { template: 'template_not_found' },
  async handle(args, { store }) {
    const found = await store.minutesById(args.minutes_ids);
    const known = new Set(found.map((m) => m.minutes_id));
    const missing = args.minutes_ids.filter((id) => !known.has(id));
    const dates = found.map((m) => m.date).sort();
    const period = dates.length > 0 ? { from: dates[0] ?? '', to: dates[dates.length - 1] ?? '' } : undefined;
    const template = args.template ?? 'default';
    const title =
      args.title ??
      (period ? `Weekly report ${period.from} to ${period.to}` : 'Weekly report (no minutes found)');
    const parts = sections(template, found);
    const itemCount = parts.reduce((n, p) => n + p.items.length, 0);
    // "Nothing happened" is a valid report: the evaluator sees item_count 0 and can re-plan (SP-2).
    const emptyNote = 'No decisions, action items or open questions were recorded for this period.';
    return {
      title,
      ...(period ? { period } : {}),
      body: render(title, parts, args.format ?? 'markdown', emptyNote),
      item_count: itemCount,
      template,
      ...(missing.length > 0 ? { missing_minutes_ids: missing } : {}),
    };
  },
});

const contactLookup = defineTool({
  name: 'contact_lookup',
  pack: 'office',
  path: '/office/contacts/lookup',
  description: 'Find colleagues or groups by name, with e-mail addresses and chat ids.',
  action: 'read',
  parameters: z.strictObject({ query: z.string().min(1) }),
  errors: { no_match: { class: 'empty', status: 404 } },
  async handle(args, { store }, fail) {
    const contacts = await store.contacts(args.query.trim());
    if (contacts.length === 0) return fail('no_match', `nobody matches ${JSON.stringify(args.query)}`);
    return {
      contacts: contacts.map((c) => ({
        name: c.name,
        kind: c.kind,
        email: c.email,
        chat_id: c.chat_id,
        ...(c.kind === 'group' ? { members: c.members } : {}),
      })),
    };
  },
});

const messageSend = defineTool({
  name: 'message_send',
  pack: 'office',
  path: '/office/messages',
  description: 'Post a short chat message to people or group chats.',
  action: 'write',
  parameters: z.strictObject({ chat_ids: z.array(z.string()).min(1), text: z.string().min(1).max(4000) }),
  errors: { unknown_recipient: { class: 'parameter', status: 422 } },
  async handle(args, { store, now, idempotencyKey }, fail) {
    const chatIds = [...new Set(args.chat_ids)];
    const known = new Set((await store.contactsByChatId(chatIds)).map((c) => c.chat_id));
    const unknown = chatIds.filter((id) => !known.has(id));
    if (unknown.length > 0) return fail('unknown_recipient', `unknown chat ids: ${unknown.join(', ')}`);
    const messageId = await store.recordMessage({
      chat_ids: chatIds,
      text: args.text,
      idempotency_key: idempotencyKey,
      at: now(),
    });
    return { message_id: messageId, delivered_to: chatIds };
  },
});

const emailSend = defineTool({
  name: 'email_send',
  pack: 'office',
  path: '/office/emails',
  description: 'Send an e-mail with a subject and a formatted body.',
  action: 'write',
  parameters: z.strictObject({
    to: z.array(z.email()).min(1),
    subject: z.string().min(1).max(200),
    body: z.string().min(1),
  }),
  errors: {
    address_rejected: { class: 'parameter', status: 422 },
    smtp_unavailable: { class: 'transient', status: 503 },
  },
  async handle(args, { store, now, idempotencyKey }, fail) {
    const to = [...new Set(args.to.map((a) => a.toLowerCase()))];
    // Like a real mail server: mailboxes of our own domain must exist; external addresses are accepted.
    const internal = to.filter((a) => a.endsWith(`@${COMPANY_MAIL_DOMAIN}`));
    const known = new Set((await store.contactsByEmail(internal)).map((c) => c.email.toLowerCase()));
    const rejected = internal.filter((a) => !known.has(a));
    if (rejected.length > 0) return fail('address_rejected', `no such mailbox: ${rejected.join(', ')}`);
    const emailId = await store.recordEmail({
      to,
      subject: args.subject,
      body: args.body,
      idempotency_key: idempotencyKey,
      at: now(),
    });
    return { email_id: emailId, accepted: to };
  },
});

/** The office pack's backends (SP-2). */
export const OFFICE_TOOLS: readonly ToolSpec[] = [
  minutesList,
  minutesParse,
  reportGenerate,
  contactLookup,
  messageSend,
  emailSend,
];
