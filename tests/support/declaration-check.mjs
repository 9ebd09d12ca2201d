// `tsc -p .` in a consumer project, with one difference: it reports the diagnostics of the
// project's own files and of one installed package's files, not those of every other declaration
// file in the program. tsc checks all of them, and in a project with @types/node and TypeScript's
// DOM lib that is about half of its time spent on files no package of ours can break; the program
// is built the same way, so every type the package names still has to resolve.
//
// Usage, in the project's folder: node declaration-check.mjs PACKAGE. It prints one JSON line,
// { files, diagnostics }: the files whose diagnostics were asked for, relative to the project, and
// every diagnostic tsc would print for them. It exits 1 when there is a diagnostic.

import { relative } from 'node:path';
import process from 'node:process';
import ts from 'typescript';

const [packageName] = process.argv.slice(2);
if (packageName === undefined) {
  process.stderr.write('usage: node declaration-check.mjs PACKAGE\n');
  process.exit(2);
}

const host = {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
    process.stderr.write(`${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}\n`);
    process.exit(2);
  },
};
const config = ts.getParsedCommandLineOfConfigFile('tsconfig.json', {}, host);
const program = ts.createProgram({
  rootNames: config.fileNames,
  options: config.options,
  configFileParsingDiagnostics: config.errors,
});

// TypeScript names every file with forward slashes, on every platform.
const installed = `/node_modules/${packageName}/`;
const ours = program
  .getSourceFiles()
  .filter((file) => !file.fileName.includes('/node_modules/') || file.fileName.includes(installed));
const diagnostics = [
  ...program.getConfigFileParsingDiagnostics(),
  ...program.getOptionsDiagnostics(),
  ...program.getGlobalDiagnostics(),
  ...ours.flatMap((file) => [
    ...program.getSyntacticDiagnostics(file),
    ...program.getSemanticDiagnostics(file),
  ]),
];
const formatHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => process.cwd(),
  getNewLine: () => '\n',
};
process.stdout.write(
  `${JSON.stringify({
    files: ours.map((file) => relative(process.cwd(), file.fileName)),
    diagnostics: ts.formatDiagnostics(diagnostics, formatHost),
  })}\n`,
);
process.exitCode = diagnostics.length === 0 ? 0 : 1;
