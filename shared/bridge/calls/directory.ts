// Account directory reads: the collections behind the list filters, the chips and the composer
// (inboxes, agents, teams, labels, canned responses). None of them is paginated on the service.
import { z } from 'zod';
import { agentListSchema, cannedResponseListSchema, inboxListSchema, labelListSchema, teamListSchema } from '../../api/directory';

const none = z.object({});

export const directoryCalls = {
  'inboxes.list': { input: none, output: inboxListSchema },
  'agents.list': { input: none, output: agentListSchema },
  'teams.list': { input: none, output: teamListSchema },
  'labels.list': { input: none, output: labelListSchema },
  'cannedResponses.list': { input: z.object({ search: z.string().trim().max(500).optional() }), output: cannedResponseListSchema },
} as const;
