// The agent bot record of `A/agent_bots` and an inbox's `agent_bot` (chatwoot-compat §1.15, §0):
// the slim fields plus its account, and its access token for administrators (the reference shows
// an account bot's token to those who manage it; no one else ever sees it).
import type { Db } from '../db/open';
import type { AccountScope } from '../http/auth';
import type { BotRow } from '../store/agent-bots';
import { agentBotToken } from '../store/agent-bots';
import { agentBotSlim } from './people';

export function agentBotRecord(db: Db, bot: BotRow, viewer: AccountScope) {
  const ownBot = bot.account_id === viewer.accountId;
  return {
    ...agentBotSlim(bot),
    bot_config: {},
    account_id: bot.account_id,
    system_bot: bot.account_id === null,
    ...(ownBot && viewer.role === 'administrator' ? { access_token: agentBotToken(db, bot.id) } : {}),
  };
}
