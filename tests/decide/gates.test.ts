// Every branch of the gate decision table (contract §2, §9): default and strict mode, the major-2
// gate, capability, limit and fixture gates, opted out or not, and the order they are read in.

import { describe, expect, it } from 'vitest';
import { checkGates } from '../../lib/decide/gates.ts';
import type { FixtureNeeds, LegDefinition } from '../../lib/legs.ts';
import { LEGS, legById } from '../../lib/legs.ts';
import type { GateName } from '../../lib/types.ts';

const MEAN = legById('openwop.requirement.0246.mean-gated');
const FIXTURE = 'conformance-eval-trajectory-gate-mean';

const V2 = { protocolVersions: ['1.11', '2.0'], preferredVersion: '1.11' };
const FULL = {
  ...V2,
  agents: { evalSuite: { modes: ['golden'], trajectory: {}, trials: {} } },
  fixtures: [FIXTURE],
};
const NO_TRIALS = {
  ...V2,
  agents: { evalSuite: { modes: ['golden'], trajectory: {} } },
  fixtures: [FIXTURE],
};
const NO_FIXTURE = { ...V2, agents: FULL.agents, fixtures: [] };

/** FULL with the evalSuite facet's members replaced or added. */
function limited(evalSuite: Record<string, unknown>) {
  return { ...FULL, agents: { evalSuite: { ...FULL.agents.evalSuite, ...evalSuite } } };
}

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
    const bare = { ...V2, agents: { evalSuite: { modes: ['golden'] } }, fixtures: [] };
    const decision = checkGates(MEAN, bare, DEFAULT);
    expect(decision).toMatchObject({ gate: 'agents.evalSuite.trajectory' });
    expect(checkGates(MEAN, V2, DEFAULT)).toMatchObject({ gate: 'agents.evalSuite' });
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
      gate: 'protocol',
    });
  });
});

describe('the major-2 gate', () => {
  const hostLegs = LEGS.filter((l) => l.fixtureId !== undefined);

  it('makes every host leg inapplicable when protocolVersions lists no 2.x, before anything else', () => {
    const v1Only = { ...FULL, protocolVersions: ['1.11', '1.2'] };
    expect(hostLegs.length).toBeGreaterThan(0);
    for (const leg of hostLegs) {
      expect(checkGates(leg, v1Only, DEFAULT)).toEqual({
        proceed: false,
        disposition: 'inapplicable',
        gate: 'protocol',
        reason:
          'host does not serve OpenWOP major 2: protocolVersions lists no 2.x (it lists ["1.11", "1.2"])',
      });
    }
    // Checked first: a host that also lacks every capability and fixture is still told major 2.
    expect(checkGates(MEAN, { protocolVersions: ['1.0'] }, DEFAULT)).toMatchObject({
      gate: 'protocol',
    });
  });

  it('names a v1 document that carries only protocolVersion', () => {
    const rest: Record<string, unknown> = { ...FULL };
    delete rest.protocolVersions;
    delete rest.preferredVersion;
    expect(checkGates(MEAN, { ...rest, protocolVersion: '1.11' }, DEFAULT)).toMatchObject({
      gate: 'protocol',
      reason:
        'host does not serve OpenWOP major 2: discovery is a v1 document (protocolVersion "1.11", no protocolVersions)',
    });
  });

  it('accepts any 2.<minor> and refuses look-alikes', () => {
    expect(checkGates(MEAN, { ...FULL, protocolVersions: ['2.13'] }, DEFAULT)).toEqual({
      proceed: true,
    });
    for (const version of ['2', '2.01', '12.0', 'v2.0', 2]) {
      expect(
        checkGates(MEAN, { ...FULL, protocolVersions: [version] }, DEFAULT),
        String(version),
      ).toMatchObject({ gate: 'protocol' });
    }
  });

  it('strict mode opts out of it as agents.evalSuite', () => {
    const v1 = { ...FULL, protocolVersions: ['1.11'] };
    expect(checkGates(MEAN, v1, strict('agents.evalSuite'))).toMatchObject({
      disposition: 'skipped',
      gate: 'protocol',
    });
    expect(checkGates(MEAN, v1, strict('agents.evalSuite.trials'))).toMatchObject({
      disposition: 'executed-fail',
      gate: 'protocol',
      reason: expect.stringContaining(
        'strict mode requires it and agents.evalSuite is not opted out in OPENWOP_OPTED_OUT_PROFILES',
      ),
    });
  });

  it('leaves the server-free leg alone', () => {
    const serverFree = LEGS.find((l) => l.fixtureId === undefined) as LegDefinition;
    expect(checkGates(serverFree, { protocolVersions: ['1.0'] }, DEFAULT)).toEqual({
      proceed: true,
    });
  });
});

describe('the capability claim', () => {
  it('an empty facet advertises; supported: false withdraws; supported: true is tolerated', () => {
    const control = legById('openwop.requirement.0246.no-trajectory-ungated');
    const listed = { ...V2, fixtures: [control.fixtureId] };
    // {} advertises evalSuite, but without modes golden is not served.
    expect(checkGates(control, { ...listed, agents: { evalSuite: {} } }, DEFAULT)).toMatchObject({
      reason: 'host does not list golden in agents.evalSuite.modes',
    });
    const golden = { modes: ['golden'] };
    expect(checkGates(control, { ...listed, agents: { evalSuite: golden } }, DEFAULT)).toEqual({
      proceed: true,
    });
    expect(
      checkGates(
        control,
        { ...listed, agents: { evalSuite: { ...golden, supported: true } } },
        DEFAULT,
      ),
    ).toEqual({ proceed: true });
    expect(
      checkGates(
        control,
        { ...listed, agents: { evalSuite: { ...golden, supported: false } } },
        DEFAULT,
      ),
    ).toMatchObject({ reason: 'host does not advertise agents.evalSuite' });
  });
});

describe('advertised limits below a fixture need', () => {
  it('maxTasksPerSuite below the task count, naming the limit and both numbers', () => {
    const suiteGated = legById('openwop.requirement.0246.suite-gated');
    const doc = { ...limited({ maxTasksPerSuite: 1 }), fixtures: [suiteGated.fixtureId] };
    expect(checkGates(suiteGated, doc, DEFAULT)).toEqual({
      proceed: false,
      disposition: 'inapplicable',
      gate: 'agents.evalSuite.maxTasksPerSuite',
      reason: "host advertises agents.evalSuite.maxTasksPerSuite 1, below the fixture's 2 tasks",
    });
    const roomy = { ...limited({ maxTasksPerSuite: 2 }), fixtures: doc.fixtures };
    expect(checkGates(suiteGated, roomy, DEFAULT)).toEqual({ proceed: true });
  });

  it('trials.maxCount below the trial count', () => {
    const boundary = legById('openwop.requirement.0246.mean-partial-inclusive');
    const doc = {
      ...limited({ trials: { maxCount: 3 } }),
      fixtures: [boundary.fixtureId],
    };
    expect(checkGates(boundary, doc, DEFAULT)).toMatchObject({
      disposition: 'inapplicable',
      gate: 'agents.evalSuite.trials.maxCount',
      reason: "host advertises agents.evalSuite.trials.maxCount 3, below the fixture's 4 trials",
    });
  });

  it('a pass rule the host does not list', () => {
    const doc = limited({ trials: { maxCount: 10, passRules: ['all', 'any'] } });
    expect(checkGates(MEAN, doc, DEFAULT)).toMatchObject({
      gate: 'agents.evalSuite.trials.passRules',
      reason:
        "host advertises agents.evalSuite.trials.passRules [all, any], without the fixture's pass rule mean",
    });
  });

  it('a match mode the host does not list', () => {
    const suiteGated = legById('openwop.requirement.0246.suite-gated');
    const doc = {
      ...limited({ trajectory: { matchModes: ['exact', 'any-order'] } }),
      fixtures: [suiteGated.fixtureId],
    };
    expect(checkGates(suiteGated, doc, DEFAULT)).toMatchObject({
      gate: 'agents.evalSuite.trajectory.matchModes',
      reason:
        "host advertises agents.evalSuite.trajectory.matchModes [exact, any-order], without in-order, which the fixture's trajectories use (they use [exact, in-order])",
    });
  });

  it('an absent member, or one not of its type, limits nothing', () => {
    expect(checkGates(MEAN, limited({ trials: {}, trajectory: {} }), DEFAULT)).toEqual({
      proceed: true,
    });
    const odd = limited({ maxTasksPerSuite: '1', trials: { maxCount: null, passRules: 'all' } });
    expect(checkGates(MEAN, odd, DEFAULT)).toEqual({ proceed: true });
  });

  it('a limit of a capability the leg does not gate on is not read', () => {
    const control = legById('openwop.requirement.0246.no-trajectory-ungated');
    const doc = {
      ...limited({ trials: { maxCount: 0, passRules: [] }, trajectory: { matchModes: [] } }),
      fixtures: [control.fixtureId],
    };
    expect(checkGates(control, doc, DEFAULT)).toEqual({ proceed: true });
  });

  it('limits come after the capability gates and before the fixture listing', () => {
    const noTrajectory = {
      ...V2,
      agents: { evalSuite: { modes: ['golden'], maxTasksPerSuite: 0 } },
      fixtures: [],
    };
    expect(checkGates(MEAN, noTrajectory, DEFAULT)).toMatchObject({
      gate: 'agents.evalSuite.trajectory',
    });
    const unlisted = { ...limited({ maxTasksPerSuite: 0 }), fixtures: [] };
    expect(checkGates(MEAN, unlisted, DEFAULT)).toMatchObject({
      gate: 'agents.evalSuite.maxTasksPerSuite',
    });
  });

  it.each([
    [{ maxTasksPerSuite: 0 }, 'agents.evalSuite'],
    [{ trials: { maxCount: 1 } }, 'agents.evalSuite.trials'],
    [{ trials: { passRules: ['all'] } }, 'agents.evalSuite.trials'],
    [{ trajectory: { matchModes: ['exact'] } }, 'agents.evalSuite.trajectory'],
  ] as const)('strict mode: %j is opted out as %s and fails otherwise', (facet, optOut) => {
    const doc = limited(facet);
    expect(checkGates(MEAN, doc, strict(optOut))).toMatchObject({
      disposition: 'skipped',
      reason: expect.stringContaining(`; ${optOut} is opted out in OPENWOP_OPTED_OUT_PROFILES`),
    });
    const others = (
      ['agents.evalSuite', 'agents.evalSuite.trajectory', 'agents.evalSuite.trials'] as const
    ).filter((g) => g !== optOut);
    expect(checkGates(MEAN, doc, strict(...others))).toMatchObject({
      disposition: 'executed-fail',
    });
  });
});

describe('limit gates read only what the leg declares and gates on', () => {
  /** A leg of this suite's shape that no shipped requirement has: its own gates and needs. */
  function legWith(gates: readonly GateName[], needs?: FixtureNeeds): LegDefinition {
    const leg = { id: 'openwop.requirement.0246.custom', title: 't', fixtureId: FIXTURE, gates };
    return { ...leg, ref: 'r', ...(needs === undefined ? {} : { needs }) };
  }
  const NEEDS = { taskCount: 3, trialCount: 2, matchModes: [] };

  it('a leg that declares no needs is held to no limit', () => {
    const undeclared = legWith(MEAN.gates);
    const tight = limited({ maxTasksPerSuite: 0, trials: { maxCount: 0 } });
    expect(checkGates(undeclared, tight, DEFAULT)).toEqual({ proceed: true });
  });

  it('maxTasksPerSuite is read only on a leg that gates on agents.evalSuite', () => {
    const trajectoryOnly = legWith(['agents.evalSuite.trajectory'], NEEDS);
    expect(checkGates(trajectoryOnly, limited({ maxTasksPerSuite: 1 }), DEFAULT)).toEqual({
      proceed: true,
    });
  });

  it('golden among the modes is asked only by the agents.evalSuite gate', () => {
    const trajectoryOnly = legWith(['agents.evalSuite.trajectory'], NEEDS);
    const rubricOnly = limited({ modes: ['rubric'] });
    expect(checkGates(trajectoryOnly, rubricOnly, DEFAULT)).toEqual({ proceed: true });
  });

  it('a limit equal to the need holds', () => {
    const doc = limited({ maxTasksPerSuite: 1, trials: { maxCount: 2 } });
    expect(checkGates(MEAN, doc, DEFAULT)).toEqual({ proceed: true });
  });

  it('a listing that holds every mode and rule the fixture uses holds', () => {
    const doc = limited({
      trials: { passRules: ['mean'] },
      trajectory: { matchModes: ['any-order', 'in-order'] },
    });
    expect(checkGates(MEAN, doc, DEFAULT)).toEqual({ proceed: true });
  });

  it('a trials-gated leg whose fixture names no pass rule is held to no passRules listing', () => {
    const ruleless = legWith(['agents.evalSuite', 'agents.evalSuite.trials'], NEEDS);
    expect(checkGates(ruleless, limited({ trials: { passRules: ['all'] } }), DEFAULT)).toEqual({
      proceed: true,
    });
  });

  it('lists every unlisted mode, and values that are not strings as JSON', () => {
    const suiteGated = legById('openwop.requirement.0246.suite-gated');
    const doc = {
      ...limited({ trajectory: { matchModes: ['any-order', { mode: 'exact' }] } }),
      fixtures: [suiteGated.fixtureId],
    };
    expect(checkGates(suiteGated, doc, DEFAULT)).toMatchObject({
      reason:
        'host advertises agents.evalSuite.trajectory.matchModes [any-order, {"mode":"exact"}], without exact, in-order, which the fixture\'s trajectories use (they use [exact, in-order])',
    });
  });

  it('strict mode: an unlisted fixture names every leg gate that is opted out', () => {
    const both = strict('agents.evalSuite.trials', 'agents.evalSuite.trajectory');
    expect(checkGates(MEAN, NO_FIXTURE, both)).toMatchObject({
      disposition: 'skipped',
      reason: `host does not list fixture ${FIXTURE} in discovery fixtures; the leg's gate agents.evalSuite.trajectory, agents.evalSuite.trials is opted out in OPENWOP_OPTED_OUT_PROFILES`,
    });
  });
});
