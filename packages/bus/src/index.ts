export type {
  BatchHandler,
  BatchOutcome,
  Bus,
  ConsumeOptions,
  DeadLetter,
  IncomingMessage,
  OutgoingMessage,
  PoisonMessage,
  PoisonReason,
  Subscription,
} from './bus.js';
export { REPUBLISHED_HEADER } from './bus.js';
export {
  createSchemaRegistry,
  createSchemaRegistryCodec,
  registerTopicSchemas,
  registeredSchemaText,
  type Codec,
  type DecodeResult,
  type RegisteredTopicSchema,
  type SchemaRegistryCodecOptions,
  type SchemaRegistryOptions,
} from './codec.js';
export { coalescing, type CoalescingOptions, type CoalescingSender } from './coalesce.js';
export { DEAD_LETTER_HEADERS } from './consumer-runner.js';
export {
  BrokerError,
  BusError,
  BusStateError,
  IncompatibleSchemaError,
  InvalidMessageError,
  SchemaNotRegisteredError,
  SchemaRegistryUnavailableError,
  SubscriptionFailedError,
  WireFormatError,
} from './errors.js';
export { forEachByKey } from './for-each-by-key.js';
export {
  MAX_SEND_BYTES,
  createKafkaBus,
  isRetriedResponseError,
  sliceBySize,
  type KafkaBusOptions,
} from './kafka-bus.js';
export { silentLogger, type BusLogger } from './logger.js';
// The one retry module's policy, as the bus applies it (re-exported for the bus's users).
export {
  backoffDelay,
  isProgrammerError,
  isRetriable,
  resolveBackoff,
  type BackoffOptions,
} from '@signalbox/retry';
export { validateValue, validatedPayloadJson, type ValidateValueOptions } from './payload.js';
export { checkTopicPrefix, prefixTopic } from './topic-prefix.js';
export { TRACEPARENT_HEADER, extractTraceContext, injectTraceContext } from './trace-context.js';
export { MAGIC_BYTE, decodeWire, encodeWire, encodeWireText } from './wire-format.js';
