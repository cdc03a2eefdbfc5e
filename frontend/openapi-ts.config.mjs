/**
 * The web client's types and zod validators, generated from the server's OpenAPI document
 * (`src/api/openapi.json`, what `searchdeck openapi` prints and `/api/openapi.json` serves)
 * by @hey-api/openapi-ts into `src/api/generated/` (committed; `npm run gen:api`;
 * `scripts/web.sh`, which `make test` runs, fails when they differ from a fresh run).
 *
 * Only the TypeScript types and the zod schemas are generated, not hey-api's fetch client:
 * every answer of the API is wrapped in the envelope `{status, message, result}` and its
 * failures carry the docs/product.md#8-generic-mapping messages, which `src/lib/api-client.ts`
 * unwraps and maps in one place (with the AbortSignal and the limit events); the features validate
 * `result` with the generated schema of their operation.
 */
import { defineConfig } from '@hey-api/openapi-ts';

/** Integers of the API are JSON numbers the screens read as numbers. */
const WIDE_INTEGERS = new Set(['int64', 'uint64']);

export default defineConfig({
  input: './src/api/openapi.json',
  // SEARCHDECK_API_OUT: another folder, for scripts/web.sh's check against the committed files.
  output: { path: process.env.SEARCHDECK_API_OUT ?? './src/api/generated', postProcess: [] },
  plugins: [
    '@hey-api/typescript',
    {
      name: 'zod',
      requests: true,
      responses: true,
      '~resolvers': {
        // hey-api reads int64 as a BigInt (`z.coerce.bigint()`); the server's counts and
        // times fit in a double and its types say `number`, so they stay plain integers.
        number: (ctx) => {
          if (WIDE_INTEGERS.has(ctx.schema.format)) ctx.schema = { ...ctx.schema, format: undefined };
          return undefined;
        },
      },
    },
  ],
});
