import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The layers (server/README.md): imports run one way, app -> handlers -> domain -> platform, a
 * handler never imports another tag's folder, and no module imports itself back through others.
 * Read from the source with TypeScript's own import scanner, type-only imports included.
 */

const root = path.resolve(import.meta.dirname, '../..');

type Layer = 'app' | 'handlers' | 'domain' | 'platform' | 'generated';
/** What each layer may import besides itself. */
const MAY_IMPORT: Record<Layer, Layer[]> = {
  app: ['handlers', 'domain', 'platform', 'generated'],
  handlers: ['domain', 'platform', 'generated'],
  domain: ['platform', 'generated'],
  platform: ['generated'],
  generated: [],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

function layerOf(file: string): Layer | undefined {
  if (file.startsWith('server/app/')) return 'app';
  if (file.startsWith('handlers/')) return 'handlers';
  if (file.startsWith('server/domain/')) return 'domain';
  if (file.startsWith('server/platform/')) return 'platform';
  if (file.startsWith('generated/')) return 'generated';
  return undefined;
}

/** `handlers/<tag>/...` -> tag; the folder's own file (index.ts) has none. */
const tagOf = (file: string) => file.split('/').length > 2 ? file.split('/')[1] : undefined;

/** The repository files a module imports (relative imports only; packages are not layers). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(path.join(root, file), 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => path.relative(root, path.resolve(root, path.dirname(file), name)).replace(/\.js$/, '.ts'));
}

const files = [...sourceFiles('server'), ...sourceFiles('handlers')];
const graph = new Map(files.map((file) => [file, importsOf(file)]));

test('every file of server/ sits in one of its layers', () => {
  expect(files.filter((file) => file.startsWith('server/') && !layerOf(file))).toEqual([]);
});

test('imports run one way: app -> handlers -> domain -> platform', () => {
  const upward: string[] = [];
  for (const [file, imports] of graph) {
    const from = layerOf(file)!;
    for (const target of imports) {
      const to = layerOf(target);
      if (to === undefined) upward.push(`${file} -> ${target} (outside the layers)`);
      else if (to !== from && !MAY_IMPORT[from].includes(to)) upward.push(`${file} -> ${target} (${from} -> ${to})`);
    }
  }
  expect(upward).toEqual([]);
});

test('no handler imports another tag\'s folder (only handlers/index.ts gathers them)', () => {
  const across: string[] = [];
  for (const [file, imports] of graph) {
    if (layerOf(file) !== 'handlers' || file === 'handlers/index.ts') continue;
    for (const target of imports) {
      if (layerOf(target) === 'handlers' && tagOf(target) !== undefined && tagOf(target) !== tagOf(file)) across.push(`${file} -> ${target}`);
    }
  }
  expect(across).toEqual([]);
});

test('no import circles', () => {
  // Tarjan's strongly connected components: any component of more than one file is a circle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next); low.set(file, next); next += 1;
    stack.push(file); onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) { visit(target); low.set(file, Math.min(low.get(file)!, low.get(target)!)); }
      else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do { member = stack.pop()!; onStack.delete(member); component.push(member); } while (member !== file);
      if (component.length > 1 || graph.get(file)!.includes(file)) circles.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  expect(circles).toEqual([]);
});

/** `server/domain/<folder>/...` -> folder; a file of the domain's own root (reactions.ts) is a folder of its own. */
const domainFolderOf = (file: string) => file.split('/')[2];

/** The ties between the domain's folders: folder -> the folders it imports, each with one import that makes the tie. */
function domainTies(): Map<string, Map<string, string>> {
  const ties = new Map<string, Map<string, string>>();
  for (const [file, imports] of graph) {
    if (layerOf(file) !== 'domain') continue;
    for (const target of imports) {
      if (layerOf(target) !== 'domain' || domainFolderOf(target) === domainFolderOf(file)) continue;
      const from = ties.get(domainFolderOf(file)) ?? new Map<string, string>();
      if (!from.has(domainFolderOf(target))) from.set(domainFolderOf(target), `${file} -> ${target}`);
      ties.set(domainFolderOf(file), from);
    }
  }
  return ties;
}

test('no two domain folders import each other, and no folder ties run in a circle (server/domain/README.md)', () => {
  const ties = domainTies();
  const twoWay: string[] = [];
  for (const [from, targets] of ties) {
    for (const [to, example] of targets) {
      if (from < to && ties.get(to)?.has(from)) twoWay.push(`${from} <-> ${to}: ${example}; ${ties.get(to)!.get(from)}`);
    }
  }
  expect(twoWay).toEqual([]);
  // Folder circles of any length: a depth-first walk that meets a folder still on its path.
  const circles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const walk = (folder: string, path: string[]) => {
    state.set(folder, 'open');
    for (const to of ties.get(folder)?.keys() ?? []) {
      if (state.get(to) === 'open') circles.push([...path.slice(path.indexOf(to)), folder, to].join(' -> '));
      else if (!state.has(to)) walk(to, [...path, folder]);
    }
    state.set(folder, 'done');
  };
  for (const folder of ties.keys()) if (!state.has(folder)) walk(folder, []);
  expect(circles).toEqual([]);
});

test('the folder-tie check finds a tie where there is one (money imports states)', () => {
  expect(domainTies().get('money')?.has('states')).toBe(true);
});

test('the checks see the imports they judge (a file with known imports is read right)', () => {
  expect(graph.get('server/app/routes.ts')).toContain('handlers/index.ts');
  expect(files.length).toBeGreaterThan(100);
});

test('every transaction opens through inTransaction (server/platform/tenancy.ts), so what runs before its commit runs (an event\'s snapshot)', () => {
  const opensItself = /\.transaction\(\)\s*\.execute\(/;
  const offenders = [...files, ...sourceFiles('scripts')]
    .filter((file) => file !== 'server/platform/tenancy.ts' && opensItself.test(readFileSync(path.join(root, file), 'utf8')));
  expect(offenders).toEqual([]);
  expect(opensItself.test(readFileSync(path.join(root, 'server/platform/tenancy.ts'), 'utf8'))).toBe(true);
});
