/**
 * A folder's category file, `_category_.json` or `_category_.yml` (Docusaurus reads both): its label
 * and position in the sidebar, each file checked (JSON or YAML errors at their line, unknown keys, one
 * file per folder). Part of stage 2, content (content.ts).
 */
import { parseDocument } from 'yaml';
import type { SourceFile } from './content';
import { compareNames, type CategoryMeta } from './sidebar-tree';
import type { Diagnostic } from '../util/errors';
import { jsonErrorPlace } from '../util/json-place';
import { categoryLabelProblem } from './label-length';
import { textPlace } from '../util/text-place';
import { s, validateShape } from '../util/validate';

/**
 * Every key a category file may hold, the one list of them (an unknown key's fix names them all). Only
 * `label` and `position` change anything: the other Docusaurus keys are accepted and left out, since a
 * category is its folder's index page and always expanded here (README, "Categories").
 */
const categoryShape = s.object({
  label: s.optional(s.string()),
  position: s.optional(s.number()),
  description: s.optional(s.string()),
  collapsed: s.optional(s.boolean()),
  collapsible: s.optional(s.boolean()),
  link: s.ignored(),
  className: s.ignored(),
  customProps: s.ignored(),
  key: s.ignored(),
});

/**
 * Each described folder's label and position, by its path below the content folder; problems go to
 * `problems`. A writer's category file for a folder an API reference generates (its label, its
 * position) is taken instead of the generated one; two generated ones are the config's problem,
 * reported with the pages they collide on (content.ts).
 */
export function readCategories(files: SourceFile[], displayPrefix: string, problems: Diagnostic[]): Map<string, CategoryMeta> {
  const meta = new Map<string, CategoryMeta>();
  const described = new Set<string>();
  // The writers' files first: a generated file then finds its folder described.
  const order = (file: SourceFile): number => (file.generatedBy ? 1 : 0);
  for (const file of [...files].sort((a, b) => order(a) - order(b) || compareNames(a.rel, b.rel))) {
    const display = displayPrefix + file.rel;
    let value: unknown;
    if (!file.rel.endsWith('.json')) {
      // `_category_.yml` (Docusaurus reads both).
      const doc = parseDocument(file.text, { prettyErrors: false });
      const error = doc.errors[0];
      if (error) {
        problems.push({ file: display, ...textPlace(file.text, error.pos[0]), message: `is not valid YAML: ${error.message.split('\n')[0]}`, fix: 'write it as `label: …` and `position: 1` on lines of their own' });
        continue;
      }
      try {
        value = doc.toJS({ maxAliasCount: 100 }) ?? {};
      } catch (thrown) {
        // An alias (`*name`) to no anchor, or aliases that multiply past the limit.
        problems.push({ file: display, message: `is not valid YAML: ${(thrown as Error).message.split('\n')[0]}`, fix: 'write the values out instead of using anchors and aliases' });
        continue;
      }
    } else {
      try {
        value = JSON.parse(file.text);
      } catch (error) {
        // V8 quotes the whole text in some messages: the first line of it is enough.
        problems.push({ file: display, ...jsonErrorPlace(file.text, error), message: `is not valid JSON: ${(error as Error).message.split('\n')[0]}`, fix: 'write it as { "label": "…", "position": 1 }' });
        continue;
      }
    }
    const folder = file.rel.replace(/\/?_category_\.[a-z]+$/, '');
    if (described.has(folder)) {
      if (file.generatedBy) continue;
      problems.push({ file: display, message: `describes the folder ${displayPrefix + folder} a second time`, fix: 'keep one category file per folder: _category_.json or _category_.yml' });
      continue;
    }
    described.add(folder);
    const found = validateShape(value, categoryShape);
    for (const p of found) problems.push({ file: display, pointer: `/${p.path.replace(/\./g, '/')}`, message: `\`${p.path}\` ${p.message}`, fix: p.fix });
    if (found.length > 0) continue;
    // What changes the sidebar, and only that.
    const { label, position } = value as CategoryMeta;
    const long = file.generatedBy ? undefined : categoryLabelProblem(display, file.text, label);
    if (long) problems.push(long);
    else meta.set(folder, { ...(label !== undefined ? { label } : {}), ...(position !== undefined ? { position } : {}) });
  }
  return meta;
}
