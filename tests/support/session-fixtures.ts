// Users for session tests: one in two accounts (the account picker), provisioned the way the
// service's own seed does it.
import { addToAccount, createUser } from '../../server/store/provision';
import type { DemoService } from './demo-service';

let n = 0;
export function multiAccountUser(svc: DemoService, name = 'Morgan Multi') {
  const email = `multi${Date.now()}-${n++}@acme.example`;
  const user = createUser(svc.db, { name, email }, Date.now());
  addToAccount(svc.db, svc.creds.accountId, user.id, 'agent', Date.now() - 1000);
  addToAccount(svc.db, svc.creds.otherAccountId, user.id, 'administrator', Date.now());
  return { ...user, email };
}

export function singleAccountUser(svc: DemoService, name = 'Sam Single') {
  const email = `single${Date.now()}-${n++}@acme.example`;
  const user = createUser(svc.db, { name, email }, Date.now());
  addToAccount(svc.db, svc.creds.accountId, user.id, 'agent', Date.now());
  return { ...user, email };
}
