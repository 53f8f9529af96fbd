import { describe, expect, it } from 'vitest';
import { categoryLabelProblem, MAX_LABEL_CHARACTERS, pageLabelProblems } from '../../../../cli/build/label-length';

describe('cli/build/label-length', () => {
  it('takes a label of 1,000 characters, counting a character outside the BMP (two UTF-16 units) as one, and refuses 1,001', () => {
    expect(MAX_LABEL_CHARACTERS).toBe(1_000);
    const names = (text: string) => ({ file: 'content/a.md', title: text, titleFrom: { key: 'title' as const, line: 2 }, sidebarLabel: { text, line: 3 } });
    expect(pageLabelProblems(names('x'.repeat(1_000)))).toEqual([]);
    expect(pageLabelProblems(names('😀'.repeat(1_000)))).toEqual([]);
    expect(pageLabelProblems(names('x'.repeat(1_001))).map((problem) => `${problem.line}: ${problem.message.split(':')[0]}`)).toEqual([
      '2: frontmatter `title` is 1,001 characters long, more than a page title may be (1,000)',
      '3: frontmatter `sidebar_label` is 1,001 characters long, more than a sidebar label may be (1,000)',
    ]);
  });

  it('names the line of a category label in JSON and YAML', () => {
    const label = 'c'.repeat(1_200);
    expect(categoryLabelProblem('a/_category_.json', `{\n  "position": 1,\n  "label": "${label}"\n}\n`, label)).toMatchObject({ line: 3, pointer: '/label' });
    expect(categoryLabelProblem('a/_category_.yml', `position: 1\nlabel: ${label}\n`, label)).toMatchObject({ line: 2, pointer: '/label' });
    expect(categoryLabelProblem('a/_category_.yml', 'label: Racks\n', 'Racks')).toBeUndefined();
  });
});
