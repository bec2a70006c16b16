import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Mic from '@mui/icons-material/Mic';
import Stop from '@mui/icons-material/Stop';
import UploadFile from '@mui/icons-material/UploadFile';
import {
  Alert,
  Box,
  Button,
  ButtonGroup,
  Chip,
  CircularProgress,
  IconButton,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiError } from '../../../lib/api';
import { API_BASE } from '../../../lib/config';
import { recordingToFile, useAudioRecorder } from '../../ticket-view/audio-recorder';
import { useMediaUrl } from '../../ticket-view/media';
import {
  contentData,
  contentElements,
  contentProblem,
  nextElementNumber,
  readVariables,
  UPLOAD_RULES,
  uploadProblem,
} from '../flow-graph';
import { type ContentElement, FLOW_LIMITS } from '../flow-types';
import { uploadFlowMedia } from '../use-flows';
import { NodeDialogFrame, type NodeDialogProps, submitDelay } from './node-dialog';

type MediaKind = keyof typeof UPLOAD_RULES;
const ELEMENT_TYPES: ContentElement['type'][] = ['message', 'interval', 'img', 'audio', 'video'];
const isMedia = (type: ContentElement['type']): type is MediaKind =>
  type === 'img' || type === 'audio' || type === 'video';

/**
 * Compresses an image in the browser at quality 0.7 (document 3 section 5) with
 * browser-image-compression, in this thread (its worker would load the library from a CDN).
 */
export async function compressImage(file: File): Promise<File> {
  const { default: imageCompression } = await import('browser-image-compression');
  const compressed = await imageCompression(file, {
    initialQuality: FLOW_LIMITS.imageQuality,
    useWebWorker: false,
    alwaysKeepResolution: true,
  });
  return new File([compressed], file.name, { type: compressed.type || file.type });
}

/** A preview of an uploaded image element: the stored file, fetched with the session (`/public/{name}`). */
function ImagePreview({ name, alt }: { name: string; alt: string }) {
  const { src } = useMediaUrl(`${API_BASE}/public/${encodeURIComponent(name)}`);
  if (!src) return null;
  return (
    <Box
      component="img"
      src={src}
      alt={alt}
      data-testid="content-image-preview"
      sx={{ display: 'block', maxWidth: '100%', maxHeight: 200, borderRadius: 1, mt: 1 }}
    />
  );
}

/**
 * Records an audio element on the spot (the `record` flag, document 3 section 3): the microphone
 * until 'stop', then `onRecorded` with the recording as an mp3 file (or the browser's own format).
 */
function RecordAudioButton({ testId, onRecorded }: { testId: string; onRecorded: (file: File) => void }) {
  const { t } = useTranslation();
  const recorder = useAudioRecorder();
  const start = () =>
    void recorder.start().catch(() => {
      recorder.cancel();
      toast.error(t('flows.content.recordFailed'));
    });
  const stop = async () => onRecorded(await recordingToFile(await recorder.stop()));
  return recorder.recording ? (
    <Button
      color="error"
      variant="outlined"
      startIcon={<Stop />}
      onClick={() => void stop()}
      data-testid={`${testId}-stop`}
    >
      {t('flows.content.stopRecording', { seconds: recorder.seconds })}
    </Button>
  ) : (
    <Button variant="outlined" startIcon={<Mic />} onClick={start} data-testid={testId}>
      {t('flows.content.record')}
    </Button>
  );
}

/**
 * Content (singleBlock) node dialog (document 3 sections 2, 3 and 5): an ordered sequence of text,
 * interval, image, audio and video elements, each movable and removable. Files upload when chosen
 * (images compressed first) within the spec's limits, with an uploading state; saving refuses empty
 * texts ('Campos de mensagem vazio!'), intervals of 0 or over 120 s and empty media cards ('Delete
 * os cards vazios(Imagem, Audio e Video)'). An uploaded image shows its preview; an audio element is
 * chosen from a file or recorded on the spot (`record` true).
 */
export function ContentDialog({ data, onSave, onClose }: NodeDialogProps<Record<string, unknown>>) {
  const { t } = useTranslation();
  const [elements, setElements] = useState<ContentElement[]>(() => (data ? contentElements(data) : []));
  const [uploading, setUploading] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // The question nodes' answer variables, offered as {{name}} placeholders (document 3 section 3).
  const [variables] = useState(readVariables);

  const add = (type: ContentElement['type']) =>
    setElements((list) => [
      ...list,
      {
        type,
        number: nextElementNumber(list, type),
        value: '',
        ...(type === 'audio' ? { record: true } : {}),
      },
    ]);
  const update = (number: string, patch: Partial<ContentElement>) =>
    setElements((list) => list.map((e) => (e.number === number ? { ...e, ...patch } : e)));
  const move = (index: number, by: -1 | 1) =>
    setElements((list) => {
      const next = [...list];
      const [item] = next.splice(index, 1);
      if (item) next.splice(index + by, 0, item);
      return next;
    });

  const upload = async (element: ContentElement, kind: MediaKind, file: File, recorded = false) => {
    const refused = uploadProblem(kind, file);
    if (refused) {
      toast.error(
        'tooLarge' in refused
          ? t('flows.validation.fileTooLarge', { max: refused.tooLarge })
          : t('flows.validation.fileType', { types: UPLOAD_RULES[kind].extensions.join(', ') }),
      );
      return;
    }
    setUploading((n) => n + 1);
    try {
      const body = kind === 'img' ? await compressImage(file) : file;
      const stored = await uploadFlowMedia(kind, body);
      update(element.number, {
        value: stored,
        original: file.name,
        ...(kind === 'audio' ? { record: recorded } : {}),
      });
    } catch (err) {
      const limit = err instanceof ApiError ? Number(err.body?.limit) : Number.NaN;
      if (err instanceof ApiError && err.code === 'ERR_PAYLOAD_TOO_LARGE' && limit > 0)
        toast.error(t('flows.validation.fileTooLarge', { max: Math.round(limit / (1024 * 1024)) }));
      else if (err instanceof ApiError && err.code === 'ERR_UNSUPPORTED_MEDIA_TYPE')
        toast.error(t('flows.validation.fileType', { types: UPLOAD_RULES[kind].extensions.join(', ') }));
      else toast.error(t('flows.toasts.uploadFailed'));
    } finally {
      setUploading((n) => n - 1);
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = elements.length === 0 ? 'emptyContent' : contentProblem(elements);
    setProblem(found);
    if (found) return;
    setPending(true);
    await submitDelay();
    if (!data) toast.success(t('flows.toasts.contentAdded'));
    onSave(contentData(elements));
  };

  return (
    <NodeDialogFrame
      kind="content"
      editing={!!data}
      onClose={onClose}
      onSubmit={onSubmit}
      pending={pending || uploading > 0}
      maxWidth="md"
    >
      <Stack spacing={2}>
        {elements.map((element, index) => (
          <Paper
            key={element.number}
            variant="outlined"
            sx={{ p: 1.5 }}
            data-testid={`content-${element.number}`}
          >
            <Stack direction="row" alignItems="center" spacing={1} sx={{ mb: 1 }}>
              <Typography variant="subtitle2" sx={{ flex: 1 }}>
                {t(`flows.content.${element.type}`)}
              </Typography>
              <IconButton
                size="small"
                aria-label={t('flows.content.up')}
                disabled={index === 0}
                onClick={() => move(index, -1)}
              >
                <ArrowUpward fontSize="small" />
              </IconButton>
              <IconButton
                size="small"
                aria-label={t('flows.content.down')}
                disabled={index === elements.length - 1}
                onClick={() => move(index, 1)}
              >
                <ArrowDownward fontSize="small" />
              </IconButton>
              <IconButton
                size="small"
                aria-label={t('flows.content.remove')}
                data-testid={`content-remove-${element.number}`}
                onClick={() => setElements((list) => list.filter((e) => e.number !== element.number))}
              >
                <DeleteOutline fontSize="small" />
              </IconButton>
            </Stack>
            {element.type === 'message' && (
              <TextField
                fullWidth
                multiline
                minRows={2}
                value={element.value}
                onChange={(e) => update(element.number, { value: e.target.value })}
                placeholder={t('flows.content.messagePlaceholder')}
                slotProps={{
                  htmlInput: { maxLength: 4000, 'data-testid': `content-input-${element.number}` },
                }}
              />
            )}
            {element.type === 'message' && variables.length > 0 && (
              <Stack direction="row" spacing={0.5} sx={{ mt: 1, flexWrap: 'wrap' }} useFlexGap>
                {variables.map((name) => (
                  <Chip
                    key={name}
                    size="small"
                    label={`{{${name}}}`}
                    onClick={() => update(element.number, { value: `${element.value}{{${name}}}` })}
                  />
                ))}
              </Stack>
            )}
            {element.type === 'interval' && (
              <TextField
                type="number"
                label={t('flows.dialogs.interval.sec')}
                value={element.value}
                onChange={(e) => update(element.number, { value: e.target.value })}
                slotProps={{
                  htmlInput: {
                    min: 1,
                    max: FLOW_LIMITS.intervalMaxSec,
                    'data-testid': `content-input-${element.number}`,
                  },
                }}
              />
            )}
            {isMedia(element.type) && (
              <Stack direction="row" spacing={2} alignItems="center">
                <Button component="label" variant="outlined" startIcon={<UploadFile />}>
                  {t('flows.content.choose')}
                  <input
                    hidden
                    type="file"
                    accept={UPLOAD_RULES[element.type].accept}
                    data-testid={`content-file-${element.number}`}
                    onChange={(e) => {
                      const file = e.target.files?.[0];
                      e.target.value = '';
                      if (file) void upload(element, element.type as MediaKind, file);
                    }}
                  />
                </Button>
                {element.type === 'audio' && (
                  <RecordAudioButton
                    testId={`content-record-${element.number}`}
                    onRecorded={(file) => void upload(element, 'audio', file, true)}
                  />
                )}
                <Typography variant="body2" color="text.secondary" noWrap>
                  {element.original ?? (element.value || t('flows.content.noFile'))}
                </Typography>
              </Stack>
            )}
            {element.type === 'img' && element.value && (
              <ImagePreview name={element.value} alt={element.original ?? element.value} />
            )}
          </Paper>
        ))}
        {uploading > 0 && (
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }} data-testid="content-uploading">
            <CircularProgress size={18} />
            <Typography variant="body2">{t('flows.content.uploading')}</Typography>
          </Box>
        )}
        {problem && (
          <Alert severity="error" data-testid="content-problem">
            {t(`flows.validation.${problem}`)}
          </Alert>
        )}
        <ButtonGroup variant="outlined" sx={{ flexWrap: 'wrap' }}>
          {ELEMENT_TYPES.map((type) => (
            <Button key={type} data-testid={`content-add-${type}`} onClick={() => add(type)}>
              {t(`flows.content.${type}`)}
            </Button>
          ))}
        </ButtonGroup>
      </Stack>
    </NodeDialogFrame>
  );
}
