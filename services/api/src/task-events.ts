import { PassThrough } from 'node:stream';
import type { TaskStatus } from '@signalbox/contracts';
import type { FastifyReply } from 'fastify';

// `GET /v1/tasks/:id/events`: one task's progress as server-sent events, so that no client has to poll. The stream
// polls the event log at an interval — one short read per interval through the store's pool, never a connection held
// for the life of the stream — and writes a `status` event each time the task's latest decision changes, then `end`
// once the task is finished or failed, and closes. It stops polling as soon as the client goes away.

/** Options of {@link streamTaskEvents}. */
export interface TaskEventsOptions {
  /** The task's current status (the route's view of `GET /v1/tasks/:id`); rejects like that route does. */
  read: () => Promise<TaskStatus>;
  /** The status read before the stream opened (so that a missing task is a 404, not an event). */
  initial: TaskStatus;
  /** Milliseconds between two reads of the event log. */
  pollIntervalMs: number;
  /** Milliseconds between two comment lines on an idle stream (keeps proxies from closing it). */
  heartbeatMs: number;
  /** What to send as an `error` event's data when a read fails. */
  errorBody: (error: unknown) => unknown;
  /**
   * The open streams' stop functions: the stream adds itself while open. The app stops them all when it closes, so
   * that a shutdown does not wait for the tasks its clients follow (they reconnect elsewhere).
   */
  open: Set<() => void>;
}

/** The SSE frame of one event: `event`, `id`, one `data` line (JSON has no raw newlines). */
function frame(event: string, data: unknown, id?: string): string {
  return `event: ${event}\n${id !== undefined ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

const isOver = (status: TaskStatus) => status.state !== 'running';

/**
 * Answers `reply` with the event stream of one task. Resolves once the stream is handed to fastify; the polling goes
 * on until the task is over or the client disconnects.
 */
export function streamTaskEvents(reply: FastifyReply, options: TaskEventsOptions): FastifyReply {
  const stream = new PassThrough();
  let stopped = false;
  let poll: NodeJS.Timeout | undefined;
  const heartbeat = setInterval(() => {
    if (!stopped) stream.write(': keep-alive\n\n');
  }, options.heartbeatMs);
  const stop = () => {
    if (stopped) return;
    stopped = true;
    options.open.delete(stop);
    clearTimeout(poll);
    clearInterval(heartbeat);
    stream.end();
  };
  // The response closes when the client disconnects (or once the stream ended): stop reading the event log.
  reply.raw.on('close', stop);
  options.open.add(stop);

  let last = options.initial;
  const emit = (status: TaskStatus) => {
    if (isOver(status)) {
      stream.write(frame('end', status, status.last_event.event_id));
      stop();
    } else {
      stream.write(frame('status', status, status.last_event.event_id));
    }
  };
  // A read in flight may outlive the stream: checked again after each await.
  const isStopped = () => stopped;
  const tick = async () => {
    if (isStopped()) return;
    try {
      const status = await options.read();
      if (isStopped()) return;
      const changed = status.last_event.event_id !== last.last_event.event_id || status.state !== last.state;
      last = status;
      if (changed) emit(status);
    } catch (error) {
      if (isStopped()) return;
      stream.write(frame('error', options.errorBody(error)));
      stop();
      return;
    }
    if (!isStopped()) poll = setTimeout(() => void tick(), options.pollIntervalMs);
  };

  // `retry`: how long an EventSource waits before it reconnects after a dropped connection.
  stream.write(`retry: ${String(Math.max(1000, options.pollIntervalMs))}\n\n`);
  if (isOver(last)) {
    // A finished task: its final status, and the stream ends at once.
    emit(last);
  } else {
    stream.write(frame('status', last, last.last_event.event_id));
    poll = setTimeout(() => void tick(), options.pollIntervalMs);
  }
  return reply
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache, no-transform')
    .header('x-accel-buffering', 'no')
    .send(stream);
}
