/** Content hashes for cache keys and hashed file names. */
import { createHash } from 'node:crypto';

/** Hex SHA-256 of a string or bytes. */
export function hash(value: string | Uint8Array): string {
  return createHash('sha256').update(value).digest('hex');
}
