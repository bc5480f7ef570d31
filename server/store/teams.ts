// Teams (teams; their members are team_members).
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { TeamRow } from '../presenters/people';

/** A team with its timestamps (the raw model the reference renders for a team assignment). */
export type TeamRecordRow = TeamRow & { created_at: number; updated_at: number | null };

export const teamInAccount = (db: Db, accountId: number, id: number) => stmt(db, 'SELECT * FROM teams WHERE id = ? AND account_id = ?').get(id, accountId) as TeamRecordRow | undefined;
