// README command 1 (until the embedded demo lands): one round trip through real Kafka, the schema registry and
// PostgreSQL, printed as a short report. Endpoints come from the environment, else infra/local is started.
import { resolveInfrastructure } from '@signalbox/test-support';
import { roundTrip } from './round-trip.js';

const infra = await resolveInfrastructure(process.env);
try {
  const r = await roundTrip(infra.endpoints);
  const lines = [
    `infrastructure   ${infra.endpoints.source} (ready in ${String(infra.readySeconds)} s)`,
    `schema           ${r.subject} → id ${String(r.schemaId)} (JSON Schema; invalid payload refused: ${String(r.invalidRefused)})`,
    `produced         ${r.topic} key=${r.sent.task_id} wire=[magic ${String(r.wireMagicByte)}, schema ${String(r.wireSchemaId)}]`,
    `consumed         group ${r.consumerGroup} partition ${String(r.partition)} offset ${r.offset}: ${JSON.stringify(r.received)}`,
    `postgres         row ${r.storedRow.task_id} read back: ${JSON.stringify(r.storedRow.payload)}`,
    `round trip       ${String(r.durationMs)} ms`,
  ];
  console.log(lines.join('\n'));
} finally {
  // The smoke run leaves infra/local running only if it was running before.
  await infra.release();
}
