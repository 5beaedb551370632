import { createHash } from 'node:crypto';
import { z } from 'zod';
import { CITIES } from '../corpus.js';
import { defineTool, isoDay, type ToolSpec } from './tool-spec.js';

// SP-4 backends, served over HTTP and over MCP (IF-5).

function resolveCity(name: string): (typeof CITIES)[number] | undefined {
  const wanted = name.trim().toLowerCase();
  return CITIES.find(
    (c) => c.name.toLowerCase() === wanted || c.aliases.some((a) => a.toLowerCase() === wanted),
  );
}

/** A stable number in [0, 1) from text, so the same city and day always get the same weather. */
function unitHash(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

const getWeather = defineTool({
  name: 'get_weather',
  pack: 'reach',
  path: '/reach/weather',
  description:
    'Look up the current weather, or the forecast for a day, in one city. If the city is missing, ask the user instead of guessing.',
  action: 'read',
  openWorld: true,
  parameters: z.strictObject({
    city: z.string().min(1),
    date: z.iso.date().optional(),
    unit: z.enum(['celsius', 'fahrenheit']).optional(),
  }),
  errors: {
    unknown_city: { class: 'parameter', status: 404 },
    weather_unavailable: { class: 'transient', status: 503 },
  },
  handle(args, { now }, fail) {
    const city = resolveCity(args.city);
    if (!city)
      return fail('unknown_city', `no city named ${JSON.stringify(args.city)}; ask which city is meant`);
    const day = args.date ?? isoDay(now());
    const h = unitHash(`${city.name}|${day}`);
    const celsius = Math.round((city.baseCelsius + (h * 8 - 4)) * 10) / 10;
    const unit = args.unit ?? 'celsius';
    const temperature = unit === 'celsius' ? celsius : Math.round(((celsius * 9) / 5) * 10 + 320) / 10;
    return {
      city: city.name,
      date: day,
      conditions: city.conditions[Math.floor(h * city.conditions.length)] ?? 'clear',
      temperature,
      unit,
      observed_at: now().toISOString(),
      forecast: args.date !== undefined,
    };
  },
});

const createTicket = defineTool({
  name: 'create_ticket',
  pack: 'reach',
  path: '/reach/tickets',
  description: 'Open a support ticket for a complaint, a warranty claim or a request for a human.',
  action: 'write',
  parameters: z.strictObject({
    title: z.string().min(3).max(200),
    priority: z.enum(['low', 'medium', 'high']).optional(),
    category: z.enum(['complaint', 'warranty', 'consultation', 'other']).optional(),
    contact: z.string().optional(),
  }),
  errors: { ticket_service_unavailable: { class: 'transient', status: 503 } },
  async handle(args, { store, now, idempotencyKey }) {
    const ticket = await store.createTicket({
      title: args.title,
      priority: args.priority ?? 'low',
      category: args.category ?? 'other',
      contact: args.contact,
      idempotency_key: idempotencyKey,
      at: now(),
    });
    return { ticket_id: ticket.ticket_id, status: ticket.status, priority: ticket.priority };
  },
});

/** The reach pack's backends (SP-4). */
export const REACH_TOOLS: readonly ToolSpec[] = [getWeather, createTicket];
