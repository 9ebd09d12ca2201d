// Every branch of the gate decision table (contract §2, §9): default and strict mode, capability
// and fixture gates, opted out or not, and the order in which gates are read.

import { describe, expect, it } from 'vitest';
import { checkGates } from '../../lib/gates.ts';
import type { LegDefinition } from '../../lib/legs.ts';
import { LEGS, legById } from '../../lib/legs.ts';
import type { GateName } from '../../lib/types.ts';

const MEAN = legById('openwop.requirement.0246.mean-gated');
const FIXTURE = 'conformance-eval-trajectory-gate-mean';

const FULL = {
  agents: { evalSuite: { modes: ['golden'], trajectory: {}, trials: {} } },
  fixtures: [FIXTURE],
};
const NO_TRIALS = {
  agents: { evalSuite: { modes: ['golden'], trajectory: {} } },
  fixtures: [FIXTURE],
};
const NO_FIXTURE = { agents: FULL.agents, fixtures: [] };

const DEFAULT = { requireBehavior: false, optedOut: [] as GateName[] };
const strict = (...optedOut: GateName[]) => ({ requireBehavior: true, optedOut });

describe('checkGates', () => {
  it('proceeds when every capability is advertised and the fixture is listed', () => {
    expect(checkGates(MEAN, FULL, strict())).toEqual({ proceed: true });
  });

  it('lets a server-free leg proceed whatever discovery says', () => {
    const serverFree = LEGS.find((l) => l.fixtureId === undefined);
    expect(serverFree).toBeDefined();
    expect(checkGates(serverFree as LegDefinition, undefined, strict())).toEqual({ proceed: true });
  });

  it('default mode: a missing capability is inapplicable, naming the host fact', () => {
    expect(checkGates(MEAN, NO_TRIALS, DEFAULT)).toEqual({
      proceed: false,
      disposition: 'inapplicable',
      gate: 'agents.evalSuite.trials',
      reason: 'host does not advertise agents.evalSuite.trials',
    });
  });

  it('the evalSuite gate also requires golden among its modes', () => {
    const rubricOnly = {
      ...FULL,
      agents: { evalSuite: { modes: ['rubric'], trajectory: {}, trials: {} } },
    };
    expect(checkGates(MEAN, rubricOnly, DEFAULT)).toEqual({
      proceed: false,
      disposition: 'inapplicable',
      gate: 'agents.evalSuite',
      reason: 'host does not list golden in agents.evalSuite.modes',
    });
  });

  it('the first failing gate in order decides, before the fixture gate', () => {
    const bare = { agents: { evalSuite: { modes: ['golden'] } }, fixtures: [] };
    const decision = checkGates(MEAN, bare, DEFAULT);
    expect(decision).toMatchObject({ gate: 'agents.evalSuite.trajectory' });
    expect(checkGates(MEAN, {}, DEFAULT)).toMatchObject({ gate: 'agents.evalSuite' });
  });

  it('default mode: an unlisted fixture is inapplicable', () => {
    expect(checkGates(MEAN, NO_FIXTURE, DEFAULT)).toEqual({
      proceed: false,
      disposition: 'inapplicable',
      gate: 'fixture',
      reason: `host does not list fixture ${FIXTURE} in discovery fixtures`,
    });
  });

  it('strict mode: a missing capability that is opted out is skipped', () => {
    expect(checkGates(MEAN, NO_TRIALS, strict('agents.evalSuite.trials'))).toEqual({
      proceed: false,
      disposition: 'skipped',
      gate: 'agents.evalSuite.trials',
      reason:
        'host does not advertise agents.evalSuite.trials; agents.evalSuite.trials is opted out in OPENWOP_OPTED_OUT_PROFILES',
    });
  });

  it('strict mode: a missing capability opted out under another name fails the leg', () => {
    expect(checkGates(MEAN, NO_TRIALS, strict('agents.evalSuite.trajectory'))).toEqual({
      proceed: false,
      disposition: 'executed-fail',
      gate: 'agents.evalSuite.trials',
      reason:
        'host does not advertise agents.evalSuite.trials; strict mode requires it and agents.evalSuite.trials is not opted out in OPENWOP_OPTED_OUT_PROFILES',
    });
  });

  it('strict mode: an unlisted fixture is skipped when one of the leg gates is opted out', () => {
    expect(checkGates(MEAN, NO_FIXTURE, strict('agents.evalSuite.trials'))).toEqual({
      proceed: false,
      disposition: 'skipped',
      gate: 'fixture',
      reason: `host does not list fixture ${FIXTURE} in discovery fixtures; the leg's gate agents.evalSuite.trials is opted out in OPENWOP_OPTED_OUT_PROFILES`,
    });
  });

  it('strict mode: an unlisted fixture with no leg gate opted out fails the leg', () => {
    const suiteGated = legById('openwop.requirement.0246.suite-gated');
    const decision = checkGates(suiteGated, NO_FIXTURE, strict('agents.evalSuite.trials'));
    expect(decision).toEqual({
      proceed: false,
      disposition: 'executed-fail',
      gate: 'fixture',
      reason:
        "host does not list fixture conformance-eval-trajectory-gate in discovery fixtures; strict mode requires it and none of the leg's gates is opted out",
    });
  });

  it('a discovery document that is not an object fails the first gate', () => {
    expect(checkGates(MEAN, 'openwop', DEFAULT)).toMatchObject({
      disposition: 'inapplicable',
      gate: 'agents.evalSuite',
    });
  });
});
