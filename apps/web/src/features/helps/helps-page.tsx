import { Box, Card, CardActionArea, CardContent, CardMedia, Dialog, Stack, Typography } from '@mui/material';
import type { Help } from '@zapdesk/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { helpThumbnailUrl, helpVideoUrl, useHelpsList } from './use-helps';

/** The modal that plays a help video in the embedded player; Escape or a click outside closes it. */
export function HelpVideoModal({ help, onClose }: { help: Help | null; onClose: () => void }) {
  return (
    <Dialog open={help !== null} onClose={onClose} maxWidth="md" fullWidth aria-label={help?.title}>
      {help && (
        <Box sx={{ position: 'relative', pt: '56.25%' }} data-testid="help-video-modal">
          <Box
            component="iframe"
            src={helpVideoUrl(help.video)}
            title={help.title}
            data-testid="help-video-frame"
            allow="autoplay; encrypted-media; picture-in-picture"
            allowFullScreen
            referrerPolicy="strict-origin-when-cross-origin"
            sx={{ position: 'absolute', inset: 0, width: '100%', height: '100%', border: 0 }}
          />
        </Box>
      )}
    </Dialog>
  );
}

/** /helps (document 2 section 2): a grid of video cards; a click opens the video modal. */
export function HelpsPage() {
  const { t } = useTranslation();
  const list = useHelpsList();
  const [playing, setPlaying] = useState<Help | null>(null);
  const helps = list.data ?? [];
  return (
    <Stack spacing={2} data-testid="helps-page">
      <Typography variant="h5" component="h1">
        {t('helps.title')}
      </Typography>
      {list.isSuccess && helps.length === 0 && (
        <Typography color="text.secondary">{t('helps.empty')}</Typography>
      )}
      <Box
        data-testid="helps-grid"
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))' }}
      >
        {helps.map((help) => (
          <Card key={help.id} variant="outlined">
            <CardActionArea onClick={() => setPlaying(help)} data-testid={`help-card-${help.id}`}>
              <CardMedia component="img" height={146} image={helpThumbnailUrl(help.video)} alt="" />
              <CardContent>
                <Typography variant="subtitle1">{help.title}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {help.description}
                </Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Box>
      <HelpVideoModal help={playing} onClose={() => setPlaying(null)} />
    </Stack>
  );
}
