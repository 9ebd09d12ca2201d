#!/usr/bin/env node
// Lists the functions of cli/, lib/ and reference-host/ longer than a limit (60 lines unless
// given), longest first, as `LINES  FILE:LINE  NAME`, and their count last. It parses with the
// TypeScript compiler alone, with no type information, so it takes a second where a type-aware
// eslint pass takes minutes; a function nested in another is counted on its own, as eslint's
// max-lines-per-function counts it, and its lines count in the outer one as well.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const limit = Number(process.argv[2] ?? 60);
if (!Number.isInteger(limit) || limit < 1) {
  process.stderr.write('usage: node bin/long-functions.mjs [LINES]\n');
  process.exit(2);
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return /\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** A readable name for a function node: its own, or the variable, property or class member holding it. */
function nameOf(node) {
  if (node.name !== undefined) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (
    parent !== undefined &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))
  ) {
    return parent.name.getText();
  }
  return '(anonymous)';
}

const long = [];
for (const file of ['cli', 'lib', 'reference-host'].flatMap(sourceFiles)) {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > limit) long.push({ lines, at: `${file}:${first + 1}`, name: nameOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
// A reader that stops early (`| head`) ends the listing quietly.
process.stdout.on('error', (error) => process.exit(error.code === 'EPIPE' ? 0 : 1));
long.sort((a, b) => b.lines - a.lines || a.at.localeCompare(b.at));
for (const f of long) process.stdout.write(`${String(f.lines).padStart(4)}  ${f.at}  ${f.name}\n`);
process.stdout.write(`${long.length} functions over ${limit} lines\n`);
