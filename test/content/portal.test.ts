/** The repository's own portal: every route of the specification exists, with real content, and builds clean. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../runtime/manifest';
import { REPO, readRoute, runDocs, type CliRun } from '../support/site';

/** The route list of the content issue, with `{a,b}` groups. */
const ROUTES = `
/  /internal-wiki/archief  /internal-wiki/draaiboeken  /internal-wiki/formaliteiten
/internal-wiki/geschiedenis  /internal-wiki/secretaris
/onboarding  /onboarding/guides/email-signature  /onboarding/guides/passbolt
/24urenloop  /24urenloop/why-astraea  /24urenloop/beacon/beacon-development
/24urenloop/beacon/beacon-manufacturing  /24urenloop/deployment/overview  /24urenloop/deployment/bars
/24urenloop/deployment/docker  /24urenloop/deployment/kubernetes/overview  /24urenloop/deployment/nats
/24urenloop/deployment/nixos/install/nuc  /24urenloop/deployment/nixos/install/raspberry_pi
/24urenloop/deployment/nixos/why-nixos  /24urenloop/deployment/website
/24urenloop/development/getting-started/backend/{overview,api,context,error-handling,routes}
/24urenloop/development/getting-started/{config,kv-store,nats,publisher,zod}
/24urenloop/development/getting-started/shared/env-variables
/24urenloop/development/getting-started/website/pages
/24urenloop/development/installation-guides/{docker,etcd,influxdb,nats,pnpm}
/24urenloop/draaiboeken/update-website  /24urenloop/history/2024/evaluation
/24urenloop/history/2024/race_course  /24urenloop/history/nats-bug
/24urenloop/nats-jetstream/development-guide
/backend/onboarding  /backend/onboarding/{git,infrastructure,install,stack,tipsandtricks}
/backend/table_of_contents  /backend/api/deprecations  /backend/api/quad-header
/backend/backend/{authentication,bitvrmap,cards,companies,content-providers,deployment}
/backend/backend/{environment-variables,event-specifications,notifications,quad-modules}
/backend/backend/{schedules,seasonal,seeds,targeting}
/backend/backend/ticket-feature/{models,payments,scanning,ticket-culling}
/contentproviders/onboarding  /contentproviders/table_of_contents
/contentproviders/onboarding/{deploying,flow,useful-commands,folder-structure,install,tips}
/contentproviders/codebase/{overview,sdk,structure}
/contentproviders/codebase/types/{event-specification,library,news,nodes,restaurant,schedule}
/frontend/onboarding  /frontend/onboarding/install  /frontend/onboarding/stack/{mobile,web}
/frontend/{deeplinking,macmini,notifications,secrets}  /frontend/releasing/{android,apple}
/frontend/weekview/{android,ios}
/infrastructure/onboarding  /infrastructure/table_of_contents
/infrastructure/{archive,bits-pieces,ansible,apple-certs,birthdays,flux-base-branch,support}
/infrastructure/cloud/{azure,google-workspace,passbolt}
/infrastructure/cwlab/{overleaf,self-hosted-cluster,runners}
`
  .split(/\s+/)
  .filter(Boolean)
  .flatMap((pattern) => {
    const group = /^(.*)\{(.*)\}$/.exec(pattern);
    return group ? group[2]!.split(',').map((name) => group[1] + name) : [pattern];
  });

/** Words of the page body's prose: code blocks and diagrams excluded. */
function bodyWords(html: string): number {
  const body = /<div class="markdown">([\s\S]*?)<\/div><\/article>/.exec(html)?.[1] ?? '';
  const prose = body
    .replace(/<pre[\s\S]*?<\/pre>/g, ' ')
    .replace(/<div class="mermaid"[\s\S]*?<\/div>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/g, ' ');
  return prose.split(/\s+/).filter((word) => /\p{L}/u.test(word)).length;
}

describe('the Quad portal content', () => {
  let run: CliRun;
  let dist: string;
  beforeAll(() => {
    dist = join(mkdtempSync(join(tmpdir(), 'docs-portal-')), 'dist');
    run = runDocs(['build', '--out', dist, '--no-cache'], { cwd: REPO });
  });

  it('builds with exit 0 and no warning', () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/, 0 warnings →/);
  });

  it('has every route of the specification, none of them the not-found page, each with 200+ words of prose', () => {
    expect(ROUTES.length).toBe(115);
    const short: string[] = [];
    for (const route of ROUTES) {
      const html = readRoute(dist, route);
      expect(html, route).not.toContain('Page not found');
      const words = bodyWords(html);
      if (words < 200) short.push(`${route} (${words} words)`);
    }
    expect(short).toEqual([]);
  });

  it('lands every navbar route on a page with its sidebar', () => {
    const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8')) as Manifest;
    const expected: Record<string, string> = {
      '/': 'internal',
      '/backend/onboarding': 'backend',
      '/contentproviders/onboarding': 'contentProviders',
      '/24urenloop': '24urenloop',
      '/infrastructure/onboarding': 'infrastructure',
      '/frontend/onboarding': 'frontend',
      '/onboarding': 'onboarding',
    };
    for (const [route, sidebar] of Object.entries(expected)) {
      expect(manifest.routes.find((entry) => entry.path === route)?.sidebar, route).toBe(sidebar);
      const html = readRoute(dist, route);
      expect(html, route).toMatch(new RegExp(`<a class="sidebar-link[^"]* active" href="${route}" aria-current="page">`));
    }
    expect(readRoute(dist, '/')).toContain('<title>');
    expect(readRoute(dist, '/')).toContain('<a class="navbar-link active" href="/" aria-current="page">Internal wiki</a>');
  });

  it('draws at least six mermaid diagrams and highlights ruby, json and bash', () => {
    const pages = ROUTES.map((route) => readRoute(dist, route));
    const diagrams = pages.reduce((sum, html) => sum + (html.match(/<div class="mermaid"/g)?.length ?? 0), 0);
    expect(diagrams).toBeGreaterThanOrEqual(6);
    for (const lang of ['ruby', 'json', 'bash']) expect(pages.some((html) => html.includes(`data-language="${lang}"`)), lang).toBe(true);
  });
});
