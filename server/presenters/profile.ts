// The signed-in user's profile (chatwoot-compat §1.1, §2.9): the user, the access token and every
// account with its membership; `account_id` and `role` are those of the most recently active one.
import { json } from '../db/open';
import type { MembershipRow, UserRow } from '../store/users';
import { availableName } from './people';
import { iso } from './time';

export function profileShape(user: UserRow, accounts: MembershipRow[], accessToken: string) {
  const active = accounts[0];
  return {
    access_token: accessToken,
    account_id: active?.id ?? null,
    available_name: availableName(user),
    avatar_url: '',
    confirmed: true,
    display_name: user.display_name,
    message_signature: user.message_signature,
    email: user.email,
    id: user.id,
    inviter_id: null,
    name: user.name,
    provider: 'email',
    pubsub_token: user.pubsub_token,
    role: active?.role ?? null,
    ui_settings: json.parse(user.ui_settings),
    uid: user.email,
    type: null,
    accounts: accounts.map((a) => ({
      id: a.id,
      name: a.name,
      status: a.status,
      active_at: iso(a.active_at),
      role: a.role,
      permissions: [a.role],
      availability: a.availability,
      availability_status: a.availability,
      auto_offline: a.auto_offline === 1,
    })),
  };
}
