/**
 * The features under src/features form a DAG: no two features import each other.
 * `featureEdges` reads every import of every file under src/features (static imports and
 * exports, `import()` and `jest.mock()` paths, `@/` aliases and relative paths) and keeps the
 * ones that cross from one feature into another; `mutualPairs` lists the pairs importing each
 * other with the files on both sides. Run by `node --test scripts/` (feature-cycles.test.mjs);
 * `node scripts/feature-cycles.mjs` prints the feature graph.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+|\bjest\.(?:mock|requireActual)\s*\(\s*)['"]([^'"]+)['"]/gm;

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|js|jsx|mjs)$/.test(name) ? [full] : [];
  });
}

/** The feature a path under src lies in, or null. */
function featureOf(file, src) {
  const rel = path.relative(path.join(src, 'features'), file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const [feature, ...rest] = rel.split(path.sep);
  return rest.length ? feature : null;
}

/** Where an import specifier of `file` points under src, or null for a package. */
function target(specifier, file, src) {
  if (specifier.startsWith('@/')) return path.join(src, specifier.slice(2));
  if (specifier.startsWith('.')) return path.resolve(path.dirname(file), specifier);
  return null;
}

/** The specifiers a source text imports from (comments are not stripped: keep them free of paths). */
export function specifiersOf(text) {
  return [...text.matchAll(SPECIFIER)].map((m) => m[1]);
}

/** Every import from one feature into another: { from, to, file, specifier }, file relative to src. */
export function featureEdges(src = SRC) {
  const edges = [];
  for (const file of sourceFiles(path.join(src, 'features'))) {
    const from = featureOf(file, src);
    for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
      const to = target(specifier, file, src);
      const toFeature = to && (featureOf(to, src) ?? featureOf(path.join(to, 'index.ts'), src));
      if (toFeature && toFeature !== from) edges.push({ from, to: toFeature, file: path.relative(src, file), specifier });
    }
  }
  return edges;
}

/** The pairs of features importing each other, each with the imports on both sides. */
export function mutualPairs(edges) {
  const pairs = [];
  const froms = [...new Set(edges.map((e) => e.from))].sort();
  for (const a of froms) {
    for (const b of froms) {
      if (a >= b) continue;
      const ab = edges.filter((e) => e.from === a && e.to === b);
      const ba = edges.filter((e) => e.from === b && e.to === a);
      if (ab.length && ba.length) pairs.push({ a, b, imports: [...ab, ...ba] });
    }
  }
  return pairs;
}

/** Longer cycles too (a -> b -> c -> a): the strongly connected features, in groups of two or more. */
export function cycles(edges) {
  const graph = new Map();
  for (const { from, to } of edges) {
    if (!graph.has(from)) graph.set(from, new Set());
    if (!graph.has(to)) graph.set(to, new Set());
    graph.get(from).add(to);
  }
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return groups;
}

export function describe(pair) {
  return [`${pair.a} <-> ${pair.b}:`, ...pair.imports.map((e) => `  ${e.file} imports '${e.specifier}' (${e.from} -> ${e.to})`)].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const edges = featureEdges();
  const graph = new Map();
  for (const { from, to } of edges) graph.set(`${from} -> ${to}`, (graph.get(`${from} -> ${to}`) ?? 0) + 1);
  for (const [arrow, n] of [...graph].sort()) console.log(`${arrow} (${n})`);
  for (const pair of mutualPairs(edges)) console.log(describe(pair));
  for (const group of cycles(edges)) console.log(`cycle among: ${group.join(', ')}`);
}
