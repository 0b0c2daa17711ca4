import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** The project's own source, as the structure tests measure it: project-relative paths with `/`. */
export const ROOT = resolve(import.meta.dirname, '../..');
export const SOURCE_ROOTS = ['main', 'db', 'renderer/src', 'preload'];

const projectPath = (absolute: string) => relative(ROOT, absolute).split(sep).join('/');

/** Every .ts/.tsx file under the roots, minus the folders in `skip` (project paths), sorted. */
export function sourceFiles(roots: string[] = SOURCE_ROOTS, skip: string[] = []): string[] {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(join(ROOT, folder))) {
      const path = `${folder}/${name}`;
      if (skip.includes(path)) continue;
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
    }
  };
  for (const root of roots) walk(root);
  return files.sort();
}

export const readSource = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/** The project file a relative specifier names (the bundler's resolution: extensionless, `.js` for `.ts`, index files). */
function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(ROOT, dirname(from), specifier);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  const found = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  return found && projectPath(found);
}

/**
 * Each file's imports of other project files: static, type-only, re-exports, `import()` and `require`
 * alike (TypeScript's own import scanner), so a type-only cycle counts as a cycle.
 */
export function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readSource(file), true, true);
    const targets = importedFiles.map((imported) => resolveImport(file, imported.fileName)).filter((target) => target !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}
