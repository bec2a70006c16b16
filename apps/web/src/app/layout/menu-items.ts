/**
 * The side menu of core section 2, as data: every link with its role and plan condition.
 * `buildMenu` is pure so the conditions are tested without rendering.
 */

import type { SvgIconComponent } from '@mui/icons-material';
import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import AllInclusive from '@mui/icons-material/AllInclusive';
import AnnouncementOutlined from '@mui/icons-material/AnnouncementOutlined';
import AssessmentOutlined from '@mui/icons-material/AssessmentOutlined';
import AttachFile from '@mui/icons-material/AttachFile';
import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import Shapes from '@mui/icons-material/Category';
import ChecklistRtl from '@mui/icons-material/ChecklistRtl';
import CodeRounded from '@mui/icons-material/CodeRounded';
import ContactPhoneOutlined from '@mui/icons-material/ContactPhoneOutlined';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import DeviceHubOutlined from '@mui/icons-material/DeviceHubOutlined';
import EventAvailable from '@mui/icons-material/EventAvailable';
import FlashOn from '@mui/icons-material/FlashOn';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import HelpOutline from '@mui/icons-material/HelpOutline';
import ListAlt from '@mui/icons-material/ListAlt';
import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import MonetizationOnOutlined from '@mui/icons-material/MonetizationOnOutlined';
import PeopleAltOutlined from '@mui/icons-material/PeopleAltOutlined';
import PeopleOutline from '@mui/icons-material/PeopleOutline';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import SyncAlt from '@mui/icons-material/SyncAlt';
import ViewKanbanOutlined from '@mui/icons-material/ViewKanbanOutlined';
import WhatsApp from '@mui/icons-material/WhatsApp';
import { can, type PlanFlag, type SessionUser } from '@zapdesk/shared';

export interface MenuLink {
  kind: 'link';
  to: string;
  /** i18n key of the label (also the page title of the placeholder page). */
  labelKey: string;
  icon: SvgIconComponent;
  /** Where a status badge goes: connection warnings, unread internal chat. */
  badge?: 'connections' | 'chats';
}

export interface MenuGroup {
  kind: 'group';
  id: 'campaigns' | 'flows';
  labelKey: string;
  icon: SvgIconComponent;
  children: MenuLink[];
}

export type MenuEntry = MenuLink | MenuGroup;

const link = (to: string, labelKey: string, icon: SvgIconComponent, badge?: MenuLink['badge']): MenuLink => ({
  kind: 'link',
  to,
  labelKey,
  icon,
  ...(badge ? { badge } : {}),
});

/** Campaign submenu entries (shown for admins when the plan allows campaigns or `cshow` is set). */
export const CAMPAIGN_LINKS: MenuLink[] = [
  link('/campaigns', 'menu.campaignsList', ListAlt),
  link('/contact-lists', 'menu.contactLists', PeopleOutline),
  link('/campaigns-config', 'menu.campaignsConfig', SettingsOutlined),
];

/** Flows submenu entries (admins). */
export const FLOW_LINKS: MenuLink[] = [
  link('/phrase-lists', 'menu.phraseLists', CampaignOutlined),
  link('/flowbuilders', 'menu.flowbuilders', ForumOutlined),
];

export interface MenuOptions {
  /** The local-storage flag `cshow` is set. */
  cshow: boolean;
}

/**
 * The menu entries the user may see, in display order (core section 2 "Side menu"). The spec's role
 * and plan conditions apply; besides, the administration links (connections, files, queues, users,
 * messages API, invoices, plans, settings, prompts, integrations) are for admins only, as the
 * permission drawer-admin-items:view says. The reports (next to the dashboard) are for admins whose
 * plan has useReports, as their API.
 */
export function buildMenu(user: SessionUser, { cshow }: MenuOptions): MenuEntry[] {
  const plan = user.company.plan;
  const has = (flag: PlanFlag) => plan?.[flag] === true;
  const admin = can(user.profile, 'drawer-admin-items:view');
  const entries: (MenuEntry | false)[] = [
    can(user.profile, 'dashboard:view') && link('/', 'menu.dashboard', DashboardOutlined),
    admin && has('useReports') && link('/reports', 'menu.reports', AssessmentOutlined),
    link('/tickets', 'menu.tickets', WhatsApp),
    has('useKanban') && link('/kanban', 'menu.kanban', ViewKanbanOutlined),
    link('/quick-messages', 'menu.quickMessages', FlashOn),
    link('/todolist', 'menu.todolist', ChecklistRtl),
    link('/contacts', 'menu.contacts', ContactPhoneOutlined),
    has('useSchedules') && link('/schedules', 'menu.schedules', EventAvailable),
    link('/tags', 'menu.tags', LocalOfferOutlined),
    has('useInternalChat') && link('/chats', 'menu.chats', ForumOutlined, 'chats'),
    link('/helps', 'menu.helps', HelpOutline),
    admin &&
      (has('useCampaigns') || cshow) && {
        kind: 'group',
        id: 'campaigns',
        labelKey: 'menu.campaigns',
        icon: CampaignOutlined,
        children: CAMPAIGN_LINKS,
      },
    admin && {
      kind: 'group',
      id: 'flows',
      labelKey: 'menu.flows',
      icon: AccountTreeOutlined,
      children: FLOW_LINKS,
    },
    user.super && link('/announcements', 'menu.announcements', AnnouncementOutlined),
    // Administration links: admins only (permission drawer-admin-items:view).
    admin && has('useOpenAi') && link('/prompts', 'menu.prompts', AllInclusive),
    admin && has('useIntegrations') && link('/queue-integration', 'menu.queueIntegration', DeviceHubOutlined),
    admin && link('/connections', 'menu.connections', SyncAlt, 'connections'),
    admin && link('/files', 'menu.files', AttachFile),
    admin && link('/queues', 'menu.queues', Shapes),
    admin && link('/users', 'menu.users', PeopleAltOutlined),
    admin && has('useExternalApi') && link('/messages-api', 'menu.messagesApi', CodeRounded),
    admin && link('/financeiro', 'menu.financeiro', MonetizationOnOutlined),
    admin && link('/planos', 'menu.planos', ReceiptLongOutlined),
    admin && link('/settings', 'menu.settings', SettingsOutlined),
  ];
  return entries.filter((e): e is MenuEntry => e !== false);
}

/** Every path of the menu (flattened), for tests and the route table. */
export function menuPaths(entries: MenuEntry[]): string[] {
  return entries.flatMap((e) => (e.kind === 'link' ? [e.to] : e.children.map((c) => c.to)));
}
