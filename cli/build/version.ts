/** The generator's version: a hash of its own code. Apart from the store, so that a build with nothing to do does not load LMDB. */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let generatorHash: string | undefined;

/**
 * A hash of the generator's own code (the compiled CLI, or the sources when run from them), so that
 * a new version of `docs` never reuses output or cache entries of an older one. The compiled CLI
 * carries it in its `stamp.json` (bin/ensure-built.mjs hashes the code once, when it compiles it).
 */
export function generatorVersion(): string {
  if (generatorHash) return generatorHash;
  const here = dirname(fileURLToPath(import.meta.url));
  try {
    const stamp = JSON.parse(readFileSync(join(here, 'stamp.json'), 'utf8')) as { version?: string };
    if (stamp.version) return (generatorHash = stamp.version);
  } catch {
    // Running from the sources: hash them below.
  }
  const hasher = createHash('sha256');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(m?js|tsx?)$/.test(name)) hasher.update(name).update(readFileSync(path));
    }
  };
  walk(here);
  generatorHash = hasher.digest('hex');
  return generatorHash;
}
