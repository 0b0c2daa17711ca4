import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { readSource, sourceFiles } from './sourceTree';

/**
 * The house limits on size: a source file of at most 350 lines, a function of at most 120 (none over
 * 200 whatever it holds). Measured over main/, db/ (migrations aside: a landed migration never
 * changes), renderer/src and preload/.
 */
const FILE_LINES = 350;
const FUNCTION_LINES = 120;
const DECLARATIVE_FUNCTION_LINES = 200;

/** Functions (`path name`) that are declarative tables rather than logic, with why they may run past 120 lines. */
const DECLARATIVE: Record<string, string> = {};

const files = sourceFiles(undefined, ['db/migrations']);

function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** A method of an object literal: `{ get() {…} }` or `{ get: async () => … }`. */
function isObjectMethod(node: ts.Node): boolean {
  if (ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) return ts.isObjectLiteralExpression(node.parent);
  return (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && ts.isPropertyAssignment(node.parent) && ts.isObjectLiteralExpression(node.parent.parent);
}

/**
 * Every function-like node of a file (declarations, methods, arrows, function expressions), named by
 * where it sits. An object of methods (a service a `createX` returns, a store's actions) is measured
 * like a class: each method by itself, and the function around it without them.
 */
interface Measured {
  path: string;
  name: string;
  line: number;
  lines: number;
}

function functionsOf(path: string): Measured[] {
  const source = ts.createSourceFile(path, readSource(path), ts.ScriptTarget.Latest, true, path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
  const span = (node: ts.Node) => lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1;
  const found: Measured[] = [];
  const visit = (node: ts.Node, enclosing: { lines: number } | undefined) => {
    let inside = enclosing;
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      inside = { lines: span(node) };
      if (enclosing && isObjectMethod(node)) enclosing.lines -= inside.lines;
      found.push(Object.assign(inside, { path, name: nameOf(node), line: lineOf(node.getStart(source)) + 1 }));
    }
    ts.forEachChild(node, (child) => visit(child, inside));
  };
  visit(source, undefined);
  return found;
}

function nameOf(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name && ts.isIdentifier(named.name)) return named.name.text;
  if (ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name)) return node.parent.name.text;
  if (ts.isPropertyAssignment(node.parent) && ts.isIdentifier(node.parent.name)) return node.parent.name.text;
  return '(anonymous)';
}


describe('source sizes', () => {
  it(`keeps every source file at most ${FILE_LINES} lines`, () => {
    const over = files.map((path) => ({ path, lines: lineCount(readSource(path)) })).filter((f) => f.lines > FILE_LINES);
    expect(over.map((f) => `${f.path}: ${f.lines} lines`)).toEqual([]);
  });

  it(`keeps every function at most ${FUNCTION_LINES} lines (declarative tables ${DECLARATIVE_FUNCTION_LINES})`, () => {
    const measured = files.flatMap(functionsOf);
    const limitOf = (f: Measured) => (`${f.path} ${f.name}` in DECLARATIVE ? DECLARATIVE_FUNCTION_LINES : FUNCTION_LINES);
    const over = measured.filter((f) => f.lines > limitOf(f));
    expect(over.map((f) => `${f.path}:${f.line} ${f.name}: ${f.lines} lines`)).toEqual([]);
  });

  it('measures functions of every kind', () => {
    expect(functionsOf('main/api/route.ts').map((f) => f.name)).toEqual(expect.arrayContaining(['parse', 'defineRoute', 'handler']));
    // A service's methods are measured one by one, and not again as part of the factory around them.
    const admitting = functionsOf('main/api/admission.ts');
    const factory = admitting.find((f) => f.name === 'admission')!;
    expect(admitting.find((f) => f.name === 'onRequest')!.lines).toBeGreaterThan(10);
    expect(factory.lines).toBeLessThan(30);
  });
});
