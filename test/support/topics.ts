import { TOPICS, allTopicNames, type TopicSpec } from '@signalbox/contracts';
import {
  createKafkaBus,
  createSchemaRegistry,
  prefixTopic,
  registerTopicSchemas,
  type Bus,
  type Subscription,
} from '@signalbox/bus';
import { testEndpoints, uniqueName } from '@signalbox/test-support';

/** A Kafka bus of the test's own topic prefix (schemas registered as they are first used). */
export function prefixedBus(clientId: string, prefix: string): Bus {
  const endpoints = testEndpoints();
  return createKafkaBus({
    brokers: endpoints.kafkaBrokers.split(','),
    clientId,
    schemaRegistryUrl: endpoints.schemaRegistryUrl,
    topicPrefix: prefix,
    autoRegisterSchemas: true,
  });
}

/** Creates every topic of the catalog (and the dead-letter topics) under `prefix`, their schemas registered. */
export async function prepareTopics(bus: Bus, prefix: string): Promise<void> {
  await bus.ensureTopics(allTopicNames());
  await registerTopicSchemas(
    createSchemaRegistry({ url: testEndpoints().schemaRegistryUrl }),
    Object.values(TOPICS).map((t) => prefixTopic(t, prefix)),
  );
}

/** Hands every message published on `topic` to `onMessage`, through a consumer group of its own. */
export function collectMessages(
  bus: Bus,
  topic: TopicSpec,
  onMessage: (value: unknown) => void,
): Promise<Subscription> {
  return bus.consume({
    groupId: uniqueName('observer'),
    topic,
    handler: (batch) => {
      for (const m of batch) onMessage(m.value);
      return Promise.resolve({ deadLetters: [] });
    },
  });
}
