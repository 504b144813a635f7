import Bowser from 'bowser';

/** What a member is shown of a browser: its family and major version, and its operating system. */
export interface DeviceSummary {
  browser: string;
  os: string;
}

const UNKNOWN: DeviceSummary = { browser: 'Unknown browser', os: 'Unknown system' };

/** Summarises a User-Agent header ("Chrome 131", "Windows 10"); a missing or odd one is "Unknown". */
export function summariseUserAgent(userAgent: string | undefined): DeviceSummary {
  if (!userAgent || userAgent.length > 1024) return UNKNOWN;
  const { browser, os } = Bowser.parse(userAgent);
  const major = browser.version?.split('.')[0];
  const osVersion = os.versionName ?? os.version?.split('.').slice(0, 2).join('.');
  return {
    browser: browser.name ? `${browser.name}${major ? ` ${major}` : ''}` : UNKNOWN.browser,
    os: os.name ? `${os.name}${osVersion ? ` ${osVersion}` : ''}` : UNKNOWN.os,
  };
}
