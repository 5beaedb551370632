import { WireFormatError } from './errors.js';

// The Confluent wire format (FL-2): one magic byte (0), the schema id as a 4-byte big-endian signed int, then the
// serialized value. Pure: no registry, no Kafka.

/** The only magic byte the Confluent wire format defines. */
export const MAGIC_BYTE = 0;
/** Bytes before the payload: magic byte + schema id. */
export const WIRE_HEADER_LENGTH = 5;

/** Prefixes `payload` with the magic byte and `schemaId`. */
export function encodeWire(schemaId: number, payload: Buffer): Buffer {
  checkSchemaId(schemaId);
  const header = Buffer.alloc(WIRE_HEADER_LENGTH);
  header.writeUInt8(MAGIC_BYTE, 0);
  header.writeInt32BE(schemaId, 1);
  return Buffer.concat([header, payload]);
}

/** {@link encodeWire} of the UTF-8 bytes of `text`, written once into the one buffer it returns. */
export function encodeWireText(schemaId: number, text: string): Buffer {
  checkSchemaId(schemaId);
  const length = Buffer.byteLength(text, 'utf8');
  // Every byte is written below: the magic byte, the id, then exactly `length` bytes of text.
  const bytes = Buffer.allocUnsafe(WIRE_HEADER_LENGTH + length);
  bytes.writeUInt8(MAGIC_BYTE, 0);
  bytes.writeInt32BE(schemaId, 1);
  bytes.write(text, WIRE_HEADER_LENGTH, length, 'utf8');
  return bytes;
}

function checkSchemaId(schemaId: number): void {
  if (!Number.isInteger(schemaId) || schemaId < 0 || schemaId > 0x7fffffff) {
    throw new RangeError(`schema id must be an integer in [0, 2^31), got ${String(schemaId)}`);
  }
}

/** Splits wire-format bytes into schema id and payload; throws {@link WireFormatError} on anything else. */
export function decodeWire(bytes: Buffer): { schemaId: number; payload: Buffer } {
  if (bytes.length < WIRE_HEADER_LENGTH) {
    throw new WireFormatError(`value has ${String(bytes.length)} bytes, fewer than the 5-byte wire header`);
  }
  const magic = bytes.readUInt8(0);
  if (magic !== MAGIC_BYTE) {
    throw new WireFormatError(
      `value starts with magic byte ${String(magic)}, expected ${String(MAGIC_BYTE)}`,
    );
  }
  return { schemaId: bytes.readInt32BE(1), payload: bytes.subarray(WIRE_HEADER_LENGTH) };
}
