import { CAMPAIGN_EDIT_LEAD_MS, type Campaign } from './campaign-types';

/**
 * Whether the dialog may save `campaign` (document 2 section 4): INATIVA, PROGRAMADA more than one
 * hour before scheduledAt, or CANCELADA (which can still be saved and restarted). `now` in ms.
 */
export function isCampaignEditable(
  campaign: Pick<Campaign, 'status' | 'scheduledAt'>,
  now: number = Date.now(),
): boolean {
  if (campaign.status === 'INATIVA' || campaign.status === 'CANCELADA') return true;
  if (campaign.status !== 'PROGRAMADA' || !campaign.scheduledAt) return false;
  return new Date(campaign.scheduledAt).getTime() - now > CAMPAIGN_EDIT_LEAD_MS;
}
