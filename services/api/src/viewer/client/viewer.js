// @ts-check
// The trace viewer's pages (IF-3): the API key form, the trace list (`viewer?status=…&cursor=…`) and one trace
// (`viewer?trace=<task id>`). Page changes are plain navigations, so the address can be shared and Back works.
import { ApiFailure, apiGet, forgetKey, storeKey, storedKey } from './api.js';
import { h, replace } from './dom.js';
import { formatInstant, formatMs, loopLabel, shortVersion, stageLabel } from './format.js';
import { renderTimeline } from './timeline.js';

/**
 * @typedef {import('./types.js').TraceListPage} TraceListPage
 * @typedef {import('./types.js').TraceTimeline} TraceTimeline
 * @typedef {import('./types.js').TimelineEntry} TimelineEntry
 * @typedef {import('./types.js').TimelineEventDetail} TimelineEventDetail
 * @typedef {import('./types.js').ModelExchange} ModelExchange
 */

/** The list page's address, so "← Traces" returns to the same filters and page. */
const LIST_ITEM = 'signalbox.viewer.list-search';

/** The `GET /v1/traces` filters the list offers; the page's query string uses the API's names. */
const FILTERS = /** @type {const} */ ([
  {
    name: 'status',
    label: 'Status',
    kind: 'select',
    options: ['success', 'partial_success', 'failed', 'need_clarification'],
  },
  { name: 'degraded', label: 'Degraded', kind: 'select', options: ['true', 'false'] },
  { name: 'tool', label: 'Tool', kind: 'text' },
  { name: 'agent', label: 'Agent', kind: 'text' },
  { name: 'from', label: 'From (recorded at or after)', kind: 'datetime' },
  { name: 'to', label: 'To (before)', kind: 'datetime' },
  { name: 'revision_count_above', label: 'Revision count above', kind: 'number' },
  { name: 'limit', label: 'Per page', kind: 'number' },
]);

const main = /** @type {HTMLElement} */ (document.getElementById('main'));

/** @param {number} n */
const pad = (n) => String(n).padStart(2, '0');

/**
 * An ISO instant as the value of a `datetime-local` input (the browser's time zone).
 * @param {string} iso
 */
function toLocalInput(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${String(d.getFullYear())}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function showKeyState() {
  const state = /** @type {HTMLElement} */ (document.getElementById('key-state'));
  const forget = /** @type {HTMLButtonElement} */ (document.getElementById('forget-key'));
  const key = storedKey();
  state.textContent = key === null ? 'No API key entered' : 'API key entered (kept in this tab only)';
  forget.hidden = key === null;
}

/**
 * The form that asks for the API key.
 * @param {string} [note]
 */
function keyForm(note) {
  const input = h('input', {
    type: 'password',
    name: 'api-key',
    id: 'api-key',
    autocomplete: 'off',
    spellcheck: 'false',
    required: true,
  });
  const problem = h('p', { class: 'error', role: 'alert', hidden: true });
  const form = h(
    'form',
    { class: 'key-form', id: 'key-form' },
    h('label', { for: 'api-key' }, 'API key', input),
    h('button', { type: 'submit' }, 'Use this key'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    try {
      storeKey(input.value);
    } catch (error) {
      problem.textContent = `That is not an API key: ${error instanceof Error ? error.message : String(error)}.`;
      problem.hidden = false;
      return;
    }
    void route();
  });
  return h(
    'section',
    { 'aria-labelledby': 'key-title' },
    h('h1', { id: 'key-title' }, 'Enter your API key'),
    note ? h('p', {}, note) : null,
    h(
      'p',
      { class: 'notice' },
      'The viewer reads traces through the API with your tenant’s key, sent as “Authorization: Bearer <key>”. ',
      'The key stays in this browser tab (sessionStorage) until you forget it or close the tab.',
    ),
    form,
    problem,
  );
}

/**
 * What went wrong, in words a user can act on. A refused key is forgotten and the key form shown again.
 * @param {unknown} error
 * @param {string} what what the page was loading
 * @returns {Node[]}
 */
function failureView(error, what) {
  if (!(error instanceof ApiFailure)) {
    return [h('p', { class: 'error', role: 'alert' }, `Could not show ${what}: ${String(error)}`)];
  }
  if (error.isAuth) {
    forgetKey();
    showKeyState();
    const verdict =
      error.status === 401
        ? `The API refused the API key (401 ${error.code}): ${error.message}.`
        : `This API key may not read ${what} (403 ${error.code}): ${error.message}.`;
    return [
      h(
        'p',
        { class: 'error', role: 'alert', id: 'auth-error' },
        `${verdict} Enter a valid key for your tenant.`,
      ),
      keyForm(),
    ];
  }
  const fields = error.fields.map((f) => `${f.path || '(request)'}: ${f.message}`);
  const head =
    error.status === 0
      ? `Could not reach the API: ${error.message}.`
      : `The API could not give ${what} (${String(error.status)} ${error.code}): ${error.message}.`;
  return [h('p', { class: 'error', role: 'alert' }, [head, ...fields].join('\n'))];
}

/**
 * @param {string} text
 * @param {string} kind `degraded`, `failed` or `loop`
 */
const badge = (text, kind) => h('span', { class: `badge ${kind}` }, text);

// ── The trace list ───────────────────────────────────────────────────────────────────────────────────────────────

/** @param {URLSearchParams} params */
function filterForm(params) {
  const controls = FILTERS.map((filter) => {
    const id = `filter-${filter.name}`;
    const value = params.get(filter.name) ?? '';
    /** @type {HTMLInputElement | HTMLSelectElement} */
    let control;
    if (filter.kind === 'select') {
      control = h(
        'select',
        { id, name: filter.name },
        h('option', { value: '' }, 'any'),
        ...filter.options.map((option) => h('option', { value: option, selected: option === value }, option)),
      );
    } else if (filter.kind === 'datetime') {
      control = h('input', {
        id,
        name: filter.name,
        type: 'datetime-local',
        value: value && toLocalInput(value),
      });
    } else if (filter.kind === 'number') {
      control = h('input', {
        id,
        name: filter.name,
        type: 'number',
        min: filter.name === 'limit' ? 1 : 0,
        value,
      });
    } else {
      control = h('input', { id, name: filter.name, type: 'text', value });
    }
    return h('label', { for: id }, filter.label, control);
  });
  const form = h(
    'form',
    { class: 'filters', id: 'filters', 'aria-label': 'Filters' },
    ...controls,
    h('button', { type: 'submit' }, 'Apply filters'),
    h('a', { href: 'viewer' }, 'Clear'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const filter of FILTERS) {
      const control = /** @type {HTMLInputElement | HTMLSelectElement} */ (
        form.elements.namedItem(filter.name)
      );
      const value = control.value.trim();
      if (value === '') continue;
      // datetime-local has no zone: it is the browser's local time, sent to the API as an ISO instant.
      next.set(filter.name, filter.kind === 'datetime' ? new Date(value).toISOString() : value);
    }
    location.search = next.toString();
  });
  return form;
}

/** @param {URLSearchParams} params */
async function showList(params) {
  sessionStorage.setItem(LIST_ITEM, location.search);
  const query = new URLSearchParams();
  for (const name of [...FILTERS.map((f) => f.name), 'cursor']) {
    const value = params.get(name);
    if (value !== null && value !== '') query.set(name, value);
  }
  const status = h('p', { class: 'notice', role: 'status' }, 'Loading traces…');
  replace(main, h('h1', {}, 'Traces'), filterForm(params), status);
  /** @type {TraceListPage} */
  let page;
  try {
    page = /** @type {TraceListPage} */ (await apiGet('v1/traces', query));
  } catch (error) {
    status.replaceWith(...failureView(error, 'the traces'));
    return;
  }
  status.textContent = page.traces.length === 0 ? 'No trace matches these filters.' : '';
  if (page.traces.length === 0) return;

  const rows = page.traces.map((t) =>
    h(
      'tr',
      { 'data-task-id': t.task_id },
      h('td', {}, h('a', { class: 'mono', href: `?trace=${encodeURIComponent(t.task_id)}` }, t.task_id)),
      h('td', {}, t.agent_id),
      h('td', {}, t.status ?? 'running'),
      h(
        'td',
        {},
        t.degraded ? badge('DEGRADED', 'degraded') : null,
        t.status === 'failed' ? badge('FAILED', 'failed') : null,
      ),
      h('td', { class: 'num' }, String(t.max_revision_count)),
      h('td', { class: 'num' }, String(t.event_count)),
      h('td', {}, `${stageLabel(t.last_stage)} · ${t.last_event_type}`),
      h('td', {}, formatInstant(t.started_at)),
      h('td', {}, formatInstant(t.last_activity_at)),
    ),
  );
  const table = h(
    'table',
    { id: 'trace-list' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['Task', 'Agent', 'Status', 'Flags'].map((c) => h('th', { scope: 'col' }, c)),
        h('th', { scope: 'col', class: 'num' }, 'Max revision'),
        h('th', { scope: 'col', class: 'num' }, 'Events'),
        ...['Latest decision', 'Started', 'Last activity'].map((c) => h('th', { scope: 'col' }, c)),
      ),
    ),
    h('tbody', {}, ...rows),
  );
  const pager = h('nav', { class: 'pager', 'aria-label': 'Pages' });
  if (params.has('cursor')) {
    const first = new URLSearchParams(params);
    first.delete('cursor');
    pager.append(h('a', { href: `?${first.toString()}`, id: 'first-page' }, '⟲ First page'));
  }
  if (page.next_cursor !== null) {
    const next = new URLSearchParams(params);
    next.set('cursor', page.next_cursor);
    pager.append(h('a', { href: `?${next.toString()}`, id: 'next-page', rel: 'next' }, 'Next page →'));
  }
  main.append(table, pager);
}

// ── One trace ────────────────────────────────────────────────────────────────────────────────────────────────────

/** @param {TraceTimeline} trace */
function summary(trace) {
  const loops = Object.entries(trace.loops)
    .filter(([, n]) => n > 0)
    .map(([loop, n]) => `${loopLabel(loop)} ×${String(n)}`)
    .join(', ');
  /** @type {[string, Node | string][]} */
  const items = [
    ['Agent', trace.agent_id],
    ['State', trace.status ? `${trace.state} · ${trace.status}` : trace.state],
    ['Started', formatInstant(trace.started_at)],
    ['Duration', formatMs(trace.duration_ms)],
    ['Decisions', String(trace.events.length)],
    ['Loops', loops || 'none'],
    ['Max revision', String(trace.max_revision_count)],
    ['Degraded', trace.degraded ? badge('DEGRADED', 'degraded') : 'no'],
  ];
  return h(
    'dl',
    { class: 'summary' },
    ...items.map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', {}, v))),
  );
}

/** @param {TimelineEntry} e */
function flagsOf(e) {
  return [
    e.failed ? badge('FAILED', 'failed') : null,
    e.degraded_flag ? badge('DEGRADED', 'degraded') : null,
    e.loop ? badge(`↺ ${loopLabel(e.loop)}`, 'loop') : null,
  ];
}

/**
 * The three versions a decision was taken under, one a line, shortened (the title and the details have them whole).
 * @param {TimelineEntry['versions']} v
 */
function versionsCell(v) {
  return h(
    'td',
    { class: 'mono versions', title: JSON.stringify(v) },
    h('div', {}, `registry ${shortVersion(v.registry_version)}`),
    h('div', {}, `profiles ${shortVersion(v.profiles_version)}`),
    h('div', {}, `policy ${shortVersion(v.policy_version)}`),
  );
}

/**
 * @param {TraceTimeline} trace
 * @param {(eventId: string) => void} onSelect
 */
function decisionsTable(trace, onSelect) {
  const rows = trace.events.map((e) => {
    const open = h(
      'button',
      { type: 'button', class: 'mono', 'aria-label': `Show decision ${String(e.stream_version)}` },
      `#${String(e.stream_version)}`,
    );
    open.addEventListener('click', () => {
      onSelect(e.event_id);
    });
    return h(
      'tr',
      { 'data-event-id': e.event_id },
      h('td', {}, open),
      h('td', { class: 'num' }, formatMs(e.since_start_ms)),
      h('td', { class: 'num' }, `+${formatMs(e.since_previous_ms)}`),
      h('td', {}, stageLabel(e.stage)),
      h('td', { class: 'mono' }, e.event_type),
      h('td', {}, e.tool ?? ''),
      h('td', { class: 'num' }, String(e.revision_count)),
      h('td', {}, ...flagsOf(e)),
      versionsCell(e.versions),
      h('td', { class: 'reason' }, e.decision_reason),
    );
  });
  const headings = [
    'Decision',
    'At',
    'Duration',
    'Stage',
    'Event',
    'Tool',
    'Revision',
    'Flags',
    'Versions',
    'Reason',
  ];
  return h(
    'table',
    { id: 'decisions' },
    h('thead', {}, h('tr', {}, ...headings.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, ...rows),
  );
}

/**
 * The chosen decision: every field of its timeline entry at once, then its payload as formatted JSON.
 * @param {HTMLElement} panel
 * @param {TraceTimeline} trace
 * @param {TimelineEntry} e
 * @param {() => boolean} stillChosen false once another decision was chosen meanwhile
 */
async function showDetails(panel, trace, e, stillChosen) {
  /** @type {[string, Node | string][]} */
  const fields = [
    ['Decision', `#${String(e.stream_version)} · ${stageLabel(e.stage)} · ${e.event_type}`],
    ['Decision reason', h('span', { id: 'detail-reason' }, e.decision_reason)],
    ['Revision count', String(e.revision_count)],
    ['Degraded', e.degraded_flag ? badge('DEGRADED', 'degraded') : 'no'],
    ['Failed', e.failed ? badge('FAILED', 'failed') : 'no'],
    ['Loop opened', e.loop ? loopLabel(e.loop) : '—'],
    ['Tool', e.tool ?? '—'],
    ['Input source', e.input_source],
    [
      'Duration',
      `${formatMs(e.since_previous_ms)} since the previous decision; at ${formatMs(e.since_start_ms)}`,
    ],
    ['Registry version', e.versions.registry_version ?? '—'],
    ['Profiles version', e.versions.profiles_version ?? '—'],
    ['Policy version', e.versions.policy_version ?? '—'],
    ['Occurred at', e.occurred_at],
    ['Recorded at', e.recorded_at],
    ['Event id', h('span', { class: 'mono' }, e.event_id)],
    ['Caused by', h('span', { class: 'mono' }, e.causation_id ?? '— (first event)')],
  ];
  const payload = h('pre', { class: 'payload', id: 'payload', tabindex: 0 }, 'Loading the payload…');
  const exchanges = h('div', { id: 'exchanges' }, 'Loading…');
  replace(
    panel,
    h('h2', { id: 'details-title' }, `Decision #${String(e.stream_version)}: ${e.event_type}`),
    h('dl', {}, ...fields.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
    h('h3', {}, 'Payload'),
    payload,
    h('h3', {}, 'Model calls'),
    exchanges,
  );
  panel.hidden = false;
  try {
    const detail = /** @type {TimelineEventDetail} */ (
      await apiGet(`v1/traces/${encodeURIComponent(trace.task_id)}/events/${encodeURIComponent(e.event_id)}`)
    );
    if (!stillChosen()) return;
    // textContent: the payload is data, whatever markup it may hold.
    payload.textContent = JSON.stringify(detail.payload, null, 2);
    replace(exchanges, ...exchangesView(detail.model_exchanges));
  } catch (error) {
    if (!stillChosen()) return;
    payload.replaceWith(...failureView(error, 'the payload'));
    exchanges.replaceChildren();
  }
}

/**
 * The model calls a decision rests on (EL-7): one line each, then its request and answer as formatted JSON. A call
 * that failed (EL-9) says so, with its error in place of the answer.
 * @param {ModelExchange[]} list
 * @returns {Node[]}
 */
function exchangesView(list) {
  if (list.length === 0) return [h('p', { class: 'note' }, 'None: this decision asked no model.')];
  return list.map((x, i) =>
    x.error
      ? h(
          'details',
          { class: 'exchange failed' },
          h(
            'summary',
            {},
            `${String(i + 1)}. ${x.profile_id} · failed: ${x.error.name}: ${x.error.message.split('\n')[0] ?? ''} · ${formatMs(x.latency_ms)}`,
          ),
          h('h4', {}, 'Request'),
          h('pre', { class: 'payload' }, JSON.stringify(x.request, null, 2)),
          h('h4', {}, 'Error'),
          h('pre', { class: 'payload' }, JSON.stringify(x.error, null, 2)),
        )
      : h(
          'details',
          { class: 'exchange' },
          h(
            'summary',
            {},
            `${String(i + 1)}. ${x.profile_id} · ${x.model} · ${String(x.input_tokens)} → ${String(x.output_tokens)} tokens · ${formatMs(x.latency_ms)}`,
          ),
          h('h4', {}, 'Request'),
          h('pre', { class: 'payload' }, JSON.stringify(x.request, null, 2)),
          h('h4', {}, 'Answer'),
          h('pre', { class: 'payload' }, JSON.stringify(x.response, null, 2)),
        ),
  );
}

/** @param {string} taskId */
async function showTrace(taskId) {
  const back = h('a', { href: `viewer${sessionStorage.getItem(LIST_ITEM) ?? ''}`, id: 'back' }, '← Traces');
  const status = h('p', { class: 'notice', role: 'status' }, 'Loading the trace…');
  replace(main, h('p', {}, back), h('h1', {}, 'Trace ', h('span', { class: 'mono' }, taskId)), status);
  /** @type {TraceTimeline} */
  let trace;
  try {
    trace = /** @type {TraceTimeline} */ (await apiGet(`v1/traces/${encodeURIComponent(taskId)}`));
  } catch (error) {
    status.replaceWith(...failureView(error, `trace ${taskId}`));
    return;
  }
  document.title = `${taskId} · Signalbox traces`;
  status.remove();

  const panel = h('section', { class: 'details', id: 'details', 'aria-live': 'polite', hidden: true });
  /** @type {string | null} */
  let chosen = null;
  /** @param {string} eventId */
  const select = (eventId) => {
    const entry = trace.events.find((e) => e.event_id === eventId);
    if (!entry) return;
    chosen = eventId;
    picture.select(eventId);
    for (const row of table.querySelectorAll('tbody tr')) {
      row.classList.toggle('is-selected', row.getAttribute('data-event-id') === eventId);
    }
    history.replaceState(null, '', `#decision-${String(entry.stream_version)}`);
    void showDetails(panel, trace, entry, () => chosen === eventId);
  };
  const picture = renderTimeline(trace, { onSelect: select });
  const table = decisionsTable(trace, select);
  main.append(
    summary(trace),
    h(
      'div',
      { class: 'legend', 'aria-label': 'Legend' },
      h('span', { class: 'sw-normal' }, 'decision (number = order in the trace)'),
      h('span', { class: 'sw-degraded' }, 'DEGRADED: taken on a degraded model'),
      h('span', { class: 'sw-failed' }, 'FAILED: failed call, failed task or dead-lettered input'),
      h(
        'span',
        { class: 'sw-loop' },
        '↺ loop back to an earlier stage (re-plan, re-inject, next step, degrade)',
      ),
    ),
    picture.element,
    h(
      'p',
      { class: 'notice' },
      'Marks are placed by recorded time (at least a label’s width apart); arrows follow the causal chain. ',
      'Click a decision, or focus it and press Enter, for its details and payload.',
    ),
    panel,
    h('h2', {}, 'Decisions'),
    table,
  );
  const fromHash = /^#decision-(\d+)$/.exec(location.hash);
  const initial = fromHash ? trace.events.find((e) => String(e.stream_version) === fromHash[1]) : undefined;
  if (initial) select(initial.event_id);
}

// ── Routing ──────────────────────────────────────────────────────────────────────────────────────────────────────

async function route() {
  showKeyState();
  if (storedKey() === null) {
    replace(main, keyForm());
    return;
  }
  const params = new URLSearchParams(location.search);
  const trace = params.get('trace');
  if (trace !== null && trace !== '') await showTrace(trace);
  else await showList(params);
}

/** @type {HTMLButtonElement} */ (document.getElementById('forget-key')).addEventListener('click', () => {
  forgetKey();
  void route();
});
void route();
