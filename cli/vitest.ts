// `openwop-eval-gate-conformance/vitest`: the legs as a project of a host team's own vitest. A
// config names `evalGateProject({ baseUrl, strict: true })` among its `test.projects`, and the
// README shows the five lines.
//
// The project runs the legs file the package ships, which drives the host through the same API
// the CLI calls and writes the same report. Nothing here imports vitest: the object is plain data,
// so this module loads under any vitest the peer range allows, and the CLI never needs one.

import type { RawSettings } from '../lib/env.ts';
import { packagePath } from '../lib/package-root.ts';

/** The legs file inside the installed package. */
export const LEGS_FILE: string = packagePath('tests', 'v2-eval-trajectory-trials.test.ts');

export interface EvalGateProjectOptions {
  /** The project's name in vitest's output and `--project`; default `eval-gate`. */
  readonly name?: string;
  /** The host to drive (OPENWOP_BASE_URL); absent: the variable as the test process has it. */
  readonly baseUrl?: string;
  readonly apiKey?: string;
  /** Where the report files are written (OPENWOP_REPORT_DIR). */
  readonly reportDir?: string;
  /** Strict mode (OPENWOP_REQUIRE_BEHAVIOR): the generated pack is driven, and can certify. */
  readonly strict?: boolean;
  /** Any other setting by its variable name; the named options above win over these. */
  readonly settings?: RawSettings;
  /** An ed25519 private key file (PEM) to sign the report with, as `run --sign` does. */
  readonly signingKey?: string;
  /** The signing key's id among the host's discovery signingKeys (`run --key-id`). */
  readonly keyId?: string;
}

/** What the legs file takes from its project beyond the settings: the file paths of `--sign`. */
export interface ProvidedSigning {
  readonly signingKey?: string;
  readonly keyId?: string;
}

/** The name under which the project provides ProvidedSigning to the legs file (vitest `inject`). */
export const PROVIDED = 'openwopEvalGate';

/** A vitest project config, as an entry of `test.projects` takes it. */
export interface EvalGateProject {
  readonly test: {
    readonly name: string;
    readonly include: readonly string[];
    readonly exclude: readonly string[];
    readonly environment: 'node';
    readonly env: Readonly<Record<string, string>>;
    readonly provide: { readonly [PROVIDED]: ProvidedSigning };
  };
}

/** The legs as one vitest project: the packaged legs file, in Node, with these settings. */
export function evalGateProject(options: EvalGateProjectOptions = {}): EvalGateProject {
  const settings: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.settings ?? {})) {
    if (value !== undefined) settings[name] = value;
  }
  if (options.baseUrl !== undefined) settings['OPENWOP_BASE_URL'] = options.baseUrl;
  if (options.apiKey !== undefined) settings['OPENWOP_API_KEY'] = options.apiKey;
  if (options.reportDir !== undefined) settings['OPENWOP_REPORT_DIR'] = options.reportDir;
  if (options.strict !== undefined) {
    settings['OPENWOP_REQUIRE_BEHAVIOR'] = options.strict ? 'true' : 'false';
  }
  return {
    test: {
      name: options.name ?? 'eval-gate',
      include: [LEGS_FILE],
      // vitest's default exclude drops every path under node_modules, where the legs file is.
      exclude: [],
      environment: 'node',
      env: settings,
      provide: {
        [PROVIDED]: {
          ...(options.signingKey === undefined ? {} : { signingKey: options.signingKey }),
          ...(options.keyId === undefined ? {} : { keyId: options.keyId }),
        },
      },
    },
  };
}
