// A multipart/form-data request body, encoded by the platform's own FormData (the encoding browsers
// and Chatwoot's dashboard send), then handed to fetch as a stream of known length, so main can say
// how much of it has gone (`onProgress`) while it goes. The length is sent as Content-Length (no
// chunked encoding, which some proxies in front of real installations refuse).
export interface FormFile {
  field: string;
  name: string;
  type: string;
  data: Uint8Array;
}

export interface MultipartForm {
  fields: readonly (readonly [string, string])[];
  files: readonly FormFile[];
}

export interface EncodedForm {
  body: ReadableStream<Uint8Array>;
  length: number;
  contentType: string;
}

const CHUNK = 64 * 1024;
/** Progress is told at most this many times per body (plus the end), whatever its size. */
const STEPS = 50;

export async function encodeForm(form: MultipartForm, onProgress?: (sent: number, total: number) => void): Promise<EncodedForm> {
  const data = new FormData();
  for (const [name, value] of form.fields) data.append(name, value);
  for (const f of form.files) data.append(f.field, new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
  const encoded = new Request('http://form.invalid/', { method: 'POST', body: data });
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  const contentType = encoded.headers.get('content-type') ?? 'multipart/form-data';
  const total = bytes.byteLength;
  let sent = 0;
  let told = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) {
        controller.close();
        return;
      }
      const end = Math.min(total, sent + CHUNK);
      controller.enqueue(bytes.subarray(sent, end));
      sent = end;
      if (onProgress && (sent === total || sent - told >= total / STEPS)) {
        told = sent;
        onProgress(sent, total);
      }
    },
  });
  return { body, length: total, contentType };
}
