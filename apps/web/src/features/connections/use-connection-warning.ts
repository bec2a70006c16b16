/**
 * The /connections menu warning (core section 2 "Side menu"): MENU_BADGE_CHECK_MS (2000 ms) after
 * mount the connections list is fetched (GET /whatsapp?session=0, silently); the warning is on while
 * any connection is in qrcode, PAIRING, DISCONNECTED, TIMEOUT or OPENING. The list shares its cache
 * with the /connections page, so the socket events keep the badge live.
 */
import { MENU_BADGE_CHECK_MS } from '@zapdesk/shared';
import { useEffect, useState } from 'react';
import { hasConnectionWarning } from './connections-cache';
import { useConnections } from './use-connections';

export function useConnectionWarning(): boolean {
  const [checked, setChecked] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setChecked(true), MENU_BADGE_CHECK_MS);
    return () => clearTimeout(timer);
  }, []);
  const list = useConnections({ enabled: checked, silent: true });
  return checked && hasConnectionWarning(list.data);
}
