// Schema errors in findings (lib/witness/schema-words.ts): one line per member at fault, quoting
// the value the host sent, with an enum or pattern named rather than dumped.

import { describe, expect, it } from 'vitest';
import { validate, type SchemaError } from '../../lib/schemas.ts';
import { schemaProblems, valueAt } from '../../lib/witness/schema-words.ts';
import { judgeWire } from '../../lib/witness/wire.ts';
import { BARE, envelopeEvent, page, RUN_ID } from './wire-build.ts';

const error = (keyword: string, instancePath: string, params = {}): SchemaError => ({
  schema: 'run-event',
  instancePath,
  keyword,
  message: `fails ${keyword}`,
  params,
});

describe('an event type that is neither registered nor a vendor type', () => {
  it('is one line that quotes the value and names the event by its sequence', () => {
    const toolCalled = { ...envelopeEvent(2), type: 'agent.toolCalled' };
    const [, envelope] = judgeWire({
      ...BARE,
      pages: [page({ runId: RUN_ID, status: 'completed' }, null, { eventCount: 3 })],
      events: [envelopeEvent(0), envelopeEvent(1), toolCalled],
    });
    expect(envelope?.message).toBe(
      'every event SHOULD be a closed RunEventDoc {eventId, runId, type, payload, timestamp, sequence, schemaVersion, ...} with sequence from 0; ' +
        '1 of 3 events does not validate; the event at sequence 2: run-event#/type "agent.toolCalled" is not a registered v2 type, nor a vendor type',
    );
  });
});

describe('schemaProblems', () => {
  it('quotes a value outside a short enum and lists the allowed values', () => {
    const payload = { passRule: 'median' };
    const errors: SchemaError[] = [
      {
        ...error('enum', '/passRule', { allowedValues: ['all', 'any', 'mean'] }),
        schema: 'eval-summary',
      },
    ];
    expect(schemaProblems(errors, payload)).toBe(
      'eval-summary#/passRule "median" is not one of "all", "any", "mean"',
    );
  });

  it('counts a long enum instead of listing it, and names a long pattern instead of printing it', () => {
    const many = { allowedValues: ['a', 'b', 'c', 'd', 'e', 'f'] };
    expect(schemaProblems([error('enum', '/x', many)], { x: 7 })).toBe(
      'run-event#/x 7 is not one of the 6 allowed values',
    );
    const long = { pattern: `^${'a'.repeat(70)}$` };
    expect(schemaProblems([error('pattern', '/x', long)], { x: 'b' })).toBe(
      'run-event#/x "b" is not a match for its pattern',
    );
    expect(
      schemaProblems([error('enum', '/x', many), error('pattern', '/x', long)], { x: 'z' }),
    ).toBe('run-event#/x "z" is not one of the 6 allowed values, nor a match for its pattern');
  });

  it('names a const, and cuts a long value', () => {
    const value = 'v'.repeat(50);
    expect(schemaProblems([error('const', '', { allowedValue: 2 })], value)).toBe(
      `run-event# "${'v'.repeat(40)}…" is not the allowed 2`,
    );
  });

  it('drops a union error when its branches say more, keeps it when nothing else does', () => {
    const errors = [error('anyOf', '/x'), error('type', '/x')];
    expect(schemaProblems(errors, { x: null })).toBe(
      'run-event#/x type: fails type, host sent null',
    );
    expect(schemaProblems([error('anyOf', '/x')], { x: null })).toBe(
      'run-event#/x anyOf: fails anyOf',
    );
  });

  it('shows at most `max` lines, then how many more', () => {
    const errors = [error('type', '/a'), error('type', '/b'), error('type', '/c')];
    expect(schemaProblems(errors, { a: 1, b: 2, c: 3 }, 2)).toBe(
      'run-event#/a type: fails type, host sent 1; run-event#/b type: fails type, host sent 2; (+1 more)',
    );
  });

  it('names the member a property error is about, and quotes the value of a real validation', () => {
    const errors = validate('eval-scored', { taskId: 't', trial: 1, score: 1.5, passed: true });
    const said = schemaProblems(errors, { taskId: 't', trial: 1, score: 1.5, passed: true }, 5);
    expect(said).toContain('eval-scored#/score maximum: must be <= 1, host sent 1.5');
  });
});

describe('which keywords quote the value and which only wrap a branch', () => {
  it.each([
    'type',
    'minimum',
    'maximum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'multipleOf',
    'minLength',
    'maxLength',
    'format',
    'minItems',
    'maxItems',
  ])('%s judges the value itself, so the value is quoted', (keyword) => {
    expect(schemaProblems([error(keyword, '/x')], { x: 5 })).toBe(
      `run-event#/x ${keyword}: fails ${keyword}, host sent 5`,
    );
  });

  it('an object-level keyword names its member and not the object', () => {
    expect(schemaProblems([error('propertyNames', '', { propertyName: 'Bad' })], {})).toBe(
      'run-event# propertyNames: fails propertyNames (Bad)',
    );
    expect(schemaProblems([error('required', '', { missingProperty: 'a' })], {})).toBe(
      'run-event# required: fails required (a)',
    );
    expect(schemaProblems([error('dependentRequired', '')], {})).toBe(
      'run-event# dependentRequired: fails dependentRequired',
    );
  });

  it.each(['anyOf', 'oneOf', 'if', 'not'])('%s is dropped beside a specific error', (wrapper) => {
    expect(schemaProblems([error(wrapper, '/x'), error('type', '/x')], { x: true })).toBe(
      'run-event#/x type: fails type, host sent true',
    );
  });

  it('an object or array value is named by its kind', () => {
    expect(schemaProblems([error('enum', '/x', { allowedValues: ['a'] })], { x: [1, 2] })).toBe(
      'run-event#/x an array of 2 is not one of "a"',
    );
  });
});

describe('valueAt', () => {
  it('follows a JSON pointer through objects and arrays, with escapes', () => {
    const doc = { 'a/b': { '~c': [10, 20] } };
    expect(valueAt(doc, '')).toBe(doc);
    expect(valueAt(doc, '/a~1b/~0c/1')).toBe(20);
    expect(valueAt(doc, '/a~1b/~0c/x')).toBeUndefined();
    expect(valueAt(doc, '/missing')).toBeUndefined();
    expect(valueAt(doc, '/a~1b/~0c/1/deeper')).toBeUndefined();
    expect(valueAt({ toString: 1 }, '/toString')).toBe(1);
    expect(valueAt({}, '/toString')).toBeUndefined();
  });
});
