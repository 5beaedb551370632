// @ts-check
// The trace viewer's pages (IF-3): the API key form, the trace list with a form to submit a request
// (`viewer?status=…&cursor=…`) and one trace (`viewer?trace=<task id>`), which follows a running task live and takes
// the answer to a question or a confirmation. Page changes are plain navigations, so the address can be shared and
// Back works; `#decision-N` opens one decision's details, on load, on a hash change and with Back.
import { ApiFailure, apiGet, apiPost, forgetKey, storeKey, storedKey } from './api.js';
import { h, replace } from './dom.js';
import { formatInstant, formatMs, loopLabel, shortVersion, stageLabel } from './format.js';
import { createTimeline } from './timeline.js';

/**
 * @typedef {import('./types.js').TraceListPage} TraceListPage
 * @typedef {import('./types.js').TraceTimeline} TraceTimeline
 * @typedef {import('./types.js').TimelineEntry} TimelineEntry
 * @typedef {import('./types.js').TimelineEventDetail} TimelineEventDetail
 * @typedef {import('./types.js').ModelExchange} ModelExchange
 * @typedef {import('./types.js').TraceView} TraceView
 * @typedef {import('./types.js').TraceEntry} TraceEntry
 * @typedef {import('./types.js').TaskView} TaskView
 * @typedef {import('./types.js').SubmitAccepted} SubmitAccepted
 * @typedef {import('./types.js').DevRegistryStatus} DevRegistryStatus
 */

/** How often a running task is asked for news: often enough to watch it, seldom enough for a shared API. */
const POLL_MS = 1000;
/** How often a task that waits on an answer is asked whether someone answered it. */
const AWAIT_POLL_MS = 3000;

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

/**
 * A task's outcome in one line: its answer, its question or what went wrong; while it runs, where it is.
 * @param {TaskView} view
 * @returns {string}
 */
function outcomeLine(view) {
  if (view.state === 'running')
    return `running · ${stageLabel(view.last_event.stage)} · ${view.last_event.event_type}`;
  if (view.state === 'failed') return `stopped: ${view.last_event.decision_reason}`;
  const result = view.result;
  if (result === null) return view.last_event.decision_reason;
  if (view.pending_confirmation) return `asks to confirm ${view.pending_confirmation.tool}`;
  if (result.status === 'need_clarification') return `asks: ${result.questions.join(' ')}`;
  if (view.answer)
    return `${view.answer.tool}: ${excerpt(JSON.stringify(view.answer.output) ?? 'null', 160)}`;
  return result.issues[0] ?? result.status;
}

/**
 * @param {string} text
 * @param {number} length
 */
const excerpt = (text, length) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

/**
 * Runs `work` over `items`, at most `limit` at a time.
 * @template T
 * @param {readonly T[]} items
 * @param {number} limit
 * @param {(item: T) => Promise<void>} work
 */
async function eachLimited(items, limit, work) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = /** @type {T} */ (items[next++]);
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * The form that submits a request (`POST /v1/tasks`); the new task's trace opens and follows it live.
 * @param {readonly string[]} agents agents seen in the list, offered as suggestions
 */
function submitForm(agents) {
  const request = h('textarea', { id: 'submit-request', name: 'request', rows: 2, required: true });
  const agent = h('input', {
    id: 'submit-agent',
    name: 'agent_id',
    type: 'text',
    required: true,
    list: 'known-agents',
    placeholder: agents[0] ?? 'office_agent',
    autocomplete: 'off',
  });
  const scenario = h('input', {
    id: 'submit-scenario',
    name: 'scenario',
    type: 'text',
    placeholder: 'chosen by the decider',
    autocomplete: 'off',
  });
  const send = h('button', { type: 'submit', id: 'submit-send' }, 'Submit request');
  const problem = h('div', { id: 'submit-problem' });
  const form = h(
    'form',
    { class: 'submit-form', id: 'submit-form', 'aria-labelledby': 'submit-title' },
    h('h2', { id: 'submit-title' }, 'New request'),
    h(
      'div',
      { class: 'submit-fields' },
      h('label', { for: 'submit-request', class: 'wide' }, 'Request', request),
      // "Runs as": the agent the task runs as (RG-4 visibility) — not "Agent", the list's filter.
      h('label', { for: 'submit-agent' }, 'Runs as', agent),
      h('label', { for: 'submit-scenario' }, 'Scenario (optional)', scenario),
      send,
    ),
    h('datalist', { id: 'known-agents' }, ...agents.map((a) => h('option', { value: a }))),
    problem,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    send.disabled = true;
    problem.replaceChildren();
    const body = {
      request: request.value,
      agent_id: agent.value.trim(),
      ...(scenario.value.trim() === '' ? {} : { scenario: scenario.value.trim() }),
    };
    apiPost('v1/tasks', body).then(
      (accepted) => {
        location.assign(`?trace=${encodeURIComponent(/** @type {SubmitAccepted} */ (accepted).task_id)}`);
      },
      (/** @type {unknown} */ error) => {
        send.disabled = false;
        problem.replaceChildren(...failureView(error, 'the request'));
      },
    );
  });
  return form;
}

/** How often the list page asks the dev server about its registry folders. */
const REGISTRY_POLL_MS = 2000;

/**
 * The problems of the `signalbox dev --registry` folders, as a banner on the list page: a folder that did not load
 * (file:line:col and message; whether the last good registry keeps serving) and its RG-2 lint findings. Read from
 * the path the page names (`data-registry-status` on `#main`: the dev server's `dev/status`) and read again every
 * {@link REGISTRY_POLL_MS} while the page shows it, so an edit that fixes or breaks a folder shows up without a
 * reload. A page that names none (the API of `signalbox up`, production) asks nothing and shows no banner.
 * @returns {HTMLElement}
 */
function registryBanner() {
  const path = main.dataset.registryStatus;
  const banner = h('section', {
    id: 'registry-problems',
    class: 'registry-problems',
    role: 'alert',
    'aria-label': 'Registry problems',
    hidden: true,
  });
  /** @param {DevRegistryStatus[]} registries */
  const render = (registries) => {
    const parts = registries.flatMap((r) => {
      const out = [];
      if (r.problems.length > 0)
        out.push(
          h(
            'h2',
            {},
            `${r.dir} did not load — ${
              r.state === 'stale' ? 'the last good registry keeps serving' : 'nothing of it is served'
            }`,
          ),
          h(
            'ul',
            { class: 'mono' },
            ...r.problems.map((line) => h('li', { class: 'registry-problem' }, line)),
          ),
        );
      if (r.lint.length > 0)
        out.push(
          h('h2', {}, `${r.dir}: lint (RG-2)`),
          h('ul', { class: 'mono' }, ...r.lint.map((line) => h('li', { class: 'registry-lint' }, line))),
        );
      return out;
    });
    banner.replaceChildren(...parts);
    banner.hidden = parts.length === 0;
  };
  let first = true;
  const poll = async () => {
    // The page moved on (another list page, a trace): this banner is no longer shown.
    if (!first && !banner.isConnected) return;
    first = false;
    try {
      const status = /** @type {{ registries?: DevRegistryStatus[] }} */ (await apiGet(path ?? ''));
      render(status.registries ?? []);
    } catch (error) {
      // Not a dev server (404), or a key it refuses: nothing to show, nothing to ask again.
      if (error instanceof ApiFailure && error.status !== 0) return;
    }
    setTimeout(() => void poll(), REGISTRY_POLL_MS);
  };
  if (path !== undefined) void poll();
  return banner;
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
  replace(main, h('h1', {}, 'Traces'), registryBanner(), filterForm(params), status);
  /** @type {TraceListPage} */
  let page;
  try {
    page = /** @type {TraceListPage} */ (await apiGet('v1/traces', query));
  } catch (error) {
    status.replaceWith(...failureView(error, 'the traces'));
    return;
  }
  const agents = [...new Set(page.traces.map((t) => t.agent_id))].sort();
  main.insertBefore(submitForm(agents), main.querySelector('#filters'));
  status.textContent = page.traces.length === 0 ? 'No trace matches these filters.' : '';
  if (page.traces.length === 0) return;

  /** @type {Map<string, { request: HTMLElement; outcome: HTMLElement; status: HTMLElement }>} */
  const cells = new Map();
  const rows = page.traces.map((t) => {
    const request = h('div', { class: 'row-request' });
    const outcome = h('div', { class: 'row-outcome' });
    const statusText = h('span', { class: 'row-status' }, t.status ?? 'running');
    cells.set(t.task_id, { request, outcome, status: statusText });
    return h(
      'tr',
      { 'data-task-id': t.task_id },
      h(
        'td',
        { class: 'task-cell' },
        h('a', { class: 'mono', href: `?trace=${encodeURIComponent(t.task_id)}` }, t.task_id),
        request,
      ),
      h('td', {}, t.agent_id),
      h('td', { class: 'status-cell' }, statusText, outcome),
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
    );
  });
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
  // The request and the outcome are the task's (`GET /v1/tasks/:id`), filled in as they come; a row the API does
  // not answer for keeps its other cells.
  await eachLimited(page.traces, 4, async (t) => {
    const cell = cells.get(t.task_id);
    if (!cell) return;
    try {
      const view = /** @type {TaskView} */ (await apiGet(`v1/tasks/${encodeURIComponent(t.task_id)}`));
      cell.request.textContent = excerpt(view.request ?? '', 200);
      cell.request.title = view.request ?? '';
      cell.outcome.textContent = excerpt(outcomeLine(view), 220);
      if (view.state === 'failed') cell.status.textContent = 'failed (dead-lettered)';
    } catch (error) {
      cell.outcome.textContent = `(${error instanceof Error ? error.message : String(error)})`;
    }
  });
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
    h('div', { title: 'registry version' }, shortVersion(v.registry_version)),
    h('div', { title: 'profiles version' }, shortVersion(v.profiles_version)),
    h('div', { title: 'policy version' }, shortVersion(v.policy_version)),
  );
}

/**
 * The stage's own work on a decision, when the runtime recorded it.
 * @param {TraceEntry} e
 */
const workOf = (e) => (typeof e.work_ms === 'number' ? formatMs(e.work_ms) : '—');

/**
 * Dollars, to the precision small model calls need.
 * @param {number | null} usd
 */
function formatUsd(usd) {
  if (usd === null) return '?';
  if (usd === 0) return '$0';
  return usd < 0.01 ? `$${usd.toFixed(5)}` : `$${usd.toFixed(2)}`;
}

/** An API that does not sum model calls yet (`model_calls` is optional in its document) is read as "none". */
const NO_CALLS = { count: 0, failed: 0, input_tokens: 0, output_tokens: 0, latency_ms: 0, cost_usd: 0 };

/**
 * A decision's model calls as table cells: calls, tokens in → out, cost, latency (blank when it asked no model).
 * @param {TraceEntry} e
 */
function modelCells(e) {
  const m = e.model_calls ?? NO_CALLS;
  if (m.count === 0) return ['', '', '', ''].map(() => h('td', { class: 'num muted' }, '—'));
  return [
    h(
      'td',
      { class: 'num' },
      m.failed > 0 ? `${String(m.count)} (${String(m.failed)} failed)` : String(m.count),
    ),
    h('td', { class: 'num' }, `${String(m.input_tokens)} → ${String(m.output_tokens)}`),
    h(
      'td',
      {
        class: 'num',
        title:
          m.cost_usd === null
            ? 'the price of a profile it used is not known to the API (no registry, or other profiles than the loaded ones)'
            : undefined,
      },
      formatUsd(m.cost_usd),
    ),
    h('td', { class: 'num' }, formatMs(m.latency_ms)),
  ];
}

/**
 * @param {TraceView} trace
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
      { 'data-event-id': e.event_id, id: `row-${String(e.stream_version)}` },
      h('td', {}, open),
      h('td', { class: 'num' }, formatMs(e.since_start_ms)),
      h('td', { class: 'num' }, `+${formatMs(e.since_previous_ms)}`),
      h(
        'td',
        { class: 'num', title: typeof e.work_ms === 'number' ? undefined : 'not recorded for this decision' },
        workOf(e),
      ),
      ...modelCells(e),
      h('td', {}, h('div', {}, stageLabel(e.stage)), h('div', { class: 'mono' }, e.event_type)),
      h('td', {}, e.tool ?? ''),
      h('td', { class: 'num' }, String(e.revision_count)),
      h('td', {}, ...flagsOf(e)),
      versionsCell(e.versions),
      h('td', { class: 'reason' }, e.decision_reason),
    );
  });
  /** @type {[string, string, string?][]} heading, class, title */
  const headings = [
    ['Decision', ''],
    ['At', 'num', 'recorded, since the task began'],
    [
      'Since previous',
      'num',
      'from the previous decision’s recording to this one’s: transit, queueing and work',
    ],
    ['Work', 'num', 'the stage’s own time on this decision'],
    ['Model calls', 'num'],
    ['Tokens in → out', 'num'],
    ['Cost', 'num', 'of the model calls, at their profiles’ price'],
    ['Model latency', 'num', 'wall time of the model calls'],
    ['Stage · event', ''],
    ['Tool', ''],
    ['Rev.', 'num', 'revision count'],
    ['Flags', ''],
    ['Versions', '', 'registry, profiles and policy versions, one a line'],
    ['Reason', ''],
  ];
  return h(
    'table',
    { id: 'decisions' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...headings.map(([c, cls, title]) => h('th', { scope: 'col', class: cls || undefined, title }, c)),
      ),
    ),
    h('tbody', {}, ...rows),
  );
}

/**
 * The chosen decision: every field of its timeline entry at once, then its payload as formatted JSON.
 * @param {HTMLElement} panel
 * @param {TraceView} trace
 * @param {TraceEntry} e
 * @param {() => boolean} stillChosen false once another decision was chosen meanwhile
 */
async function showDetails(panel, trace, e, stillChosen) {
  const m = e.model_calls ?? NO_CALLS;
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
      'Timing',
      `at ${formatMs(e.since_start_ms)}; ${formatMs(e.since_previous_ms)} after the previous decision was recorded`,
    ],
    ['Work time', typeof e.work_ms === 'number' ? formatMs(e.work_ms) : 'not recorded'],
    [
      'Model calls',
      m.count === 0
        ? 'none'
        : `${String(m.count)}${m.failed ? ` (${String(m.failed)} failed)` : ''} · ${String(m.input_tokens)} → ${String(m.output_tokens)} tokens · ${formatUsd(m.cost_usd)} · ${formatMs(m.latency_ms)}`,
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

/**
 * What the task asked and what it came to: the request, the status, the answer or the question — and, when the task
 * waits for one, the form that answers the question or confirms the call.
 * @param {TaskView} view
 * @param {(body: { answer?: string; confirmation?: { tool: string; arguments_hash: string } }) => Promise<void>} onAnswer
 */
function outcomeView(view, onAnswer) {
  const result = view.result;
  const status =
    view.state === 'running'
      ? 'running'
      : view.state === 'failed'
        ? 'failed (a stage dead-lettered its input)'
        : (result?.status ?? 'finished');
  /** @type {Node[]} */
  const parts = [
    h('h2', {}, 'Request'),
    h('p', { id: 'request', class: 'request' }, view.request ?? '(not recorded)'),
    h(
      'p',
      { class: 'status-line' },
      'Status: ',
      h('strong', { id: 'task-status', 'data-state': view.state }, status),
      view.state === 'running'
        ? ` — now at ${stageLabel(view.last_event.stage)} · ${view.last_event.event_type}`
        : null,
    ),
  ];
  if (view.state === 'failed') {
    parts.push(h('p', { id: 'outcome', class: 'outcome failed' }, view.last_event.decision_reason));
  } else if (result && view.pending_confirmation) {
    const c = view.pending_confirmation;
    parts.push(
      h(
        'div',
        { id: 'outcome', class: 'outcome question' },
        h(
          'p',
          {},
          h('strong', {}, `Confirm ${c.tool}?`),
          ' The call waits for your confirmation, bound to exactly these arguments:',
        ),
        h('pre', { class: 'payload', id: 'confirm-arguments' }, JSON.stringify(c.arguments, null, 2)),
        h('p', { class: 'notice mono' }, `argument hash sha256:${c.arguments_hash}`),
        ...result.questions.map((q) => h('p', { class: 'question-text' }, q)),
      ),
    );
    const send = h('button', { type: 'submit', id: 'confirm-send' }, `Confirm ${c.tool}`);
    const form = h('form', { id: 'confirm-form', class: 'answer-form' }, send);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      send.disabled = true;
      void onAnswer({ confirmation: { tool: c.tool, arguments_hash: c.arguments_hash } }).finally(() => {
        send.disabled = false;
      });
    });
    parts.push(form);
  } else if (result?.status === 'need_clarification') {
    parts.push(
      h(
        'div',
        { id: 'outcome', class: 'outcome question' },
        h('p', {}, h('strong', {}, 'The task asks:')),
        ...result.questions.map((q) => h('p', { class: 'question-text' }, q)),
      ),
    );
    const text = h('textarea', { id: 'answer-text', name: 'answer', rows: 2, required: true });
    const send = h('button', { type: 'submit', id: 'answer-send' }, 'Send answer');
    const form = h(
      'form',
      { id: 'answer-form', class: 'answer-form' },
      h('label', { for: 'answer-text' }, 'Your answer', text),
      send,
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      send.disabled = true;
      void onAnswer({ answer: text.value }).finally(() => {
        send.disabled = false;
      });
    });
    parts.push(form);
  } else if (result) {
    parts.push(
      h(
        'div',
        { id: 'outcome', class: `outcome${result.status === 'failed' ? ' failed' : ''}` },
        ...(view.answer
          ? [
              h('p', {}, h('strong', {}, `Answer (from ${view.answer.tool}):`)),
              h(
                'pre',
                { class: 'payload answer-output', id: 'answer-output' },
                JSON.stringify(view.answer.output),
              ),
            ]
          : [h('p', {}, 'No step succeeded, so there is no answer.')]),
        // Folded: a long list would push the timeline out of view; the answer is what is read first.
        result.issues.length > 0
          ? h(
              'details',
              { class: 'issues', id: 'issues' },
              h('summary', {}, `Issues (${String(result.issues.length)})`),
              h('ul', {}, ...result.issues.map((issue) => h('li', {}, issue))),
            )
          : null,
      ),
    );
  } else {
    parts.push(h('p', { id: 'outcome', class: 'outcome notice' }, 'No answer yet.'));
  }
  return parts;
}

/** The decision `#decision-N` names, if any. */
function hashDecision() {
  const match = /^#decision-(\d+)$/.exec(location.hash);
  return match ? Number(match[1]) : null;
}

/** The trace page's reaction to Back / Forward and to an edited `#decision-N`; set while a trace is shown. */
/** @type {(() => void) | null} */
let onHashChange = null;
window.addEventListener('hashchange', () => onHashChange?.());
window.addEventListener('popstate', () => onHashChange?.());

/** @param {string} taskId */
async function showTrace(taskId) {
  const back = h('a', { href: `viewer${sessionStorage.getItem(LIST_ITEM) ?? ''}`, id: 'back' }, '← Traces');
  const status = h('p', { class: 'notice', role: 'status' }, 'Loading the trace…');
  replace(main, h('p', {}, back), h('h1', {}, 'Trace ', h('span', { class: 'mono' }, taskId)), status);
  const path = encodeURIComponent(taskId);
  /** @type {TraceView} */
  let trace;
  /** @type {TaskView} */
  let view;
  try {
    [view, trace] = /** @type {[TaskView, TraceView]} */ (
      await Promise.all([apiGet(`v1/tasks/${path}`), apiGet(`v1/traces/${path}`)])
    );
  } catch (error) {
    status.replaceWith(...failureView(error, `trace ${taskId}`));
    return;
  }
  document.title = `${taskId} · Signalbox traces`;
  status.remove();

  const outcome = h('section', { class: 'task-outcome', id: 'task-outcome', 'aria-live': 'polite' });
  const live = h('p', { class: 'live', id: 'live-status', role: 'status' });
  const summaryBox = h('div', {});
  const tableBox = h('div', {});
  const panel = h('section', { class: 'details', id: 'details', 'aria-live': 'polite', hidden: true });
  /** @type {string | null} */
  let chosen = null;

  /**
   * Shows a decision's details. `how`: `push` records it in the history (Back returns to the decision before),
   * `hash` follows the address (a deep link, Back, an edited hash), `keep` redraws the chosen one.
   * @param {string | null} eventId
   * @param {'push' | 'hash' | 'keep'} how
   */
  const show = (eventId, how) => {
    const entry = eventId === null ? undefined : trace.events.find((e) => e.event_id === eventId);
    chosen = entry?.event_id ?? null;
    picture.select(chosen);
    for (const row of tableBox.querySelectorAll('tbody tr')) {
      row.classList.toggle('is-selected', row.getAttribute('data-event-id') === chosen);
    }
    if (!entry) {
      panel.hidden = true;
      return;
    }
    const hash = `#decision-${String(entry.stream_version)}`;
    if (how === 'push' && location.hash !== hash) history.pushState(null, '', hash);
    if (how !== 'keep') {
      const id = entry.event_id;
      void showDetails(panel, trace, entry, () => chosen === id);
    }
    if (how === 'hash') panel.scrollIntoView({ block: 'start' });
  };
  const fromHash = () => {
    const n = hashDecision();
    const entry = n === null ? undefined : trace.events.find((e) => e.stream_version === n);
    show(entry?.event_id ?? null, 'hash');
  };
  const picture = createTimeline(trace, { onSelect: (id) => show(id, 'push') });

  /** @param {TaskView} next */
  const drawOutcome = (next) => {
    replace(outcome, ...outcomeView(next, answer));
  };
  const drawTrace = () => {
    replace(summaryBox, summary(trace));
    replace(
      tableBox,
      decisionsTable(trace, (id) => show(id, 'push')),
    );
  };

  // ── Live: while the task runs, ask for news every POLL_MS and redraw what changed. ──
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let failures = 0;
  const follow = () => {
    clearTimeout(timer);
    live.textContent = 'Live: following the task…';
    live.hidden = false;
    timer = setTimeout(() => void poll(), POLL_MS);
  };
  // A task that waits on an answer goes on when anyone answers — this page, the agent through the API or MCP — so the
  // page keeps asking, less often, until it runs again.
  const awaitAnswer = () => {
    clearTimeout(timer);
    live.textContent =
      'Waiting for an answer (from this page, the API or the agent); the page follows the task when it goes on.';
    live.hidden = false;
    timer = setTimeout(() => void poll(), AWAIT_POLL_MS);
  };
  const poll = async () => {
    // The page moved on to another view: this one's watch ends.
    if (!live.isConnected) return;
    try {
      const next = /** @type {TaskView} */ (await apiGet(`v1/tasks/${path}`));
      if (next.last_event.event_id !== view.last_event.event_id || next.state !== view.state) {
        trace = /** @type {TraceView} */ (await apiGet(`v1/traces/${path}`));
        picture.update(trace);
        drawTrace();
        if (chosen !== null) show(chosen, 'keep');
        else if (hashDecision() !== null) fromHash();
      }
      view = next;
      drawOutcome(view);
      failures = 0;
    } catch (error) {
      // A passing outage should not end the watch; a refused key or a vanished task does.
      failures++;
      if (error instanceof ApiFailure && (error.isAuth || error.status === 404 || failures > 10)) {
        live.replaceChildren(...failureView(error, `trace ${taskId}`));
        return;
      }
    }
    if (view.state === 'running') follow();
    else if (view.awaiting_answer) awaitAnswer();
    else {
      live.textContent = `Finished: ${view.result?.status ?? view.state}.`;
    }
  };

  /** @param {{ answer?: string; confirmation?: { tool: string; arguments_hash: string } }} body */
  async function answer(body) {
    try {
      await apiPost(`v1/tasks/${path}/answers`, body);
    } catch (error) {
      outcome.append(...failureView(error, 'the answer'));
      return;
    }
    // The continuation is recorded: the task runs again from its submission, and the page follows it.
    view = { ...view, state: 'running', awaiting_answer: false, pending_confirmation: null };
    drawOutcome(view);
    follow();
  }

  drawOutcome(view);
  drawTrace();
  main.append(
    outcome,
    live,
    summaryBox,
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
      'Marks are placed by recorded time; arrows follow the causal chain. The picture fits the window; zoom in for ',
      'the words a crowded mark hides (they are in its tooltip too). Click a decision, or focus it and press Enter, ',
      'for its details and payload.',
    ),
    panel,
    h('h2', {}, 'Decisions'),
    h('div', { class: 'table-scroll' }, tableBox),
  );
  live.hidden = true;
  onHashChange = fromHash;
  if (hashDecision() !== null) fromHash();
  if (view.state === 'running') follow();
  else if (view.awaiting_answer) awaitAnswer();
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
