// @ts-check
// The timeline picture of one trace (IF-3): one lane per stage, one mark per decision placed by recorded time,
// the causal chain as arrows, loops as coloured back-edges to an earlier stage, revisions and the degraded span as
// bands above the lanes. Built as inline SVG from text nodes and attributes only (see dom.js).
import { h, s } from './dom.js';
import { formatMs, loopLabel, shortVersion, stageLabel } from './format.js';

/**
 * @typedef {import('./types.js').TraceTimeline} TraceTimeline
 * @typedef {import('./types.js').TimelineEntry} TimelineEntry
 * @typedef {{ entry: TimelineEntry; x: number; y: number; lane: number }} PlacedMark
 * @typedef {{ stage: string; top: number }} PlacedLane
 * @typedef {{ lanes: PlacedLane[]; marks: PlacedMark[]; width: number; height: number }} TimelineLayout
 */

/** Lanes top to bottom: the submission, then the five stages in flow order, then operator tools. */
export const LANE_ORDER = [
  'api',
  'model_selector',
  'tool_decider',
  'parameter_injector',
  'executor',
  'result_evaluator',
  'operator',
];

/** Width of the fixed column of lane names, left of the scrolling picture. */
const LABEL_WIDTH = 176;
/** Room before the first mark. */
const LEFT = 48;
const TOP = 62;
const LANE_HEIGHT = 92;
/** Where the mark sits in its lane: room for the flag above and three text lines below. */
const MARK_OFFSET = 32;
const R = 11;
/** Marks closer in time than this are pushed apart, so every label stays readable. */
const MIN_GAP = 76;
const RIGHT = 120;
const BOTTOM = 40;

/**
 * Places every decision: its stage's lane, and x by recorded time — at least MIN_GAP after the previous one.
 * @param {TraceTimeline} trace
 * @returns {TimelineLayout}
 */
export function layoutTimeline(trace) {
  const present = new Set(trace.events.map((e) => e.stage));
  const stages = LANE_ORDER.filter((stage) => stage !== 'operator' || present.has(stage));
  // A stage this viewer does not know yet still gets a lane rather than disappearing.
  for (const stage of present) if (!stages.includes(stage)) stages.push(stage);
  const span = Math.max(0, ...trace.events.map((e) => e.since_start_ms));
  const target = Math.max(640, trace.events.length * MIN_GAP * 1.25);
  const pxPerMs = span > 0 ? target / span : 0;
  let previous = -Infinity;
  const marks = trace.events.map((entry) => {
    const offset = Math.max(entry.since_start_ms * pxPerMs, previous + MIN_GAP);
    previous = offset;
    const lane = stages.indexOf(entry.stage);
    return { entry, lane, x: LEFT + offset, y: TOP + lane * LANE_HEIGHT + MARK_OFFSET };
  });
  const lastX = marks.at(-1)?.x ?? LEFT;
  return {
    lanes: stages.map((stage, i) => ({ stage, top: TOP + i * LANE_HEIGHT })),
    marks,
    width: Math.ceil(lastX + RIGHT),
    height: TOP + stages.length * LANE_HEIGHT + BOTTOM,
  };
}

/**
 * The words a mark is announced with (screen readers) and shown with on hover.
 * @param {TimelineEntry} e
 * @returns {string}
 */
export function describeDecision(e) {
  const flags = [e.failed ? 'FAILED' : null, e.degraded_flag ? 'DEGRADED' : null].filter(Boolean);
  return [
    `#${String(e.stream_version)} ${stageLabel(e.stage)}: ${e.event_type}`,
    ...flags,
    e.loop ? `opens ${loopLabel(e.loop)}` : null,
    e.tool ? `tool ${e.tool}` : null,
    `revision ${String(e.revision_count)}`,
    `at ${formatMs(e.since_start_ms)} (+${formatMs(e.since_previous_ms)})`,
    e.versions.registry_version === null
      ? null
      : `versions: registry ${shortVersion(e.versions.registry_version)}, profiles ${shortVersion(e.versions.profiles_version)}, policy ${shortVersion(e.versions.policy_version)}`,
    e.decision_reason,
  ]
    .filter(Boolean)
    .join(' — ');
}

/**
 * Consecutive runs of marks sharing a key.
 * @template T
 * @param {readonly PlacedMark[]} marks
 * @param {(mark: PlacedMark) => T} key
 * @returns {{ key: T; first: PlacedMark; last: PlacedMark }[]}
 */
function runs(marks, key) {
  /** @type {{ key: T; first: PlacedMark; last: PlacedMark }[]} */
  const out = [];
  for (const mark of marks) {
    const k = key(mark);
    const current = out.at(-1);
    if (current && current.key === k) current.last = mark;
    else out.push({ key: k, first: mark, last: mark });
  }
  return out;
}

/**
 * A curve from one mark to the next in the causal chain.
 * @param {PlacedMark} from
 * @param {PlacedMark} to
 * @returns {string}
 */
function edgePath(from, to) {
  const dx = Math.max(24, (to.x - from.x) * 0.55);
  const x1 = from.x + R;
  const x2 = to.x - R - 3;
  return `M ${String(x1)} ${String(from.y)} C ${String(x1 + dx)} ${String(from.y)}, ${String(x2 - dx)} ${String(to.y)}, ${String(x2)} ${String(to.y)}`;
}

/**
 * @param {string} id
 * @param {string} className
 */
function arrowMarker(id, className) {
  return s(
    'marker',
    {
      id,
      viewBox: '0 0 10 10',
      refX: 9,
      refY: 5,
      markerUnits: 'userSpaceOnUse',
      markerWidth: 9,
      markerHeight: 9,
      orient: 'auto',
    },
    s('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: className }),
  );
}

/**
 * The lanes' backgrounds and separators, for the label column and the picture alike.
 * @param {TimelineLayout} layout
 * @param {number} width
 */
function laneBackgrounds(layout, width) {
  const g = s('g', { class: 'lanes' });
  layout.lanes.forEach((lane, i) => {
    g.append(
      s('rect', {
        class: `lane-bg${i % 2 === 1 ? ' odd' : ''}`,
        x: 0,
        y: lane.top,
        width,
        height: LANE_HEIGHT,
      }),
      s('line', { class: 'lane-line', x1: 0, x2: width, y1: lane.top, y2: lane.top }),
    );
  });
  const bottom = TOP + layout.lanes.length * LANE_HEIGHT;
  g.append(s('line', { class: 'lane-line', x1: 0, x2: width, y1: bottom, y2: bottom }));
  return g;
}

/**
 * The fixed column naming each lane (and the bands), so the names stay in view while the picture scrolls.
 * @param {TimelineLayout} layout
 */
function laneLabels(layout) {
  const { height } = layout;
  const bottom = TOP + layout.lanes.length * LANE_HEIGHT;
  return s(
    'svg',
    {
      class: 'timeline-lanes',
      width: LABEL_WIDTH,
      height,
      viewBox: `0 0 ${String(LABEL_WIDTH)} ${String(height)}`,
      'aria-hidden': 'true',
    },
    laneBackgrounds(layout, LABEL_WIDTH),
    s('text', { class: 'rev-label', x: 12, y: 20 }, 'revisions'),
    s('text', { class: 'rev-label', x: 12, y: 44 }, 'degraded'),
    ...layout.lanes.flatMap((lane) => [
      s(
        'text',
        { class: 'lane-label', x: 12, y: lane.top + MARK_OFFSET + 4, 'data-stage': lane.stage },
        stageLabel(lane.stage),
      ),
      s('text', { class: 'lane-sub', x: 12, y: lane.top + MARK_OFFSET + 20 }, lane.stage),
    ]),
    s('text', { class: 'axis-label', x: 12, y: bottom + 22 }, 'recorded time →'),
  );
}

/**
 * Whether a decision was taken under other registry, profile or policy versions than the decision before it
 * (the submission has none, so it is not compared).
 * @param {readonly TimelineEntry[]} events
 * @returns {Set<string>} event ids
 */
function versionChanges(events) {
  const changed = new Set();
  /** @type {string | null} */
  let previous = null;
  for (const e of events) {
    const v = e.versions;
    if (v.registry_version === null && v.profiles_version === null && v.policy_version === null) continue;
    const key = `${String(v.registry_version)} ${String(v.profiles_version)} ${String(v.policy_version)}`;
    if (previous !== null && key !== previous) changed.add(e.event_id);
    previous = key;
  }
  return changed;
}

/**
 * Draws the timeline: a fixed column of lane names beside the scrolling picture. `onSelect` is called with the
 * event id of a clicked (or Enter/Space-pressed) mark; `select(eventId)` highlights one mark.
 * @param {TraceTimeline} trace
 * @param {{ onSelect: (eventId: string) => void }} options
 * @returns {{ element: HTMLElement; svg: SVGSVGElement; select: (eventId: string | null) => void }}
 */
export function renderTimeline(trace, { onSelect }) {
  const layout = layoutTimeline(trace);
  const { width, height } = layout;
  const degradedCount = trace.events.filter((e) => e.degraded_flag).length;
  const failedCount = trace.events.filter((e) => e.failed).length;
  const svg = s('svg', {
    class: 'timeline',
    width,
    height,
    viewBox: `0 0 ${String(width)} ${String(height)}`,
    role: 'group',
    'aria-label': `Timeline of ${trace.task_id}: ${String(trace.events.length)} decisions in ${String(layout.lanes.length)} lanes (${layout.lanes.map((l) => stageLabel(l.stage)).join(', ')}), ${String(degradedCount)} degraded, ${String(failedCount)} failed`,
  });

  const loopKinds = ['replan', 'reinject', 'degrade', 'next_step', 'continuation'];
  svg.append(
    s(
      'defs',
      {},
      arrowMarker('tl-arrow', 'arrow-head'),
      ...loopKinds.map((loop) => arrowMarker(`tl-arrow-${loop}`, `arrow-head loop-${loop}`)),
    ),
    laneBackgrounds(layout, width),
  );
  const bottom = TOP + layout.lanes.length * LANE_HEIGHT;

  // Bands above the lanes: each revision, and the span in which decisions were degraded.
  const bands = s('g', { class: 'bands' });
  runs(layout.marks, (m) => m.entry.revision_count).forEach((run, i) => {
    const x = run.first.x - MIN_GAP / 2;
    const w = run.last.x - run.first.x + MIN_GAP;
    bands.append(
      s('rect', { class: `rev-band${i % 2 === 1 ? ' odd' : ''}`, x, y: 6, width: w, height: 20 }),
      s('text', { class: 'rev-label', x: x + 6, y: 20 }, `revision ${String(run.key)}`),
      s('line', { class: 'lane-line', x1: x, x2: x, y1: 6, y2: bottom, 'stroke-dasharray': '2 4' }),
    );
  });
  for (const run of runs(layout.marks, (m) => m.entry.degraded_flag)) {
    if (!run.key) continue;
    const x = run.first.x - R - 6;
    bands.append(
      s('rect', {
        class: 'degraded-band',
        x,
        y: 31,
        width: run.last.x - run.first.x + 2 * (R + 6),
        height: 18,
      }),
      s('text', { class: 'degraded-band-label', x: x + 6, y: 44 }, 'DEGRADED from here (model degraded)'),
    );
  }
  svg.append(bands);

  // The causal chain: each decision points at the one it reacted to; loops are the back-edges.
  const byId = new Map(layout.marks.map((m) => [m.entry.event_id, m]));
  const edges = s('g', { class: 'edges' });
  const edgeLabels = s('g', { class: 'edge-labels' });
  /** @type {Record<string, number>} */
  const loopCount = {};
  for (const mark of layout.marks) {
    const cause = mark.entry.causation_id === null ? undefined : byId.get(mark.entry.causation_id);
    if (!cause) continue;
    const loop = cause.entry.loop ?? (mark.entry.loop === 'continuation' ? 'continuation' : null);
    const back = mark.lane < cause.lane;
    if (loop) {
      loopCount[loop] = (loopCount[loop] ?? 0) + 1;
      edges.append(
        s('path', {
          class: `edge loop loop-${loop}${back ? ' back-edge' : ''}`,
          d: edgePath(cause, mark),
          'marker-end': `url(#tl-arrow-${loop})`,
          'data-loop': loop,
          'data-from': cause.entry.stream_version,
          'data-to': mark.entry.stream_version,
        }),
      );
      edgeLabels.append(
        s(
          'text',
          {
            class: `edge-label loop-${loop}`,
            x: (cause.x + mark.x) / 2 + 4,
            y: (cause.y + mark.y) / 2,
          },
          `↺ ${loopLabel(loop)} ${String(loopCount[loop])}`,
        ),
      );
    } else {
      edges.append(
        s('path', {
          class: 'edge',
          d: edgePath(cause, mark),
          'marker-end': 'url(#tl-arrow)',
          'data-from': cause.entry.stream_version,
          'data-to': mark.entry.stream_version,
        }),
      );
    }
  }
  svg.append(edges);

  // The time axis: a tick at every decision, a label wherever there is room.
  const axis = s('g', { class: 'axis' });
  const axisY = bottom + 4;
  let lastLabel = -Infinity;
  for (const mark of layout.marks) {
    axis.append(s('line', { class: 'lane-line', x1: mark.x, x2: mark.x, y1: bottom, y2: axisY + 4 }));
    if (mark.x - lastLabel >= 90) {
      axis.append(
        s(
          'text',
          { class: 'axis-label', x: mark.x, y: axisY + 18, 'text-anchor': 'middle' },
          formatMs(mark.entry.since_start_ms),
        ),
      );
      lastLabel = mark.x;
    }
  }
  svg.append(axis);

  // The decisions.
  const marksLayer = s('g', { class: 'marks' });
  const changedVersions = versionChanges(trace.events);
  /** @type {Map<string, SVGGElement>} */
  const markElements = new Map();
  for (const { entry: e, x, y } of layout.marks) {
    const classes = [
      'mark',
      e.degraded_flag ? 'degraded' : '',
      e.failed ? 'failed' : '',
      e.loop ? 'loop' : '',
    ]
      .filter(Boolean)
      .join(' ');
    const flag = [e.failed ? 'FAILED' : null, e.degraded_flag ? 'DEGRADED' : null]
      .filter(Boolean)
      .join(' · ');
    const sub = [e.tool, e.revision_count > 0 ? `rev ${String(e.revision_count)}` : null]
      .filter(Boolean)
      .join(' · ');
    const g = s(
      'g',
      {
        class: classes,
        transform: `translate(${String(x)} ${String(y)})`,
        tabindex: 0,
        role: 'button',
        'aria-label': describeDecision(e),
        'data-event-id': e.event_id,
        'data-stream-version': e.stream_version,
        'data-stage': e.stage,
        'data-event-type': e.event_type,
      },
      s('title', {}, describeDecision(e)),
      s('circle', { r: R, cx: 0, cy: 0 }),
      s('text', { class: 'mark-num', x: 0, y: 0 }, String(e.stream_version)),
      flag && s('text', { class: `mark-flag ${e.failed ? 'failed' : 'degraded'}`, x: 0, y: -R - 6 }, flag),
      s('text', { class: 'mark-type', x: 0, y: R + 14 }, e.event_type),
      sub && s('text', { class: 'mark-sub', x: 0, y: R + 27 }, sub),
      s(
        'text',
        { class: `mark-sub${changedVersions.has(e.event_id) ? ' version-change' : ''}`, x: 0, y: R + 39 },
        changedVersions.has(e.event_id)
          ? `+${formatMs(e.since_previous_ms)} · versions changed`
          : `+${formatMs(e.since_previous_ms)}`,
      ),
    );
    g.addEventListener('click', () => {
      onSelect(e.event_id);
    });
    g.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        onSelect(e.event_id);
      }
    });
    markElements.set(e.event_id, g);
    marksLayer.append(g);
  }
  svg.append(edgeLabels, marksLayer);

  const element = h(
    'div',
    { class: 'timeline-frame' },
    laneLabels(layout),
    h('div', { class: 'timeline-scroll' }, svg),
  );
  return {
    element,
    svg,
    select(eventId) {
      for (const [id, element] of markElements) element.classList.toggle('selected', id === eventId);
    },
  };
}
