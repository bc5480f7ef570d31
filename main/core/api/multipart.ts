// A multipart/form-data request body, encoded as browsers (and so Chatwoot's dashboard) encode it,
// then handed to fetch as a stream of known length, so main can say
// how much of it has gone (`onProgress`) while it goes. The length is sent as Content-Length (no
// chunked encoding, which some proxies in front of real installations refuse).
import { randomBytes } from 'node:crypto';

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

/**
 * A name in a part's header as browsers write it (WHATWG multipart/form-data encoding): `"`, CR and
 * LF percent-encoded, so no name can end its quotes or start a header of its own.
 */
const headerName = (name: string) => name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** Field values go with their line breaks normalised to CRLF, as browsers send them. */
const fieldValue = (value: string) => value.replace(/\r\n|\r|\n/g, '\r\n');

/**
 * The form's bytes. Encoded here rather than by the platform's FormData: where a DOM's globals are
 * about (the renderer tests run main in one), its FormData and Blob are not the ones fetch reads.
 */
export function formBytes(form: MultipartForm, boundary: string): Uint8Array {
  const parts: Buffer[] = [];
  const head = (disposition: string, type?: string) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`, 'utf8');
  for (const [name, value] of form.fields) parts.push(head(`name="${headerName(name)}"`), Buffer.from(`${fieldValue(value)}\r\n`, 'utf8'));
  for (const f of form.files) {
    parts.push(head(`name="${headerName(f.field)}"; filename="${headerName(f.name)}"`, f.type || 'application/octet-stream'), Buffer.from(f.data), Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return new Uint8Array(Buffer.concat(parts));
}

export async function encodeForm(form: MultipartForm, onProgress?: (sent: number, total: number) => void): Promise<EncodedForm> {
  // A boundary no file can hold by chance (and the service reads parts by it).
  const boundary = `----AgentInboxFormBoundary${randomBytes(16).toString('hex')}`;
  const bytes = formBytes(form, boundary);
  const contentType = `multipart/form-data; boundary=${boundary}`;
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
