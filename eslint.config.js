import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/**
 * The layer arrows of docs/architecture.md. Each layer lists the modules it must never reach; an import is
 * checked wherever it is written: `import`/`export … from`, `import()`, `require()` and what `createRequire`
 * made, and `import('…')` types. A relative import is resolved to its project path first, so the check
 * does not depend on how many `../` a file needs. test/structure/layerArrows.test.ts probes every arrow.
 *
 * An arrow: `packages` (a name matches itself and its subpaths) or `paths` (project paths, matching themselves
 * and everything under them) with `except` paths carved out; `typesAllowed` lets `import type` through.
 */
const arrows = {
  electron: { packages: ['electron'], message: 'Only main/index.ts, main/electron/ and preload/ import electron.' },
  http: { packages: ['fastify', '@fastify', 'node:http', 'http', 'node:https', 'https'], message: 'Only main/api/ speaks HTTP.' },
  drivers: { packages: ['better-sqlite3', 'pg'], message: 'The domain, the sync module and the HTTP layer reach the database only through db/.' },
  kyselyValues: { packages: ['kysely'], typesAllowed: true, message: 'SQL is written only in db/: outside it, Kysely is a type (no `sql`).' },
  api: { paths: ['main/api'], message: 'Nothing below the HTTP layer imports main/api/; shapes live in main/contract/.' },
  sync: { paths: ['main/sync'], message: 'The domain does not import main/sync/: the sync module sits above it.' },
  sqlModules: { paths: ['db/queries', 'db/postgres'], message: 'The HTTP layer reaches storage only through the domain.' },
  aboveStorage: { paths: ['main'], except: ['main/contract'], message: 'db/ imports nothing from main/ but main/contract/ (the arrow points the other way).' },
  shapesOnly: { packages: ['kysely', 'better-sqlite3', 'pg'], paths: ['main/domain', 'main/api', 'main/sync', 'main/engine', 'db'], message: 'main/contract/ is shapes only: no rules, storage or transport.' },
};

/**
 * The renderer is an API client like any other: from main/ it takes only `import type` from main/contract/,
 * plus the modules listed here, whose code it shares (each with its reason).
 */
const RENDERER_SHARED_CODE = [
  // The scan rules, which import nothing: the scanner's offline verdict weighs the same rules as the engine.
  'main/domain/checkin/scanOutcome',
  // Dates, times and money in the company's locale and zone, which import nothing: every screen, the
  // printable manifest and its CSV write them the same way.
  'main/domain/format',
];

const rendererArrows = [
  arrows.electron,
  { paths: ['main/contract'], except: RENDERER_SHARED_CODE, typesAllowed: true, message: 'The renderer takes only `import type` from main/contract/.' },
  { paths: ['main', 'db'], except: ['main/contract', ...RENDERER_SHARED_CODE], message: 'The renderer imports nothing from main/ or db/ but types from main/contract/.' },
];

const layers = [
  // Outside the layered code (scripts, bench, tests) a computed import() is fine: only electron is checked.
  { files: ['**/*.{ts,tsx,js,mjs}'], never: [arrows.electron], computedImports: true },
  { files: ['main/**'], never: [arrows.electron, arrows.kyselyValues] },
  { files: ['main/domain/**'], never: [arrows.electron, arrows.http, arrows.api, arrows.sync, arrows.drivers, arrows.kyselyValues] },
  { files: ['main/engine.ts', 'main/sync/**'], never: [arrows.electron, arrows.http, arrows.api, arrows.drivers, arrows.kyselyValues] },
  { files: ['main/api/**'], never: [arrows.electron, arrows.sqlModules, arrows.drivers, arrows.kyselyValues] },
  { files: ['main/contract/**'], never: [arrows.electron, arrows.http, arrows.shapesOnly] },
  { files: ['db/**'], never: [arrows.electron, arrows.http, arrows.aboveStorage] },
  { files: ['renderer/**'], never: rendererArrows },
  { files: ['main/index.ts', 'main/electron/**', 'preload/**'], never: [] },
];

const within = (target, paths = []) => paths.some((p) => target === p || target.startsWith(`${p}/`));

function forbiddenBy(arrow, target, typeOnly) {
  if (typeOnly && arrow.typesAllowed) return false;
  if (within(target, arrow.except)) return false;
  return within(target, arrow.packages) || within(target, arrow.paths);
}

const literal = (node) => (node?.type === 'Literal' && typeof node.value === 'string' ? node.value : undefined);
const isCreateRequire = (node) => node?.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'createRequire';
const allTypes = (specifiers, kind) => specifiers.length > 0 && specifiers.every((s) => s[kind] === 'type');

const layerArrows = {
  meta: {
    type: 'problem',
    docs: { description: 'Refuses an import that goes against the layer arrows.' },
    schema: [{ type: 'array', items: { type: 'object' } }, { type: 'object', properties: { computedImports: { type: 'boolean' } }, additionalProperties: false }],
  },
  create(context) {
    const never = context.options[0] ?? [];
    const computedImports = context.options[1]?.computedImports ?? false;
    const folder = path.dirname(context.filename);
    const projectPath = (source) =>
      source.startsWith('.') ? path.relative(context.cwd, path.resolve(folder, source)).split(path.sep).join('/').replace(/\.(tsx?|m?js)$/, '') : source;
    const requireNames = new Set(['require']);

    function check(node, source, typeOnly) {
      if (source === undefined) {
        if (!computedImports) context.report({ node, message: 'Import a literal module name, so the layer arrows can be checked.' });
      } else {
        const arrow = never.find((a) => forbiddenBy(a, projectPath(source), typeOnly));
        if (arrow) context.report({ node, message: `${arrow.message} ('${source}')` });
      }
    }

    return {
      ImportDeclaration: (node) => check(node, node.source.value, node.importKind === 'type' || allTypes(node.specifiers, 'importKind')),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, node.exportKind === 'type' || allTypes(node.specifiers, 'exportKind')),
      ExportAllDeclaration: (node) => check(node, node.source.value, node.exportKind === 'type'),
      TSImportType: (node) => check(node, literal(node.argument?.literal ?? node.source), true),
      ImportExpression: (node) => check(node, literal(node.source), false),
      VariableDeclarator: (node) => isCreateRequire(node.init) && node.id.type === 'Identifier' && requireNames.add(node.id.name),
      CallExpression(node) {
        const requires = isCreateRequire(node.callee) || (node.callee.type === 'Identifier' && requireNames.has(node.callee.name));
        if (requires) check(node, literal(node.arguments[0]), false);
      },
    };
  },
};

/** SQL is written only in db/: above it, no `sql` template and no query builder. */
const SQL_OUTSIDE_DB = [
  { selector: "TaggedTemplateExpression[tag.name='sql'], TaggedTemplateExpression[tag.object.name='sql']", message: 'SQL is written only in db/.' },
  { selector: "CallExpression[callee.object.name='sql']", message: 'SQL is written only in db/.' },
  {
    selector: 'CallExpression[callee.property.name=/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto)$/]',
    message: 'Queries are built only in db/ (db/queries/).',
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'release/', 'renderer/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { layers: { rules: { arrows: layerArrows } } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...layers.map(({ files, never, computedImports = false }) => ({
    files,
    rules: { 'layers/arrows': never.length ? ['error', never, { computedImports }] : 'off' },
  })),
  { files: ['main/**'], rules: { 'no-restricted-syntax': ['error', ...SQL_OUTSIDE_DB] } },
  {
    files: ['renderer/sw.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
