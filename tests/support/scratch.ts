// vitest globalSetup: one scratch folder for a test run, removed when the run ends. A file a
// worker writes once and shares across test files (the certification pack) cannot be removed by
// the worker itself: workers end without an exit event, and such folders piled up in the
// system's temporary directory, one per run.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder this test run may write in; gone when the run ends. */
    scratch: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'openwop-tests-'));
  project.provide('scratch', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
