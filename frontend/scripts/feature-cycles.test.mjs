/** node --test: no two features import each other, nor import each other round a longer circle. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { cycles, describe, featureEdges, mutualPairs, specifiersOf } from './feature-cycles.mjs';

test('no two features import each other', () => {
  const pairs = mutualPairs(featureEdges());
  assert.equal(pairs.length, 0, `features importing each other (move the shared code to src/lib, or pass the component in):\n${pairs.map(describe).join('\n')}`);
});

test('no circle of imports among features', () => {
  const edges = featureEdges();
  const found = cycles(edges);
  const arrows = (group) =>
    edges
      .filter((e) => group.includes(e.from) && group.includes(e.to))
      .map((e) => `  ${e.file} imports '${e.specifier}' (${e.from} -> ${e.to})`)
      .join('\n');
  assert.equal(found.length, 0, `features in a circle of imports:\n${found.map((g) => `${g.join(', ')}:\n${arrows(g)}`).join('\n')}`);
});

test('reads static, type, re-export, side-effect and lazy imports and mocks', () => {
  const text = [
    "import { a } from '@/features/x';",
    "import type { B } from '../y';",
    "export { c } from './z';",
    "import '@/features/w/styles';",
    "const lazy = () => import('@/features/v/screens');",
    "jest.mock('@/features/u', () => ({}));",
  ].join('\n');
  assert.deepEqual(specifiersOf(text), ['@/features/x', '../y', './z', '@/features/w/styles', '@/features/v/screens', '@/features/u']);
});

test('finds a pair importing each other through aliases and relative paths, with the files', () => {
  const src = mkdtempSync(path.join(tmpdir(), 'feature-cycles-'));
  try {
    const write = (file, text) => {
      mkdirSync(path.dirname(path.join(src, file)), { recursive: true });
      writeFileSync(path.join(src, file), text);
    };
    write('features/a/index.ts', "export { b } from './b';\n");
    write('features/a/b.ts', "import { c } from '@/features/c';\nexport const b = c;\n");
    write('features/c/index.ts', "import { lib } from '@/lib/x';\nexport const c = lib;\n");
    write('features/c/deep/d.tsx', "import { b } from '../../a';\nexport const d = b;\n");
    write('features/e/index.ts', "import { c } from '../c/index';\nexport const e = c;\n");
    const edges = featureEdges(src);
    const pairs = mutualPairs(edges);
    assert.equal(pairs.length, 1);
    assert.equal(pairs[0].a, 'a');
    assert.equal(pairs[0].b, 'c');
    assert.match(describe(pairs[0]), /features\/a\/b\.ts imports '@\/features\/c' \(a -> c\)/);
    assert.match(describe(pairs[0]), /features\/c\/deep\/d\.tsx imports '\.\.\/\.\.\/a' \(c -> a\)/);
    assert.deepEqual(cycles(edges), [['a', 'c']]);
  } finally {
    rmSync(src, { recursive: true, force: true });
  }
});

test('finds a longer circle that no pair shows', () => {
  const edges = [
    { from: 'a', to: 'b' },
    { from: 'b', to: 'c' },
    { from: 'c', to: 'a' },
    { from: 'c', to: 'd' },
  ];
  assert.equal(mutualPairs(edges).length, 0);
  assert.deepEqual(cycles(edges), [['a', 'b', 'c']]);
});
