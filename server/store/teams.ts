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

export const teamsOfAccount = (db: Db, accountId: number) => stmt(db, 'SELECT * FROM teams WHERE account_id = ? ORDER BY id').all(accountId) as TeamRecordRow[];

/** The account's team with this (lowercased) name, if any: names are unique per account. */
export const teamIdNamed = (db: Db, accountId: number, name: string) => (stmt(db, 'SELECT id FROM teams WHERE account_id = ? AND name = ?').get(accountId, name) as { id: number } | undefined)?.id;

export const insertTeam = (db: Db, accountId: number, t: { name: string; description: string; allowAutoAssign: boolean }, now: number) =>
  Number(
    stmt(db, 'INSERT INTO teams (account_id, name, description, allow_auto_assign, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(accountId, t.name, t.description, t.allowAutoAssign ? 1 : 0, now, now)
      .lastInsertRowid,
  );

/** Renames a team; a description or auto-assignment left undefined stays. */
export const updateTeam = (db: Db, id: number, t: { name: string; description?: string | undefined; allowAutoAssign?: boolean | undefined }, now: number) =>
  stmt(db, 'UPDATE teams SET name = ?, description = COALESCE(?, description), allow_auto_assign = COALESCE(?, allow_auto_assign), updated_at = ? WHERE id = ?').run(
    t.name,
    t.description ?? null,
    t.allowAutoAssign === undefined ? null : t.allowAutoAssign ? 1 : 0,
    now,
    id,
  );

/** Deletes a team: its conversations keep no team, its members leave it. */
export function deleteTeam(db: Db, id: number) {
  db.transaction(() => {
    stmt(db, 'UPDATE conversations SET team_id = NULL WHERE team_id = ?').run(id);
    stmt(db, 'DELETE FROM team_members WHERE team_id = ?').run(id);
    stmt(db, 'DELETE FROM teams WHERE id = ?').run(id);
  })();
}

export const teamMemberIds = (db: Db, teamId: number) => (stmt(db, 'SELECT user_id FROM team_members WHERE team_id = ?').all(teamId) as { user_id: number }[]).map((r) => r.user_id);

export const addTeamMembers = (db: Db, teamId: number, userIds: number[]) =>
  db.transaction(() => userIds.forEach((id) => stmt(db, 'INSERT INTO team_members (team_id, user_id) VALUES (?, ?)').run(teamId, id)))();

/** The team's members become exactly these. */
export function setTeamMembers(db: Db, teamId: number, userIds: number[]) {
  db.transaction(() => {
    stmt(db, 'DELETE FROM team_members WHERE team_id = ?').run(teamId);
    userIds.forEach((id) => stmt(db, 'INSERT INTO team_members (team_id, user_id) VALUES (?, ?)').run(teamId, id));
  })();
}

export const removeTeamMembers = (db: Db, teamId: number, userIds: number[]) =>
  db.transaction(() => userIds.forEach((id) => stmt(db, 'DELETE FROM team_members WHERE team_id = ? AND user_id = ?').run(teamId, id)))();
