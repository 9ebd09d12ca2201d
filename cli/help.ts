// The text of `openwop-eval-gate --help`: commands, settings, exit codes and an example.

import { currentSet } from '../lib/requirement-sets.ts';
import { FLAGS, type FlagSpec } from './flags.ts';
import {
  DEFAULT_INPUT_LIMITS,
  INPUT_LIMIT_FLAGS,
  INPUT_LIMIT_WORDS,
  type InputLimits,
} from '../lib/bounded-input.ts';

const WIDTH = 100;
const FLAG_COLUMN = 28;
const VARIABLE_COLUMN = 29;

/** The flags of `run` the help lists in one section, each with its variable and words. */
function flagLines(section: NonNullable<FlagSpec['section']>): string {
  return Object.entries(FLAGS.run)
    .filter(([, spec]) => spec.section === section)
    .map(([name, spec]) => {
      const label = `  --${name}${spec.value === undefined ? '' : ` ${spec.value}`}`;
      // The settings have a column for the variable a flag stands for, which a flag without one
      // leaves blank; the CI options stand for no variable and have no such column.
      const head =
        section === 'settings' ? `${label.padEnd(FLAG_COLUMN)}${spec.variable ?? ''}` : label;
      const indent = section === 'settings' ? FLAG_COLUMN + VARIABLE_COLUMN : FLAG_COLUMN;
      return wrapped(head, indent, spec.help ?? '');
    })
    .join('\n');
}

/** The limits on what the report-reading commands read, each with its flag and default. */
function limitLines(): string {
  return (Object.keys(INPUT_LIMIT_FLAGS) as (keyof InputLimits)[])
    .map((limit) =>
      wrapped(
        `  ${INPUT_LIMIT_FLAGS[limit]} N`,
        FLAG_COLUMN,
        `${INPUT_LIMIT_WORDS[limit]} (default ${DEFAULT_INPUT_LIMITS[limit]})`,
      ),
    )
    .join('\n');
}

/** A head, then words wrapped to the help's width from `indent`; a head too wide starts a line. */
function wrapped(head: string, indent: number, words: string): string {
  const lines: string[] = [];
  let line = head.length < indent ? head.padEnd(indent) : head;
  if (head.length >= indent) {
    lines.push(line);
    line = ' '.repeat(indent);
  }
  for (const word of words.split(' ')) {
    if (line.length + word.length > WIDTH && line.length > indent) {
      lines.push(line.trimEnd());
      line = ' '.repeat(indent);
    }
    line += `${word} `;
  }
  lines.push(line.trimEnd());
  return lines.join('\n');
}

export const HELP = `openwop-eval-gate: the OpenWOP RFC 0246 eval-gate conformance suite

Usage
  openwop-eval-gate [run] [flags]          run every leg against a host and write the report
  openwop-eval-gate verify REPORT [--host URL | --trusted-keys FILE | --key PUBKEY.pem | --offline]
                  [--max-age DAYS]         recompute every verdict and digest in a report, then
                                           anchor its signature outside the report. Only an
                                           anchor the certifier names certifies: the live
                                           discovery at --host URL (the certificate names the
                                           URL), or a keyring entry bound to the implementation.
                                           The address the report names, a key file and an
                                           unbound entry give integrity only. A report dated
                                           after now is refused; one older than --max-age is
                                           stale. badge, diff, report and matrix take these
                                           flags and decide the same way
                  [--host URL --recheck [--recheck-sample N]]
                                           re-witness: drive the live host at URL again (every
                                           probe, every hand-fixture row, N sampled cases of the
                                           pack, default 8) with the key from the environment,
                                           and withhold the certificate at the first answer that
                                           differs from the record (exit 1) or is not seen (exit 3)
  openwop-eval-gate judge SUMMARY.json --fixture ID|FILE.json [--events EVENTS.json]
                                           judge a recorded EvalSummary offline: the verdict and
                                           its cause first, then failures, warnings, holds; ID
                                           may be a generated case's (generated-sS-nNNNN),
                  [--generate N --seed S]  held to be a case of that pack
  openwop-eval-gate judge REPORT --case ID judge a generated case as the report recorded it: its
                                           summary and events from the pack's sidecar beside it
  openwop-eval-gate fixtures [--out DIR]   list the fixtures a host seeds, or write them to DIR
                                           with fixtures.manifest.json (id, requirement, file,
                                           SHA-256 of the canonical JSON, as the report records)
                  [--generate N [--seed S]]  write N generated fixtures, drawn from seed S
                                           (default 1), each named generated-sS-nNNNN, in place
                                           of the pack a strict run drives (${currentSet().pack.count} at seed ${currentSet().pack.seed})
  openwop-eval-gate expect ID|FILE.json [--json]
                                           what a conformant host reports for a fixture, from the
                                           witness: per trial, per task and for the suite; a
                                           generated id is replayed from its seed
  openwop-eval-gate diff OLD.json NEW.json [--all] [--json | --format text|markdown]
                                           compare two verified reports (anchored as verify
                                           does, with its flags): a certification lost, then
                                           the requirements that
                                           moved (IMPROVED, REGRESSED, CHANGED; --all adds the
                                           unchanged), rules that newly fail or hold, moved
                                           numbers, digests, versions; markdown is a PR comment.
                                           Refuses runs of another target kind, strict mode or
                                           opt-outs; names another address, suite version,
                                           selection or requirement set, and compares only the
                                           requirements both runs ran
  openwop-eval-gate badge REPORT [--out FILE]
                                           a shields.io endpoint JSON from a verified report,
                                           green only when anchored as verify anchors it
  openwop-eval-gate report REPORT --html OUT
                                           the self-contained HTML page of a verified report (a
                                           run writes eval-gate-report.html beside the others)
  openwop-eval-gate matrix REPORT... --out DIR
                                           verify every report and write DIR/matrix.json,
                                           matrix.md and index.html: a column per implementation
                                           and version, a row per requirement, host check and the
                                           certification; a report that does not verify shows as
                                           unverified, never as its claimed verdict
  openwop-eval-gate list [--json]          every requirement (RFC section, fixture, capabilities,
                                           the suite versions whose set holds it) and every rule
                                           (severity, reference, which requirements record it;
                                           host-check rules are judged once per run)
  openwop-eval-gate --help                 this text; COMMAND --help (or help COMMAND) that
                                           command's part of it
  openwop-eval-gate --version              the suite's name and version, then the digest of its
                                           judging code a report records (on any command)

Settings for run (a flag wins over its variable; variables also come from ./.env)
${flagLines('settings')}
  (no flag)                 OPENWOP_API_KEY              bearer key, read only from the environment
                                                         or .env so it never appears in argv; at
                                                         least 8 visible ASCII characters, so it
                                                         can be scrubbed

CI options for run (docs/ci.md)
${flagLines('ci')}
  Baseline "severity" section: [{"rule": RULE, "requirements": [ID, ...] or "*", "severity":
                            MUST or SHOULD, "reason": TEXT}] raises or lowers a rule for those
                            requirements; dispositions stay, the exit code follows the new
                            severity, and any override withholds certification
  Bounds: OPENWOP_REQUEST_TIMEOUT_MS, OPENWOP_RUN_TIMEOUT_MS, OPENWOP_POLL_TIMEOUT_S,
  OPENWOP_MAX_BODY_BYTES, OPENWOP_RETRY_AFTER_CAP_MS. GITHUB_STEP_SUMMARY, when set, receives the
  Markdown summary; GITHUB_OUTPUT, when set, the outputs result, certified, verdict, passed,
  failed, blocked and skipped (result NOT RUN, certified and verdict at exit 2);
  GITHUB_ACTIONS=true prints an "::error title=ID::REASON" line for each failing requirement no
  baseline entry excuses ("N requirements: REASON (IDS)" once for a reason several share), and one
  with the cause for a blocked run (exit 3) or a run that could not start (exit 2), whose cause
  also goes to the step summary.

Outputs (in the report directory)
  eval-gate-report.json     one row per requirement, observations and digests (docs/report.md)
  eval-gate-junit.xml       failed, errored (blocked) and skipped kept apart
  eval-gate-summary.md      per leg, per task: score, gatedScore, trajectory per trial, passed
  eval-gate-report.intoto.json
                            an in-toto Statement: the report's sha256, the certification, to
                            attest from CI (docs/report.md)
  The last line printed is "RESULT[: CAUSE]; N passed, N failed, N blocked, N skipped[; LIMITS];
  CERTIFICATION": PASS, FAIL or BLOCKED and the one leading cause, together at most 160
  characters (the summary's first line states the same), then the counts, then what limits the
  run when there is something: "partial: N of M selected", "requirement set V (the current set
  adds N)", "baseline: N failing requirements excused (R rules), S stale, E expired", "severity:
  RULE raised to MUST on IDS (N passed requirements failing the run)", "repeat N: F flaky (A
  allowed)", "fail-on should: N SHOULD warnings (E excused)", "fail-on none", "embedded reference
  host"; then "certified (...)" or "not certified: REASONS" (docs/report.md).

Input limits for verify, diff, badge, report and matrix (docs/bounds.md); past one, exit 2
${limitLines()}

Exit codes
  run     0 no row executed-fail or blocked; 1 some row executed-fail; 3 rows blocked and none
          failed; 2 the suite could not start (bad setting) or could not produce a valid report
  verify  0 every verdict and digest recomputes (the last line's first words say which holds:
          certified, verified not certified, unanchored, unattributed or unsigned); 1 something
          changed or the signature is invalid under its anchor, or under --recheck the host
          answers otherwise; 3 under --recheck, an answer not seen now; 2 bad usage or unreadable
  judge   0 every MUST rule holds; 1 a MUST rule failed; 2 bad usage or unreadable input
  fixtures, expect  0 done; 2 unknown fixture, unreadable file or unwritable directory
  list, --version  0
  diff    0 nothing regressed; 1 a certification lost, a pass no longer passes or a held MUST
          rule fails; 2 bad usage, a report that is unreadable or does not verify, or two runs
          it refuses to compare
  badge   0 written; 2 bad usage, or a report that is unreadable or does not verify
  report  0 written; 2 bad usage, or a report that is unreadable or does not verify
  matrix  0 written, a report that does not verify shown as unverified; 1 written, but no
          report verifies; 2 bad usage
  run with CI options: a failure the baseline excuses does not count, a stale entry counts as a
  failure (1), with --fail-on should so does a SHOULD warning, and with --fail-on none nothing
  does; discovery must publish the public half of --sign under --key-id, not retired, checked
  before any leg (2)

Example
  OPENWOP_API_KEY=... openwop-eval-gate run --base-url https://host.example --require-behavior \\
    --opt-out agents.evalSuite.trials --impl acme-host --impl-version 3.2.0 \\
    --sign host.pem --key-id host-2026-01
  openwop-eval-gate verify reports/eval-gate-report.json
`;
