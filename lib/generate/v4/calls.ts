// Generator v4's tool calls: v3's, but for one path. Contract §4 reads a call without args as
// `args: {}`, so on odd picks v4's `match` path sends no args where `args: {}` is expected; every
// other path and every arbitrary is v3's own.

import type { ToolCall } from '../../types.ts';
import type { PathKind } from '../v3/calls.ts';
import { scriptedCalls as v3ScriptedCalls } from '../v3/calls.ts';

export {
  ANSWERED_TOOLS,
  FORBIDDEN_TOOLS,
  UNANSWERED_TOOL,
  PATH_KINDS,
  callArb,
  expectedCallsArb,
  type PathKind,
} from '../v3/calls.ts';

/** The calls a scripted trial makes: `base` bent the way `kind` says, at a place `pick` chooses. */
export function scriptedCalls(kind: PathKind, base: readonly ToolCall[], pick: number): ToolCall[] {
  if (kind !== 'match' || pick % 2 === 0) return v3ScriptedCalls(kind, base, pick);
  return base.map((call) =>
    call.args !== undefined && Object.keys(call.args).length === 0 ? { tool: call.tool } : call,
  );
}
