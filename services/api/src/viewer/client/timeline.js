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
 * @typedef {{ lanes: PlacedLane[]; marks: PlacedMark[]; gap: number; width: number; height: number }} TimelineLayout
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
/** Room before the first mark (the first revision band's label). */
const LEFT = 60;
const TOP = 62;
const LANE_HEIGHT = 92;
/** Where the mark sits in its lane: room for the flag above and three text lines below. */
const MARK_OFFSET = 32;
const R = 11;
/** At natural size (zoom 100 %), marks closer in time than this are pushed apart, so every label stays readable. */
const MIN_GAP = 76;
/** Fitted to a width, marks are at least this far apart (two marks' width); the labels that do not fit are hidden. */
const FIT_MIN_GAP = 2 * R + 4;
/** Room after the last mark for its labels. */
const RIGHT = 72;
const BOTTOM = 40;
/** Approximate advance of one character of the 11 px (10 px) labels, to tell whether a label has room. */
const CHAR_11 = 6.4;
const CHAR_10 = 6;

/**
 * Lays the marks out along `width` pixels: x by recorded time, scaled as much as the width allows, with marks at
 * least `gap` apart; the largest time scale whose last mark still fits is found by bisection.
 * @param {readonly number[]} times since_start_ms of each decision, in order
 * @param {number} width the room for the marks, first to last
 * @param {number} gap
 * @returns {number[]} offsets from the first mark
 */
function place(times, width, gap) {
  const span = Math.max(0, ...times);
  if (span === 0) return offsetsAt(times, 0, gap);
  let low = 0;
  let high = width / span;
  for (let i = 0; i < 40; i++) {
    const mid = (low + high) / 2;
    if ((offsetsAt(times, mid, gap).at(-1) ?? 0) <= width) low = mid;
    else high = mid;
  }
  return offsetsAt(times, low, gap);
}

/**
 * @param {readonly number[]} times
 * @param {number} pxPerMs
 * @param {number} gap
 */
function offsetsAt(times, pxPerMs, gap) {
  let previous = -Infinity;
  return times.map((t) => {
    const x = Math.max(t * pxPerMs, previous + gap);
    previous = x;
    return x;
  });
}

/**
 * Places every decision: its stage's lane, and x by recorded time. `fitWidth` is the width of the picture to fill
 * (the window's room for it times the zoom); without it the picture has its natural size (every label readable).
 * @param {TraceTimeline} trace
 * @param {{ fitWidth?: number }} [options]
 * @returns {TimelineLayout}
 */
export function layoutTimeline(trace, options = {}) {
  const present = new Set(trace.events.map((e) => e.stage));
  const stages = LANE_ORDER.filter((stage) => stage !== 'operator' || present.has(stage));
  // A stage this viewer does not know yet still gets a lane rather than disappearing.
  for (const stage of present) if (!stages.includes(stage)) stages.push(stage);
  const times = trace.events.map((e) => e.since_start_ms);
  const hops = Math.max(1, times.length - 1);
  let offsets;
  let gap = MIN_GAP;
  if (options.fitWidth === undefined) {
    const span = Math.max(0, ...times);
    const target = Math.max(640, times.length * MIN_GAP * 1.25);
    offsets = offsetsAt(times, span > 0 ? target / span : 0, MIN_GAP);
  } else {
    const room = Math.max(hops * 4, options.fitWidth - LEFT - RIGHT);
    // Some of the room for the order of decisions, the rest for their timing: long waits should look long.
    gap = Math.min(room / hops, MIN_GAP, Math.max(FIT_MIN_GAP, (0.6 * room) / hops));
    offsets = place(times, room, gap);
  }
  const marks = trace.events.map((entry, i) => {
    const lane = stages.indexOf(entry.stage);
    return { entry, lane, x: LEFT + (offsets[i] ?? 0), y: TOP + lane * LANE_HEIGHT + MARK_OFFSET };
  });
  const lastX = marks.at(-1)?.x ?? LEFT;
  return {
    lanes: stages.map((stage, i) => ({ stage, top: TOP + i * LANE_HEIGHT })),
    marks,
    gap,
    width: Math.ceil(lastX + RIGHT),
    height: TOP + stages.length * LANE_HEIGHT + BOTTOM,
  };
}

/**
 * Which marks' labels have room: a label is drawn unless it would overlap the label of the neighbouring mark in the
 * same lane (marks of other lanes sit a lane apart). Hidden labels stay in the mark's title and accessible name.
 * @param {readonly PlacedMark[]} marks
 * @param {(mark: PlacedMark) => number} width the label's width in pixels
 * @returns {Set<PlacedMark>} the marks whose label fits
 */
function labelsWithRoom(marks, width) {
  /** @type {Map<number, PlacedMark[]>} */
  const byLane = new Map();
  for (const mark of marks) byLane.set(mark.lane, [...(byLane.get(mark.lane) ?? []), mark]);
  const fits = new Set(marks);
  for (const lane of byLane.values()) {
    for (let i = 1; i < lane.length; i++) {
      const a = /** @type {PlacedMark} */ (lane[i - 1]);
      const b = /** @type {PlacedMark} */ (lane[i]);
      if (b.x - a.x < (width(a) + width(b)) / 2 + 6) {
        fits.delete(a);
        fits.delete(b);
      }
    }
  }
  return fits;
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
 * Draws the picture of a laid-out trace. `onSelect` is called with the event id of a clicked (or Enter/Space-pressed)
 * mark.
 * @param {TraceTimeline} trace
 * @param {TimelineLayout} layout
 * @param {(eventId: string) => void} onSelect
 * @returns {{ svg: SVGSVGElement; marks: Map<string, SVGGElement> }}
 */
function drawPicture(trace, layout, onSelect) {
  const { width, height, gap } = layout;
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
    const x = run.first.x - gap / 2;
    const w = run.last.x - run.first.x + gap;
    const label = `revision ${String(run.key)}`;
    // A band too narrow for its words keeps them for hovering only.
    const fits = w >= label.length * CHAR_11 + 8;
    bands.append(
      s(
        'rect',
        { class: `rev-band${i % 2 === 1 ? ' odd' : ''}`, x, y: 6, width: w, height: 20 },
        s('title', {}, label),
      ),
      s('text', { class: `rev-label${fits ? '' : ' no-room'}`, x: x + 6, y: 20 }, label),
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
      s(
        'text',
        { class: 'degraded-band-label', x: x + 6, y: 44 },
        // The long form where the band leaves room for it.
        x + 270 < width ? 'DEGRADED from here (model degraded)' : 'DEGRADED',
      ),
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
      const x = (cause.x + mark.x) / 2;
      const y = (cause.y + mark.y) / 2;
      // Marks close together leave no room across: the label then runs up along the edge.
      const along = back && mark.x - cause.x < 110;
      edgeLabels.append(
        s(
          'text',
          along
            ? {
                class: `edge-label loop-${loop}`,
                x: 0,
                y: 0,
                'text-anchor': 'middle',
                transform: `translate(${String(x - 6)} ${String(y)}) rotate(-90)`,
              }
            : { class: `edge-label loop-${loop}`, x: x + 4, y },
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
  const subOf = (/** @type {TimelineEntry} */ e) =>
    [e.tool, e.revision_count > 0 ? `rev ${String(e.revision_count)}` : null].filter(Boolean).join(' · ');
  const timeOf = (/** @type {TimelineEntry} */ e) =>
    changedVersions.has(e.event_id)
      ? `+${formatMs(e.since_previous_ms)} · versions changed`
      : `+${formatMs(e.since_previous_ms)}`;
  const flagOf = (/** @type {TimelineEntry} */ e) =>
    [e.failed ? 'FAILED' : null, e.degraded_flag ? 'DEGRADED' : null].filter(Boolean).join(' · ');
  const labelled = labelsWithRoom(layout.marks, ({ entry: e }) =>
    Math.max(
      e.event_type.length * CHAR_11,
      subOf(e).length * CHAR_10,
      timeOf(e).length * CHAR_10,
      flagOf(e).length * CHAR_10,
    ),
  );
  /** @type {Map<string, SVGGElement>} */
  const markElements = new Map();
  for (const mark of layout.marks) {
    const { entry: e, x, y } = mark;
    const classes = [
      'mark',
      e.degraded_flag ? 'degraded' : '',
      e.failed ? 'failed' : '',
      e.loop ? 'loop' : '',
      // Its words would overlap a neighbour's: the circle, its number and colour stay; the words are in the title.
      labelled.has(mark) ? '' : 'no-room',
    ]
      .filter(Boolean)
      .join(' ');
    const flag = flagOf(e);
    const sub = subOf(e);
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
        timeOf(e),
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
  return { svg, marks: markElements };
}

/** Zoom steps: 1 is "fit to the window"; above it the picture is that many times wider and scrolls. */
const ZOOMS = [1, 1.5, 2, 3, 4, 6];

/**
 * The timeline of one trace: a fixed column of lane names beside the picture, fitted to the window's width (marks by
 * time, loops and all in view) with a zoom control above it; zoomed in, the picture scrolls sideways. Redrawn when
 * the window's width changes and when {@link update} gives a newer timeline of the same task (a live trace).
 * `onSelect` is called with the event id of a clicked (or Enter/Space-pressed) mark; `select(eventId)` highlights one.
 * @param {TraceTimeline} initial
 * @param {{ onSelect: (eventId: string) => void }} options
 */
export function createTimeline(initial, { onSelect }) {
  let trace = initial;
  let zoom = 1;
  /** @type {string | null} */
  let selected = null;
  /** @type {Map<string, SVGGElement>} */
  let markElements = new Map();
  const scroll = h('div', { class: 'timeline-scroll', id: 'timeline-scroll' });
  const lanes = h('div', { class: 'timeline-lanes-box' });
  const zoomLabel = h('span', { class: 'zoom-label', id: 'zoom-level', 'aria-live': 'polite' });
  const zoomOut = h('button', { type: 'button', id: 'zoom-out', 'aria-label': 'Zoom out' }, '−');
  const zoomIn = h('button', { type: 'button', id: 'zoom-in', 'aria-label': 'Zoom in' }, '+');
  const fit = h('button', { type: 'button', id: 'zoom-fit' }, 'Fit to width');
  const controls = h(
    'div',
    { class: 'zoom', role: 'group', 'aria-label': 'Timeline zoom' },
    zoomOut,
    zoomLabel,
    zoomIn,
    fit,
  );
  const element = h(
    'div',
    { class: 'timeline-box' },
    controls,
    h('div', { class: 'timeline-frame' }, lanes, scroll),
  );
  /** The width the fitted picture fills: the room beside the lane names (a guess before the page shows it). */
  const room = () =>
    scroll.clientWidth > 0 ? scroll.clientWidth : Math.max(320, window.innerWidth - LABEL_WIDTH - 64);
  let drawnFor = -1;

  function draw() {
    const width = room();
    drawnFor = width;
    const layout = layoutTimeline(trace, { fitWidth: width * zoom });
    const picture = drawPicture(trace, layout, onSelect);
    markElements = picture.marks;
    // Keep the reader's place when a zoomed picture is redrawn (a live trace grows at the right).
    const keep = scroll.scrollLeft;
    scroll.replaceChildren(picture.svg);
    scroll.scrollLeft = keep;
    lanes.replaceChildren(laneLabels(layout));
    zoomLabel.textContent = zoom === 1 ? 'fitted to the window' : `${String(zoom * 100)} % of the window`;
    zoomOut.disabled = zoom === ZOOMS[0];
    zoomIn.disabled = zoom === ZOOMS.at(-1);
    fit.disabled = zoom === 1;
    highlight();
  }

  function highlight() {
    for (const [id, mark] of markElements) mark.classList.toggle('selected', id === selected);
  }

  /** @param {number} next */
  function setZoom(next) {
    if (next === zoom) return;
    // Zoom about the middle of what is in view.
    const middle = (scroll.scrollLeft + scroll.clientWidth / 2) / Math.max(1, scroll.scrollWidth);
    zoom = next;
    draw();
    scroll.scrollLeft = Math.max(0, middle * scroll.scrollWidth - scroll.clientWidth / 2);
  }
  zoomIn.addEventListener('click', () => {
    setZoom(ZOOMS.find((z) => z > zoom) ?? zoom);
  });
  zoomOut.addEventListener('click', () => {
    setZoom([...ZOOMS].reverse().find((z) => z < zoom) ?? zoom);
  });
  fit.addEventListener('click', () => {
    setZoom(1);
  });

  // The first draw guesses the width; once on the page (and whenever the window is resized) it is measured.
  new ResizeObserver(() => {
    if (scroll.clientWidth > 0 && Math.abs(scroll.clientWidth - drawnFor) > 1) draw();
  }).observe(scroll);
  draw();

  return {
    element,
    /** @param {TraceTimeline} next a newer timeline of the same task */
    update(next) {
      trace = next;
      draw();
    },
    /** @param {string | null} eventId */
    select(eventId) {
      selected = eventId;
      highlight();
    },
    /** The picture now shown (tests and the page read it through the DOM). */
    get svg() {
      return /** @type {SVGSVGElement} */ (scroll.firstElementChild);
    },
  };
}
