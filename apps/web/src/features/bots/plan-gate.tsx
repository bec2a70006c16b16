import type { PlanFlag } from '@zapdesk/shared';
import { usePlanGateRedirect } from '../common/plan-gate';
import { usePlanFlag } from './use-bots';

/**
 * Plan gating of the prompts and integrations pages (document 2 section 2): without the flag, an
 * error toast that the company has no permission, then a redirect to / after 1 second.
 * @returns whether the page may show.
 */
export function usePlanGate(flag: PlanFlag): boolean {
  const allowed = usePlanFlag(flag);
  usePlanGateRedirect(allowed);
  return allowed;
}
