// The driver's wire record stays bounded whatever a host sends: a few bodies per (call, status),
// a fixed number of kinds, error bodies above a size kept by their size, header values cut.

import { describe, expect, it } from 'vitest';
import type { HostResponse } from '../../lib/observe/host-client.ts';
import {
  ERROR_BODY_LIMIT,
  ERROR_KINDS,
  ERROR_SAMPLES,
  VERSION_KINDS,
  VERSION_VALUE_LIMIT,
  WireRecord,
} from '../../lib/observe/wire-record.ts';

function response(status: number, body: unknown, version?: string): HostResponse {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    status,
    headers: version === undefined ? {} : { 'openwop-version': version },
    text,
    ...(typeof body === 'string'
      ? { json: undefined, jsonError: 'not valid JSON' }
      : { json: body }),
  };
}

describe('WireRecord', () => {
  it('keeps the first bodies of a kind whole and counts the rest', () => {
    const wire = new WireRecord();
    for (let i = 0; i < ERROR_SAMPLES + 5; i += 1) {
      wire.answer('summary', response(409, { error: 'run_state_conflict', message: `m${i}` }));
    }
    const [kind] = wire.errors().kinds;
    expect(kind?.count).toBe(ERROR_SAMPLES + 5);
    expect(kind?.samples).toHaveLength(ERROR_SAMPLES);
    expect(kind?.samples[0]).toEqual({ json: { error: 'run_state_conflict', message: 'm0' } });
  });

  it('keeps a fixed number of kinds and counts answers of any other as omitted', () => {
    const wire = new WireRecord();
    for (let status = 400; status < 400 + ERROR_KINDS + 7; status += 1) {
      wire.answer('events', response(status, { error: 'x', message: 'y' }));
    }
    expect(wire.errors().kinds).toHaveLength(ERROR_KINDS);
    expect(wire.errors().omitted).toBe(7);
  });

  it('records an oversized body by its size and a non-JSON body by why it is not JSON', () => {
    const wire = new WireRecord();
    const big = { error: 'internal_error', message: 'x'.repeat(ERROR_BODY_LIMIT) };
    wire.answer('create', response(500, big));
    wire.answer('create', response(500, '<html>'));
    expect(wire.errors().kinds[0]?.samples).toEqual([
      { bytes: JSON.stringify(big).length },
      { notJson: 'not valid JSON' },
    ]);
  });

  it('records no error for an answer below 400, but its header either way', () => {
    const wire = new WireRecord();
    wire.answer('status', response(200, {}, '2.0'));
    wire.answer('status', response(200, {}));
    expect(wire.errors()).toEqual({ kinds: [], omitted: 0 });
    expect(wire.versions().kinds).toEqual([
      { call: 'status', value: '2.0', count: 1 },
      { call: 'status', value: null, count: 1 },
    ]);
  });

  it('cuts a long header value and bounds the distinct values kept', () => {
    const wire = new WireRecord();
    wire.version('events', '9'.repeat(VERSION_VALUE_LIMIT * 4));
    for (let i = 0; i < VERSION_KINDS + 3; i += 1) wire.version('events', `2.${i}`);
    const versions = wire.versions();
    expect(versions.kinds[0]?.value).toBe(`${'9'.repeat(VERSION_VALUE_LIMIT)}…`);
    expect(versions.kinds).toHaveLength(VERSION_KINDS);
    expect(versions.omitted).toBe(4);
  });

  it('hands out copies, so a later answer does not change an earlier tally', () => {
    const wire = new WireRecord();
    wire.answer('summary', response(409, { error: 'a', message: 'b' }));
    const before = wire.errors();
    wire.answer('summary', response(409, { error: 'a', message: 'b' }));
    expect(before.kinds[0]?.count).toBe(1);
  });
});
