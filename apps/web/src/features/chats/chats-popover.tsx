import ForumIcon from '@mui/icons-material/Forum';
import { Badge, IconButton } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCurrentUser } from '../auth/session-context';
import { countLabel } from '../common/count-label';
import { LazyTooltip } from '../common/lazy-tooltip';
import { unreadsOf, useChatsList, useFlatChats } from './use-chats';

/** The popover and its list (MUI Popover, List), loaded when it first opens. */
const ChatsPopoverList = lazy(() =>
  import('./chats-popover-list').then((m) => ({ default: m.ChatsPopoverList })),
);

/** Whether the signed-in user's company plan has internal chat. */
export function useInternalChatEnabled(): boolean {
  return useCurrentUser().company.plan?.useInternalChat === true;
}

/** The caller's loaded chats and how many of them have unread messages for the caller. */
export function useUnreadChats(enabled: boolean) {
  const me = useCurrentUser();
  const list = useChatsList(enabled);
  const chats = useFlatChats(list.data);
  return { chats, unread: chats.filter((c) => unreadsOf(c, me.id) > 0).length, list };
}

/**
 * The top bar's internal chats popover (core section 2 "Top bar"): the caller's chats, latest first,
 * with their unread counts; the button's badge counts the chats with unread messages. Shown when the
 * plan has internal chat.
 */
export function ChatsPopover() {
  const enabled = useInternalChatEnabled();
  return enabled ? <ChatsPopoverButton /> : null;
}

function ChatsPopoverButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const me = useCurrentUser();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [used, setUsed] = useState(false);
  const { chats, unread } = useUnreadChats(true);

  return (
    <>
      <LazyTooltip title={t('chat.popover.title')}>
        <IconButton
          color="inherit"
          aria-label={countLabel(t('chat.popover.title'), unread)}
          data-testid="chats-popover-button"
          onClick={(e) => {
            setAnchor(e.currentTarget);
            setUsed(true);
          }}
        >
          <Badge badgeContent={unread} color="secondary" data-testid="chats-popover-count">
            <ForumIcon />
          </Badge>
        </IconButton>
      </LazyTooltip>
      {used && (
        <Suspense fallback={null}>
          <ChatsPopoverList
            anchor={anchor}
            chats={chats}
            meId={me.id}
            onClose={() => setAnchor(null)}
            onOpen={(chat) => {
              setAnchor(null);
              navigate(`/chats/${chat.uuid}`);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
