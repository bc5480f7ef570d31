// Identity verification's hash (spec: Identity verification), as a client's own server computes it.
import { createHmac } from 'node:crypto';

export const hmacHex = (key: string, identifier: string) => createHmac('sha256', key).update(identifier).digest('hex');
