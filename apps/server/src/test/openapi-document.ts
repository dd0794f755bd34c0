import { z } from 'zod';

/** The parts of JSON Schema the document's request and error schemas use. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

interface RawParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

interface RawOperation {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: RawParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, unknown>;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, RawOperation>>;
  components: {
    securitySchemes?: Record<string, { type: string; scheme?: string }>;
    schemas?: Record<string, JsonSchema>;
    responses?: Record<string, unknown>;
  };
}

export interface DocumentOperation {
  /** GET, POST, PUT, PATCH, DELETE */
  method: string;
  /** As in the document, under /v1: `/meeting/{id}` */
  path: string;
  operationId: string;
  /** undefined when the operation states no security at all (the document would be wrong). */
  security: Record<string, string[]>[] | undefined;
  /** Needs a token: some security requirement names a scheme. */
  isProtected: boolean;
  pathParams: RawParameter[];
  queryParams: RawParameter[];
  /** The JSON body schema, references resolved; null when the call takes no body. */
  body: JsonSchema | null;
  /** Error statuses (4xx, 5xx) the operation declares. */
  errorStatuses: number[];
}

export async function fetchDocument(baseUrl: string): Promise<OpenApiDocument> {
  const response = await fetch(`${baseUrl}/v1/openapi.json`);
  if (!response.ok) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
  return (await response.json()) as OpenApiDocument;
}

/** Replaces every local `$ref` (`#/components/...`) by what it names. */
export function resolveRefs<T>(document: OpenApiDocument, node: T, depth = 0): T {
  if (depth > 50) throw new Error('openapi: $ref nesting too deep (a cycle?)');
  if (Array.isArray(node)) return node.map((item: unknown) => resolveRefs(document, item, depth + 1)) as T;
  if (!node || typeof node !== 'object') return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    const target = ref
      .replace(/^#\//, '')
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], document);
    if (target === undefined) throw new Error(`openapi: unresolved ${ref}`);
    return resolveRefs(document, target as T, depth + 1);
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolveRefs(document, value, depth + 1)])) as T;
}

export function operationsOf(document: OpenApiDocument): DocumentOperation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, raw]) => {
      const parameters = resolveRefs(document, raw.parameters ?? []);
      const body = raw.requestBody?.content?.['application/json']?.schema;
      return {
        method: method.toUpperCase(),
        path,
        operationId: raw.operationId ?? `${method} ${path}`,
        security: raw.security,
        isProtected: (raw.security ?? []).some((requirement) => Object.keys(requirement).length > 0),
        pathParams: parameters.filter((p) => p.in === 'path'),
        queryParams: parameters.filter((p) => p.in === 'query'),
        body: body ? resolveRefs(document, body) : null,
        errorStatuses: Object.keys(raw.responses ?? {})
          .map(Number)
          .filter((status) => status >= 400),
      };
    }),
  );
}

const validators = new Map<string, z.ZodType>();

/**
 * The zod validator of the JSON body the document declares for `status` of this operation (built from
 * the document itself, so a body that differs from what the document says fails), or null if the
 * operation does not declare the status.
 */
export function declaredErrorSchema(document: OpenApiDocument, operation: DocumentOperation, status: number): z.ZodType | null {
  const key = `${operation.method} ${operation.path} ${status}`;
  const cached = validators.get(key);
  if (cached) return cached;
  const response = document.paths[operation.path]?.[operation.method.toLowerCase()]?.responses?.[String(status)];
  if (!response) return null;
  const resolved = resolveRefs(document, response) as { content?: Record<string, { schema?: JsonSchema }> };
  const schema = resolved.content?.['application/json']?.schema;
  if (!schema) throw new Error(`openapi: ${key} declares no JSON body`);
  const validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  validators.set(key, validator);
  return validator;
}

/** Fills `{name}` path parameters, percent-encoded. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(values[name] ?? ''));
}

/** What a one-character escape stands for in an example: `\w` a letter, `\d` a digit, `\.` a dot. */
const ESCAPE_EXAMPLES: Record<string, string> = { w: 'a', d: '0', s: ' ' };

/** A string matching simple patterns made of literals, escapes, (groups) and [classes] with {n}, +, * or ? counts. */
export function fromPattern(pattern: string): string {
  let out = '';
  const source = pattern.replace(/^\^/, '').replace(/\$$/, '');
  for (let i = 0; i < source.length; ) {
    // A group's parentheses add nothing to an example (groups with counts of their own are not taught).
    if (source[i] === '(' || source[i] === ')') {
      i += source.startsWith('(?:', i) ? 3 : 1;
      continue;
    }
    let unit: string;
    if (source[i] === '[') {
      const end = source.indexOf(']', i);
      unit = source[i + 1] === '\\' ? (ESCAPE_EXAMPLES[source[i + 2]!] ?? source[i + 2]!) : source[i + 1]!;
      i = end + 1;
    } else if (source[i] === '\\') {
      unit = ESCAPE_EXAMPLES[source[i + 1]!] ?? source[i + 1]!;
      i += 2;
    } else {
      unit = source[i]!;
      i += 1;
    }
    const count = /^\{(\d+)(?:,\d*)?\}/.exec(source.slice(i));
    if (count) i += count[0].length;
    else if ('+*?'.includes(source[i] ?? '')) i += 1;
    out += unit.repeat(count ? Number(count[1]) : 1);
  }
  if (!new RegExp(pattern).test(out)) throw new Error(`openapi: cannot build an example of /${pattern}/; teach fromPattern`);
  return out;
}

export function types(schema: JsonSchema): string[] {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return alternatives.flatMap(types);
  if (schema.type) return Array.isArray(schema.type) ? schema.type : [schema.type];
  if (schema.enum) return [...new Set(schema.enum.map((v) => (v === null ? 'null' : typeof v)))];
  if (schema.const !== undefined) return [typeof schema.const];
  return [];
}

/** The smallest value the schema accepts. */
export function validValue(schema: JsonSchema): unknown {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return validValue(alternatives[0]!);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  switch (types(schema)[0]) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((key) => [key, validValue(schema.properties?.[key] ?? {})]));
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => validValue(schema.items ?? {}));
    case 'string':
      if (schema.format === 'email') return 'fuzz@example.com';
      // zod's ISO date pattern (leap days and all) is beyond fromPattern; any real day will do.
      if (schema.format === 'date') return '2026-01-01';
      if (schema.pattern) return fromPattern(schema.pattern);
      return 'a'.repeat(Math.max(schema.minLength ?? 1, 1));
    case 'integer':
    case 'number': {
      const minimum = schema.minimum ?? 0;
      return schema.multipleOf ? Math.ceil(minimum / schema.multipleOf) * schema.multipleOf : minimum;
    }
    case 'boolean':
      return false;
    default:
      return null;
  }
}
