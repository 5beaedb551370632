// How the browser tests of the viewer (this package's and the CLI's dev server's) start Chromium, and what they
// measure in its pages.
import { existsSync } from 'node:fs';

/** The Chromium binary the browser tests drive: $CHROMIUM_PATH, default Debian's /usr/bin/chromium. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The command-line switches of a headless Chromium for the tests. Without the background-networking ones Chromium
 * keeps trying to reach Google's services and hangs on a closed network.
 */
export const CHROMIUM_ARGS: string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Throws, saying how to install it, when there is no Chromium at CHROMIUM_PATH: the viewer is tested in a real browser. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}, and the trace viewer (IF-3) is tested in a real browser. ` +
        'Install it with `bash scripts/install-browser.sh` (Debian/Ubuntu: `apt-get install -y --no-install-recommends chromium`), ' +
        'or point CHROMIUM_PATH at a Chromium or Chrome binary.',
    );
  }
}

/**
 * How far the timeline's picture overflows its frame, and the page the window (pixels; 0 = it fits), for
 * `page.evaluate`. Page-side code as text: the tests are type-checked without the DOM's types.
 */
export const TIMELINE_OVERFLOW = `(() => {
  const scroll = document.querySelector('#timeline-scroll');
  return {
    picture: scroll.scrollWidth - scroll.clientWidth,
    page: document.documentElement.scrollWidth - window.innerWidth,
  };
})()`;
