// Literal fixtures for the witness tests, each with a comment stating, from the contract's
// grading rules (contract §4), what a correct host reports for it. build.ts writes those reports.

import type { Fixture } from '../../lib/types.ts';

/**
 * Three tasks, two trials each, rule mean, passScore 0.6.
 * - right-path: in-order trajectory met in both trials (with an extra call): score 1, gated 1,
 *   passed.
 * - wrong-path: exact trajectory; trial 2 also calls a forbidden tool: score 1, gated 0.5,
 *   not passed (0.5 < 0.6).
 * - plain: no trajectory; trial 2 answers wrongly: score 0.5, gated 0.5 so no gatedScore,
 *   not passed.
 * Suite: aggregate (1 + 1 + 0.5) / 3, gated aggregate (1 + 0.5 + 0.5) / 3 = 0.667 ≥ 0.6: passed.
 */
export const GATED: Fixture = {
  id: 'witness-gated',
  requirement: 'openwop.requirement.0246.mean-gated',
  agentId: 'core.conformance.eval-scripted-agent',
  suite: {
    suiteId: 'witness.evals.gated',
    version: '2.1.0',
    modes: ['golden'],
    thresholds: { passScore: 0.6 },
    trials: { count: 2, passRule: 'mean' },
    tasks: [
      {
        taskId: 'right-path',
        input: { request: 'update the address of C-1' },
        expected: {
          kind: 'golden',
          match: { strategy: 'exact', value: 'address updated' },
          trajectory: {
            match: 'in-order',
            calls: [{ tool: 'crm:lookup', args: { id: 'C-1' } }, { tool: 'crm:update' }],
          },
        },
        fixtures: {
          toolResponses: [
            { tool: 'crm:lookup', response: { id: 'C-1' } },
            { tool: 'crm:update', response: true },
            { tool: 'crm:audit', response: [] },
          ],
        },
      },
      {
        taskId: 'wrong-path',
        input: { request: 'refund O-9' },
        expected: {
          kind: 'golden',
          match: { strategy: 'json-match', value: { order: 'O-9', refunded: true } },
          trajectory: {
            match: 'exact',
            calls: [{ tool: 'billing:refund' }],
            forbidden: ['billing:void'],
          },
        },
        fixtures: {
          toolResponses: [
            { tool: 'billing:refund', response: true },
            { tool: 'billing:void', response: true },
          ],
        },
      },
      {
        taskId: 'plain',
        input: { request: 'where is O-3?' },
        expected: { kind: 'golden', match: { strategy: 'contains', value: 'shipped' } },
      },
    ],
  },
  script: {
    'right-path': [
      {
        calls: [
          { tool: 'crm:lookup', args: { id: 'C-1' } },
          { tool: 'crm:audit' },
          { tool: 'crm:update', args: { street: 'Harbour Road' } },
        ],
        output: 'address updated',
      },
    ],
    'wrong-path': [
      { calls: [{ tool: 'billing:refund' }], output: { refunded: true, order: 'O-9' } },
      {
        calls: [{ tool: 'billing:refund' }, { tool: 'billing:void' }],
        output: { order: 'O-9', refunded: true },
      },
    ],
    plain: [
      { calls: [], output: 'O-3 shipped on Monday' },
      { calls: [], output: 'O-3 is pending' },
    ],
  },
};

/** Two tasks, no trials block, no trajectory, no miss: the suite carries no gated field. */
export const UNGATED: Fixture = {
  id: 'witness-ungated',
  requirement: 'openwop.requirement.0246.no-trajectory-ungated',
  agentId: 'core.conformance.eval-scripted-agent',
  suite: {
    suiteId: 'witness.evals.ungated',
    version: '1.0.0',
    modes: ['golden'],
    thresholds: { passScore: 0.6 },
    tasks: [
      {
        taskId: 'alpha',
        input: 'a',
        expected: { kind: 'golden', match: { strategy: 'exact', value: 'yes' } },
        fixtures: { toolResponses: [{ tool: 'kb:search', response: { hits: 1 } }] },
      },
      {
        taskId: 'beta',
        input: 'b',
        expected: { kind: 'golden', match: { strategy: 'json-match', value: [1, 2] } },
      },
    ],
  },
  script: {
    alpha: [{ calls: [{ tool: 'kb:search', args: { q: 'a' } }], output: 'yes' }],
    beta: [{ calls: [], output: [1, 2] }],
  },
};
