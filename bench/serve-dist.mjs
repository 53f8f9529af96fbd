// Starts `docs serve --dist DIST` on a free port (the project's own static host) for a bench that
// measures in Chromium; resolves to its origin and the server process (kill it when done). Without the
// gate (`--no-gate`), whatever the build was made for: these benches measure its pages, with credentials
// in localStorage as a signed-in reader has them; bench/gate-bench.mjs measures what the gate costs.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export function serveDist(root, dist, extra = []) {
  const server = spawn(process.execPath, [join(root, 'bin/docs.mjs'), 'serve', '--dist', dist, '--port', '0', '--no-gate', ...extra], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => {
    let printed = '';
    server.stdout.on('data', (chunk) => {
      printed += chunk;
      const match = /docs serve: (http:\/\/\S+)/.exec(printed);
      if (match) resolve({ origin: match[1], server });
    });
  });
}
