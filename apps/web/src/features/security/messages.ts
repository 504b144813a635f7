import { formatDateTime } from '../../lib/format-date-time.js';

export const SECURITY = {
  title: 'Security',
  subtitle: 'Where your account is signed in, and what happened to it',
  devicesTitle: 'Devices',
  devicesLoading: 'Loading devices...',
  devicesFailed: 'Failed to load devices',
  thisDevice: 'This device',
  signOut: 'Sign out',
  signOutLabel: (device: string) => `Sign out ${device}`,
  signOutFailed: 'Failed to sign out the device',
  signOutEverywhere: 'Sign out everywhere else',
  signOutEverywhereTitle: 'Sign out everywhere else?',
  signOutEverywhereBody:
    'Every other device signed in to your account will be signed out at once. This device stays signed in.',
  cancel: 'Cancel',
  onlyThisDevice: 'Your account is signed in on this device only.',
  activityTitle: 'Recent activity',
  activityLoading: 'Loading activity...',
  activityFailed: 'Failed to load activity',
  activityEmpty: 'No activity in the last 90 days.',
  showMore: 'Show more',
  notHere: 'Sessions are managed by your identity provider.',
} as const;

/** Rows of activity per "Show more". */
export const ACTIVITY_PAGE_SIZE = 20;

/** "Chrome 131 on Windows 10". */
export const deviceName = (device: { browser: string; os: string }) => `${device.browser} on ${device.os}`;

export { formatDateTime };

/** "Signed in Nov 23, 2026, 2:05 PM · Last active Nov 23, 2026, 3:10 PM · 127.0.0.1". */
export const sessionLine = (session: { createdAt: string; lastActiveAt: string; ipAddress: string | null }) =>
  [
    `Signed in ${formatDateTime(session.createdAt)}`,
    `Last active ${formatDateTime(session.lastActiveAt)}`,
    session.ipAddress,
  ]
    .filter(Boolean)
    .join(' · ');
