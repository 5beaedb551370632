import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiConfigError, NotFoundError } from '../errors.js';
import { VIEWER_CSS, VIEWER_HTML } from './page.js';

// IF-3: the web trace viewer, served by the API itself (no CDN, no second web server). The page is a shell that
// holds no data, so it needs no API key; the browser code asks for one and sends it to /v1 like any client.

/** The browser modules of client/, served as they are (type-checked JavaScript, no build step). */
const CLIENT_MODULES = ['viewer.js', 'api.js', 'dom.js', 'timeline.js', 'format.js'] as const;

/**
 * The page may load code and styles only from this origin, talk only to it, and render no plugin, frame or
 * inline script — a second line of defence behind the rule that data is only ever inserted as text.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function readClientModules(): ReadonlyMap<string, string> {
  const modules = new Map<string, string>();
  for (const name of CLIENT_MODULES) {
    // Same relative place in src/ (tests, tsx) and dist/ (tsc emits client/*.js next to this module).
    const url = new URL(`./client/${name}`, import.meta.url);
    try {
      modules.set(name, readFileSync(url, 'utf8'));
    } catch (error) {
      // A broken build or image, not a request error: the service does not start.
      throw new ApiConfigError(
        `the trace viewer's browser module ${url.pathname} is missing; rebuild the API service (tsc -b)`,
        { cause: error },
      );
    }
  }
  return modules;
}

function common(reply: FastifyReply, contentType: string): FastifyReply {
  return reply
    .header('content-type', contentType)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-cache');
}

/** Options of {@link registerViewer}. */
export interface ViewerOptions {
  /**
   * Where the list page reads the problems of registry folders (relative to the API root; an answer shaped like the
   * dev server's `GET /dev/status`, `{ registries: [{ dir, state, problems, lint }] }`), shown as a banner and read
   * again every 2 s. @default none: no banner, nothing asked
   */
  registryStatusPath?: string;
}

/**
 * Adds `GET /viewer` (the page; `?trace=<task id>` shows one trace) and `GET /viewer/assets/<file>`. Reads the
 * browser modules once, now: a missing file fails the service at start, not the first visitor.
 */
export function registerViewer(app: FastifyInstance, options: ViewerOptions = {}): void {
  const modules = readClientModules();
  const statusPath = options.registryStatusPath;
  if (statusPath !== undefined && !/^[A-Za-z0-9][A-Za-z0-9/_-]{0,199}$/.test(statusPath))
    throw new RangeError(`registryStatusPath must be a relative path like dev/status, got ${statusPath}`);
  const html =
    statusPath === undefined
      ? VIEWER_HTML
      : VIEWER_HTML.replace('<main id="main">', `<main id="main" data-registry-status="${statusPath}">`);

  app.get('/viewer', (_request, reply) =>
    common(reply, 'text/html; charset=utf-8')
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('x-frame-options', 'DENY')
      .send(html),
  );
  // The page's URLs are relative to /viewer; under /viewer/ they would resolve one level too deep.
  app.get('/viewer/', (_request, reply) => reply.redirect('../viewer', 308));
  app.get('/viewer/assets/viewer.css', (_request, reply) =>
    common(reply, 'text/css; charset=utf-8').send(VIEWER_CSS),
  );
  app.get<{ Params: { file: string } }>('/viewer/assets/:file', (request, reply) => {
    const source = modules.get(request.params.file);
    if (source === undefined) throw new NotFoundError(`no viewer asset ${request.params.file}`);
    return common(reply, 'text/javascript; charset=utf-8').send(source);
  });
}
