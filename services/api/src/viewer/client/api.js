// @ts-check
// The viewer's only way to the data: the public /v1 API with the user's API key (sent as the API expects it,
// `Authorization: Bearer <key>`). The key lives in sessionStorage: this tab only, gone when it closes.

/** @typedef {import('./types.js').ApiErrorBody} ApiErrorBody */

const KEY_ITEM = 'signalbox.viewer.api-key';

/** The API's root: this module is served at `<root>/viewer/assets/api.js`, so a path prefix keeps working. */
export const API_ROOT = new URL('../../', import.meta.url);

/** @returns {string | null} the API key of this tab, if one was entered */
export function storedKey() {
  return sessionStorage.getItem(KEY_ITEM);
}

/**
 * Keeps a key for this tab. Throws RangeError when it cannot be a key (empty or with white space).
 * @param {string} key
 */
export function storeKey(key) {
  const trimmed = key.trim();
  if (trimmed === '' || /\s/.test(trimmed)) throw new RangeError('an API key is one word without spaces');
  sessionStorage.setItem(KEY_ITEM, trimmed);
}

export function forgetKey() {
  sessionStorage.removeItem(KEY_ITEM);
}

/** Thrown when the API answers with an error, or does not answer. */
export class ApiFailure extends Error {
  /**
   * @param {number} status HTTP status; 0 when the API did not answer
   * @param {string} code the API's error code
   * @param {string} message
   * @param {readonly { path: string; message: string }[]} [fields]
   */
  constructor(status, code, message, fields = []) {
    super(message);
    this.name = 'ApiFailure';
    this.status = status;
    this.code = code;
    this.fields = fields;
  }

  /** The key was refused (401) or may not do this (403): the user has to enter another key. */
  get isAuth() {
    return this.status === 401 || this.status === 403;
  }
}

/**
 * GET a /v1 resource as JSON. Throws ApiFailure with the API's code and message on any error status.
 * @param {string} path relative to the API root, e.g. `v1/traces`
 * @param {URLSearchParams} [query]
 * @returns {Promise<unknown>}
 */
export async function apiGet(path, query) {
  const url = new URL(path, API_ROOT);
  if (query) url.search = query.toString();
  return call(url, { method: 'GET' });
}

/**
 * POST a JSON body to a /v1 resource and return the answer as JSON. Throws ApiFailure as {@link apiGet} does.
 * @param {string} path relative to the API root, e.g. `v1/tasks`
 * @param {unknown} body
 * @returns {Promise<unknown>}
 */
export async function apiPost(path, body) {
  return call(new URL(path, API_ROOT), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/**
 * @param {URL} url
 * @param {{ method: string; headers?: Record<string, string>; body?: string }} init
 * @returns {Promise<unknown>}
 */
async function call(url, init) {
  const key = storedKey();
  if (key === null) throw new ApiFailure(401, 'no_key', 'no API key was entered');
  /** @type {Response} */
  let response;
  try {
    response = await fetch(url, {
      ...init,
      headers: { ...init.headers, authorization: `Bearer ${key}`, accept: 'application/json' },
      cache: 'no-store',
      credentials: 'omit',
    });
  } catch (error) {
    throw new ApiFailure(0, 'network', `the API did not answer (${String(error)})`);
  }
  /** @type {unknown} */
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const error = /** @type {ApiErrorBody | null} */ (body)?.error;
    throw new ApiFailure(
      response.status,
      error?.code ?? `http_${String(response.status)}`,
      error?.message ?? response.statusText,
      error?.fields ?? [],
    );
  }
  return body;
}
