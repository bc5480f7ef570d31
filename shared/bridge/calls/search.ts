// The service's search across conversations, contacts and messages. The renderer searches its
// own cache first and merges these results in when the service answers.
import { z } from 'zod';
import { searchResultsSchema } from '../../api/search';

export const searchInputSchema = z.object({
  q: z.string().trim().min(1, 'Type something to search for').max(200),
  page: z.number().int().min(1).max(100).default(1),
});

export const searchCalls = {
  'search.all': { input: searchInputSchema, output: searchResultsSchema },
} as const;
