import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../../cli/util/errors';

describe('cli/util/errors', () => {
  it('prints a diagnostic as one line per part, whatever the file name holds', () => {
    expect(formatDiagnostic({ file: 'content/guide/a.md', line: 3, column: 7, message: 'broken link', fix: 'correct it' })).toBe('content/guide/a.md:3:7: broken link\n  fix: correct it');
    // A line break, a tab and a terminal escape in a file name are written as escapes.
    expect(formatDiagnostic({ file: 'content/two\nlines.md', line: 1, message: 'bad' })).toBe('content/two\\nlines.md:1: bad');
    expect(formatDiagnostic({ file: 'content/a\tb\u001b[31m.md', message: 'bad' })).toBe('content/a\\tb\\u001b[31m.md: bad');
    expect(formatDiagnostic({ file: 'site.config.ts', pointer: '/sidebars/0', message: 'bad' })).toBe('site.config.ts#/sidebars/0: bad');
  });
});
