// The viewer's page shell and stylesheet (IF-3). They live in this module rather than as .html/.css files so that
// `tsc -b` carries them into dist/ with the rest of the service (the image holds only built output); the browser
// code is in client/ as type-checked JavaScript modules, served as they are.

/**
 * The one HTML page of the viewer, for the trace list (`/viewer?status=…`) and one trace (`/viewer?trace=<id>`).
 * Every URL in it is relative, so the viewer also works behind a proxy that mounts the API under a path prefix.
 */
export const VIEWER_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <title>Signalbox traces</title>
    <link rel="stylesheet" href="viewer/assets/viewer.css" />
    <script type="module" src="viewer/assets/viewer.js"></script>
  </head>
  <body>
    <header class="top">
      <a class="brand" href="viewer">Signalbox · traces</a>
      <span id="key-state" class="key-state"></span>
      <button id="forget-key" type="button" hidden>Forget API key</button>
    </header>
    <main id="main">
      <noscript>The trace viewer needs JavaScript.</noscript>
    </main>
  </body>
</html>
`;

/** The viewer's stylesheet: page, table, the timeline picture (SVG classes), and the state colours. */
export const VIEWER_CSS = `:root {
  --fg: #1f2328;
  --muted: #59636e;
  --line: #d1d9e0;
  --bg-alt: #f6f8fa;
  --accent: #0b5cad;
  --degraded: #9a4b00;
  --degraded-fill: #f2a23a;
  --degraded-bg: #fff4e0;
  --failed: #b3261e;
  --failed-fill: #e5534b;
  --failed-bg: #fdecea;
  --replan: #6e40c9;
  --reinject: #0e7c86;
  --degrade: #b35900;
  --next-step: #2f7d32;
  --continuation: #b0306f;
  font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
  color: var(--fg);
}
body { margin: 0; }
.top {
  display: flex; gap: 1rem; align-items: center;
  padding: 0.6rem 1.2rem; border-bottom: 1px solid var(--line); background: var(--bg-alt);
}
.brand { font-weight: 600; color: var(--fg); text-decoration: none; }
.key-state { color: var(--muted); font-size: 0.9rem; margin-left: auto; }
main { padding: 1rem 1.2rem 3rem; }
h1 { font-size: 1.3rem; margin: 0.2rem 0 0.8rem; }
h2 { font-size: 1.05rem; margin: 1.4rem 0 0.5rem; }
a { color: var(--accent); }
button { font: inherit; padding: 0.25rem 0.7rem; cursor: pointer; }
input, select { font: inherit; padding: 0.2rem 0.3rem; }
.error {
  border: 1px solid var(--failed); background: var(--failed-bg); color: var(--failed);
  padding: 0.6rem 0.9rem; border-radius: 4px; margin: 0.8rem 0; white-space: pre-wrap;
}
.notice { color: var(--muted); }
.registry-problems {
  border: 1px solid var(--failed); background: var(--failed-bg); padding: 0.3rem 0.9rem 0.5rem;
  border-radius: 4px; margin: 0.4rem 0 1rem;
}
.registry-problems h2 { color: var(--failed); font-size: 0.95rem; margin: 0.5rem 0 0.3rem; }
.registry-problems ul { margin: 0; padding-left: 1.2rem; font-size: 0.85rem; white-space: pre-wrap; }
.key-form { display: flex; gap: 0.6rem; align-items: end; flex-wrap: wrap; margin: 1rem 0; }
.key-form label { display: flex; flex-direction: column; font-size: 0.9rem; gap: 0.2rem; }
.key-form input { width: 22rem; }
.filters { display: flex; flex-wrap: wrap; gap: 0.8rem; align-items: end; margin-bottom: 1rem; }
.filters label { display: flex; flex-direction: column; font-size: 0.85rem; gap: 0.2rem; color: var(--muted); }
.filters input[type='number'] { width: 5rem; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { text-align: left; padding: 0.35rem 0.5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--bg-alt); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.versions { white-space: nowrap; font-size: 0.78rem; color: var(--muted); }
tr.is-selected td { background: #e8f1fb; }
.reason { max-width: 48rem; overflow-wrap: anywhere; }
.mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.85em; }
.badge {
  display: inline-block; font-size: 0.75rem; font-weight: 700; letter-spacing: 0.02em;
  padding: 0.05rem 0.4rem; border-radius: 3px; border: 1px solid; margin-right: 0.25rem;
}
.badge.degraded { color: var(--degraded); background: var(--degraded-bg); border-color: var(--degraded); }
.badge.failed { color: var(--failed); background: var(--failed-bg); border-color: var(--failed); }
.badge.loop { color: var(--muted); border-color: var(--line); font-weight: 600; }
.pager { display: flex; gap: 1rem; margin-top: 0.8rem; }
.summary { display: flex; flex-wrap: wrap; gap: 0.4rem 1.6rem; margin: 0 0 0.6rem; font-size: 0.92rem; }
.summary dt { color: var(--muted); }
.summary dd { margin: 0; font-weight: 600; }
.summary div { display: flex; gap: 0.4rem; }
.timeline-frame { display: flex; border: 1px solid var(--line); border-radius: 4px; background: #fff; }
.timeline-lanes-box { flex: none; border-right: 1px solid var(--line); }
.timeline-lanes { display: block; }
/* min-width 0: the picture is fitted to this box, so the box must not grow with the picture. */
.timeline-scroll { overflow-x: auto; flex: 1 1 auto; min-width: 0; }
.zoom { display: flex; gap: 0.4rem; align-items: center; margin: 0.4rem 0; font-size: 0.85rem; }
.zoom button { min-width: 2rem; }
.zoom-label { color: var(--muted); min-width: 10rem; text-align: center; }
.submit-form { border: 1px solid var(--line); border-radius: 4px; padding: 0.4rem 1rem 0.8rem; margin: 0 0 1.2rem; }
.submit-form h2 { margin-top: 0.4rem; }
.submit-fields { display: flex; flex-wrap: wrap; gap: 0.8rem; align-items: end; }
.submit-fields label { display: flex; flex-direction: column; font-size: 0.85rem; gap: 0.2rem; color: var(--muted); }
.submit-fields label.wide { flex: 1 1 28rem; }
textarea { font: inherit; padding: 0.3rem; resize: vertical; }
.row-request { margin-top: 0.2rem; max-width: 30rem; overflow-wrap: anywhere; }
.row-outcome { margin-top: 0.2rem; color: var(--muted); font-size: 0.85rem; max-width: 26rem; overflow-wrap: anywhere; }
.task-outcome { border: 1px solid var(--line); border-radius: 4px; padding: 0.2rem 1rem 0.8rem; margin: 0 0 1rem; }
.task-outcome h2 { margin-top: 0.6rem; }
.request { font-size: 1.05rem; margin: 0.2rem 0 0.6rem; overflow-wrap: anywhere; }
.outcome.question { border-left: 4px solid var(--accent); padding-left: 0.8rem; }
.outcome.failed { color: var(--failed); }
.question-text { overflow-wrap: anywhere; }
.answer-form { display: flex; gap: 0.8rem; align-items: end; flex-wrap: wrap; margin-top: 0.6rem; }
.answer-form label { display: flex; flex-direction: column; font-size: 0.85rem; gap: 0.2rem; flex: 1 1 28rem; }
.live { color: var(--accent); font-weight: 600; }
td.muted { color: var(--muted); }
/* The decisions table scrolls on its own rather than widening the page; the reasons keep a readable width. */
.table-scroll { overflow-x: auto; }
#decisions { font-size: 0.84rem; }
#decisions th { vertical-align: bottom; }
#decisions td.reason { min-width: 22rem; }
#decisions th.num { white-space: normal; }
.payload.answer-output { max-height: 4.6rem; margin: 0.3rem 0; }
.legend { display: flex; flex-wrap: wrap; gap: 1.2rem; font-size: 0.85rem; color: var(--muted); margin: 0.5rem 0; }
.legend span::before {
  content: ''; display: inline-block; width: 0.8rem; height: 0.8rem; margin-right: 0.35rem;
  vertical-align: -0.1rem; border-radius: 50%; background: var(--swatch); border: 1px solid var(--fg);
}
.legend .sw-normal { --swatch: #fff; }
.legend .sw-degraded { --swatch: var(--degraded-fill); }
.legend .sw-failed { --swatch: var(--failed-fill); }
.legend .sw-loop::before { border-radius: 0; height: 0; border: 0; border-top: 2px dashed var(--replan); }
.details { border: 1px solid var(--line); border-radius: 4px; padding: 0.6rem 1rem; margin-top: 1rem; }
.details dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; font-size: 0.9rem; }
.details dt { color: var(--muted); }
.details dd { margin: 0; overflow-wrap: anywhere; }
.exchange.failed > summary { color: var(--failed); }
.payload {
  background: var(--bg-alt); border: 1px solid var(--line); padding: 0.6rem; max-height: 32rem;
  overflow: auto; font-size: 0.8rem; white-space: pre-wrap; overflow-wrap: anywhere;
}

/* The timeline picture (inline SVG). */
svg.timeline { display: block; font-family: inherit; }
.lane-bg { fill: #fff; }
.lane-bg.odd { fill: #fafbfc; }
.lane-line { stroke: var(--line); stroke-width: 1; }
.lane-label { font-size: 13px; font-weight: 600; fill: var(--fg); }
.lane-sub { font-size: 11px; fill: var(--muted); }
.rev-band { fill: #eef3fa; }
.rev-band.odd { fill: #f7f9fc; }
.rev-label { font-size: 11px; fill: var(--muted); font-weight: 600; }
.degraded-band { fill: var(--degraded-bg); stroke: var(--degraded); stroke-width: 1; }
.degraded-band-label { font-size: 11px; font-weight: 700; fill: var(--degraded); }
.axis-label { font-size: 11px; fill: var(--muted); }
.edge { fill: none; stroke: #8c959f; stroke-width: 1.2; }
.edge.loop { stroke-width: 2.2; stroke-dasharray: 6 4; }
.edge.loop-replan { stroke: var(--replan); }
.edge.loop-reinject { stroke: var(--reinject); }
.edge.loop-degrade { stroke: var(--degrade); }
.edge.loop-next_step { stroke: var(--next-step); }
.edge.loop-continuation { stroke: var(--continuation); }
.edge-label { font-size: 11px; font-weight: 700; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
.edge-label.loop-replan { fill: var(--replan); }
.edge-label.loop-reinject { fill: var(--reinject); }
.edge-label.loop-degrade { fill: var(--degrade); }
.edge-label.loop-next_step { fill: var(--next-step); }
.edge-label.loop-continuation { fill: var(--continuation); }
.arrow-head { fill: #8c959f; }
.arrow-head.loop-replan { fill: var(--replan); }
.arrow-head.loop-reinject { fill: var(--reinject); }
.arrow-head.loop-degrade { fill: var(--degrade); }
.arrow-head.loop-next_step { fill: var(--next-step); }
.arrow-head.loop-continuation { fill: var(--continuation); }
.mark { cursor: pointer; }
.mark:focus { outline: none; }
.mark circle { fill: #fff; stroke: var(--fg); stroke-width: 1.5; }
.mark.degraded circle { fill: var(--degraded-fill); stroke: var(--degraded); stroke-width: 2.5; }
.mark.failed circle { fill: var(--failed-fill); stroke: var(--failed); stroke-width: 2.5; }
.mark.selected circle, .mark:focus-visible circle { stroke: var(--accent); stroke-width: 4; }
.mark-num { font-size: 10px; font-weight: 700; fill: var(--fg); text-anchor: middle; dominant-baseline: central; pointer-events: none; }
.mark-type { font-size: 11px; fill: var(--fg); text-anchor: middle; }
.mark-sub { font-size: 10px; fill: var(--muted); text-anchor: middle; }
.mark-sub.version-change { fill: var(--accent); font-weight: 700; }
.mark-flag { font-size: 10px; font-weight: 800; text-anchor: middle; letter-spacing: 0.03em; }
.mark-flag.degraded { fill: var(--degraded); }
.mark-flag.failed { fill: var(--failed); }
/* Fitted to the window, a mark whose words would overlap its lane neighbour's shows its circle and number only. */
.mark.no-room .mark-type, .mark.no-room .mark-sub, .mark.no-room .mark-flag, .rev-label.no-room { display: none; }
`;
