/**
 * The navbar item of a route's section (runtime/routing.ts): the build's lookup over every page
 * (`sectionItemOf`) names the item the navbar marks active (`isActiveSection`).
 */
import { describe, expect, it } from 'vitest';
import { isActiveSection, sectionItemOf } from '../../../../runtime/routing';

describe('sectionItemOf', () => {
  const item = (label: string, to: string) => ({ label, to });
  const navbars = [
    // The portal's shape: the wiki at `/`, the other sections by their first segment.
    [item('Wiki', '/'), item('Backend', '/backend'), item('Frontend', '/frontend/onboarding'), item('24urenloop', '/24urenloop')],
    // Two items of one section (the first owns it), and the root item last.
    [item('Guide', '/guide'), item('Install', '/guide/install'), item('Home', '/')],
    // No root item: a route no item claims has none.
    [item('API', '/api'), item('Guide', '/guide')],
    [],
  ];
  const routes = ['/', '/backend', '/backend/api/quad-header', '/frontend', '/frontend/releasing/apple', '/24urenloop/development', '/guide', '/guide/install', '/guide/faq', '/api/teams', '/internal-wiki/geschiedenis', '/onboarding'];

  it('names, for every route, the item the navbar marks active', () => {
    for (const items of navbars) {
      const itemOf = sectionItemOf(items);
      for (const route of routes) expect(itemOf(route), `${route} in ${items.map((one) => one.to).join(' ')}`).toBe(items.find((one) => isActiveSection(one, items, route)));
    }
  });

  it('gives a route no item claims to the root item, and to none without one', () => {
    expect(sectionItemOf(navbars[0]!)('/onboarding')?.label).toBe('Wiki');
    expect(sectionItemOf(navbars[1]!)('/guide/faq')?.label).toBe('Guide');
    expect(sectionItemOf(navbars[2]!)('/onboarding')).toBeUndefined();
  });
});
