// Sending what the composer holds: through the write path (actions/), so the message shows at
// once as pending, the draft goes in the same commit that queues it, and the outbox delivers it
// exactly once (the service does not deduplicate).
import { MAX_MESSAGE_LENGTH } from '../../../shared/bridge/calls/message-limits';
import type { Performed } from '../actions/perform';
import type { ActionContext } from '../actions/agent-actions';
import { sendMessage } from '../actions/agent-actions';
import type { ComposerMode, QueuedFile } from '../db/schema';

export interface OutgoingMessage {
  conversationId: number;
  text: string;
  mode: ComposerMode;
  /** Files that go with it (the text is then their caption, and may be blank). */
  files?: readonly QueuedFile[];
}

/** Why this text cannot be sent, or undefined when it can. */
export function sendProblem(text: string, fileCount = 0): string | undefined {
  if (!text.trim() && fileCount === 0) return 'Write something first.';
  if (text.length > MAX_MESSAGE_LENGTH) return `A message holds at most ${MAX_MESSAGE_LENGTH.toLocaleString()} characters; this one has ${text.length.toLocaleString()}.`;
  return undefined;
}

/** Queues the message (and drops its draft) in one commit. Rejects, sending nothing, if the cache refuses the write. */
export async function sendComposedMessage(ctx: ActionContext, message: OutgoingMessage): Promise<Performed> {
  const problem = sendProblem(message.text, message.files?.length ?? 0);
  if (problem) throw new Error(problem);
  return sendMessage(ctx, message.conversationId, message.text, message.mode === 'note', message.files);
}
