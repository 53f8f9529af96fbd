/** The `docs` command line: parses arguments, runs a command, prints diagnostics, returns the exit code. */
import { Command, CommanderError } from 'commander';
import { resolve } from 'node:path';
import { buildSite } from './build/index';
import { DocsError, EXIT, formatDiagnostic } from './util/errors';

/** Runs `docs` with `argv` (without node and script) and resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = new Command()
    .name('docs')
    .description('Build and serve a documentation site')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });

  program
    .command('build')
    .description('build the site into dist/ (or --out DIR)')
    .option('--root <dir>', 'site root, the folder of site.config.ts', '.')
    .option('--out <dir>', 'output folder (default: <root>/dist)')
    .option('--no-cache', 'ignore and do not write the content-hash cache')
    .action(async (options: { root: string; out?: string; cache: boolean }) => {
      const report = await buildSite({
        root: resolve(options.root),
        outDir: options.out ? resolve(options.out) : undefined,
        env: process.env,
        cache: options.cache,
        workerUrl: process.env.DOCS_THREADS === '0' ? undefined : new URL('./worker.mjs', import.meta.url),
      });
      for (const warning of report.warnings) process.stderr.write(`warning ${formatDiagnostic(warning)}\n`);
      const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
      process.stdout.write(`Built ${plural(report.pages, 'page')} in ${report.seconds.toFixed(2)} s (${report.cachedPages} from cache), ${plural(report.warnings.length, 'warning')} → ${report.outDir}\n`);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    exitCode = reportError(error);
  }
  return exitCode;
}

function reportError(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  if (error instanceof DocsError) {
    for (const diagnostic of error.diagnostics) process.stderr.write(`error ${formatDiagnostic(diagnostic)}\n`);
    const count = error.diagnostics.length;
    process.stderr.write(`Build failed: ${count} error${count === 1 ? '' : 's'}; the previous output was left untouched.\n`);
    return EXIT[error.kind];
  }
  process.stderr.write(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.stderr.write('This is a bug in docs, not in your content; please report it with the output above.\n');
  return EXIT.internal;
}
