/**
 * A render worker reads a page's body from its file (the build's main thread keeps only its hash):
 * a file removed between the two reads is that page's error, naming it, never a crash of the build.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PageBuilder, type PageJob, type PageJobContext } from '../../../../cli/build/page-job';

describe('cli/build/page-job', () => {
  it('reports a page whose file went away before its worker read it, by its file', async () => {
    const contentDir = mkdtempSync(join(tmpdir(), 'docs-page-job-'));
    try {
      writeFileSync(join(contentDir, 'gone.md'), '---\ntitle: Gone\n---\n\nText.\n');
      // Only what a page needs before its markdown is read: the read fails first.
      const context = { contentDir, outDir: join(contentDir, 'out'), markdown: { displayPrefix: 'content/' } } as unknown as PageJobContext;
      const job: PageJob = { rel: 'gone.md', id: 'gone', route: '/gone', sidebar: 'docs', title: 'Gone', hideToc: false, bodyHash: 'x', breadcrumbs: [] };
      rmSync(join(contentDir, 'gone.md'));
      const result = await new PageBuilder(context).build(job);
      expect(result.errors).toEqual([expect.objectContaining({ file: 'content/gone.md', message: expect.stringMatching(/was removed or cannot be read any more \(ENOENT\) while the build ran/), fix: 'build again' })]);
      expect(result.files).toEqual([]);
    } finally {
      rmSync(contentDir, { recursive: true, force: true });
    }
  });
});
