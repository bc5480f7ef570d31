// Route schemas written once in zod: Fastify validates a route's `params`, `querystring` and `body`
// with them, and its handler gets their output types (a Fastify type provider). Failures have the
// spec's shapes: a malformed path or query parameter is 400 `{error}`, a body that fails
// validation is 422 `{message, attributes}`.
//
// Why not fastify-type-provider-zod: its zod 4 releases (5.x to 7.x) declare no Node engines, and
// every one of them requires @fastify/swagger and openapi-types as peers (npm installs both, unused
// here); its validation errors are Fastify's 400s, which we would remap anyway. What is needed is
// the compiler below and the provider's two type lines.
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchemaCompiler,
  FastifyTypeProvider,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { z } from 'zod';
import { invalidParameters } from './body';
import { malformedParameter } from './params';

export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data ?? {});
    if (result.success) return { value: result.data };
    const error = httpPart === 'body' ? invalidParameters(result.error) : malformedParameter(result.error, httpPart === 'params' ? 'path parameter' : 'query parameter');
    return { error };
  };

/** Every route schema of the app is a zod schema. */
export function useZodSchemas(app: FastifyInstance) {
  app.setValidatorCompiler(zodValidatorCompiler);
}

/** A plugin's scope typed by its routes' zod schemas: `app.withTypeProvider<ZodTypeProvider>()`. */
export type ZodApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;
