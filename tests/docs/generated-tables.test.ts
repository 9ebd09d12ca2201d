// The blocks the docs restate from `LEGS` are what `npm run docs:generate` writes now, so a leg
// added, renamed or regated shows up in the docs or fails here.

import { describe, expect, it } from 'vitest';

import { LEGS, type LegDefinition } from '../../lib/legs.ts';
import {
  beginMarker,
  discoveryExample,
  endMarker,
  fillTable,
  GENERATED,
  legsTable,
  regenerated,
  requirementsTable,
} from './generated-tables.ts';
import { readRepoFile } from './markdown.ts';

const ADDED: LegDefinition = {
  id: 'openwop.requirement.0246.added-later',
  title: 'a leg another branch adds | with a pipe',
  fixtureId: 'conformance-eval-trajectory-added-later',
  needs: { taskCount: 7, trialCount: 3, passRule: 'any', matchModes: ['exact'] },
  gates: ['agents.evalSuite'],
  ref: 'RFC 0246 §B',
};

describe('the generated blocks of the docs match LEGS', () => {
  for (const path of Object.keys(GENERATED)) {
    it(`${path} holds what npm run docs:generate writes`, async () => {
      const fresh = await regenerated(path);
      expect(readRepoFile(path) === fresh, `${path} is stale: run npm run docs:generate`).toBe(
        true,
      );
    });
  }

  it('every leg is a row of both tables, and every fixture is listed in the discovery example', () => {
    const legs = legsTable(LEGS);
    const requirements = requirementsTable(LEGS);
    for (const leg of LEGS) {
      expect(legs).toContain(`\`${leg.id}\``);
      expect(requirements).toContain(leg.title);
      if (leg.fixtureId !== undefined)
        expect(discoveryExample(LEGS)).toContain(`"${leg.fixtureId}"`);
    }
    expect(legs.split('\n')).toHaveLength(LEGS.length + 2);
    expect(requirements.split('\n')).toHaveLength(LEGS.length + 2);
  });

  it('a leg added to LEGS appears in each block with no edit to a document', async () => {
    const more = [...LEGS, ADDED];
    expect(legsTable(more)).toContain(
      '| `openwop.requirement.0246.added-later` | `conformance-eval-trajectory-added-later` | 7 tasks, 3 trials, pass rule `any`, match `exact` | `agents.evalSuite` | RFC 0246 §B |',
    );
    expect(requirementsTable(more)).toContain(
      '| `added-later` | a leg another branch adds \\| with a pipe |',
    );
    for (const path of Object.keys(GENERATED)) {
      // docs/bounds.md restates the input limits, not LEGS.
      if (path === 'docs/bounds.md') continue;
      const text = await regenerated(path, more);
      expect(text, path).not.toBe(readRepoFile(path));
      // docs/ci.md restates only how many legs there are.
      // (and the generated pack a strict run drives beside them).
      if (path === 'docs/ci.md') expect(text, path).toContain(`of ${more.length + 1} failed`);
      else expect(text, path).toContain('added-later');
    }
  });

  it('a document whose markers are missing, repeated or swapped is refused, not left stale', () => {
    const begin = beginMarker('legs');
    const end = endMarker('legs');
    expect(fillTable(`a\n${begin}\nold\n${end}\nb`, 'legs', 'new')).toBe(
      `a\n${begin}\n\nnew\n\n${end}\nb`,
    );
    expect(() => fillTable('no markers', 'legs', 'new')).toThrow(/no markers/);
    expect(() => fillTable(`${begin}${end}${begin}${end}`, 'legs', 'new')).toThrow(/repeated/);
    expect(() => fillTable(`${end}${begin}`, 'legs', 'new')).toThrow(/out of order/);
  });
});
