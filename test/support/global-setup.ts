/** Compiles the CLI once before any test spawns it, so parallel builds never race to compile it. */
import { ensureCliBuilt } from '../../bin/ensure-built.mjs';

export default async function setup(): Promise<void> {
  await ensureCliBuilt();
}
