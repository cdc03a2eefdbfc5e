/** node --test: which chunks count towards the login page's budget. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { staticClosure } from './bundle-size.mjs';

const manifest = {
  'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_vendor.js'], dynamicImports: ['src/features/auth/screens.ts', 'src/app/layout/AppLayout.tsx'] },
  '_vendor.js': { file: 'assets/vendor.js' },
  '_form.js': { file: 'assets/form.js', imports: ['index.html'] },
  'src/features/auth/screens.ts': { file: 'assets/screens.js', isDynamicEntry: true, imports: ['index.html', '_form.js'] },
  'src/app/layout/AppLayout.tsx': { file: 'assets/AppLayout.js', isDynamicEntry: true, imports: ['index.html'] },
};

test('counts the entry, the login screens and their static imports once each, not other lazy chunks', () => {
  assert.deepEqual(staticClosure(manifest, ['index.html', 'src/features/auth/screens.ts']).sort(), [
    '_form.js',
    '_vendor.js',
    'index.html',
    'src/features/auth/screens.ts',
  ]);
});

test('fails loudly when the login screens are no longer in the build', () => {
  assert.throws(() => staticClosure(manifest, ['index.html', 'src/features/gone/screens.ts']), /not in the build manifest/);
});
