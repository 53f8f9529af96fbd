/**
 * True when `bytes` is one msgpack map written plainly (fixmap, map 16, map 32): not msgpackr's record
 * encoding, whose objects start with a structure's definition or a record id.
 */
export function isPlainMap(bytes: Uint8Array): boolean {
  const first = bytes[0]!;
  return (first & 0xf0) === 0x80 || first === 0xde || first === 0xdf;
}
