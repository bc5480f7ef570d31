// Query and path parameters, parsed with zod. A malformed parameter is a 400 {error}; it never
// reaches SQL and never becomes a 5xx.
import { z } from 'zod';
import { badRequest } from './errors';

/** A positive integer given as a decimal string (path and query parameters are strings). */
export const intString = z
  .union([z.string(), z.number()])
  .transform((v) => String(v))
  .refine((v) => /^\d{1,15}$/.test(v), 'must be a positive integer')
  .transform(Number)
  .refine((n) => Number.isSafeInteger(n) && n > 0, 'must be a positive integer');

/** A malformed path or query parameter as the spec's 400 `{error}`. */
export function malformedParameter(error: z.ZodError, what: string) {
  const issue = error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return badRequest(`Invalid ${what}: ${where}${issue?.message ?? 'malformed'}`);
}

export function parseParams<T extends z.ZodType>(schema: T, value: unknown, what = 'parameter'): z.output<T> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw malformedParameter(result.error, what);
}

/** `labels[]=a&labels[]=b`, `labels=a`, or `labels=a,b` all mean the same list. */
export function listParam(query: Record<string, unknown>, name: string): string[] | undefined {
  const raw = query[`${name}[]`] ?? query[name];
  if (raw === undefined) return undefined;
  const values = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => String(v).split(','));
  return values.map((v) => v.trim()).filter(Boolean);
}

