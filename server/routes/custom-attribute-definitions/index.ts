// Custom attribute definitions (chatwoot-compat §1.15 `A/custom_attribute_definitions`; shapes of
// the reference's jbuilder): every member lists and reads them, administrators define them. The
// model and display type are the reference's enums, given as their integer or their name and
// answered as the name. The key is unique per account and model (422 `Attribute key has already
// been taken`).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { shortText } from '../../http/body';
import { invalid, notFound } from '../../http/errors';
import { parseParams } from '../../http/params';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { idParams } from '../../http/scope';
import { iso } from '../../presenters/time';
import type { CustomAttributeDefinitionRow, DefinitionFields } from '../../store/custom-attribute-definitions';
import { definitionById, definitionsOf, deleteDefinition, insertDefinition, keyTaken, updateDefinition } from '../../store/custom-attribute-definitions';
import type { RouteDeps } from '../deps';

const MODELS = ['conversation_attribute', 'contact_attribute'] as const;
const DISPLAY_TYPES = ['text', 'number', 'currency', 'percent', 'link', 'date', 'list', 'checkbox'] as const;

/** A Rails enum parameter: its name, or its integer (as a number or a digit string). */
const enumOf = (names: readonly string[]) =>
  z.union([z.enum(names as [string, ...string[]]), z.number().int(), z.string().regex(/^\d+$/)], { error: `is not one of: ${names.join(', ')}` }).transform((v, ctx) => {
    const n = typeof v === 'string' && !/^\d+$/.test(v) ? names.indexOf(v) : Number(v);
    if (n < 0 || n >= names.length) {
      ctx.addIssue({ code: 'custom', message: `is not one of: ${names.join(', ')}` });
      return z.NEVER;
    }
    return n;
  });

const fields = {
  attribute_display_name: shortText().min(1, "can't be blank"),
  attribute_key: shortText().min(1, "can't be blank"),
  attribute_model: enumOf(MODELS),
  attribute_display_type: enumOf(DISPLAY_TYPES).optional(),
  attribute_description: shortText(2000).nullish(),
  // Generated clients send `[null]` for an empty list.
  attribute_values: z
    .array(z.union([shortText(), z.null()]))
    .max(500)
    .transform((values) => values.filter((v): v is string => v !== null))
    .optional(),
  default_value: z.union([shortText(), z.number(), z.boolean(), z.null()]).transform((v) => (v === null ? null : String(v))).optional(),
  regex_pattern: shortText().nullish(),
  regex_cue: shortText().nullish(),
};
const createBody = z.object(fields);
const updateBody = z.object(fields).partial();
const listQuery = z.object({ attribute_model: enumOf(MODELS).optional() });

function present(row: CustomAttributeDefinitionRow) {
  return {
    id: row.id,
    attribute_display_name: row.attribute_display_name,
    attribute_display_type: DISPLAY_TYPES[row.attribute_display_type],
    attribute_description: row.attribute_description,
    attribute_key: row.attribute_key,
    regex_pattern: row.regex_pattern,
    regex_cue: row.regex_cue,
    attribute_values: JSON.parse(row.attribute_values) as string[],
    attribute_model: MODELS[row.attribute_model],
    default_value: row.default_value,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function customAttributeDefinitionRoutes(deps: RouteDeps) {
  const { db } = deps;
  const path = '/custom_attribute_definitions';
  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();
    const admin = { access: 'administrator' as const, wrap: 'custom_attribute_definition' };
    const byId = (accountId: number, params: unknown) => {
      const row = definitionById(db, accountId, parseParams(idParams, params, 'path parameter').id);
      if (!row) throw notFound();
      return row;
    };
    const save = (accountId: number, f: DefinitionFields, selfId?: number) => {
      if (keyTaken(db, accountId, f.attribute_model, f.attribute_key, selfId)) throw invalid('Attribute key has already been taken', ['attribute_key']);
    };

    app.get(path, { schema: { querystring: listQuery } }, async (request) => definitionsOf(db, request.caller.accountId, request.query.attribute_model).map(present));

    app.get(`${path}/:id`, { schema: { params: idParams } }, async (request) => present(byId(request.caller.accountId, request.params)));

    app.post(path, { config: admin, schema: { body: createBody } }, async (request) => {
      const b = request.body;
      const f: DefinitionFields = {
        attribute_model: b.attribute_model,
        attribute_key: b.attribute_key,
        attribute_display_name: b.attribute_display_name,
        attribute_display_type: b.attribute_display_type ?? 0,
        attribute_description: b.attribute_description ?? null,
        attribute_values: b.attribute_values ?? [],
        default_value: b.default_value ?? null,
        regex_pattern: b.regex_pattern ?? null,
        regex_cue: b.regex_cue ?? null,
      };
      save(request.caller.accountId, f);
      return present(insertDefinition(db, request.caller.accountId, f, deps.clock()));
    });

    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method,
        url: `${path}/:id`,
        config: admin,
        schema: { params: idParams, body: updateBody },
        preValidation: async (request) => void byId(request.caller.accountId, request.params),
        handler: async (request) => {
          const row = byId(request.caller.accountId, request.params);
          const b = request.body;
          const f: DefinitionFields = {
            attribute_model: b.attribute_model ?? row.attribute_model,
            attribute_key: b.attribute_key ?? row.attribute_key,
            attribute_display_name: b.attribute_display_name ?? row.attribute_display_name,
            attribute_display_type: b.attribute_display_type ?? row.attribute_display_type,
            attribute_description: b.attribute_description === undefined ? row.attribute_description : b.attribute_description,
            attribute_values: b.attribute_values ?? (JSON.parse(row.attribute_values) as string[]),
            default_value: b.default_value === undefined ? row.default_value : b.default_value,
            regex_pattern: b.regex_pattern === undefined ? row.regex_pattern : b.regex_pattern,
            regex_cue: b.regex_cue === undefined ? row.regex_cue : b.regex_cue,
          };
          save(request.caller.accountId, f, row.id);
          return present(updateDefinition(db, row, f, deps.clock()));
        },
      });
    }

    app.delete(`${path}/:id`, { config: admin, schema: { params: idParams } }, async (request, reply) => {
      deleteDefinition(db, byId(request.caller.accountId, request.params).id);
      return reply.code(200).send();
    });
  };
}
