import { metrics, type Attributes, type Histogram, type MeterProvider } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_SCHEME,
  HTTP_REQUEST_METHOD_VALUE_OTHER,
  METRIC_HTTP_SERVER_REQUEST_DURATION,
} from '@opentelemetry/semantic-conventions';

/**
 * The bucket boundaries, in seconds, the HTTP semantic conventions advise for `http.server.request.duration`.
 * https://opentelemetry.io/docs/specs/semconv/http/http-metrics/#metric-httpserverrequestduration
 */
export const HTTP_SERVER_DURATION_BUCKETS: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];

/** The methods the conventions know; any other is reported as `_OTHER` so a client cannot grow the series. */
const KNOWN_METHODS = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'TRACE',
]);

/** One answered request, as an HTTP server hook sees it. */
export interface HttpServerRequest {
  method: string;
  /** The matched route template (`/v1/tasks/:id`), never the URL; undefined when no route matched (a 404). */
  route: string | undefined;
  statusCode: number;
  /** From receiving the request to sending the response. */
  seconds: number;
  /** @default 'http' */
  scheme?: string;
}

/** Records `http.server.request.duration` (OpenTelemetry HTTP semantic conventions). */
export interface HttpServerMetrics {
  record(request: HttpServerRequest): void;
}

/**
 * An `http.server.request.duration` histogram (unit `s`) with `http.request.method`, `http.route`,
 * `http.response.status_code`, `url.scheme` and, for 5xx answers, `error.type` (the status code). Recorded through the
 * global meter provider: a no-op until {@link startTelemetry} registers the SDK's — the instrument follows the
 * provider registered at the time of each record, so the order of start-up does not matter.
 */
export function createHttpServerMetrics(options: { meterName?: string } = {}): HttpServerMetrics {
  const meterName = options.meterName ?? 'signalbox.http';
  let provider: MeterProvider | undefined;
  let histogram: Histogram | undefined;
  const instrument = (): Histogram => {
    const current = metrics.getMeterProvider();
    if (histogram === undefined || current !== provider) {
      provider = current;
      histogram = current.getMeter(meterName).createHistogram(METRIC_HTTP_SERVER_REQUEST_DURATION, {
        unit: 's',
        description: 'Duration of HTTP server requests.',
        advice: { explicitBucketBoundaries: [...HTTP_SERVER_DURATION_BUCKETS] },
      });
    }
    return histogram;
  };
  return {
    record({ method, route, statusCode, seconds, scheme = 'http' }) {
      if (!Number.isFinite(seconds) || seconds < 0) return;
      const upper = method.toUpperCase();
      const attributes: Attributes = {
        [ATTR_HTTP_REQUEST_METHOD]: KNOWN_METHODS.has(upper) ? upper : HTTP_REQUEST_METHOD_VALUE_OTHER,
        [ATTR_HTTP_RESPONSE_STATUS_CODE]: statusCode,
        [ATTR_URL_SCHEME]: scheme,
      };
      // Conditionally required: only when a route matched (an unmatched URL must not become a series of its own).
      if (route !== undefined && route !== '') attributes[ATTR_HTTP_ROUTE] = route;
      // For a server, 5xx is an error; the conventions name it by the status code when there is no exception type.
      if (statusCode >= 500) attributes[ATTR_ERROR_TYPE] = String(statusCode);
      instrument().record(seconds, attributes);
    },
  };
}
