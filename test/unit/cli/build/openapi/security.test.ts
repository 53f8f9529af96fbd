/** The API overview's "Security schemes" (cli/build/openapi/security.ts) in the cases a spec may put it. */
import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { overviewSecurityLines } from '../../../../../cli/build/openapi/security';

const bearer: Record<string, OpenAPIV3.SecuritySchemeObject> = { bearer: { type: 'http', scheme: 'bearer', description: 'The race-control token.' } };

describe('the overview of an API’s security', () => {
  it('says there is no authentication by default when the spec says `security: [{}]`, as when it says nothing', () => {
    const operations = [[], [{ bearer: [] }], [{}]];
    const written = overviewSecurityLines([{}], operations, bearer);
    expect(written).toEqual(overviewSecurityLines([], operations, bearer));
    expect(written[0]).toBe('No authentication by default: 1 of the 3 operations needs it, as its page says.');
    expect(written.join('\n')).not.toContain('Unless its page says otherwise');
    expect(written).toContain('- **bearer**: HTTP bearer — The race-control token.');
  });

  it('says nothing of an API with no operation and no scheme (the overview leaves the section out)', () => {
    expect(overviewSecurityLines([], [], {})).toEqual([]);
  });

  it('names the default once and counts the operations that need none', () => {
    const written = overviewSecurityLines([{ bearer: [] }], [[{ bearer: [] }], [], [{ bearer: [] }]], bearer);
    expect(written).toEqual(['Unless its page says otherwise, an operation needs this:', '', '- **bearer**: HTTP bearer — The race-control token.', '', '1 of the 3 operations needs no authentication.', '']);
  });
});
