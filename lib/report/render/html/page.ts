// The page around the content: its style, its one small script and a Content-Security-Policy that
// lets the page load nothing from anywhere. The script and style are allowed by their hashes, so
// even a string that escaped escaping could not run as script.

import { createHash } from 'node:crypto';
import { esc } from './escape.ts';

const STYLE = `
:root { --fail: #b3261e; --pass: #1b6e3a; --blocked: #8a5a00; --muted: #5f6368; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 1.2rem auto; max-width: 72rem; padding: 0 1rem; color: #1f1f1f; }
.headline { font-size: 1.15rem; font-weight: 600; padding: .6rem .8rem; border-left: 6px solid var(--muted); background: #f4f4f4; margin: 0 0 .4rem; }
.headline.FAIL { border-color: var(--fail); } .headline.PASS { border-color: var(--pass); } .headline.BLOCKED { border-color: var(--blocked); }
.closing { margin: .2rem 0 1rem; color: #333; }
code, pre { font: 13px/1.35 ui-monospace, SFMono-Regular, Menlo, monospace; }
pre.command { background: #f6f8fa; padding: .5rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
table { border-collapse: collapse; margin: .4rem 0 .8rem; display: block; max-width: 100%; overflow-x: auto; }
th, td { border: 1px solid #ddd; padding: .2rem .45rem; text-align: left; vertical-align: top; }
td code { word-break: break-all; }
table.events td:nth-child(-n+4), table.findings td:first-child, table.findings td:first-child code { white-space: nowrap; word-break: normal; }
details.req { border: 1px solid #ddd; border-radius: 4px; margin: .5rem 0; padding: .3rem .6rem; }
details.req > summary { cursor: pointer; font-weight: 600; }
.disp { display: inline-block; min-width: 6.5rem; font-size: .8rem; font-weight: 700; padding: .05rem .4rem; border-radius: 3px; color: #fff; background: var(--muted); }
.disp.executed-fail, .mark.bad { background: var(--fail); } .disp.executed-pass, .mark.good { background: var(--pass); } .disp.blocked { background: var(--blocked); }
.mark { font-size: .75rem; color: #fff; padding: 0 .3rem; border-radius: 3px; margin-right: .2rem; background: var(--muted); }
tr.disagrees td { background: #fdecea; }
.finding.failed td:first-child { border-left: 4px solid var(--fail); }
.finding.warned td:first-child { border-left: 4px solid var(--blocked); }
:target, .flash { outline: 3px solid #f2b600; background: #fff6cc !important; scroll-margin-top: 4rem; }
.summary-tree ul { margin: 0; padding-left: 1.2rem; } .key { color: #6b3fa0; }
svg.chart { display: block; max-width: 100%; height: auto; margin: .3rem 0; font: 11px sans-serif; }
svg .reported { fill: #4a6fa5; } svg .score { fill: #9db4d3; } svg .gating { fill: #e0a000; } svg .over { fill: var(--fail); }
svg .limit { stroke: var(--fail); stroke-width: 2; stroke-dasharray: 4 3; } svg .p95 { stroke: #4a6fa5; stroke-width: 2; }
svg .limit-label { fill: var(--fail); } svg .p95-label { fill: #4a6fa5; } svg .axis { stroke: #999; } svg .dot { fill: #4a6fa5; }
svg .tick { fill: #9db4d3; } svg .tick.failed { fill: var(--fail); } svg .page { fill: #c9d6e8; stroke: #4a6fa5; } svg .absent { fill: var(--fail); }
.legend span { margin-right: 1rem; white-space: nowrap; } .swatch { display: inline-block; width: .8em; height: .8em; margin-right: .3em; vertical-align: -.05em; border-radius: 2px; }
.swatch.reported { background: #4a6fa5; } .swatch.score { background: #9db4d3; } .swatch.gating { background: #e0a000; } .swatch.mean { background: #6b3fa0; }
.swatch.limit { background: transparent; border-left: 3px dashed var(--fail); width: 0; height: 1em; }
svg .mean { fill: #6b3fa0; } svg .value, svg .tick-label { fill: #444; font-size: 9px; } svg .mean-label { font-weight: 600; } .muted { color: var(--muted); }
`;

/**
 * Opens every folded block around the element a link points at, and flashes it: the :target
 * style already highlights it without script, and Chromium opens a folded block on a fragment
 * by itself; this does the same in every browser.
 */
const SCRIPT = `
(function () {
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    var el = document.getElementById(id);
    if (!el) return;
    for (var at = el.parentElement; at; at = at.parentElement) {
      if (at.tagName === 'DETAILS') at.open = true;
    }
    var old = document.querySelectorAll('.flash');
    for (var i = 0; i < old.length; i += 1) old[i].classList.remove('flash');
    el.classList.add('flash');
    el.scrollIntoView({ block: 'center' });
  }
  window.addEventListener('hashchange', reveal);
  reveal();
})();
`;

function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The page; `extraStyle` is a page's own rules beside the shared ones. */
export function page(title: string, body: string, extraStyle = ''): string {
  const style = `${STYLE}${extraStyle}`;
  const csp = [
    "default-src 'none'",
    `style-src ${cspHash(style)}`,
    `script-src ${cspHash(SCRIPT)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(title)}</title>`,
    `<style>${style}</style>`,
    '</head>',
    '<body>',
    body,
    `<script>${SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
