import { Alert, Box, LinearProgress, List, ListItem, ListItemText, Typography } from '@mui/material';
import type { ContactImportResult } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';
import { InfoDialog } from '../common/info-dialog';

/** Shown while the sheet is sent and imported (an indeterminate bar). */
export function ImportProgress() {
  const { t } = useTranslation();
  return (
    <Box data-testid="import-progress" sx={{ width: '100%' }}>
      <Typography variant="body2" color="text.secondary">
        {t('contacts.import.processing')}
      </Typography>
      <LinearProgress aria-label={t('contacts.import.processing')} />
    </Box>
  );
}

/**
 * The import result (core section 2 "Contacts page"): the new contacts (contactId, contactName) and
 * the error bag, one line per failing row with its contact name and translated error.
 */
export function ImportResultDialog({
  result,
  onClose,
}: {
  result: ContactImportResult | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <InfoDialog
      open={result !== null}
      onClose={onClose}
      title={t('contacts.import.resultTitle')}
      maxWidth="sm"
      dividers
      contentTestId="import-result"
    >
      {result && (
        <>
          <Typography variant="subtitle2" data-testid="import-result-new-count">
            {t('contacts.import.newContacts', { count: result.newContacts.length })}
          </Typography>
          <List dense sx={{ maxHeight: 240, overflow: 'auto' }}>
            {result.newContacts.slice(0, 500).map((c) => (
              <ListItem key={c.contactId} data-testid={`import-new-${c.contactId}`}>
                <ListItemText primary={c.contactName} secondary={`#${c.contactId}`} />
              </ListItem>
            ))}
          </List>
          {result.newContacts.length > 500 && (
            <Typography variant="caption" color="text.secondary">
              {t('contacts.import.more', { count: result.newContacts.length - 500 })}
            </Typography>
          )}
          <Typography variant="subtitle2" sx={{ mt: 2 }}>
            {t('contacts.import.errors', { count: result.errorBag.length })}
          </Typography>
          {result.errorBag.map((e, index) => (
            <Alert
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id; the list never reorders.
              key={index}
              severity="error"
              sx={{ mt: 1 }}
              data-testid="import-error"
            >
              {e.contactName}: {t(`contacts.importErrors.${e.error}`, { defaultValue: e.error })}
            </Alert>
          ))}
        </>
      )}
    </InfoDialog>
  );
}
