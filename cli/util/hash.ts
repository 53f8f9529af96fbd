/** Content hashes for cache keys and hashed file names. */
import { createHash } from 'node:crypto';

/** Hex SHA-256 of strings or bytes, one after the other. */
export function hash(...values: (string | Uint8Array)[]): string {
  const hasher = createHash('sha256');
  for (const value of values) hasher.update(value);
  return hasher.digest('hex');
}
