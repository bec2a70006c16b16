import { Box, TableCell } from '@mui/material';
import type { UserLoad } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';
import { AvailabilityDot } from './availability-dot';

/**
 * The users table's 'Carga' cell (admins): open tickets over capacity ('2/5', '2/∞' when
 * unlimited) and a status dot with its words: 'Disponível', 'Ausente' or 'Desconectado' (no live
 * socket). Empty while the load is loading.
 */
export function UserLoadCell({ load }: { load: UserLoad | undefined }) {
  const { t } = useTranslation();
  if (!load) return <TableCell />;
  const status = load.online ? t(`users.load.${load.availability}`) : t('users.load.offline');
  const max = load.maxOpenTickets === 0 ? '∞' : String(load.maxOpenTickets);
  return (
    <TableCell data-testid={`user-load-${load.id}`}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, whiteSpace: 'nowrap' }}>
        <AvailabilityDot availability={load.availability} live={load.online} />
        <span>
          {t('users.load.value', { open: load.openTickets, max })}
          <Box component="span" sx={{ color: 'text.secondary', ml: 1 }}>
            {status}
          </Box>
        </span>
      </Box>
    </TableCell>
  );
}
