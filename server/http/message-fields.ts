// Message and typing input shared by the Client and Widget families: a wrong type is a 400 (zod),
// a value the reference service rejects is a 422 {message, attributes}.
import { z } from 'zod';
import { invalid } from './errors';

export const messageBody = z.object({ content: z.string().nullish(), echo_id: z.string().max(255).nullish() });
const MAX_CONTENT = 150_000;

/** Content rules shared by the Client and Widget message creates (422 {message, attributes}). */
export function messageContent(content: string | null | undefined): string {
  if (content == null || content.trim() === '') throw invalid("Content can't be blank", ['content']);
  if (content.length > MAX_CONTENT) throw invalid(`Content is too long (maximum is ${MAX_CONTENT} characters)`, ['content']);
  return content;
}

/** `on` / `off`, anything else is a validation failure. */
export function typingStatus(value: string | null | undefined): 'on' | 'off' {
  if (value === 'on' || value === 'off') return value;
  throw invalid('Typing status is not included in the list', ['typing_status']);
}
