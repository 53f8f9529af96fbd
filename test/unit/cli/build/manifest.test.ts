import { describe, expect, it } from 'vitest';
import { collectContent, type SourceFile } from '../../../../cli/build/content';
import type { ResolvedConfig } from '../../../../cli/build/config';
import { manifestOf, manifestText } from '../../../../cli/build/index';
import type { PageResult } from '../../../../cli/build/page-job';

// manifestText reads the version and locale of the config alone.
const config = { site: { version: { name: 'current', label: 'Next', isLast: true, path: '/', mainDocId: 'docs/index' }, locale: 'en-GB' } } as unknown as ResolvedConfig;
const options = { categories: [], sidebars: [{ id: 'docs', label: 'Docs', dir: 'docs' }, { id: '2024', label: 'Year', dir: '2024' }], displayPrefix: 'content/' };
const md = (rel: string, title: string): SourceFile => ({ rel, text: `---\ntitle: ${title}\n---\n\nText.\n` });
const resultOf = (route: string, n: number): PageResult => ({ route, dataUrl: `/assets/data/${n}.json`, mermaid: n % 2 === 0, links: [], ids: [], warnings: [], errors: [], cached: false, files: [], images: [] });

describe('manifest.json', () => {
  it('is the JSON of the manifest, also when made again from parts kept for unchanged pages and sidebars', () => {
    const files = [md('docs/index.md', 'Docs'), md('docs/a.md', 'Quotes "and" ünïcode'), md('2024/b.md', 'B'), md('2024/c.md', 'C')];
    const first = collectContent({ ...options, files });
    const results = first.docs.map((doc, i) => resultOf(doc.route, i));
    expect(manifestText(config, first, results)).toBe(JSON.stringify(manifestOf(config, first, results)));

    // a.md saved with another title: a new result for it, the others kept; the 2024 sidebar is the same tree.
    const saved = [files[0]!, md('docs/a.md', 'Renamed'), files[2]!, files[3]!];
    const second = collectContent({ ...options, files: saved }, first);
    const again = results.map((result, i) => (second.docs[i]!.rel === 'docs/a.md' ? resultOf(result.route, 9) : result));
    const text = manifestText(config, second, again);
    expect(text).toBe(JSON.stringify(manifestOf(config, second, again)));
    expect(text).toContain('"title":"Renamed"');
    expect(text).not.toContain('Quotes');
  });
});
