/**
 * A TypeScript program of one of this repository's tsconfig files, with some files' text replaced in
 * memory (nothing on disk changes): how the contract tests show that a wrong name does not compile.
 */
import assert from 'node:assert/strict';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The program of `tsconfig` (a path from the repository root), with `overlay` files' text in place of what is on disk. */
export function programWith(tsconfig: string, overlay: Record<string, string> = {}, oldProgram?: ts.Program): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(repositoryRoot, tsconfig),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')) },
  );
  assert.ok(config);
  const host = ts.createCompilerHost(config.options);
  const replaced = new Map(Object.entries(overlay).map(([file, text]) => [join(repositoryRoot, file), text]));
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => replaced.get(resolve(file)) ?? readFile(file);
  host.getSourceFile = (file, language, onError, createNew) => {
    const text = replaced.get(resolve(file));
    return text === undefined ? getSourceFile(file, language, onError, createNew) : ts.createSourceFile(file, text, language);
  };
  return ts.createProgram({ rootNames: config.fileNames, options: config.options, host, ...(oldProgram ? { oldProgram } : {}) });
}
