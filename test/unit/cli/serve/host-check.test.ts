import { describe, expect, it } from 'vitest';
import { networkNotes } from '../../../../cli/serve/host-check';

describe('cli/serve/host-check networkNotes', () => {
  it('says that an ungated server on a network address gives every page to anyone there (probe 6-C M3)', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20']) {
      const [note, ...rest] = networkNotes(host, false, true);
      expect(note).toBe(`Note: on ${host} anyone on the network can read every page, the search index included: the login screen only hides them in a browser. Start with --gate to serve them to signed-in readers alone.`);
      expect(rest).toEqual([]);
    }
  });

  it('says nothing for this machine alone, and what the gate cannot do on a network address', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1']) {
      expect(networkNotes(host, false, true)).toEqual([]);
      expect(networkNotes(host, true, true)).toEqual([]);
    }
    expect(networkNotes('0.0.0.0', true, true).join('\n')).toMatch(/development account.*\n.*HTTPS/);
    expect(networkNotes('0.0.0.0', true, false)).toHaveLength(1);
  });
});
