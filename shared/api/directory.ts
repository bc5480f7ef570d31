// Account collections the inbox reads for its filters, chips and composer: inboxes, agents,
// teams, labels and canned responses (chatwoot-compat §1.5–§1.9, §2.10–§2.13). Same rules as
// records.ts: untrusted, parsed by main, unknown keys dropped, non-essential fields fall back.
import { z } from 'zod';

export const inboxSchema = z.object({
  id: z.number(),
  name: z.string().catch(''),
  channel_type: z.string().catch(''),
});
export type Inbox = z.infer<typeof inboxSchema>;
/** `GET inboxes` wraps the list in `payload`. */
export const inboxListSchema = z.object({ payload: z.array(inboxSchema) });

export const agentSchema = z.object({
  id: z.number(),
  name: z.string().catch(''),
  available_name: z.string().nullish(),
  email: z.string().catch(''),
  role: z.string().catch('agent'),
  availability_status: z.string().catch('offline'),
});
export type Agent = z.infer<typeof agentSchema>;
/** Agents, teams and canned responses come as bare arrays (spec: "no pagination and no meta"). */
export const agentListSchema = z.array(agentSchema);

export const teamSchema = z.object({
  id: z.number(),
  name: z.string().catch(''),
  description: z.string().nullable().catch(''),
  is_member: z.boolean().catch(false),
});
export type Team = z.infer<typeof teamSchema>;
export const teamListSchema = z.array(teamSchema);

export const labelSchema = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string().nullable().catch(''),
  color: z.string().nullable().catch(''),
  show_on_sidebar: z.boolean().catch(true),
});
export type Label = z.infer<typeof labelSchema>;
export const labelListSchema = z.object({ payload: z.array(labelSchema) });

export const cannedResponseSchema = z.object({
  id: z.number(),
  short_code: z.string(),
  content: z.string().catch(''),
});
export type CannedResponse = z.infer<typeof cannedResponseSchema>;
export const cannedResponseListSchema = z.array(cannedResponseSchema);
