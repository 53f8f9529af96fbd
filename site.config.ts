/**
 * The Quad staff portal: everything site-specific lives here (DESIGN §1). The generator in cli/ and
 * runtime/ knows nothing of Quad.
 */
import { defineConfig } from 'docs';

export default defineConfig({
  title: 'Docs',
  tagline: 'Documentation for Quad',
  brand: 'Quad',
  product: 'quad',
  locale: 'en-GB',
  localeLabel: 'English (en-GB)',
  version: { name: 'current', label: 'Next' },
  contentDir: 'content',
  repository: {
    url: 'https://git.quad.example/quad/docs',
    editUrl: 'https://git.quad.example/quad/docs/edit/master/content/',
  },
  navbar: [
    { label: 'Internal wiki', to: '/' },
    { label: 'Backend', to: '/backend/onboarding' },
    { label: 'Contentproviders', to: '/contentproviders/onboarding' },
    { label: '24 urenloop', to: '/24urenloop' },
    { label: 'Infrastructure', to: '/infrastructure/onboarding' },
    { label: 'Frontend', to: '/frontend/onboarding' },
    { label: 'Onboarding', to: '/onboarding' },
  ],
  footer: { copyright: 'Copyright © 2025 Quad' },
  sidebars: [
    { id: 'internal', label: 'Internal wiki', dir: 'internal-wiki' },
    { id: 'backend', label: 'Backend', dir: 'backend' },
    { id: 'contentProviders', label: 'Contentproviders', dir: 'contentproviders' },
    { id: '24urenloop', label: '24 urenloop', dir: '24urenloop' },
    { id: 'infrastructure', label: 'Infrastructure', dir: 'infrastructure' },
    { id: 'onboarding', label: 'Onboarding', dir: 'onboarding' },
    { id: 'frontend', label: 'Frontend', dir: 'frontend' },
  ],
  homepage: { doc: 'internal-wiki/index' },
  announcement: {
    id: 'race-runbook-2025',
    content:
      'Working a 24urenloop shift? Read the <a href="/24urenloop/draaiboeken/update-website">race-day runbook</a> before you start.',
    backgroundColor: '#1f4e8c',
    textColor: '#ffffff',
    isCloseable: true,
  },
  app: {
    platform: 'WEB',
    version: '4.0.0',
    build: 1,
    production: true,
    loginPath: '/login',
    logoutPath: '/logout',
    basePath: '/',
    buttons: { logout: 'Logout', login: 'Login' },
    analyticsKey: 'quad-docs-web',
    backendUrl: 'https://api.quad.example',
    frontendUrl: 'https://quad.example',
  },
  auth: {
    roles: ['admin', 'quad_member'],
    loginHeading: 'Log in to Quad Docs',
    loginButton: 'Log in with your Quad account',
    supportEmail: 'it@quad.example',
    storageKey: 'quad-docs-auth',
  },
  // API reference generated from the specs: an info page and one page per operation each.
  openapi: [
    { file: 'specs/user-authentication.yaml', route: '/backend/api/user-authentication', sidebar: 'backend' },
    { file: 'specs/cp-authentication.yaml', route: '/backend/api/cp-authentication', sidebar: 'backend', infoSlug: 'backend-cp-api-specification' },
    { file: 'specs/24urenloop.yaml', route: '/24urenloop/api', sidebar: '24urenloop' },
  ],
  markdown: {
    highlightLanguages: ['ruby', 'json', 'bash'],
    toc: { minLevel: 2, maxLevel: 3 },
    codeTheme: 'github-dark',
  },
  titleSeparator: '|',
  // Not `gate: true`: a local build and `docs serve` send logins to `app.backendUrl` (or
  // DOCS_BACKEND_URL, for previews and tests); the published portal is built with `--gate` for the
  // gated host (README, "In CI").
});
