/** The root of the `docs` package (where `runtime/` and `templates/` live), from source or compiled code. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'runtime', 'manifest.ts'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the docs package root above ${from}`);
    dir = parent;
  }
  return dir;
}

export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
