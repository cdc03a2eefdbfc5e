/**
 * The server's OpenAPI document as a checker of answers, for the tests only (never the app's
 * bundle): Jest's fetch mocks (`src/test/fetch-mock.ts`) and the browser tests'
 * recorder (`e2e/helpers.ts`) hand it every answer they give or see, and it says what the
 * document does not describe: an unknown route, a status the operation does not list, or a
 * body off its schema. Objects are closed here: a member the document does not name is a
 * shape the server never sends (utoipa writes every member of the server's types), so a
 * mock holding one fails too. The caller reads `src/api/openapi.json` itself (a JSON import
 * would have the type checker infer the whole document's type).
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { DOCUMENT_GAPS } from './document-gaps';

type Json = unknown;
interface Schema {
  [key: string]: Json;
}
interface Operation {
  operationId: string;
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

/** The checker of `document` (the parsed `src/api/openapi.json`). */
export function openApiContract(document: unknown) {
  const doc = document as Document;

  /** A route of the document: its template as a pattern, literal routes before templated ones. */
  interface Route {
    template: string;
    pattern: RegExp;
    params: number;
  }

  const routes: Route[] = Object.keys(doc.paths)
    .map((template) => {
      const params = (template.match(/\{[^}]+\}/g) ?? []).length;
      const source = template
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[^/]+');
      return { template, pattern: new RegExp(`^${source}$`), params };
    })
    // `/api/rules/backtest` is its own route, not `/api/rules/{id}` with id 'backtest'.
    .sort((a, b) => a.params - b.params || b.template.length - a.template.length);

  /** The operation answering `method` on `pathname` (an `/api/…` path without its query). */
  function findOperation(method: string, pathname: string): { template: string; operation: Operation } | undefined {
    const verb = method.toLowerCase();
    for (const route of routes) {
      if (!route.pattern.test(pathname)) continue;
      const operation = doc.paths[route.template]?.[verb];
      if (operation) return { template: route.template, operation };
    }
    return undefined;
  }

  /** Component names used as members of an allOf: closing them would refuse their siblings' members. */
  function composedComponents(): Set<string> {
    const names = new Set<string>();
    const visit = (node: Json) => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (!node || typeof node !== 'object') return;
      const schema = node as Schema;
      if (Array.isArray(schema.allOf)) {
        for (const member of schema.allOf as Schema[]) {
          const ref = typeof member.$ref === 'string' ? member.$ref : '';
          if (ref.startsWith('#/components/schemas/')) names.add(ref.slice('#/components/schemas/'.length));
        }
      }
      Object.values(schema).forEach(visit);
    };
    visit(doc);
    return names;
  }

  /**
   * A copy of `node` whose objects refuse members they do not name (`unevaluatedProperties`,
   * which sees through `$ref` and `allOf`), except objects that say what else they take and
   * the members of an allOf (their parent closes them).
   */
  function closed(node: Json, inAllOf = false): Json {
    if (Array.isArray(node)) return node.map((item) => closed(item, inAllOf));
    if (!node || typeof node !== 'object') return node;
    const schema = withGaps(node as Schema);
    const out: Schema = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'allOf') out[key] = (value as Json[]).map((member) => closed(member, true));
      else if (key === 'properties' && value && typeof value === 'object') {
        out[key] = Object.fromEntries(Object.entries(value as Schema).map(([name, member]) => [name, closed(member)]));
      } else out[key] = closed(value);
    }
    const open = 'additionalProperties' in schema || 'unevaluatedProperties' in schema || 'patternProperties' in schema;
    if (!inAllOf && !open && (schema.properties || schema.allOf)) out.unevaluatedProperties = false;
    return out;
  }

  /** The id the document's components are registered under. */
  const DOCUMENT_ID = 'https://searchdeck.invalid/openapi.json';

  // The gaps' components by their members, since utoipa also copies a component inline (the
  // envelopes of generic answers hold their item's schema itself, not a reference).
  const signature = (properties: object) => Object.keys(properties).sort().join(',');
  const gapsBySignature = new Map<string, string[]>();
  for (const [name, gap] of Object.entries(DOCUMENT_GAPS)) {
    const properties = doc.components?.schemas?.[name]?.properties;
    if (properties && typeof properties === 'object') gapsBySignature.set(signature(properties), gap.members);
  }

  /** `schema` with the members the server sends beyond it (`document-gaps.ts`), of any value. */
  function withGaps(schema: Schema): Schema {
    if (!schema.properties || typeof schema.properties !== 'object') return schema;
    const members = gapsBySignature.get(signature(schema.properties));
    if (!members) return schema;
    return { ...schema, properties: { ...(schema.properties as Schema), ...Object.fromEntries(members.map((m) => [m, {}])) } };
  }

  let ajv: Ajv2020 | undefined;
  const validators = new Map<string, ValidateFunction | null>();

  function checker(): Ajv2020 {
    if (ajv) return ajv;
    const composed = composedComponents();
    const components = Object.fromEntries(
      Object.entries(doc.components?.schemas ?? {}).map(([name, schema]) => [name, composed.has(name) || DOCUMENT_GAPS[name]?.open ? schema : closed(schema)]),
    );
    ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, validateSchema: false });
    addFormats(ajv);
    ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas: components } });
    return ajv;
  }

  function validator(template: string, method: string, status: string, operation: Operation): ValidateFunction | null {
    const key = `${method} ${template} ${status}`;
    if (!validators.has(key)) {
      const schema = operation.responses[status]?.content?.['application/json']?.schema;
      const compiled = schema
        ? checker().compile(closed(rebase(schema)) as Schema)
        : null;
      validators.set(key, compiled);
    }
    return validators.get(key) ?? null;
  }

  /** Points the document's `#/components/…` references at the registered document. */
  function rebase(node: Json): Json {
    if (Array.isArray(node)) return node.map(rebase);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node as Schema).map(([key, value]) => [
        key,
        key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${DOCUMENT_ID}${value}` : rebase(value),
      ]),
    );
  }

  function explain(errors: ErrorObject[] | null | undefined): string {
    return (errors ?? [])
      .slice(0, 8)
      .map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''}${e.params && 'unevaluatedProperty' in e.params ? ` '${String(e.params.unevaluatedProperty)}'` : ''}`)
      .join('; ');
  }

  /**
   * What the document does not describe in an answer (`undefined` when it describes it all):
   * the route, the status, or the JSON body. `url` may be absolute or carry a query.
   */
  function contractProblem(method: string, url: string, status: number, body: Json): string | undefined {
    const pathname = new URL(url, 'http://localhost').pathname;
    const found = findOperation(method, pathname);
    const route = `${method.toUpperCase()} ${pathname}`;
    if (!found) return `${route}: no operation of the OpenAPI document answers it`;
    const { template, operation } = found;
    const statusKey = String(status);
    if (!operation.responses[statusKey]) {
      return `${route} (${operation.operationId}): status ${status} is not among the document's answers (${Object.keys(operation.responses).join(', ')})`;
    }
    const validate = validator(template, method.toUpperCase(), statusKey, operation);
    if (!validate) return undefined;
    if (validate(body)) return undefined;
    return `${route} (${operation.operationId}) ${status}: ${explain(validate.errors)}`;
  }

  return { findOperation, contractProblem };
}
