// Runs an operation of a real n8n community node (a declarative node: its description says, per
// operation, the method, the URL and which parameter goes where) through n8n's own routing engine,
// `RoutingNode` from n8n-workflow, with n8n's expression evaluator. What n8n-core would add
// around it (the execution context and the HTTP helper) is the small stand-in below: n8n-core
// itself pulls in langchain, Sentry and native modules, and the current n8n-workflow needs
// `isolated-vm`, which does not build on Node 20. n8n-workflow 1.70 is the last release that
// still holds RoutingNode and installs here.
import { createRequire } from 'node:module';

// The few n8n shapes used here, declared locally: n8n-workflow's own type declarations reach into
// TypeScript sources of its dependencies that do not typecheck under this project's settings.
interface HttpRequestOptions {
  url: string;
  baseURL?: string;
  method?: string;
  qs?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, unknown>;
}
interface NodeProperty {
  name: string;
  type: string;
  displayOptions?: { show?: Record<string, unknown[]> };
  options?: unknown[];
}
export interface NodeTypeLike {
  description: { name: string; displayName: string; credentials?: { name: string }[]; properties: NodeProperty[] };
}
export interface CredentialTypeLike {
  name: string;
  authenticate?: unknown;
}
interface WorkflowNode {
  name: string;
  parameters: Record<string, unknown>;
}
interface WorkflowLike {
  getNode(name: string): WorkflowNode | null;
  expression: { getParameterValue(value: unknown, ...rest: unknown[]): unknown };
}
interface N8nWorkflowModule {
  Workflow: new (p: { nodes: unknown[]; connections: object; active: boolean; nodeTypes: object }) => WorkflowLike;
  RoutingNode: new (
    workflow: WorkflowLike,
    node: WorkflowNode,
    connectionInputData: unknown[],
    runExecutionData: unknown,
    additionalData: unknown,
    mode: string,
  ) => { runNode(inputData: unknown, runIndex: number, nodeType: NodeTypeLike, executeData: unknown, functions: unknown): Promise<unknown> };
}

// n8n-workflow's package.json sends `import` to its TypeScript sources, which it does not ship:
// load its CommonJS build.
const { RoutingNode, Workflow } = createRequire(import.meta.url)('n8n-workflow') as N8nWorkflowModule;

export interface NodeCallResult {
  status: number;
  body: unknown;
  /** What the node sent, for failure messages. */
  sent: { method: string; url: string; body?: unknown };
}

/** What n8n-core's httpRequest does with a request: baseURL + url, qs as the query string, a JSON body. */
async function send(options: HttpRequestOptions): Promise<NodeCallResult> {
  const base = (options.baseURL ?? '').replace(/\/+$/, '');
  const url = new URL(options.url.startsWith('http') ? options.url : `${base}/${options.url.replace(/^\/+/, '')}`);
  for (const [key, value] of Object.entries(options.qs ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) url.searchParams.append(`${key}[]`, String(v));
    else url.searchParams.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const method = (options.method ?? 'GET').toUpperCase();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(options.headers ?? {})) if (v !== undefined) headers[k] = String(v);
  // n8n drops an empty body on GET and HEAD, and sends JSON otherwise.
  const hasBody = !['GET', 'HEAD'].includes(method) && options.body !== undefined;
  const body = hasBody ? JSON.stringify(options.body) : undefined;
  const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? '' : JSON.parse(text);
  } catch {
    /* a non-JSON answer stays text */
  }
  return { status: res.status, body: parsed, sent: { method, url: url.pathname + url.search, ...(hasBody ? { body: options.body } : {}) } };
}

/**
 * Runs one operation of `nodeType` with `parameters` (the operation's own fields, as a user fills
 * them in; the rest keep the node's defaults, as in n8n). Returns the HTTP answer, success or not.
 */
export async function runNodeOperation(
  nodeType: NodeTypeLike,
  credentialType: CredentialTypeLike,
  credentials: Record<string, string>,
  parameters: Record<string, unknown>,
): Promise<NodeCallResult> {
  const nodeTypes = {
    getByName: () => nodeType,
    getByNameAndVersion: () => nodeType,
    getKnownTypes: () => ({}),
  };
  const credName = nodeType.description.credentials?.[0]?.name ?? credentialType.name;
  const draft = {
    id: 'node-1',
    name: nodeType.description.displayName,
    type: nodeType.description.name,
    typeVersion: 1,
    position: [0, 0],
    parameters,
    credentials: { [credName]: { id: '1', name: 'test' } },
  };
  const workflow = new Workflow({ nodes: [draft], connections: {}, active: false, nodeTypes });
  const node = workflow.getNode(draft.name)!;
  const items = [{ json: {} }];
  const inputData = { main: [items] };
  const executeData = { node, data: inputData, source: null };
  const runExecutionData = { resultData: { runData: {} } };
  const resolve = (value: unknown, extra: Record<string, unknown> = {}) => workflow.expression.getParameterValue(value, runExecutionData, 0, 0, node.name, items, 'manual', extra, executeData);
  const getNodeParameter = (name: string, _item?: number, fallback?: unknown) => {
    const value = name.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), node.parameters);
    return resolve(value === undefined ? fallback : value);
  };
  let answer: NodeCallResult | undefined;
  const helpers = {
    // The credential's `authenticate` block (generic: headers from expressions over $credentials).
    async httpRequestWithAuthentication(_type: string, options: HttpRequestOptions) {
      const auth = credentialType.authenticate as { properties?: { headers?: Record<string, string> } } | undefined;
      const headers = { ...(options.headers ?? {}) };
      for (const [k, v] of Object.entries(auth?.properties?.headers ?? {})) headers[k] = String(resolve(v, { $credentials: credentials }));
      answer = await send({ ...options, headers });
      if (answer.status >= 400) throw Object.assign(new Error(`HTTP ${answer.status}`), { statusCode: answer.status });
      return { body: answer.body, headers: {}, statusCode: answer.status };
    },
  };
  const context = {
    getNodeParameter,
    getCredentials: async () => credentials,
    getExecuteData: () => executeData,
    getNode: () => node,
    continueOnFail: () => false,
    helpers,
  };
  const functions = { getExecuteFunctions: () => context, getExecuteSingleFunctions: () => context };
  const routing = new RoutingNode(workflow, node, items, runExecutionData, {}, 'manual');
  try {
    await routing.runNode(inputData, 0, nodeType, executeData, functions);
  } catch (err) {
    if (!answer) throw err;
  }
  if (!answer) throw new Error('the node sent no request');
  return answer;
}

/** Every (resource, operation) pair a declarative node offers, with the method and URL it declares. */
export function operationsOf(nodeType: NodeTypeLike): { resource: string; operation: string; method: string; url: string }[] {
  const out: { resource: string; operation: string; method: string; url: string }[] = [];
  for (const p of nodeType.description.properties) {
    if (p.name !== 'operation' || p.type !== 'options') continue;
    const resource = (p.displayOptions?.show?.resource as string[] | undefined)?.[0] ?? '';
    for (const o of (p.options ?? []) as { value: string; routing?: { request?: { method?: string; url?: string } } }[]) {
      out.push({ resource, operation: o.value, method: o.routing?.request?.method ?? '', url: o.routing?.request?.url ?? '' });
    }
  }
  return out;
}
