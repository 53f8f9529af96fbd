/** Stage 4b, the API reference's pages: each spec's generated markdown joins the content folder. */
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { LastUpdated } from '../../../runtime/manifest';
import { versionHeaderValue } from '../../../runtime/auth/http';
import type { ResolvedConfig } from '../config';
import { readLastUpdates } from '../git';
import type { PageResult } from '../page-job';
import type { ContentFiles } from '../sources';
import { textPlace } from '../../util/text-place';
import { loadSpecs } from './load';
import { apiPages } from './pages';

/** What the API reference adds: the generated pages' edit links and last updates (those of their spec). */
export interface ApiPages {
  /** The spec a generated page comes from, by its virtual path below the content folder. */
  source: Map<string, string>;
  editUrl: Map<string, string>;
  lastUpdated: Map<string, LastUpdated>;
  /** The files the specs' `$ref`s named, with their stats when read (`LoadedSpec.refFiles`). */
  refFiles: [path: string, stats: string][];
}

/**
 * Loads the configured OpenAPI specs and adds their pages to `files` as if they were markdown files
 * of the content folder below each spec's route; their edit link and last update are the spec's.
 */
export async function generateApiPages(root: string, config: ResolvedConfig, files: ContentFiles, displayPrefix: string): Promise<ApiPages> {
  const specs = await loadSpecs(root, config.openapi);
  const pages: ApiPages = { source: new Map(), editUrl: new Map(), lastUpdated: new Map(), refFiles: specs.flatMap((spec) => spec.refFiles) };
  // The edit URL points into the content folder; a spec's is the same base with its own path.
  const editBase = config.editUrl.endsWith(displayPrefix) ? config.editUrl.slice(0, -displayPrefix.length) : undefined;
  const updatesByDir = new Map<string, Promise<Map<string, LastUpdated>>>();
  for (const spec of specs) {
    const generated = apiPages(spec, { defaultHeaders: [[`X-${config.site.brand}-Version`, versionHeaderValue(config.site.app)]], backendUrl: config.site.app.backendUrl });
    const at = config.openapi.indexOf(spec.config);
    const generatedBy = { what: `the API reference of ${spec.file}`, setting: `\`openapi[${at}].route\``, configFile: config.configFile };
    for (const file of [...generated.markdown, ...generated.categories]) file.generatedBy = generatedBy;
    files.markdown.push(...generated.markdown);
    files.categories.push(...generated.categories);
    const dir = dirname(spec.file);
    if (!updatesByDir.has(dir)) updatesByDir.set(dir, readLastUpdates(join(root, dir)));
    const updated = (await updatesByDir.get(dir)!).get(basename(spec.file)) ?? { timestamp: Math.round(statSync(join(root, spec.file)).mtimeMs) };
    for (const file of generated.markdown) {
      pages.source.set(file.rel, spec.file);
      if (editBase) pages.editUrl.set(file.rel, editBase + spec.file);
      pages.lastUpdated.set(file.rel, updated);
    }
  }
  return pages;
}

/**
 * Problems found in a generated API page name its spec (`specs/x.yaml (generated page /route)`): the
 * virtual markdown file does not exist for the writer to open. A link, whose text is the spec's own
 * (a description's), names the spec's line and column where that text is (the spec read from `root`).
 */
export function nameGeneratedSources(results: PageResult[], source: Map<string, string>, displayPrefix: string, root: string): void {
  if (source.size === 0) return;
  const texts = new Map<string, string | undefined>();
  const specText = (spec: string): string | undefined => {
    if (!texts.has(spec)) {
      try {
        texts.set(spec, readFileSync(join(root, spec), 'utf8'));
      } catch {
        texts.set(spec, undefined);
      }
    }
    return texts.get(spec);
  };
  const specOf = (file: string): string | undefined => (file.startsWith(displayPrefix) ? source.get(file.slice(displayPrefix.length)) : undefined);
  const rename = <T extends { file: string; line?: number; column?: number }>(item: T, route: string): T => {
    const spec = specOf(item.file);
    return spec ? { ...item, file: `${spec} (generated page ${route})`, line: undefined, column: undefined } : item;
  };
  for (const result of results) {
    result.errors = result.errors.map((item) => rename(item, result.route));
    result.warnings = result.warnings.map((item) => rename(item, result.route));
    result.links = result.links.map((link) => {
      const spec = specOf(link.file);
      const text = spec && link.written ? specText(spec) : undefined;
      const at = text ? text.indexOf(link.written) : -1;
      const place = at === -1 ? undefined : textPlace(text!, at);
      return place ? { ...link, file: spec!, ...place } : rename(link, result.route);
    });
  }
}

