// Teams (teams; their members are team_members).
import type { Db } from '../db/open';
import { stmt } from '../db/open';

export interface TeamRow {
  id: number;
  account_id: number;
  name: string;
  description: string;
  allow_auto_assign: number;
}

export const teamById = (db: Db, id: number) => stmt(db, 'SELECT * FROM teams WHERE id = ?').get(id) as TeamRow | undefined;

export const isTeamMember = (db: Db, teamId: number, userId: number) => Boolean(stmt(db, 'SELECT 1 FROM team_members WHERE team_id = ? AND user_id = ?').get(teamId, userId));

/** A team with its timestamps (the raw model the reference renders for a team assignment). */
export type TeamRecordRow = TeamRow & { created_at: number; updated_at: number | null };

export const teamInAccount = (db: Db, accountId: number, id: number) => stmt(db, 'SELECT * FROM teams WHERE id = ? AND account_id = ?').get(id, accountId) as TeamRecordRow | undefined;
